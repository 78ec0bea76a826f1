#pragma once

#include "parallel/task.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace sluice {

// Two thread pools behind one scheduler. REGULAR threads run compute tasks; ASYNC threads run
// blocking I/O so that many requests can be in flight without stealing cores. An idle REGULAR
// thread also runs ASYNC work when no ASYNC thread is free. Idle threads sleep on condition
// variables: an idle engine uses no CPU.
class TaskScheduler {
public:
    TaskScheduler(uint32_t regular_threads, uint32_t async_threads);
    ~TaskScheduler();
    TaskScheduler(const TaskScheduler&) = delete;
    TaskScheduler& operator=(const TaskScheduler&) = delete;

    static constexpr uint32_t kMaxAsyncThreads = 256;
    static uint32_t DefaultRegularThreads();
    static uint32_t DefaultAsyncThreads(uint32_t regular_threads);

    void Schedule(std::shared_ptr<Task> task);

    // Grows or shrinks the pools. Must not be called from one of the scheduler's own threads.
    void SetThreadCounts(uint32_t regular_threads, uint32_t async_threads);
    uint32_t RegularThreads() const;
    uint32_t AsyncThreads() const;

    // True on a scheduler thread, with `pool` set to the pool it belongs to.
    static bool OnWorkerThread(TaskPool& pool);
    // The same, with the thread's index within its pool (trace lanes).
    static bool OnWorkerThread(TaskPool& pool, uint32_t& index);
    // The scheduler whose thread this is; null off the scheduler's threads.
    static TaskScheduler* Current();

private:
    friend class Waker;

    struct Pool {
        std::deque<std::shared_ptr<Task>> queue;
        std::condition_variable wake;
        std::vector<std::thread> threads;
        uint32_t target = 0; // threads with index >= target retire
        uint32_t idle = 0;   // threads not running a task (starting ones included)
    };

    void Enqueue(std::shared_ptr<Task> task);
    void WorkerLoop(TaskPool pool, uint32_t index);
    void Run(const std::shared_ptr<Task>& task);
    void ResizePool(TaskPool pool, uint32_t count, std::unique_lock<std::mutex>& lock);
    Pool& PoolOf(TaskPool pool) { return pool == TaskPool::Regular ? regular_ : async_; }

    mutable std::mutex mutex_;
    // The pools' target sizes, read without the lock (every yielding pipeline task asks).
    std::atomic<uint32_t> regular_threads_{0};
    std::atomic<uint32_t> async_threads_{0};
    Pool regular_;
    Pool async_;
    bool shutting_down_ = false;
};

} // namespace sluice
