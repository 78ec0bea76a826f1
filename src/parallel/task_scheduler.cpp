#include "parallel/task_scheduler.hpp"

#include "common/exception.hpp"

#include <algorithm>

namespace sluice {

namespace {
thread_local bool tls_is_worker = false;
thread_local TaskPool tls_pool = TaskPool::Regular;
thread_local uint32_t tls_index = 0;
thread_local TaskScheduler* tls_scheduler = nullptr;
} // namespace

Waker Task::MakeWaker() {
    return Waker(shared_from_this());
}

void Waker::Wake() const {
    if (!task_) {
        return;
    }
    uint8_t state = task_->park_state_.load(std::memory_order_acquire);
    while (true) {
        if (state == Task::kParked) {
            if (task_->park_state_.compare_exchange_weak(state, Task::kRunning,
                                                         std::memory_order_acq_rel)) {
                task_->scheduler_->Enqueue(task_);
                return;
            }
        } else if (state == Task::kRunning) {
            if (task_->park_state_.compare_exchange_weak(state, Task::kWokenEarly,
                                                         std::memory_order_acq_rel)) {
                return;
            }
        } else {
            return; // already marked; the scheduler will re-run it
        }
    }
}

uint32_t TaskScheduler::DefaultRegularThreads() {
    return std::max(1u, std::thread::hardware_concurrency());
}

uint32_t TaskScheduler::DefaultAsyncThreads(uint32_t regular_threads) {
    return std::min(4 * regular_threads, kMaxAsyncThreads);
}

TaskScheduler::TaskScheduler(uint32_t regular_threads, uint32_t async_threads) {
    SetThreadCounts(regular_threads, async_threads);
}

TaskScheduler::~TaskScheduler() {
    std::vector<std::thread> threads;
    {
        std::lock_guard<std::mutex> guard(mutex_);
        shutting_down_ = true;
        for (auto* pool : {&regular_, &async_}) {
            for (auto& thread : pool->threads) {
                threads.push_back(std::move(thread));
            }
            pool->threads.clear();
            pool->wake.notify_all();
        }
    }
    for (auto& thread : threads) {
        if (thread.joinable()) {
            thread.join();
        }
    }
}

void TaskScheduler::SetThreadCounts(uint32_t regular_threads, uint32_t async_threads) {
    if (regular_threads < 1) {
        throw Exception(ErrorKind::InvalidInput, "the REGULAR pool needs at least one thread");
    }
    if (async_threads < 1 || async_threads > kMaxAsyncThreads) {
        throw Exception(ErrorKind::InvalidInput, "the ASYNC pool needs 1 to 256 threads");
    }
    std::unique_lock<std::mutex> lock(mutex_);
    ResizePool(TaskPool::Regular, regular_threads, lock);
    ResizePool(TaskPool::Async, async_threads, lock);
}

void TaskScheduler::ResizePool(TaskPool kind, uint32_t count, std::unique_lock<std::mutex>& lock) {
    Pool& pool = PoolOf(kind);
    pool.target = count;
    (kind == TaskPool::Regular ? regular_threads_ : async_threads_).store(count);
    if (pool.threads.size() > count) {
        // Retiring threads finish their current task, see index >= target, and exit.
        std::vector<std::thread> retiring(std::make_move_iterator(pool.threads.begin() + count),
                                          std::make_move_iterator(pool.threads.end()));
        pool.threads.resize(count);
        pool.wake.notify_all();
        lock.unlock();
        for (auto& thread : retiring) {
            thread.join();
        }
        lock.lock();
    }
    while (pool.threads.size() < count) {
        auto index = static_cast<uint32_t>(pool.threads.size());
        // A starting thread counts as idle at once, so work is not handed to the other pool
        // just because this thread has not reached its first wait yet.
        pool.idle++;
        pool.threads.emplace_back([this, kind, index] { WorkerLoop(kind, index); });
    }
}

uint32_t TaskScheduler::RegularThreads() const {
    return regular_threads_.load();
}

uint32_t TaskScheduler::AsyncThreads() const {
    return async_threads_.load();
}

bool TaskScheduler::OnWorkerThread(TaskPool& pool) {
    pool = tls_pool;
    return tls_is_worker;
}

TaskScheduler* TaskScheduler::Current() {
    return tls_scheduler;
}

bool TaskScheduler::OnWorkerThread(TaskPool& pool, uint32_t& index) {
    index = tls_index;
    return OnWorkerThread(pool);
}

void TaskScheduler::Schedule(std::shared_ptr<Task> task) {
    task->scheduler_ = this;
    task->park_state_.store(Task::kRunning, std::memory_order_release);
    Enqueue(std::move(task));
}

void TaskScheduler::Enqueue(std::shared_ptr<Task> task) {
    std::lock_guard<std::mutex> guard(mutex_);
    Pool& pool = PoolOf(task->pool());
    pool.queue.push_back(std::move(task));
    if (&pool == &async_ && async_.idle == 0 && regular_.idle > 0) {
        regular_.wake.notify_one(); // no I/O thread free: let an idle compute thread help
    } else {
        pool.wake.notify_one();
    }
}

void TaskScheduler::WorkerLoop(TaskPool kind, uint32_t index) {
    tls_is_worker = true;
    tls_pool = kind;
    tls_index = index;
    tls_scheduler = this;
    Pool& own = PoolOf(kind);
    std::unique_lock<std::mutex> lock(mutex_);
    auto can_help = [&] {
        return kind == TaskPool::Regular && !async_.queue.empty() && async_.idle == 0;
    };
    while (true) {
        own.wake.wait(lock, [&] {
            return shutting_down_ || index >= own.target || !own.queue.empty() || can_help();
        });
        own.idle--;
        if (shutting_down_ || index >= own.target) {
            return;
        }
        Pool& source = own.queue.empty() ? async_ : own;
        std::shared_ptr<Task> task = std::move(source.queue.front());
        source.queue.pop_front();
        lock.unlock();
        Run(task);
        task.reset(); // drop our reference outside the lock
        lock.lock();
        own.idle++;
    }
}

void TaskScheduler::Run(const std::shared_ptr<Task>& task) {
    while (true) {
        TaskResult result;
        try {
            result = task->Execute();
        } catch (...) {
            task->OnException(std::current_exception());
            return;
        }
        if (result == TaskResult::Done) {
            return;
        }
        if (result == TaskResult::Yield) {
            task->park_state_.store(Task::kRunning, std::memory_order_release);
            Enqueue(task);
            return;
        }
        uint8_t expected = Task::kRunning;
        if (task->park_state_.compare_exchange_strong(expected, Task::kParked,
                                                      std::memory_order_acq_rel)) {
            return; // parked: the waker holds the only reference that matters now
        }
        // The waker fired while the task was still running: run it again at once.
        task->park_state_.store(Task::kRunning, std::memory_order_release);
    }
}

} // namespace sluice
