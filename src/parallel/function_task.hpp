#pragma once

#include "parallel/task.hpp"

#include <exception>
#include <functional>

namespace sluice {

// A task that runs a function once on a chosen pool: a blocking I/O step on the ASYNC pool (a
// range request, opening a file), or a small piece of work on the REGULAR pool. What `work`
// throws goes to `on_error` (typically: fail the scan or query the work belongs to).
class FunctionTask : public Task {
public:
    FunctionTask(TaskPool pool, std::function<void()> work,
                 std::function<void(std::exception_ptr)> on_error)
        : Task(pool), work_(std::move(work)), on_error_(std::move(on_error)) {}
    TaskResult Execute() override {
        work_();
        return TaskResult::Done;
    }
    void OnException(std::exception_ptr error) override { on_error_(std::move(error)); }

private:
    std::function<void()> work_;
    std::function<void(std::exception_ptr)> on_error_;
};

} // namespace sluice
