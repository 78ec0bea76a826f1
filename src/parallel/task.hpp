#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

namespace sluice {

class TaskScheduler;
class Waker;

enum class TaskPool : uint8_t {
    Regular, // compute: one thread per core
    Async,   // blocking I/O only; many threads that mostly sleep in the kernel
};

enum class TaskResult : uint8_t {
    Done,    // finished; the scheduler drops it
    Yield,   // more to do; re-queued behind other tasks so long work stays fair
    Blocked, // waiting for an event; parked until the Waker it handed out is called
};

// A unit of work for the TaskScheduler. A task that returns Blocked must first have handed a
// Waker (MakeWaker()) to whatever will signal the event; it is then parked, costing no thread,
// until the waker fires. Wake-ups may be spurious: a resumed task re-checks its condition.
class Task : public std::enable_shared_from_this<Task> {
public:
    explicit Task(TaskPool pool = TaskPool::Regular) : pool_(pool) {}
    virtual ~Task() = default;

    virtual TaskResult Execute() = 0;
    // Called when Execute throws; the task is then dropped. Every task says where its error goes
    // (the query, a batch, a scan), so that no error is ever printed and forgotten.
    virtual void OnException(std::exception_ptr error) = 0;

    TaskPool pool() const { return pool_; }
    // A waker that re-queues this task on the REGULAR pool. Only valid while scheduled.
    Waker MakeWaker();

private:
    friend class TaskScheduler;
    friend class Waker;

    // Park protocol: a waker that fires while the task is still running marks it WokenEarly,
    // and the scheduler then re-queues it instead of parking, so no wake-up is ever lost.
    enum ParkState : uint8_t { kRunning, kParked, kWokenEarly };

    TaskPool pool_;
    std::atomic<uint8_t> park_state_{kRunning};
    TaskScheduler* scheduler_ = nullptr;
};

// Resumes a parked task. Cheap to copy; may be called from any thread, any number of times.
class Waker {
public:
    Waker() = default;
    void Wake() const;
    explicit operator bool() const { return task_ != nullptr; }

private:
    friend class Task;
    explicit Waker(std::shared_ptr<Task> task) : task_(std::move(task)) {}

    std::shared_ptr<Task> task_;
};

} // namespace sluice
