// Scheduler micro-benchmarks: task throughput and park/wake latency, each printed beside a
// baseline measured in the same run (a bare condition-variable hand-off between two threads),
// because this machine is shared and absolute numbers drift.
//
//   build/bench/scheduler_bench [--quick]
#include "parallel/task_scheduler.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

using namespace sluice;
using Clock = std::chrono::steady_clock;

namespace {

double Seconds(Clock::duration duration) {
    return std::chrono::duration<double>(duration).count();
}

// The benchmark's tasks do not throw; if one did, the figures would be wrong: stop.
class BenchTask : public Task {
public:
    using Task::Task;
    void OnException(std::exception_ptr) override {
        std::fprintf(stderr, "a benchmark task threw\n");
        std::abort();
    }
};

// Counts down a shared latch; the last task signals the waiting main thread.
class CountTask : public BenchTask {
public:
    CountTask(std::atomic<int64_t>& remaining, std::mutex& mutex, std::condition_variable& done)
        : remaining_(remaining), mutex_(mutex), done_(done) {}
    TaskResult Execute() override {
        if (remaining_.fetch_sub(1) == 1) {
            std::lock_guard<std::mutex> guard(mutex_);
            done_.notify_all();
        }
        return TaskResult::Done;
    }

private:
    std::atomic<int64_t>& remaining_;
    std::mutex& mutex_;
    std::condition_variable& done_;
};

double TaskThroughput(TaskScheduler& scheduler, int64_t tasks) {
    std::atomic<int64_t> remaining{tasks};
    std::mutex mutex;
    std::condition_variable done;
    auto start = Clock::now();
    for (int64_t i = 0; i < tasks; i++) {
        scheduler.Schedule(std::make_shared<CountTask>(remaining, mutex, done));
    }
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [&] { return remaining.load() == 0; });
    return tasks / Seconds(Clock::now() - start);
}

// Parks on its first run; an ASYNC task wakes it and stamps the time; the resumed run measures
// how long the wake took to turn into execution on a REGULAR thread.
class WakeProbe : public BenchTask {
public:
    WakeProbe(TaskScheduler& scheduler, std::vector<double>& latencies, std::mutex& mutex,
              std::condition_variable& done, bool& finished)
        : scheduler_(scheduler), latencies_(latencies), mutex_(mutex), done_(done),
          finished_(finished) {}

    TaskResult Execute() override;

    Clock::time_point woken_at;

private:
    TaskScheduler& scheduler_;
    std::vector<double>& latencies_;
    std::mutex& mutex_;
    std::condition_variable& done_;
    bool& finished_;
    bool parked_ = false;
};

class WakerTask : public BenchTask {
public:
    WakerTask(std::shared_ptr<WakeProbe> probe, Waker waker)
        : BenchTask(TaskPool::Async), probe_(std::move(probe)), waker_(std::move(waker)) {}
    TaskResult Execute() override {
        // Give the probe time to park, so we measure a real wake-up, not an early one.
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        probe_->woken_at = Clock::now();
        waker_.Wake();
        return TaskResult::Done;
    }

private:
    std::shared_ptr<WakeProbe> probe_;
    Waker waker_;
};

TaskResult WakeProbe::Execute() {
    if (!parked_) {
        parked_ = true;
        auto self = std::static_pointer_cast<WakeProbe>(shared_from_this());
        scheduler_.Schedule(std::make_shared<WakerTask>(self, MakeWaker()));
        return TaskResult::Blocked;
    }
    double latency = Seconds(Clock::now() - woken_at);
    std::lock_guard<std::mutex> guard(mutex_);
    latencies_.push_back(latency);
    finished_ = true;
    done_.notify_all();
    return TaskResult::Done;
}

std::vector<double> WakeLatencies(TaskScheduler& scheduler, int rounds) {
    std::vector<double> latencies;
    std::mutex mutex;
    std::condition_variable done;
    for (int i = 0; i < rounds; i++) {
        bool finished = false;
        scheduler.Schedule(
            std::make_shared<WakeProbe>(scheduler, latencies, mutex, done, finished));
        std::unique_lock<std::mutex> lock(mutex);
        done.wait(lock, [&] { return finished; });
    }
    return latencies;
}

// The floor for any sleeping-thread wake-up: notify a thread blocked on a condition variable.
std::vector<double> ConditionVariableLatencies(int rounds) {
    std::vector<double> latencies;
    std::mutex mutex;
    std::condition_variable wake, ack;
    Clock::time_point sent;
    int round = -1, seen = -1;
    std::thread sleeper([&] {
        std::unique_lock<std::mutex> lock(mutex);
        for (int i = 0; i < rounds; i++) {
            wake.wait(lock, [&] { return round == i; });
            latencies.push_back(Seconds(Clock::now() - sent));
            seen = i;
            ack.notify_all();
        }
    });
    for (int i = 0; i < rounds; i++) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        std::unique_lock<std::mutex> lock(mutex);
        sent = Clock::now();
        round = i;
        wake.notify_all();
        ack.wait(lock, [&] { return seen == i; });
    }
    sleeper.join();
    return latencies;
}

double Percentile(std::vector<double> values, double fraction) {
    std::sort(values.begin(), values.end());
    return values[static_cast<size_t>(fraction * (values.size() - 1))];
}

} // namespace

int main(int argc, char** argv) {
    bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
    uint32_t threads = TaskScheduler::DefaultRegularThreads();
    TaskScheduler scheduler(threads, TaskScheduler::DefaultAsyncThreads(threads));
    int64_t tasks = quick ? 100000 : 1000000;
    int rounds = quick ? 500 : 5000;

    std::printf("Scheduler benchmark (%u REGULAR + %u ASYNC threads)\n", scheduler.RegularThreads(),
                scheduler.AsyncThreads());
    double throughput = TaskThroughput(scheduler, tasks);
    std::printf("  task throughput: %.2f M tasks/s (%lld trivial tasks)\n", throughput / 1e6,
                static_cast<long long>(tasks));

    auto wake = WakeLatencies(scheduler, rounds);
    auto baseline = ConditionVariableLatencies(rounds);
    double wake_median = Percentile(wake, 0.5), base_median = Percentile(baseline, 0.5);
    std::printf("  park -> wake (ASYNC) -> resume (REGULAR): median %.1f us, p99 %.1f us\n",
                wake_median * 1e6, Percentile(wake, 0.99) * 1e6);
    std::printf("  bare condition-variable wake-up (baseline): median %.1f us, p99 %.1f us\n",
                base_median * 1e6, Percentile(baseline, 0.99) * 1e6);
    std::printf("  ratio wake / baseline (median): %.2f\n", wake_median / base_median);
    return 0;
}
