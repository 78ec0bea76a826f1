#include "formats/parquet/parquet_footer_cache.hpp"

namespace sluice::parquet {

ParquetFooterCache& ParquetFooterCache::Instance() {
    static ParquetFooterCache cache;
    return cache;
}

std::shared_ptr<const ParquetFileReader> ParquetFooterCache::Get(FileHandle& file) {
    std::string version = file.Version();
    if (version.empty()) {
        return ParquetFileReader::Open(file);
    }
    std::string key = file.path() + '\n' + std::to_string(file.Size()) + '\n' + version;
    {
        std::lock_guard<std::mutex> guard(mutex_);
        auto found = readers_.find(key);
        if (found != readers_.end()) {
            return found->second;
        }
    }
    std::shared_ptr<const ParquetFileReader> reader = ParquetFileReader::Open(file);
    std::lock_guard<std::mutex> guard(mutex_);
    if (readers_.emplace(key, reader).second) {
        order_.push_back(key);
        while (order_.size() > kCapacity) {
            readers_.erase(order_.front());
            order_.pop_front();
        }
    }
    return reader;
}

size_t ParquetFooterCache::size() const {
    std::lock_guard<std::mutex> guard(mutex_);
    return readers_.size();
}

void ParquetFooterCache::Clear() {
    std::lock_guard<std::mutex> guard(mutex_);
    readers_.clear();
    order_.clear();
}

} // namespace sluice::parquet
