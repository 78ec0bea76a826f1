#pragma once

#include "formats/parquet/parquet_reader.hpp"

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace sluice::parquet {

// Footers already read in this process, keyed by path, size and version (ETag or modification
// time): a file queried again is not asked for its footer again unless it changed. Files without
// a version are always read. Bounded: the oldest footers are dropped first. Thread-safe.
class ParquetFooterCache {
public:
    static constexpr size_t kCapacity = 4096;

    static ParquetFooterCache& Instance();

    // The file's footer: cached, or read now (ParquetFileReader::Open) and kept.
    std::shared_ptr<const ParquetFileReader> Get(FileHandle& file);
    size_t size() const;
    void Clear();

private:
    mutable std::mutex mutex_;
    std::map<std::string, std::shared_ptr<const ParquetFileReader>> readers_;
    std::deque<std::string> order_; // oldest first
};

} // namespace sluice::parquet
