#pragma once

#include "common/exception.hpp"
#include "parallel/pipeline.hpp"
#include "parallel/task_scheduler.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace sluice {

// Runs one query's pipelines on the REGULAR pool, each as parallel tasks, starting a pipeline
// when its dependencies have finished. The first error raised by any task cancels the rest and
// is rethrown by Execute once every task has drained.
class Executor {
public:
    // A pipeline runs as many tasks as its source can use, up to `max_threads`; without it, up
    // to the REGULAR pool's size, which may change while the query runs (SET threads): a
    // running pipeline then gets more tasks when its tasks next yield, and fewer threads run
    // them when the pool shrinks.
    explicit Executor(TaskScheduler& scheduler, std::optional<idx_t> max_threads = std::nullopt);
    ~Executor();

    Pipeline& AddPipeline();
    // Blocks the calling (non-worker) thread until all pipelines finish; rethrows the first error.
    void Execute();
    // Asks running tasks to stop; Execute then throws an Interrupted error.
    void Cancel();
    // Execute cancels the query at `deadline` and throws "Query exceeded maximum execution time"
    // (max_execution_time, `limit_ms` for the message). Call before Execute.
    void SetDeadline(std::chrono::steady_clock::time_point deadline, int64_t limit_ms);
    bool IsCancelled() const { return cancelled_.load(std::memory_order_relaxed); }
    // What Cancellation::Requested() reads in this executor's tasks.
    const std::atomic<bool>* cancelled_flag() const { return &cancelled_; }
    // Finished pipelines plus the running ones' source progress, over the pipeline count.
    double Progress() const;
    // Counts rows and time per pipeline stage (source, operators, sink), for EXPLAIN ANALYZE.
    // Call before Execute.
    void EnableProfiling() { profiling_ = true; }
    // One line per stage of each pipeline: name, rows out (rows in for sinks), time summed
    // over the pipeline's tasks.
    std::string ProfileReport() const;

private:
    class PipelineTask;
    struct StageProfile {
        std::atomic<uint64_t> rows{0};
        std::atomic<uint64_t> nanos{0};
    };
    struct PipelineState {
        std::unique_ptr<Pipeline> pipeline;
        std::unique_ptr<StageProfile[]> stages; // source, operators..., sink (when profiling)
        std::atomic<idx_t> running_tasks{0};
        // Tasks created so far. A task ends only when the source has nothing more for it, so
        // the ones that ended are not replaced when the pool grows.
        std::atomic<idx_t> started_tasks{0};
        std::atomic<bool> finished_early{false}; // a LIMIT or sink said no more input
        bool started = false;
        bool finished = false;
        bool sink_fed = false; // every task has combined into the sink (under mutex_)
    };

    void StartReadyPipelines(std::unique_lock<std::mutex>& lock);
    // How many tasks the pipeline should run now.
    idx_t TaskTarget(const PipelineState& state) const;
    // Called by a running task of the pipeline as it yields: adds the tasks a larger REGULAR
    // pool allows.
    void Widen(PipelineState& state);
    void OnTaskDone(PipelineState& state);
    void PushError(std::exception_ptr error);
    // Tells the sources of running pipelines to stop their background work. Under mutex_.
    void CancelSources();

    TaskScheduler& scheduler_;
    std::optional<idx_t> max_threads_;
    std::vector<std::unique_ptr<PipelineState>> pipelines_;

    mutable std::mutex mutex_;
    std::condition_variable done_;
    idx_t finished_pipelines_ = 0;
    idx_t outstanding_tasks_ = 0;
    struct ErrorCopy {
        ErrorKind kind;
        std::string message;
    };
    std::unique_ptr<ErrorCopy> error_; // the first error, rethrown by Execute
    std::atomic<bool> cancelled_{false};
    bool profiling_ = false;
    std::optional<std::chrono::steady_clock::time_point> deadline_;
    int64_t deadline_limit_ms_ = 0;
    bool deadline_passed_ = false;
};

} // namespace sluice
