#include "io/external_file_cache.hpp"

namespace sluice {

std::string ExternalFileCache::KeyOf(const FileHandle& file) {
    return file.path() + '\n' + std::to_string(file.Size()) + '\n' + file.Version();
}

void ExternalFileCache::SetCapacity(uint64_t capacity) {
    std::lock_guard<std::mutex> guard(mutex_);
    capacity_ = capacity;
    EvictBeyond(capacity_);
}

std::optional<ByteBuffer> ExternalFileCache::Lookup(const FileHandle& file, uint64_t offset,
                                                    uint64_t length) {
    if (file.Version().empty()) {
        return std::nullopt;
    }
    std::lock_guard<std::mutex> guard(mutex_);
    auto found = files_.find(KeyOf(file));
    if (found == files_.end()) {
        return std::nullopt;
    }
    auto& ranges = found->second;
    auto after = ranges.upper_bound(offset);
    if (after == ranges.begin()) {
        return std::nullopt;
    }
    EntryList::iterator entry = std::prev(after)->second;
    if (offset + length > entry->offset + entry->bytes.size) {
        return std::nullopt;
    }
    recency_.splice(recency_.begin(), recency_, entry);
    hits_++;
    return entry->bytes.Slice(offset - entry->offset, length);
}

void ExternalFileCache::Insert(const FileHandle& file, uint64_t offset, const ByteBuffer& bytes) {
    if (file.Version().empty() || bytes.size == 0 || bytes.size > capacity_) {
        return;
    }
    std::string key = KeyOf(file);
    std::lock_guard<std::mutex> guard(mutex_);
    auto& ranges = files_[key];
    // Drop every cached range overlapping [offset, end): the newest copy of those bytes wins.
    uint64_t end = offset + bytes.size;
    auto it = ranges.upper_bound(offset);
    if (it != ranges.begin()) {
        auto before = std::prev(it);
        if (before->first + before->second->bytes.size > offset) {
            it = before;
        }
    }
    while (it != ranges.end() && it->first < end) {
        EntryList::iterator entry = it->second;
        it = ranges.erase(it);
        size_ -= entry->bytes.size;
        recency_.erase(entry);
    }
    recency_.push_front(Entry{key, offset, bytes});
    ranges.emplace(offset, recency_.begin());
    size_ += bytes.size;
    EvictBeyond(capacity_);
}

void ExternalFileCache::Erase(EntryList::iterator entry) {
    auto file = files_.find(entry->key);
    file->second.erase(entry->offset);
    if (file->second.empty()) {
        files_.erase(file);
    }
    size_ -= entry->bytes.size;
    recency_.erase(entry);
}

void ExternalFileCache::EvictBeyond(uint64_t capacity) {
    while (size_ > capacity && !recency_.empty()) {
        Erase(std::prev(recency_.end()));
    }
}

void ExternalFileCache::Clear() {
    std::lock_guard<std::mutex> guard(mutex_);
    EvictBeyond(0);
}

uint64_t ExternalFileCache::size() const {
    std::lock_guard<std::mutex> guard(mutex_);
    return size_;
}

} // namespace sluice
