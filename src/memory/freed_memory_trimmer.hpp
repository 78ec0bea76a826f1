#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace sluice {

// Returns the allocator's free pages to the system while the process holds more than it should:
// glibc keeps what a spilled hash table or a finished sort freed in its arenas, and while queries
// run under memory_limit the process's RSS would pass the limit by that much. Asked (Request)
// when reservations grow, it trims, and keeps trimming every kInterval while `too_large` says
// the process is still above its bound (the Database's says so only while queries hold memory);
// then it sleeps until asked again (an idle engine wakes nothing). Its own thread, because the trim
// must not wait behind the I/O that fills the ASYNC pool, nor delay the task that asks.
class FreedMemoryTrimmer {
public:
    explicit FreedMemoryTrimmer(std::function<bool()> too_large);
    ~FreedMemoryTrimmer();
    FreedMemoryTrimmer(const FreedMemoryTrimmer&) = delete;
    FreedMemoryTrimmer& operator=(const FreedMemoryTrimmer&) = delete;

    // Returns at once; a request made while the trimmer is awake merges into its work.
    void Request();
    // Trims done so far.
    unsigned long trims() const;

    static constexpr std::chrono::milliseconds kInterval{20};

private:
    void Loop();

    std::function<bool()> too_large_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool requested_ = false;
    bool stopping_ = false;
    unsigned long trims_ = 0;
    std::thread thread_;
};

} // namespace sluice
