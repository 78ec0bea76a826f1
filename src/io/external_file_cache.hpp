#pragma once

#include "common/byte_buffer.hpp"
#include "io/file_system.hpp"

#include <atomic>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace sluice {

// Byte ranges of remote files kept in memory across queries (enable_external_file_cache), so a
// repeated query is answered without requests. Ranges are keyed by the file's path, size and
// version (its ETag): a changed object is a different key, and its old ranges age out. A lookup
// hands out a slice of the cached buffer itself, and inserting a range drops the cached ranges
// it overlaps, so the same bytes are never held twice. Least recently used ranges are evicted
// beyond the capacity. Thread-safe.
class ExternalFileCache {
public:
    explicit ExternalFileCache(uint64_t capacity) : capacity_(capacity) {}

    void SetCapacity(uint64_t capacity);
    // Bytes [offset, offset + length) of `file` if one cached range holds all of them.
    std::optional<ByteBuffer> Lookup(const FileHandle& file, uint64_t offset, uint64_t length);
    // Keeps `bytes`, the file's range starting at `offset`. Files without a version (nothing
    // tells whether they changed) are not kept.
    void Insert(const FileHandle& file, uint64_t offset, const ByteBuffer& bytes);
    void Clear();

    uint64_t size() const;
    uint64_t hits() const { return hits_.load(); }

private:
    struct Entry {
        std::string key;
        uint64_t offset;
        ByteBuffer bytes;
    };
    using EntryList = std::list<Entry>;

    static std::string KeyOf(const FileHandle& file);
    void Erase(EntryList::iterator entry);
    void EvictBeyond(uint64_t capacity);

    mutable std::mutex mutex_;
    uint64_t capacity_;
    uint64_t size_ = 0;
    EntryList recency_; // most recently used first
    // Per file key: its cached ranges by offset (non-overlapping).
    std::unordered_map<std::string, std::map<uint64_t, EntryList::iterator>> files_;
    std::atomic<uint64_t> hits_{0};
};

} // namespace sluice
