#include "parallel/executor.hpp"

#include "common/exception.hpp"
#include "parallel/cancellation.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace sluice {

// One thread's share of a pipeline: pulls chunks from the source, pushes them through the
// operators into the sink. Yields after a few chunks so other queries' tasks get a turn.
class Executor::PipelineTask : public Task {
public:
    PipelineTask(Executor& executor, PipelineState& state) : executor_(executor), state_(state) {
        Pipeline& pipeline = *state.pipeline;
        source_local_ = pipeline.source->InitLocal();
        source_chunk_.Initialize(pipeline.source->OutputTypes());
        for (auto& op : pipeline.operators) {
            operator_locals_.push_back(op->InitLocal());
            operator_chunks_.push_back(std::make_unique<DataChunk>(op->OutputTypes()));
        }
        sink_local_ = pipeline.sink->InitLocal();
    }

    TaskResult Execute() override {
        static constexpr int kChunksPerSlice = 16;
        Cancellation::Scope cancellation(executor_.cancelled_flag());
        TaskContext context(*this);
        for (int i = 0; i < kChunksPerSlice; i++) {
            if (executor_.IsCancelled() || state_.finished_early.load()) {
                return Finish();
            }
            source_chunk_.Reset();
            auto started = Now();
            SourceResult result =
                state_.pipeline->source->GetData(source_chunk_, source_local_.get(), context);
            Record(0, source_chunk_.size(), started);
            if (result == SourceResult::Blocked) {
                return TaskResult::Blocked;
            }
            batch_index_ = state_.pipeline->source->BatchIndex(source_local_.get());
            if (source_chunk_.size() > 0 && !Push(source_chunk_, 0)) {
                state_.finished_early.store(true);
                state_.pipeline->source->Cancel();
                return Finish();
            }
            if (result == SourceResult::Finished) {
                return Finish();
            }
        }
        executor_.Widen(state_);
        return TaskResult::Yield;
    }

    // The query fails with the error; this task's share of the pipeline ends here.
    void OnException(std::exception_ptr error) override {
        executor_.PushError(std::move(error));
        ReleaseLocals();
        executor_.OnTaskDone(state_);
    }

private:
    // Pushes `chunk` into operator `index` (or the sink). False once no more input is wanted.
    bool Push(DataChunk& chunk, idx_t index) {
        Pipeline& pipeline = *state_.pipeline;
        if (index == pipeline.operators.size()) {
            auto started = Now();
            bool more = pipeline.sink->Sink(chunk, sink_local_.get(), batch_index_) ==
                        SinkResult::NeedMoreInput;
            Record(index + 1, chunk.size(), started);
            return more;
        }
        DataChunk& output = *operator_chunks_[index];
        while (true) {
            output.Reset();
            auto started = Now();
            OperatorResult result =
                pipeline.operators[index]->Execute(chunk, output, operator_locals_[index].get());
            Record(index + 1, output.size(), started);
            if (output.size() > 0 && !Push(output, index + 1)) {
                return false;
            }
            if (result == OperatorResult::Finished) {
                return false;
            }
            if (result == OperatorResult::NeedMoreInput) {
                return true;
            }
        }
    }

    using Clock = std::chrono::steady_clock;
    // Clock reads only when profiling: they cost more than a cheap operator.
    Clock::time_point Now() const { return state_.stages ? Clock::now() : Clock::time_point(); }
    void Record(idx_t stage, idx_t rows, Clock::time_point started) {
        if (!state_.stages) {
            return;
        }
        auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - started);
        state_.stages[stage].rows.fetch_add(rows, std::memory_order_relaxed);
        state_.stages[stage].nanos.fetch_add(static_cast<uint64_t>(nanos.count()),
                                             std::memory_order_relaxed);
    }

    TaskResult Finish() {
        // A cancelled query's sink is never finalized: its tasks need not combine (a sort's
        // Combine sorts the task's rows, which could take seconds after Ctrl-C).
        if (!executor_.IsCancelled()) {
            state_.pipeline->sink->Combine(sink_local_.get());
        }
        ReleaseLocals();
        executor_.OnTaskDone(state_);
        return TaskResult::Done;
    }

    // The task's per-thread state goes before the executor hears it is done: once the last task
    // is done the query may return (and the next one start) while the scheduler still holds this
    // task object, and local states hold memory reservations and point into the pipeline.
    void ReleaseLocals() {
        source_local_.reset();
        operator_locals_.clear();
        sink_local_.reset();
    }

    Executor& executor_;
    PipelineState& state_;
    std::unique_ptr<LocalState> source_local_;
    std::vector<std::unique_ptr<LocalState>> operator_locals_;
    std::unique_ptr<LocalState> sink_local_;
    DataChunk source_chunk_;
    std::vector<std::unique_ptr<DataChunk>> operator_chunks_;
    idx_t batch_index_ = 0;
};

Executor::Executor(TaskScheduler& scheduler, std::optional<idx_t> max_threads)
    : scheduler_(scheduler), max_threads_(max_threads) {
    if (max_threads_) {
        max_threads_ = std::max<idx_t>(1, *max_threads_);
    }
}

Executor::~Executor() {
    // Tasks reference this executor: never destroy it while any is outstanding.
    std::unique_lock<std::mutex> lock(mutex_);
    cancelled_.store(true);
    done_.wait(lock, [&] { return outstanding_tasks_ == 0; });
}

Pipeline& Executor::AddPipeline() {
    auto state = std::make_unique<PipelineState>();
    state->pipeline = std::make_unique<Pipeline>();
    Pipeline& pipeline = *state->pipeline;
    pipelines_.push_back(std::move(state));
    return pipeline;
}

void Executor::Execute() {
    std::unique_lock<std::mutex> lock(mutex_);
    StartReadyPipelines(lock);
    auto ended = [&] {
        return outstanding_tasks_ == 0 &&
               (finished_pipelines_ == pipelines_.size() || error_ || cancelled_.load());
    };
    if (deadline_ && !done_.wait_until(lock, *deadline_, ended)) {
        deadline_passed_ = true;
        cancelled_.store(true);
        CancelSources();
    }
    done_.wait(lock, ended);
    // Read-ahead may still be in flight (a LIMIT stopped early, an error): nothing outlives the
    // query.
    lock.unlock();
    for (auto& state : pipelines_) {
        if (state->started) {
            state->pipeline->source->StopBackgroundWork();
        }
    }
    lock.lock();
    if (error_) {
        throw Exception(error_->kind, error_->message);
    }
    if (deadline_passed_) {
        throw Exception(ErrorKind::Interrupted,
                        "Query exceeded maximum execution time (max_execution_time = " +
                            std::to_string(deadline_limit_ms_) + " ms)");
    }
    if (cancelled_.load()) {
        throw Exception(ErrorKind::Interrupted, "Interrupted!");
    }
}

void Executor::SetDeadline(std::chrono::steady_clock::time_point deadline, int64_t limit_ms) {
    deadline_ = deadline;
    deadline_limit_ms_ = limit_ms;
}

void Executor::Cancel() {
    cancelled_.store(true);
    std::lock_guard<std::mutex> guard(mutex_);
    CancelSources();
    done_.notify_all();
}

void Executor::CancelSources() {
    for (auto& state : pipelines_) {
        if (state->started && !state->finished) {
            state->pipeline->source->Cancel();
        }
    }
}

double Executor::Progress() const {
    std::lock_guard<std::mutex> guard(mutex_);
    if (pipelines_.empty()) {
        return 1.0;
    }
    double done = 0;
    for (const auto& state : pipelines_) {
        if (state->finished) {
            done += 1;
        } else if (state->started) {
            done += std::max(0.0, state->pipeline->source->Progress());
        }
    }
    return done / static_cast<double>(pipelines_.size());
}

void Executor::StartReadyPipelines(std::unique_lock<std::mutex>& lock) {
    (void)lock;
    if (error_ || cancelled_.load()) {
        return;
    }
    for (auto& state : pipelines_) {
        if (state->started) {
            continue;
        }
        bool ready = std::all_of(state->pipeline->dependencies.begin(),
                                 state->pipeline->dependencies.end(), [&](Pipeline* dependency) {
                                     for (auto& other : pipelines_) {
                                         if (other->pipeline.get() == dependency) {
                                             return other->finished;
                                         }
                                     }
                                     return false;
                                 });
        if (!ready) {
            continue;
        }
        state->started = true;
        if (profiling_) {
            state->stages = std::make_unique<StageProfile[]>(state->pipeline->operators.size() + 2);
        }
        idx_t tasks = TaskTarget(*state);
        state->running_tasks.store(tasks);
        state->started_tasks.store(tasks);
        outstanding_tasks_ += tasks;
        // Build every task before scheduling any, so a quick first task cannot finish the
        // pipeline while its siblings are still being created.
        std::vector<std::shared_ptr<Task>> created;
        for (idx_t i = 0; i < tasks; i++) {
            created.push_back(std::make_shared<PipelineTask>(*this, *state));
        }
        for (auto& task : created) {
            scheduler_.Schedule(std::move(task));
        }
    }
}

idx_t Executor::TaskTarget(const PipelineState& state) const {
    idx_t tasks = max_threads_ ? *max_threads_ : scheduler_.RegularThreads();
    tasks = std::min(tasks, state.pipeline->source->MaxThreads());
    if (state.pipeline->max_threads > 0) {
        tasks = std::min(tasks, state.pipeline->max_threads);
    }
    return std::max<idx_t>(1, tasks);
}

void Executor::Widen(PipelineState& state) {
    if (max_threads_ || state.started_tasks.load() >= TaskTarget(state)) {
        return;
    }
    std::vector<std::shared_ptr<Task>> created;
    {
        // The calling task is still running, so the pipeline cannot finish meanwhile.
        std::lock_guard<std::mutex> guard(mutex_);
        idx_t target = TaskTarget(state);
        while (!error_ && !cancelled_.load() && !state.finished_early.load() &&
               state.started_tasks.load() < target) {
            state.started_tasks.fetch_add(1);
            state.running_tasks.fetch_add(1);
            outstanding_tasks_++;
            created.push_back(std::make_shared<PipelineTask>(*this, state));
        }
    }
    for (auto& task : created) {
        scheduler_.Schedule(std::move(task));
    }
}

void Executor::OnTaskDone(PipelineState& state) {
    bool last = state.running_tasks.fetch_sub(1) == 1;
    if (last) {
        bool sink_done;
        {
            std::lock_guard<std::mutex> guard(mutex_);
            state.sink_fed = true;
            sink_done = std::all_of(pipelines_.begin(), pipelines_.end(), [&](const auto& other) {
                return other->pipeline->sink != state.pipeline->sink || other->sink_fed;
            });
        }
        try {
            if (!cancelled_.load() && sink_done) {
                state.pipeline->sink->Finalize();
            }
        } catch (...) {
            PushError(std::current_exception());
        }
    }
    std::unique_lock<std::mutex> lock(mutex_);
    if (last) {
        state.finished = true;
        finished_pipelines_++;
        StartReadyPipelines(lock);
    }
    outstanding_tasks_--;
    done_.notify_all();
}

std::string Executor::ProfileReport() const {
    std::lock_guard<std::mutex> guard(mutex_);
    std::string out;
    for (size_t p = 0; p < pipelines_.size(); p++) {
        const PipelineState& state = *pipelines_[p];
        if (!state.stages || state.pipeline->source->HiddenFromProfile()) {
            continue;
        }
        const Pipeline& pipeline = *state.pipeline;
        out += "pipeline " + std::to_string(p + 1) + "\n";
        auto line = [&](size_t stage, const std::string& name) {
            char buffer[160];
            std::snprintf(buffer, sizeof(buffer), "  %-34s %12llu rows %10.3f ms\n", name.c_str(),
                          static_cast<unsigned long long>(state.stages[stage].rows.load()),
                          static_cast<double>(state.stages[stage].nanos.load()) / 1e6);
            out += buffer;
        };
        line(0, pipeline.source->Name());
        out += pipeline.source->ProfileDetails();
        for (size_t i = 0; i < pipeline.operators.size(); i++) {
            line(i + 1, pipeline.operators[i]->Name());
        }
        line(pipeline.operators.size() + 1, pipeline.sink->Name());
        out += pipeline.sink->ProfileDetails();
    }
    return out;
}

void Executor::PushError(std::exception_ptr error) {
    std::lock_guard<std::mutex> guard(mutex_);
    if (!error_) {
        // A copy of the error, made on the failing task's thread: the exception object itself is
        // not handed to the waiting thread, whose reference counting happens in the C++ runtime
        // where ThreadSanitizer cannot see it.
        ErrorCopy copy;
        try {
            std::rethrow_exception(error);
        } catch (const Exception& exception) {
            copy = {exception.Kind(), exception.RawMessage()};
        } catch (const std::bad_alloc&) {
            copy = {ErrorKind::OutOfMemory, "failed to allocate memory"};
        } catch (const std::exception& exception) {
            copy = {ErrorKind::Internal, exception.what()};
        } catch (...) {
            copy = {ErrorKind::Internal, "unknown error"};
        }
        error_ = std::make_unique<ErrorCopy>(std::move(copy));
    }
    cancelled_.store(true);
    CancelSources();
    done_.notify_all();
}

} // namespace sluice
