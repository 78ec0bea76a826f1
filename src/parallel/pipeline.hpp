#pragma once

#include "common/data_chunk.hpp"
#include "parallel/task.hpp"

#include <memory>
#include <string>
#include <vector>

namespace sluice {

// Per-thread state of a source, operator or sink. Each pipeline task owns one of each.
class LocalState {
public:
    virtual ~LocalState() = default;
};

enum class SourceResult : uint8_t {
    HaveMoreOutput, // produced a chunk (possibly empty); call again
    Finished,       // exhausted for this task
    Blocked,        // waiting; the source has handed context.MakeWaker() to the event
};

enum class OperatorResult : uint8_t {
    NeedMoreInput,  // done with this input chunk
    HaveMoreOutput, // call again with the same input for more output
    Finished,       // no more output will ever be produced (e.g. LIMIT reached)
};

enum class SinkResult : uint8_t { NeedMoreInput, Finished };

// What a source gets to talk to the scheduler: the running task, to create a waker before
// returning Blocked.
class TaskContext {
public:
    explicit TaskContext(Task& task) : task_(task) {}
    Waker MakeWaker() { return task_.MakeWaker(); }

private:
    Task& task_;
};

class PipelineSource {
public:
    virtual ~PipelineSource() = default;
    // What EXPLAIN ANALYZE calls this stage.
    virtual std::string Name() const { return "SOURCE"; }
    virtual std::vector<LogicalType> OutputTypes() const = 0;
    virtual std::unique_ptr<LocalState> InitLocal() { return nullptr; }
    virtual SourceResult GetData(DataChunk& out, LocalState* local, TaskContext& context) = 0;
    // How many tasks may pull from this source at once.
    virtual idx_t MaxThreads() const { return 1; }
    // The position of the chunk last returned by GetData in the source's natural order, so that
    // sinks can restore that order when several tasks produce chunks concurrently. A batch's
    // chunks all come from one task, in order; batches are handed out in increasing order, so
    // that every batch below the lowest one a running task is on is complete (COPY to Parquet
    // relies on it).
    virtual idx_t BatchIndex(LocalState* /*local*/) const { return 0; }
    // Fraction done in [0, 1], or negative when unknown.
    virtual double Progress() const { return -1; }
    // No more output is wanted (a LIMIT is satisfied, a task failed, the query was interrupted):
    // stop work in the background and wake parked tasks. Must not block.
    virtual void Cancel() {}
    // Returns once no background work (I/O on the ASYNC pool) runs any more; the executor
    // calls it before the query returns, so nothing outlives it.
    virtual void StopBackgroundWork() {}
    // Extra lines for EXPLAIN ANALYZE under the source's line.
    virtual std::string ProfileDetails() const { return ""; }
    // Left out of EXPLAIN ANALYZE: a pipeline that turned out to have nothing to do (the
    // continuation of a join that did not spill).
    virtual bool HiddenFromProfile() const { return false; }
};

class PipelineOperator {
public:
    virtual ~PipelineOperator() = default;
    virtual std::string Name() const { return "OPERATOR"; }
    virtual std::vector<LogicalType> OutputTypes() const = 0;
    virtual std::unique_ptr<LocalState> InitLocal() { return nullptr; }
    virtual OperatorResult Execute(DataChunk& input, DataChunk& output, LocalState* local) = 0;
};

class PipelineSink {
public:
    virtual ~PipelineSink() = default;
    virtual std::string Name() const { return "SINK"; }
    virtual std::unique_ptr<LocalState> InitLocal() { return nullptr; }
    // `batch_index` is the source's BatchIndex of the chunk this input derives from.
    virtual SinkResult Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) = 0;
    // Merges a finished task's local state into the global state (any thread, serialised by
    // the sink itself if it needs to be).
    virtual void Combine(LocalState* /*local*/) {}
    // Runs once, after every task of the pipeline has combined.
    virtual void Finalize() {}
    // Extra lines for EXPLAIN ANALYZE under the sink's line (memory held, bytes spilled).
    virtual std::string ProfileDetails() const { return ""; }
};

// source -> operators -> sink. A pipeline starts once every pipeline it depends on is finished
// (e.g. a hash join's probe pipeline waits for its build pipeline). Several pipelines may feed
// one sink (a spilled join's continuation feeds the sink of its probe pipeline): the sink is
// finalized once, when the last of them finishes.
struct Pipeline {
    std::shared_ptr<PipelineSource> source;
    std::vector<std::shared_ptr<PipelineOperator>> operators;
    std::shared_ptr<PipelineSink> sink;
    std::vector<Pipeline*> dependencies;
    // At most this many tasks (0: no limit beyond the source's and the executor's). Operators
    // that depend on arrival order, such as LIMIT, run single-task until batch-ordered.
    idx_t max_threads = 0;
};

} // namespace sluice
