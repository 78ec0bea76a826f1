#pragma once

#include <atomic>

namespace sluice {

// Whether the query the calling thread's task works for was cancelled (Ctrl-C, or an error in
// another task). The executor checks between chunks; an operator's long loop (sorting a task's
// rows) asks now and then, so that a cancelled query stops within moments.
class Cancellation {
public:
    static bool Requested() {
        const std::atomic<bool>* flag = current_;
        return flag && flag->load(std::memory_order_relaxed);
    }

    // While it lives, Requested() on this thread reads `flag` (a task running for a query).
    class Scope {
    public:
        explicit Scope(const std::atomic<bool>* flag) : previous_(current_) { current_ = flag; }
        ~Scope() { current_ = previous_; }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

    private:
        const std::atomic<bool>* previous_;
    };

private:
    static inline thread_local const std::atomic<bool>* current_ = nullptr;
};

} // namespace sluice
