#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace sluice {

// Admits background work (a job's fetches, file plans) until it is closed, and lets the closer
// wait for the work inside: an Entry leaves the gate when it goes out of scope, so no path can
// forget to.
class BackgroundGate {
public:
    class Entry {
    public:
        Entry() = default;
        Entry(Entry&& other) noexcept : gate_(other.gate_) { other.gate_ = nullptr; }
        Entry(const Entry&) = delete;
        Entry& operator=(const Entry&) = delete;
        Entry& operator=(Entry&&) = delete;
        ~Entry() {
            if (gate_) {
                gate_->Leave();
            }
        }
        // False when the gate was closed: the work must not start.
        explicit operator bool() const { return gate_ != nullptr; }

    private:
        friend class BackgroundGate;
        explicit Entry(BackgroundGate* gate) : gate_(gate) {}
        BackgroundGate* gate_ = nullptr;
    };

    Entry Enter() {
        std::lock_guard<std::mutex> guard(mutex_);
        if (closed_) {
            return Entry();
        }
        inside_++;
        return Entry(this);
    }

    // No entry after this; returns once every entry has left.
    void CloseAndWait() {
        std::unique_lock<std::mutex> lock(mutex_);
        closed_ = true;
        empty_.wait(lock, [&] { return inside_ == 0; });
    }

private:
    void Leave() {
        std::lock_guard<std::mutex> guard(mutex_);
        if (--inside_ == 0) {
            empty_.notify_all();
        }
    }

    std::mutex mutex_;
    std::condition_variable empty_;
    uint64_t inside_ = 0;
    bool closed_ = false;
};

} // namespace sluice
