#include "parallel/run_concurrently.hpp"
#include "parallel/task_scheduler.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <set>
#include <stdexcept>
#include <sys/resource.h>
#include <thread>
#include <vector>

using namespace sluice;
using namespace std::chrono_literals;

namespace {

// Counts finished tasks and lets the test wait for a number of them with a deadline, so a lost
// wake-up fails the test instead of hanging it.
class Latch {
public:
    void CountDown() {
        std::lock_guard<std::mutex> guard(mutex_);
        count_++;
        changed_.notify_all();
    }
    bool WaitFor(int64_t expected, std::chrono::seconds timeout = 60s) {
        std::unique_lock<std::mutex> lock(mutex_);
        return changed_.wait_for(lock, timeout, [&] { return count_ >= expected; });
    }
    int64_t count() {
        std::lock_guard<std::mutex> guard(mutex_);
        return count_;
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    int64_t count_ = 0;
};

class FunctionTask : public Task {
public:
    explicit FunctionTask(std::function<TaskResult(FunctionTask&)> body,
                          TaskPool pool = TaskPool::Regular)
        : Task(pool), body_(std::move(body)) {}
    TaskResult Execute() override { return body_(*this); }
    void OnException(std::exception_ptr) override { ADD_FAILURE() << "the task's body threw"; }
    int runs = 0;

private:
    std::function<TaskResult(FunctionTask&)> body_;
};

std::shared_ptr<FunctionTask> MakeTask(std::function<TaskResult(FunctionTask&)> body,
                                       TaskPool pool = TaskPool::Regular) {
    return std::make_shared<FunctionTask>(std::move(body), pool);
}

TaskPool CurrentPool() {
    TaskPool pool;
    EXPECT_TRUE(TaskScheduler::OnWorkerThread(pool));
    return pool;
}

double ProcessCpuSeconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec +
           usage.ru_stime.tv_usec / 1e6;
}

} // namespace

TEST(TaskScheduler, DefaultsFollowTheCores) {
    uint32_t cores = std::max(1u, std::thread::hardware_concurrency());
    EXPECT_EQ(TaskScheduler::DefaultRegularThreads(), cores);
    EXPECT_EQ(TaskScheduler::DefaultAsyncThreads(2), 8u);
    EXPECT_EQ(TaskScheduler::DefaultAsyncThreads(100), 256u);
    EXPECT_THROW(TaskScheduler(1, 257), std::exception);
    EXPECT_THROW(TaskScheduler(0, 4), std::exception);
}

TEST(TaskScheduler, RunsOneHundredThousandTasksExactlyOnce) {
    TaskScheduler scheduler(2, 8);
    constexpr int kTasks = 100000;
    std::vector<std::atomic<int>> runs(kTasks);
    Latch done;
    for (int i = 0; i < kTasks; i++) {
        scheduler.Schedule(MakeTask([&, i](FunctionTask&) {
            runs[i].fetch_add(1);
            done.CountDown();
            return TaskResult::Done;
        }));
    }
    ASSERT_TRUE(done.WaitFor(kTasks));
    for (int i = 0; i < kTasks; i++) {
        ASSERT_EQ(runs[i].load(), 1) << i;
    }
}

TEST(TaskScheduler, YieldingTaskIsResumedUntilDone) {
    TaskScheduler scheduler(1, 1);
    Latch done;
    auto task = MakeTask([&](FunctionTask& self) {
        if (++self.runs < 100) {
            return TaskResult::Yield;
        }
        done.CountDown();
        return TaskResult::Done;
    });
    scheduler.Schedule(task);
    ASSERT_TRUE(done.WaitFor(1));
    EXPECT_EQ(task->runs, 100);
}

TEST(TaskScheduler, ParkedTaskWokenFromAsyncThreadResumesOnRegularThread) {
    TaskScheduler scheduler(2, 4);
    constexpr int kTasks = 1000;
    std::atomic<int> resumed_on_regular{0}, woken_from_async{0};
    Latch done;
    for (int i = 0; i < kTasks; i++) {
        scheduler.Schedule(MakeTask([&](FunctionTask& self) {
            if (self.runs++ == 0) {
                Waker waker = self.MakeWaker();
                scheduler.Schedule(MakeTask(
                    [&, waker](FunctionTask&) {
                        woken_from_async += CurrentPool() == TaskPool::Async;
                        waker.Wake();
                        return TaskResult::Done;
                    },
                    TaskPool::Async));
                return TaskResult::Blocked;
            }
            resumed_on_regular += CurrentPool() == TaskPool::Regular;
            done.CountDown();
            return TaskResult::Done;
        }));
    }
    ASSERT_TRUE(done.WaitFor(kTasks));
    EXPECT_EQ(resumed_on_regular.load(), kTasks);
    // Idle REGULAR threads may help with ASYNC work (more so on a loaded machine), so not every
    // wake comes from an ASYNC thread; but the cross-pool path must have been taken.
    EXPECT_GT(woken_from_async.load(), 0);
}

TEST(TaskScheduler, NoWakeUpIsLostWhenWakeRacesWithParking) {
    TaskScheduler scheduler(2, 8);
    constexpr int kTasks = 20000;
    Latch done;
    for (int i = 0; i < kTasks; i++) {
        scheduler.Schedule(MakeTask([&, i](FunctionTask& self) {
            if (self.runs++ > 0) {
                done.CountDown();
                return TaskResult::Done;
            }
            Waker waker = self.MakeWaker();
            if (i % 3 == 0) {
                waker.Wake(); // fires before Execute even returns Blocked
            } else {
                // fires from another thread at about the moment the task parks
                scheduler.Schedule(MakeTask(
                    [waker](FunctionTask&) {
                        waker.Wake();
                        return TaskResult::Done;
                    },
                    TaskPool::Async));
            }
            return TaskResult::Blocked;
        }));
    }
    ASSERT_TRUE(done.WaitFor(kTasks)) << "completed " << done.count() << " of " << kTasks;
}

TEST(TaskScheduler, SingleThreadedPoolsDoNotDeadlock) {
    TaskScheduler scheduler(1, 1);
    constexpr int kTasks = 2000;
    Latch done;
    for (int i = 0; i < kTasks; i++) {
        scheduler.Schedule(MakeTask([&](FunctionTask& self) {
            switch (self.runs++) {
            case 0:
                return TaskResult::Yield;
            case 1: {
                Waker waker = self.MakeWaker();
                scheduler.Schedule(MakeTask(
                    [waker](FunctionTask&) {
                        waker.Wake();
                        return TaskResult::Done;
                    },
                    TaskPool::Async));
                return TaskResult::Blocked;
            }
            default:
                done.CountDown();
                return TaskResult::Done;
            }
        }));
    }
    ASSERT_TRUE(done.WaitFor(kTasks));
}

TEST(TaskScheduler, IdleRegularThreadRunsAsyncWorkWhenIoThreadsAreBusy) {
    TaskScheduler scheduler(1, 1);
    std::mutex mutex;
    std::condition_variable release;
    bool released = false;
    Latch started, done;
    std::atomic<bool> blocker_on_async{false};
    // Occupy the only ASYNC thread.
    scheduler.Schedule(MakeTask(
        [&](FunctionTask&) {
            blocker_on_async = CurrentPool() == TaskPool::Async;
            started.CountDown();
            std::unique_lock<std::mutex> lock(mutex);
            release.wait(lock, [&] { return released; });
            return TaskResult::Done;
        },
        TaskPool::Async));
    ASSERT_TRUE(started.WaitFor(1));
    std::atomic<bool> ran_on_regular{false};
    scheduler.Schedule(MakeTask(
        [&](FunctionTask&) {
            ran_on_regular = CurrentPool() == TaskPool::Regular;
            done.CountDown();
            return TaskResult::Done;
        },
        TaskPool::Async));
    bool finished = done.WaitFor(1, 30s);
    {
        std::lock_guard<std::mutex> guard(mutex);
        released = true;
    }
    release.notify_all();
    ASSERT_TRUE(finished);
    EXPECT_TRUE(blocker_on_async.load()) << "an idle ASYNC thread existed, yet REGULAR took I/O";
    EXPECT_TRUE(ran_on_regular.load());
}

TEST(TaskScheduler, PoolsResizeWhileWorkRuns) {
    TaskScheduler scheduler(1, 1);
    Latch done;
    constexpr int kTasks = 20000;
    for (int i = 0; i < kTasks; i++) {
        scheduler.Schedule(MakeTask([&](FunctionTask&) {
            done.CountDown();
            return TaskResult::Done;
        }));
        if (i == 5000) {
            scheduler.SetThreadCounts(4, 16);
        } else if (i == 15000) {
            scheduler.SetThreadCounts(1, 2);
        }
    }
    ASSERT_TRUE(done.WaitFor(kTasks));
    EXPECT_EQ(scheduler.RegularThreads(), 1u);
    EXPECT_EQ(scheduler.AsyncThreads(), 2u);
}

TEST(TaskScheduler, ExceptionGoesToTheTaskAndWorkersSurvive) {
    class Throwing : public Task {
    public:
        explicit Throwing(Latch& latch) : latch_(latch) {}
        TaskResult Execute() override { throw std::runtime_error("boom"); }
        void OnException(std::exception_ptr) override { latch_.CountDown(); }

    private:
        Latch& latch_;
    };
    TaskScheduler scheduler(1, 1);
    Latch caught, after;
    scheduler.Schedule(std::make_shared<Throwing>(caught));
    ASSERT_TRUE(caught.WaitFor(1));
    scheduler.Schedule(MakeTask([&](FunctionTask&) {
        after.CountDown();
        return TaskResult::Done;
    }));
    ASSERT_TRUE(after.WaitFor(1));
}

TEST(TaskScheduler, IdleSchedulerUsesNearlyNoCpu) {
    TaskScheduler scheduler(std::max(2u, std::thread::hardware_concurrency()), 64);
    std::this_thread::sleep_for(100ms); // let the threads start and go to sleep
    double before = ProcessCpuSeconds();
    std::this_thread::sleep_for(1s);
    double used = ProcessCpuSeconds() - before;
    // A spinning worker would burn ~1 s per thread; sleeping ones cost nothing measurable.
    EXPECT_LT(used, 0.05) << "idle pools used " << used << " s of CPU in 1 s";
}

// A sink's finish on a worker thread shares its items with the idle REGULAR threads; with no
// other thread (or off the scheduler) the caller runs them all, and never waits for an item
// nobody started.
TEST(TaskScheduler, SharedItemsRunOnceEachOnTheCallerAndIdleThreads) {
    for (uint32_t threads : {1u, 4u}) {
        TaskScheduler scheduler(threads, 1);
        constexpr size_t kItems = 200;
        std::vector<std::atomic<int>> runs(kItems);
        std::mutex mutex;
        std::set<std::thread::id> workers;
        Latch done;
        scheduler.Schedule(MakeTask([&](FunctionTask&) {
            RunSharingWithIdleThreads(kItems, [&](size_t item) {
                std::this_thread::sleep_for(1ms);
                runs[item]++;
                std::lock_guard<std::mutex> guard(mutex);
                workers.insert(std::this_thread::get_id());
            });
            done.CountDown();
            return TaskResult::Done;
        }));
        ASSERT_TRUE(done.WaitFor(1));
        for (size_t item = 0; item < kItems; item++) {
            EXPECT_EQ(runs[item].load(), 1) << "item " << item;
        }
        if (threads == 1) {
            EXPECT_EQ(workers.size(), 1u);
        } else {
            EXPECT_GT(workers.size(), 1u) << "no idle thread helped";
        }
    }
    std::atomic<int> off_scheduler{0};
    RunSharingWithIdleThreads(10, [&](size_t) { off_scheduler++; });
    EXPECT_EQ(off_scheduler.load(), 10);
}

TEST(TaskScheduler, SharedItemsRethrowTheFirstErrorAfterEveryStartedItemEnds) {
    TaskScheduler scheduler(2, 1);
    std::atomic<int> running{0}, after_return{0};
    Latch done;
    std::string error;
    scheduler.Schedule(MakeTask([&](FunctionTask&) {
        try {
            RunSharingWithIdleThreads(100, [&](size_t item) {
                running++;
                std::this_thread::sleep_for(1ms);
                running--;
                if (item == 3) {
                    throw std::runtime_error("item 3 failed");
                }
            });
        } catch (const std::exception& e) {
            error = e.what();
            after_return = running.load();
        }
        done.CountDown();
        return TaskResult::Done;
    }));
    ASSERT_TRUE(done.WaitFor(1));
    EXPECT_EQ(error, "item 3 failed");
    EXPECT_EQ(after_return.load(), 0); // no item still running when the caller returned
}
