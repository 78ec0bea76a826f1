#include "parallel/executor.hpp"

#include "common/exception.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using namespace sluice;
using namespace std::chrono_literals;

namespace {

const std::vector<LogicalType> kBigint = {LogicalTypeId::BIGINT};

// Produces `total` rows of consecutive BIGINTs in chunks, from any number of tasks.
class CountingSource : public PipelineSource {
public:
    CountingSource(int64_t total, idx_t threads) : total_(total), threads_(threads) {}
    std::vector<LogicalType> OutputTypes() const override { return kBigint; }
    idx_t MaxThreads() const override { return threads_; }
    SourceResult GetData(DataChunk& out, LocalState*, TaskContext&) override {
        int64_t start = next_.fetch_add(kVectorSize);
        if (start >= total_) {
            return SourceResult::Finished;
        }
        int64_t end = std::min<int64_t>(total_, start + kVectorSize);
        for (int64_t value = start; value < end; value++) {
            out.column(0).data<int64_t>()[value - start] = value;
        }
        out.SetSize(end - start);
        return SourceResult::HaveMoreOutput;
    }

protected:
    int64_t total_;
    idx_t threads_;
    std::atomic<int64_t> next_{0};
};

class SumSink : public PipelineSink {
public:
    struct Local : LocalState {
        int64_t sum = 0;
        int64_t rows = 0;
    };
    std::unique_ptr<LocalState> InitLocal() override { return std::make_unique<Local>(); }
    SinkResult Sink(DataChunk& chunk, LocalState* local, idx_t) override {
        auto& state = *static_cast<Local*>(local);
        for (idx_t row = 0; row < chunk.size(); row++) {
            state.sum += chunk.column(0).data<int64_t>()[row];
        }
        state.rows += chunk.size();
        return SinkResult::NeedMoreInput;
    }
    void Combine(LocalState* local) override {
        auto& state = *static_cast<Local*>(local);
        sum += state.sum;
        rows += state.rows;
        combines++;
    }
    void Finalize() override { finalized = true; }

    std::atomic<int64_t> sum{0}, rows{0};
    std::atomic<int> combines{0};
    std::atomic<bool> finalized{false};
};

// Every chunk's data "arrives" from an ASYNC task: GetData parks the pipeline task until then.
class AsyncSource : public CountingSource {
public:
    AsyncSource(TaskScheduler& scheduler, int64_t total)
        : CountingSource(total, 2), scheduler_(scheduler) {}
    struct Local : LocalState {
        std::atomic<bool> ready{false};
        bool requested = false;
    };
    std::unique_ptr<LocalState> InitLocal() override { return std::make_unique<Local>(); }
    SourceResult GetData(DataChunk& out, LocalState* local, TaskContext& context) override {
        auto& state = *static_cast<Local*>(local);
        if (!state.requested) {
            state.requested = true;
            Waker waker = context.MakeWaker();
            scheduler_.Schedule(std::make_shared<Completion>(state, waker));
            return SourceResult::Blocked;
        }
        if (!state.ready.load()) {
            return SourceResult::Blocked; // spurious wake-up: the waker is still pending
        }
        state.requested = false;
        state.ready = false;
        blocked_rounds++;
        return CountingSource::GetData(out, local, context);
    }
    std::atomic<int> blocked_rounds{0};

private:
    class Completion : public Task {
    public:
        Completion(Local& state, Waker waker)
            : Task(TaskPool::Async), state_(state), waker_(waker) {}
        TaskResult Execute() override {
            std::this_thread::sleep_for(50us); // the "network"
            state_.ready = true;
            waker_.Wake();
            return TaskResult::Done;
        }
        void OnException(std::exception_ptr) override { ADD_FAILURE() << "cannot throw"; }

    private:
        Local& state_;
        Waker waker_;
    };
    TaskScheduler& scheduler_;
};

} // namespace

TEST(Executor, ParallelPipelineCombinesEveryTask) {
    TaskScheduler scheduler(2, 4);
    Executor executor(scheduler, 4);
    Pipeline& pipeline = executor.AddPipeline();
    constexpr int64_t kRows = 1000000;
    pipeline.source = std::make_shared<CountingSource>(kRows, 4);
    auto sink = std::make_shared<SumSink>();
    pipeline.sink = sink;
    executor.Execute();
    EXPECT_EQ(sink->rows.load(), kRows);
    EXPECT_EQ(sink->sum.load(), kRows * (kRows - 1) / 2);
    EXPECT_EQ(sink->combines.load(), 4);
    EXPECT_TRUE(sink->finalized.load());
}

// SET threads while a query runs: a pipeline started on one REGULAR thread gets the tasks a
// larger pool allows when its task next yields, and the result is still exact.
TEST(Executor, ARunningPipelineWidensWhenThePoolGrows) {
    class GatedSource : public CountingSource {
    public:
        GatedSource() : CountingSource(4000 * kVectorSize, 8) {}
        SourceResult GetData(DataChunk& out, LocalState* local, TaskContext& context) override {
            while (!open.load()) { // the first chunk waits until the pool has grown
                std::this_thread::sleep_for(1ms);
            }
            return CountingSource::GetData(out, local, context);
        }
        std::atomic<bool> open{false};
    };
    TaskScheduler scheduler(1, 2);
    Executor executor(scheduler);
    Pipeline& pipeline = executor.AddPipeline();
    auto source = std::make_shared<GatedSource>();
    pipeline.source = source;
    auto sink = std::make_shared<SumSink>();
    pipeline.sink = sink;
    std::thread query([&] { executor.Execute(); });
    std::this_thread::sleep_for(20ms);
    scheduler.SetThreadCounts(3, 2);
    source->open.store(true);
    query.join();
    constexpr int64_t kRows = 4000 * kVectorSize;
    EXPECT_EQ(sink->rows.load(), kRows);
    EXPECT_EQ(sink->sum.load(), kRows * (kRows - 1) / 2);
    EXPECT_EQ(sink->combines.load(), 3); // one task at the start, two more after the growth
}

TEST(Executor, DependentPipelineStartsAfterItsDependencyFinalizes) {
    TaskScheduler scheduler(2, 4);
    Executor executor(scheduler, 2);
    auto build_sink = std::make_shared<SumSink>();
    Pipeline& build = executor.AddPipeline();
    build.source = std::make_shared<CountingSource>(100000, 2);
    build.sink = build_sink;

    class CheckingSource : public CountingSource {
    public:
        CheckingSource(SumSink& dependency) : CountingSource(10, 1), dependency_(dependency) {}
        SourceResult GetData(DataChunk& out, LocalState* local, TaskContext& context) override {
            saw_finalized_dependency = dependency_.finalized.load();
            return CountingSource::GetData(out, local, context);
        }
        std::atomic<bool> saw_finalized_dependency{false};

    private:
        SumSink& dependency_;
    };
    auto probe_source = std::make_shared<CheckingSource>(*build_sink);
    Pipeline& probe = executor.AddPipeline();
    probe.source = probe_source;
    probe.sink = std::make_shared<SumSink>();
    probe.dependencies.push_back(&build);
    executor.Execute();
    EXPECT_TRUE(probe_source->saw_finalized_dependency.load());
}

TEST(Executor, BlockedSourceParksAndResumesWhenItsIoCompletes) {
    TaskScheduler scheduler(2, 4);
    Executor executor(scheduler, 2);
    Pipeline& pipeline = executor.AddPipeline();
    constexpr int64_t kRows = 200 * kVectorSize;
    auto source = std::make_shared<AsyncSource>(scheduler, kRows);
    pipeline.source = source;
    auto sink = std::make_shared<SumSink>();
    pipeline.sink = sink;
    executor.Execute();
    EXPECT_EQ(sink->rows.load(), kRows);
    EXPECT_GE(source->blocked_rounds.load(), 200);
}

TEST(Executor, FirstErrorCancelsTheRestAndIsRethrown) {
    class FailingSource : public CountingSource {
    public:
        FailingSource() : CountingSource(1 << 30, 4) {}
        SourceResult GetData(DataChunk& out, LocalState* local, TaskContext& context) override {
            if (calls++ == 50) {
                throw Exception(ErrorKind::IO, "disk on fire at chunk 50");
            }
            return CountingSource::GetData(out, local, context);
        }
        std::atomic<int> calls{0};
    };
    TaskScheduler scheduler(2, 4);
    Executor executor(scheduler, 4);
    Pipeline& pipeline = executor.AddPipeline();
    auto source = std::make_shared<FailingSource>();
    pipeline.source = source;
    pipeline.sink = std::make_shared<SumSink>();
    try {
        executor.Execute();
        FAIL() << "expected the source's error";
    } catch (const Exception& error) {
        EXPECT_EQ(error.Kind(), ErrorKind::IO);
        EXPECT_STREQ(error.what(), "IO Error: disk on fire at chunk 50");
    }
    // Cancelled long before the 2^30 rows were produced.
    EXPECT_LT(source->calls.load(), 10000);
}

TEST(Executor, CancellationDrainsParkedTasks) {
    // A source whose I/O completes only when the test says so.
    class StallingSource : public CountingSource {
    public:
        StallingSource() : CountingSource(1 << 30, 2) {}
        SourceResult GetData(DataChunk& out, LocalState* local, TaskContext& context) override {
            std::lock_guard<std::mutex> guard(mutex);
            wakers.push_back(context.MakeWaker());
            return SourceResult::Blocked;
        }
        std::mutex mutex;
        std::vector<Waker> wakers;
    };
    TaskScheduler scheduler(2, 4);
    auto source = std::make_shared<StallingSource>();
    auto executor = std::make_unique<Executor>(scheduler, 2);
    Pipeline& pipeline = executor->AddPipeline();
    pipeline.source = source;
    pipeline.sink = std::make_shared<SumSink>();
    std::thread canceller([&] {
        while (true) {
            {
                std::lock_guard<std::mutex> guard(source->mutex);
                if (source->wakers.size() == 2) {
                    break;
                }
            }
            std::this_thread::sleep_for(1ms);
        }
        executor->Cancel();
        // The outstanding I/O completes; the woken tasks see the cancellation and finish.
        std::lock_guard<std::mutex> guard(source->mutex);
        for (auto& waker : source->wakers) {
            waker.Wake();
        }
    });
    try {
        executor->Execute();
        FAIL() << "expected an interruption";
    } catch (const Exception& error) {
        EXPECT_EQ(error.Kind(), ErrorKind::Interrupted);
    }
    canceller.join();
    executor.reset(); // must not wait forever: every task has drained
}

TEST(Executor, LimitStopsTheSourceEarly) {
    class TakeFirst : public PipelineSink {
    public:
        SinkResult Sink(DataChunk& chunk, LocalState*, idx_t) override {
            rows += chunk.size();
            return rows >= static_cast<int64_t>(10 * kVectorSize) ? SinkResult::Finished
                                                                  : SinkResult::NeedMoreInput;
        }
        std::atomic<int64_t> rows{0};
    };
    TaskScheduler scheduler(2, 4);
    Executor executor(scheduler, 1);
    Pipeline& pipeline = executor.AddPipeline();
    auto source = std::make_shared<CountingSource>(int64_t(1) << 40, 1);
    pipeline.source = source;
    auto sink = std::make_shared<TakeFirst>();
    pipeline.sink = sink;
    executor.Execute();
    EXPECT_EQ(sink->rows.load(), int64_t(10 * kVectorSize));
}
