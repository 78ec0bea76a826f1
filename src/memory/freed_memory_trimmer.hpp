#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace sluice {

// Returns the allocator's free pages to the system while the process holds more than it should:
// glibc keeps what a spilled hash table or a finished sort freed in its arenas, and while queries
// run under memory_limit the process's RSS would pass the limit by that much. Asked (Request)
// when reservations grow, it trims, and keeps trimming every kInterval while `too_large` says
// the process is still above its bound (the Database's says so only while queries hold memory);
// then it sleeps until asked again (an idle engine wakes nothing). Its own thread, because the trim
// must not wait behind the I/O that fills the ASYNC pool, nor delay the task that asks.
//
// It also trims once the engine has run no statement for `idle_delay`, and releases the freed
// hash-table mappings kept for reuse (huge_page_allocator): glibc would otherwise keep what a
// finished query freed, and an idle process would hold its last query's peak. Not at each
// statement's end: a statement run right after (a loop of queries, the next notebook cell) reuses
// those pages, where returning them makes it fault in and zero them all anew (df() of TPC-H's
// lineitem spent a fifth of its time so: 330 K page faults a run).
class FreedMemoryTrimmer {
public:
    explicit FreedMemoryTrimmer(std::function<bool()> too_large,
                                std::chrono::milliseconds idle_delay = kIdleDelay);
    ~FreedMemoryTrimmer();
    FreedMemoryTrimmer(const FreedMemoryTrimmer&) = delete;
    FreedMemoryTrimmer& operator=(const FreedMemoryTrimmer&) = delete;

    // Returns at once; a request made while the trimmer is awake merges into its work.
    void Request();
    // A statement starts or ends (on any connection of the database).
    void StatementStarted();
    void StatementEnded();
    // Trims done so far: while too large, and once idle.
    unsigned long trims() const;
    unsigned long idle_trims() const;

    static constexpr std::chrono::milliseconds kInterval{20};
    static constexpr std::chrono::milliseconds kIdleDelay{1000};

private:
    void Loop();
    // Trims every kInterval while too_large_ says so (`lock` released meanwhile).
    void TrimWhileTooLarge(std::unique_lock<std::mutex>& lock);

    std::function<bool()> too_large_;
    std::chrono::milliseconds idle_delay_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool requested_ = false;
    bool stopping_ = false;
    unsigned long trims_ = 0;
    unsigned long idle_trims_ = 0;
    int statements_ = 0; // running
    // When the trim for being idle is due, if one is.
    std::optional<std::chrono::steady_clock::time_point> idle_trim_due_;
    std::thread thread_;
};

} // namespace sluice
