#include "parallel/run_concurrently.hpp"

#include <condition_variable>
#include <mutex>

namespace sluice {

namespace {

struct Batch {
    std::mutex mutex;
    std::condition_variable done;
    size_t remaining = 0;
    std::exception_ptr error;
};

class ItemTask : public Task {
public:
    ItemTask(TaskPool pool, std::shared_ptr<Batch> batch, const std::function<void(size_t)>& work,
             size_t item)
        : Task(pool), batch_(std::move(batch)), work_(work), item_(item) {}

    TaskResult Execute() override {
        bool skip;
        {
            std::lock_guard<std::mutex> guard(batch_->mutex);
            skip = batch_->error != nullptr;
        }
        if (!skip) {
            work_(item_);
        }
        Finish(nullptr);
        return TaskResult::Done;
    }

    // The batch fails with the first item's error.
    void OnException(std::exception_ptr error) override { Finish(std::move(error)); }

private:
    void Finish(std::exception_ptr error) {
        std::lock_guard<std::mutex> guard(batch_->mutex);
        if (error && !batch_->error) {
            batch_->error = error;
        }
        if (--batch_->remaining == 0) {
            batch_->done.notify_all();
        }
    }

    std::shared_ptr<Batch> batch_;
    const std::function<void(size_t)>& work_; // outlives the tasks: the caller waits for them
    size_t item_;
};

} // namespace

void RunConcurrently(TaskScheduler& scheduler, TaskPool pool, size_t count,
                     const std::function<void(size_t)>& work) {
    if (count == 0) {
        return;
    }
    if (count == 1) {
        work(0);
        return;
    }
    auto batch = std::make_shared<Batch>();
    batch->remaining = count;
    for (size_t i = 0; i < count; i++) {
        scheduler.Schedule(std::make_shared<ItemTask>(pool, batch, work, i));
    }
    std::unique_lock<std::mutex> lock(batch->mutex);
    batch->done.wait(lock, [&] { return batch->remaining == 0; });
    if (batch->error) {
        std::rethrow_exception(batch->error);
    }
}

} // namespace sluice
