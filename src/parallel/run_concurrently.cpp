#include "parallel/run_concurrently.hpp"

#include <algorithm>
#include <atomic>
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

// The items of RunSharingWithIdleThreads: claimed one at a time by the caller and its helpers.
struct SharedItems {
    SharedItems(size_t count, const std::function<void(size_t)>& work) : count(count), work(work) {}

    // Runs items until none is left to claim.
    void RunClaimed() {
        for (size_t item = next.fetch_add(1); item < count; item = next.fetch_add(1)) {
            std::exception_ptr failure;
            if (!failed.load()) {
                try {
                    work(item);
                } catch (...) {
                    failure = std::current_exception();
                }
            }
            std::lock_guard<std::mutex> guard(mutex);
            if (failure && !error) {
                error = failure;
                failed.store(true);
            }
            if (++finished == count) {
                done.notify_all();
            }
        }
    }

    const size_t count;
    // Touched only after an item is claimed: the caller waits for every claimed item, so a
    // helper that starts after the last claim never reaches it.
    const std::function<void(size_t)>& work;
    std::atomic<size_t> next{0};
    std::atomic<bool> failed{false};
    std::mutex mutex;
    std::condition_variable done;
    size_t finished = 0;
    std::exception_ptr error;
};

class HelperTask : public Task {
public:
    explicit HelperTask(std::shared_ptr<SharedItems> items) : items_(std::move(items)) {}

    TaskResult Execute() override {
        items_->RunClaimed();
        return TaskResult::Done;
    }
    void OnException(std::exception_ptr) override {} // RunClaimed keeps every item's error

private:
    std::shared_ptr<SharedItems> items_;
};

} // namespace

void RunSharingWithIdleThreads(size_t count, const std::function<void(size_t)>& work) {
    if (count == 0) {
        return;
    }
    auto items = std::make_shared<SharedItems>(count, work);
    TaskScheduler* scheduler = TaskScheduler::Current();
    if (scheduler != nullptr && count > 1) {
        size_t helpers =
            std::min<size_t>(std::max<uint32_t>(scheduler->RegularThreads(), 1), count) - 1;
        for (size_t h = 0; h < helpers; h++) {
            scheduler->Schedule(std::make_shared<HelperTask>(items));
        }
    }
    items->RunClaimed();
    std::unique_lock<std::mutex> lock(items->mutex);
    items->done.wait(lock, [&] { return items->finished == count; });
    if (items->error) {
        std::rethrow_exception(items->error);
    }
}

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
