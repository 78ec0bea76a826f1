#pragma once

#include "execution/batch_watermark.hpp"
#include "parallel/pipeline.hpp"

#include <memory>
#include <mutex>

namespace sluice {

// A sink that writes its input in batch order while every task feeds it (COPY to Parquet and to
// CSV): it follows which batch each task is on (BatchWatermark) and tells the sink that derives
// from it when a task's batch ends and when the watermark may have risen.
class OrderedBatchSink : public PipelineSink {
public:
    std::unique_ptr<LocalState> InitLocal() final;
    SinkResult Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) final;
    void Combine(LocalState* local) final;

protected:
    struct TaskState : LocalState {
        bool active = false;
        // The batch being sunk while active; after it, the last one sunk (the task may have
        // taken the next one from the source already: see BatchWatermark).
        idx_t batch = 0;
    };
    virtual std::unique_ptr<TaskState> NewTaskState() = 0;
    // Rows of the task's current batch.
    virtual void Append(DataChunk& chunk, TaskState& task) = 0;
    // The task's batch is complete (it moved on to another, or has no more rows).
    virtual void FinishBatch(TaskState& task) = 0;
    // The watermark may have risen (a task moved on or left): under mutex_, then after it
    // (`task_done`: the task calling has no rows left).
    virtual void WatermarkMoved() {}
    virtual void AfterWatermarkMoved(bool task_done) = 0;

    std::mutex mutex_;
    BatchWatermark watermark_;
};

} // namespace sluice
