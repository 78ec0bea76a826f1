#include "execution/ordered_batch_sink.hpp"

namespace sluice {

std::unique_ptr<LocalState> OrderedBatchSink::InitLocal() {
    std::unique_ptr<TaskState> task = NewTaskState();
    std::lock_guard<std::mutex> guard(mutex_);
    watermark_.Join(&task->batch);
    return task;
}

SinkResult OrderedBatchSink::Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) {
    auto& task = static_cast<TaskState&>(*local);
    if (task.active && task.batch != batch_index) {
        FinishBatch(task);
        task.active = false;
    }
    if (!task.active) {
        {
            std::lock_guard<std::mutex> guard(mutex_);
            task.active = true;
            task.batch = batch_index;
            WatermarkMoved();
        }
        AfterWatermarkMoved(false);
    }
    Append(chunk, task);
    return SinkResult::NeedMoreInput;
}

void OrderedBatchSink::Combine(LocalState* local) {
    auto& task = static_cast<TaskState&>(*local);
    if (task.active) {
        FinishBatch(task);
        task.active = false;
    }
    {
        std::lock_guard<std::mutex> guard(mutex_);
        watermark_.Leave(&task.batch);
        WatermarkMoved();
    }
    AfterWatermarkMoved(true);
}

} // namespace sluice
