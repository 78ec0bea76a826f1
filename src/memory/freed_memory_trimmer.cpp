#include "memory/freed_memory_trimmer.hpp"

#include "memory/allocator.hpp"
#include "memory/huge_page_allocator.hpp"

namespace sluice {

FreedMemoryTrimmer::FreedMemoryTrimmer(std::function<bool()> too_large,
                                       std::chrono::milliseconds idle_delay)
    : too_large_(std::move(too_large)), idle_delay_(idle_delay), thread_([this] { Loop(); }) {
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

void FreedMemoryTrimmer::StatementStarted() {
    std::lock_guard<std::mutex> guard(mutex_);
    statements_++;
    idle_trim_due_.reset();
}

void FreedMemoryTrimmer::StatementEnded() {
    {
        std::lock_guard<std::mutex> guard(mutex_);
        if (--statements_ > 0) {
            return;
        }
        idle_trim_due_ = std::chrono::steady_clock::now() + idle_delay_;
    }
    wake_.notify_one();
}

unsigned long FreedMemoryTrimmer::trims() const {
    std::lock_guard<std::mutex> guard(mutex_);
    return trims_;
}

unsigned long FreedMemoryTrimmer::idle_trims() const {
    std::lock_guard<std::mutex> guard(mutex_);
    return idle_trims_;
}

void FreedMemoryTrimmer::Loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopping_) {
        if (requested_) {
            requested_ = false;
            TrimWhileTooLarge(lock);
        } else if (idle_trim_due_ && std::chrono::steady_clock::now() >= *idle_trim_due_) {
            idle_trim_due_.reset();
            lock.unlock();
            ReleaseCachedRandomAccessMemory();
            ReturnFreedMemoryToSystem();
            lock.lock();
            idle_trims_++;
        } else if (idle_trim_due_) {
            wake_.wait_until(lock, *idle_trim_due_);
        } else {
            wake_.wait(lock);
        }
    }
}

void FreedMemoryTrimmer::TrimWhileTooLarge(std::unique_lock<std::mutex>& lock) {
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
}

} // namespace sluice
