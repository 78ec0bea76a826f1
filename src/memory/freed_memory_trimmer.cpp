#include "memory/freed_memory_trimmer.hpp"

#include "memory/allocator.hpp"
#include "memory/huge_page_allocator.hpp"

namespace sluice {

FreedMemoryTrimmer::FreedMemoryTrimmer(std::function<bool()> too_large)
    : too_large_(std::move(too_large)), thread_([this] { Loop(); }) {
}

FreedMemoryTrimmer::~FreedMemoryTrimmer() {
    {
        std::lock_guard<std::mutex> guard(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
}

void FreedMemoryTrimmer::Request() {
    {
        std::lock_guard<std::mutex> guard(mutex_);
        if (requested_) {
            return;
        }
        requested_ = true;
    }
    wake_.notify_one();
}

unsigned long FreedMemoryTrimmer::trims() const {
    std::lock_guard<std::mutex> guard(mutex_);
    return trims_;
}

void FreedMemoryTrimmer::Loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
        wake_.wait(lock, [&] { return requested_ || stopping_; });
        requested_ = false;
        lock.unlock();
        bool trim = too_large_();
        while (trim) {
            ReleaseCachedRandomAccessMemory();
            ReturnFreedMemoryToSystem();
            lock.lock();
            trims_++;
            if (wake_.wait_for(lock, kInterval, [&] { return stopping_; })) {
                return;
            }
            requested_ = false; // served by this watch
            lock.unlock();
            trim = too_large_();
        }
        lock.lock();
        if (stopping_) {
            return;
        }
    }
}

} // namespace sluice
