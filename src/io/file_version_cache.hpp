#pragma once

#include "io/file_system.hpp"

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace sluice {

// What was learnt from a file (a Parquet footer, a CSV file's dialect and columns), kept for this
// process and keyed by the file's path, size and version (ETag or modification time) plus a
// variant (options that change what is learnt): a file queried again is not read again unless it
// changed. Files without a version are never cached. Bounded: the oldest entries go first.
// Thread-safe; two threads learning the same file at once both read it, one result is kept.
template <class T>
class FileVersionCache {
public:
    explicit FileVersionCache(size_t capacity) : capacity_(capacity) {}

    std::shared_ptr<const T> Get(FileHandle& file, const std::string& variant,
                                 const std::function<std::shared_ptr<const T>()>& learn) {
        std::string version = file.Version();
        if (version.empty()) {
            return learn();
        }
        std::string key =
            file.path() + '\n' + std::to_string(file.Size()) + '\n' + version + '\n' + variant;
        {
            std::lock_guard<std::mutex> guard(mutex_);
            auto found = entries_.find(key);
            if (found != entries_.end()) {
                return found->second;
            }
        }
        std::shared_ptr<const T> learnt = learn();
        std::lock_guard<std::mutex> guard(mutex_);
        auto [entry, inserted] = entries_.emplace(key, learnt);
        if (inserted) {
            order_.push_back(key);
            while (order_.size() > capacity_) {
                entries_.erase(order_.front());
                order_.pop_front();
            }
        }
        return entry->second;
    }

    size_t size() const {
        std::lock_guard<std::mutex> guard(mutex_);
        return entries_.size();
    }

    void Clear() {
        std::lock_guard<std::mutex> guard(mutex_);
        entries_.clear();
        order_.clear();
    }

private:
    const size_t capacity_;
    mutable std::mutex mutex_;
    std::map<std::string, std::shared_ptr<const T>> entries_;
    std::deque<std::string> order_; // oldest first
};

} // namespace sluice
