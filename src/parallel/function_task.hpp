#pragma once

#include "parallel/task.hpp"

#include <functional>

namespace sluice {

// A task that runs a function once on a chosen pool: a blocking I/O step on the ASYNC pool (a
// range request, opening a file), or a small piece of work on the REGULAR pool.
class FunctionTask : public Task {
public:
    FunctionTask(TaskPool pool, std::function<void()> work) : Task(pool), work_(std::move(work)) {}
    TaskResult Execute() override {
        work_();
        return TaskResult::Done;
    }

private:
    std::function<void()> work_;
};

} // namespace sluice
