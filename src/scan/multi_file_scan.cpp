#include "scan/multi_file_scan.hpp"

#include "common/exception.hpp"
#include "io/io_context.hpp"
#include "parallel/function_task.hpp"
#include "parallel/trace_recorder.hpp"
#include "scan/file_plan.hpp"
#include "scan/job_fetcher.hpp"
#include "scan/read_ahead_window.hpp"
#include "scan/scan_job.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <functional>
#include <iterator>
#include <mutex>

namespace sluice {

class MultiFileScan::State : public std::enable_shared_from_this<State> {
public:
    enum class FileStatus : uint8_t { Waiting, Planning, Planned, Failed };
    struct FileSlot {
        size_t path = 0; // in the binding's paths
        FileStatus status = FileStatus::Waiting;
        FilePlan plan; // once Planned; plan.planned.more until the rest of its jobs are planned
        bool planning_more = false;
    };
    enum class Claim : uint8_t { Claimed, Blocked, Finished };

    State(std::shared_ptr<ScanFormat> format, std::shared_ptr<const MultiFileBinding> binding,
          std::vector<idx_t> column_ids, std::vector<LeafMask> leaf_masks,
          std::vector<TableFilter> filters, ScanOptions options, ScanServices services)
        : format(std::move(format)), binding(std::move(binding)), column_ids(std::move(column_ids)),
          leaf_masks(std::move(leaf_masks)), filters(std::move(filters)), options(options),
          services(services), window_(this->options, this->services, statistics),
          fetcher_(this->options, this->services, statistics, cancelled_, background_) {
        for (idx_t id : this->column_ids) {
            types.push_back(this->binding->types[id]);
        }
        max_job_bytes_ = MaxJobBytes(
            this->services.scheduler->RegularThreads(), this->services.scheduler->AsyncThreads(),
            this->options.coalescing,
            this->services.temporary_memory ? this->services.temporary_memory->memory().limit()
                                            : 0);
        for (size_t path : this->binding->FilesMatching(this->filters)) {
            files_.emplace_back().path = path;
        }
        statistics.files = files_.size();
        statistics.files_pruned = this->binding->paths.size() - files_.size();
    }

    const std::shared_ptr<ScanFormat> format;
    const std::shared_ptr<const MultiFileBinding> binding;
    const std::vector<idx_t> column_ids;
    const std::vector<LeafMask> leaf_masks;
    const std::vector<TableFilter> filters;
    std::vector<LogicalType> types;
    const ScanOptions options;
    const ScanServices services;
    ScanStatistics statistics;
    std::atomic<int> next_task_id{0};

    bool cancelled() const { return cancelled_.load(); }
    // What the scan's own reads (opening and planning files, a decoder's reads past its job)
    // are cancelled by and counted into.
    IoContext ReadContext() { return {&cancelled_, &statistics.reads}; }

    void ThrowIfFailed() {
        std::lock_guard<std::mutex> guard(mutex_);
        if (error_) {
            std::rethrow_exception(error_);
        }
    }

    // The first real error of the scan: remembered for every task, and everything else stops.
    void Fail(std::exception_ptr error) {
        {
            std::lock_guard<std::mutex> guard(mutex_);
            if (error_ || cancelled_.load()) {
                return; // already failed, or the error is the consequence of a cancellation
            }
            error_ = std::move(error);
        }
        Cancel();
    }

    void Cancel() {
        cancelled_.store(true);
        WakeWaiters();
    }

    // Fetches and plans running now finish (cancelled, their transfers abort); none starts after.
    // Jobs still queued are dropped, and their handles give their buffers back.
    void StopBackgroundWork() {
        Cancel();
        background_.CloseAndWait();
        std::deque<ScanJobHandle> queued;
        {
            std::lock_guard<std::mutex> guard(mutex_);
            queued.swap(queue_);
            window_.Close();
        }
    }

    ~State() { StopBackgroundWork(); }

    Claim ClaimJob(ScanJobHandle& claimed, TaskContext& context) {
        std::vector<std::shared_ptr<ScanJob>> created;
        Claim outcome;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            if (error_) {
                std::rethrow_exception(error_);
            }
            TopUp(created);
            if (!queue_.empty()) {
                claimed = std::move(queue_.front());
                queue_.pop_front();
                outcome = Claim::Claimed;
            } else if (next_file_ >= files_.size() || cancelled_.load()) {
                outcome = Claim::Finished;
            } else {
                // Nothing admitted yet: a file is being planned, or the depth or the budget is
                // used up by jobs other tasks are decoding. Whoever changes that wakes us.
                waiters_.push_back(context.MakeWaker());
                outcome = Claim::Blocked;
            }
        }
        StartFetches(created);
        return outcome;
    }

    // Outside the lock: the fetches of jobs TopUp created.
    void StartFetches(const std::vector<std::shared_ptr<ScanJob>>& created) {
        for (const auto& job : created) {
            fetcher_.Start(job, shared_from_this(),
                           [this](std::exception_ptr error) { Fail(std::move(error)); });
        }
    }

    // read_ahead_depth = 0: the next job, fetched here, one request after the other.
    Claim ClaimSynchronously(ScanJobHandle& claimed) {
        ScanJobHandle job;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            while (!job) {
                if (error_) {
                    std::rethrow_exception(error_);
                }
                if (next_file_ >= files_.size() || cancelled_.load()) {
                    return Claim::Finished;
                }
                FileSlot& slot = files_[next_file_];
                if (slot.status == FileStatus::Waiting) {
                    // Planned under the lock: the other tasks need this file next anyway.
                    auto [planned, error] = ReadPlan(next_file_);
                    StorePlan(next_file_, std::move(planned), error);
                    if (slot.status == FileStatus::Failed && !error_) {
                        return Claim::Finished; // cancelled meanwhile
                    }
                    continue;
                }
                if (next_job_ >= slot.plan.planned.jobs.size()) {
                    if (slot.plan.planned.more) {
                        auto [jobs, error] = ReadRemainingPlan(*slot.plan.file);
                        StoreRemainingPlan(next_file_, std::move(jobs), error);
                        continue;
                    }
                    next_file_++;
                    next_job_ = 0;
                    continue;
                }
                const ScanJobPlan& plan = slot.plan.planned.jobs[next_job_];
                job = Own(CreateJob(next_file_, plan, LayOut(slot, plan)));
                next_job_++;
            }
        }
        try {
            fetcher_.FetchHere(*job);
        } catch (...) {
            job.Reset();
            if (!cancelled_.load()) {
                Fail(std::current_exception());
                throw;
            }
            return Claim::Finished;
        }
        claimed = std::move(job);
        return Claim::Claimed;
    }

    // The claimed job's I/O is done: hand it to the format's decoder. Null when the job was cut
    // short by a cancellation (nothing to decode).
    std::unique_ptr<ScanJobDecoder> StartDecoding(ScanJobHandle& handle) {
        handle.MarkDecoding();
        ScanJob& job = *handle;
        {
            std::lock_guard<std::mutex> guard(mutex_);
            window_.DecodingStarted();
        }
        WakeWaiters();
        if (std::exception_ptr error = job.error()) {
            if (cancelled_.load()) {
                ThrowIfFailed();
                return nullptr;
            }
            Fail(error);
            std::rethrow_exception(error);
        }
        statistics.jobs_scanned++;
        const FileSlot& slot = files_[job.file];
        return binding->CompleteDecoder(
            slot.path, slot.plan.projected, column_ids, types,
            slot.plan.file->Decode(job.plan, job.RangeBuffers(), ReadContext()),
            job.plan.first_row);
    }

    // A handle for a job just created: when it lets go, the job's buffers are no longer held
    // (decoded, or abandoned before decoding started: then it no longer counts as outstanding).
    ScanJobHandle Own(std::shared_ptr<ScanJob> job) {
        return ScanJobHandle(std::move(job), [this](ScanJob& released, bool decoding_started) {
            Release(released, decoding_started);
        });
    }

    void Release(ScanJob& job, bool decoding_started) {
        uint64_t bytes = job.Bytes();
        {
            std::lock_guard<std::mutex> guard(mutex_);
            window_.Release(bytes, decoding_started);
        }
        decoded_bytes_ += bytes;
        WakeWaiters();
    }

    double Progress() const {
        uint64_t planned_files = statistics.files_planned.load();
        if (files_.empty()) {
            return 1.0;
        }
        if (planned_files == 0 || planned_bytes_.load() == 0) {
            return 0.0;
        }
        double total = static_cast<double>(planned_bytes_.load()) *
                       static_cast<double>(files_.size()) / static_cast<double>(planned_files);
        return std::min(1.0, static_cast<double>(decoded_bytes_.load()) / total);
    }

    uint64_t BudgetShrinks() const {
        std::lock_guard<std::mutex> guard(mutex_);
        return window_.BudgetShrinks();
    }

    void AddWaiter(const Waker& waker) {
        std::lock_guard<std::mutex> guard(mutex_);
        waiters_.push_back(waker);
    }

private:
    void WakeWaiters() {
        std::vector<Waker> waiters;
        {
            std::lock_guard<std::mutex> guard(mutex_);
            waiters.swap(waiters_);
        }
        for (const Waker& waker : waiters) {
            waker.Wake();
        }
    }

    // Opens and plans `file` (I/O: called without the lock; the slot's path is constant).
    std::pair<FilePlan, std::exception_ptr> ReadPlan(size_t file) {
        try {
            MemoryManager* memory =
                services.temporary_memory ? &services.temporary_memory->memory() : nullptr;
            return {PlanFile(*format, *binding, files_[file].path, column_ids, leaf_masks, filters,
                             max_job_bytes_, memory, *services.file_system, ReadContext()),
                    nullptr};
        } catch (...) {
            return {FilePlan{}, std::current_exception()};
        }
    }

    // Under the lock. A failure becomes the scan's error unless it follows a cancellation.
    void StorePlan(size_t file, FilePlan plan, std::exception_ptr error) {
        FileSlot& slot = files_[file];
        slot.status = error ? FileStatus::Failed : FileStatus::Planned;
        if (error) {
            if (!error_ && !cancelled_.load()) {
                error_ = std::move(error);
            }
            return;
        }
        CountPlanned(plan.planned);
        statistics.files_planned++;
        statistics.files_in_order += plan.planned.in_order ? 1 : 0;
        slot.plan = std::move(plan);
    }

    // Drops the jobs whose rows a filter on file_row_number rules out, then counts the plan.
    void CountPlanned(FileJobs& planned) {
        auto ruled_out = [&](const ScanJobPlan& job) {
            return !binding->RowsMayMatch(filters, job.first_row, job.rows);
        };
        size_t before = planned.jobs.size();
        planned.jobs.erase(std::remove_if(planned.jobs.begin(), planned.jobs.end(), ruled_out),
                           planned.jobs.end());
        planned.jobs_pruned += before - planned.jobs.size();
        for (const ScanJobPlan& job : planned.jobs) {
            planned_bytes_ += job.Bytes();
        }
        statistics.jobs_pruned += planned.jobs_pruned;
        statistics.jobs_pruned_by_bloom += planned.jobs_pruned_by_bloom;
        statistics.units_cut += planned.units_cut;
        statistics.rows_pruned_by_page_index += planned.rows_pruned_by_page_index;
    }

    // The jobs a file's plan left for later (I/O: called without the lock, or under it by the
    // synchronous scan).
    std::pair<FileJobs, std::exception_ptr> ReadRemainingPlan(ScanFile& file) {
        try {
            return {file.PlanRemainingJobs(ReadContext()), nullptr};
        } catch (...) {
            return {FileJobs{}, std::current_exception()};
        }
    }

    // Under the lock: appends them to the file's jobs, or makes a failure the scan's error.
    void StoreRemainingPlan(size_t file, FileJobs jobs, std::exception_ptr error) {
        FileSlot& slot = files_[file];
        slot.planning_more = false;
        slot.plan.planned.more = false;
        if (error) {
            if (!error_ && !cancelled_.load()) {
                error_ = std::move(error);
            }
            return;
        }
        CountPlanned(jobs);
        std::move(jobs.jobs.begin(), jobs.jobs.end(), std::back_inserter(slot.plan.planned.jobs));
    }

    // Under the lock: plans the rest of `file`'s jobs on the ASYNC pool while its first jobs are
    // fetched (a remote Parquet file's page index and bloom filters).
    void PlanRemainingAhead(size_t file) {
        FileSlot& slot = files_[file];
        if (slot.status != FileStatus::Planned || !slot.plan.planned.more || slot.planning_more) {
            return;
        }
        slot.planning_more = true;
        auto self = shared_from_this();
        services.scheduler->Schedule(std::make_shared<FunctionTask>(
            TaskPool::Async,
            [self, file, scan_file = slot.plan.file] {
                BackgroundGate::Entry entry = self->background_.Enter();
                if (!entry) {
                    return;
                }
                auto [jobs, error] = self->ReadRemainingPlan(*scan_file);
                bool failed = false;
                std::vector<std::shared_ptr<ScanJob>> created;
                {
                    std::lock_guard<std::mutex> guard(self->mutex_);
                    self->StoreRemainingPlan(file, std::move(jobs), error);
                    failed = self->error_ != nullptr;
                    if (!failed) {
                        // The scan's tasks may all be parked on the first jobs' bytes: the
                        // read-ahead continues from here rather than when those arrive.
                        self->TopUp(created);
                    }
                }
                if (failed) {
                    self->Cancel();
                } else {
                    self->StartFetches(created);
                    self->WakeWaiters();
                }
            },
            [self](std::exception_ptr error) { self->Fail(std::move(error)); }));
    }

    // Schedules the planning (footer reads) of the next few files on the ASYNC pool, so that a
    // scan of many small files never waits on opening them one after the other.
    void SchedulePlansAhead() {
        size_t ahead = std::max<size_t>(2, services.scheduler->AsyncThreads());
        for (size_t f = next_file_; f < files_.size() && f < next_file_ + ahead; f++) {
            if (files_[f].status != FileStatus::Waiting) {
                continue;
            }
            files_[f].status = FileStatus::Planning;
            auto self = shared_from_this();
            services.scheduler->Schedule(std::make_shared<FunctionTask>(
                TaskPool::Async,
                [self, f] {
                    BackgroundGate::Entry entry = self->background_.Enter();
                    if (!entry) {
                        return;
                    }
                    auto [planned, error] = self->ReadPlan(f);
                    bool failed = false;
                    {
                        std::lock_guard<std::mutex> guard(self->mutex_);
                        self->StorePlan(f, std::move(planned), error);
                        self->PlanRemainingAhead(f);
                        failed = self->error_ != nullptr;
                    }
                    if (failed) {
                        self->Cancel(); // stops the other fetches and wakes every waiting task
                    } else {
                        self->WakeWaiters();
                    }
                },
                [self](std::exception_ptr error) { self->Fail(std::move(error)); }));
        }
    }

    // The requests of `plan`, coalesced as its file's link currently suggests.
    CoalescedRanges LayOut(const FileSlot& slot, const ScanJobPlan& plan) {
        CoalescingOptions chosen = options.coalescing;
        std::optional<InFlightController::RequestEstimate> estimate;
        if (options.fit_gap_to_link || options.fit_request_to_link) {
            if (auto link = slot.plan.file->handle()->InFlight()) {
                estimate = link->Estimate();
            }
        }
        if (estimate) {
            CoalescingOptions fitted = CoalescingForLink(
                estimate->first_byte_seconds, estimate->bytes_per_second, estimate->link_full);
            chosen.max_gap = options.fit_gap_to_link ? fitted.max_gap : chosen.max_gap;
            chosen.max_request =
                options.fit_request_to_link ? fitted.max_request : chosen.max_request;
        }
        statistics.NoteCoalescing(chosen, estimate);
        return CoalesceRanges(plan.ranges, chosen);
    }

    std::shared_ptr<ScanJob> CreateJob(size_t file, const ScanJobPlan& plan,
                                       CoalescedRanges layout) {
        size_t requests = layout.requests.size();
        auto job = std::make_shared<ScanJob>(file, sequence_++, plan, std::move(layout),
                                             files_[file].plan.file->handle());
        job->ExpectFetches(requests);
        window_.Add(job->Bytes());
        return job;
    }

    // Creates jobs in file / job order while the depth or the budget admits them.
    void TopUp(std::vector<std::shared_ptr<ScanJob>>& created) {
        SchedulePlansAhead();
        while (next_file_ < files_.size() && !cancelled_.load()) {
            FileSlot& slot = files_[next_file_];
            if (slot.status != FileStatus::Planned) {
                return; // planning: its completion wakes the waiters
            }
            if (next_job_ >= slot.plan.planned.jobs.size()) {
                if (slot.plan.planned.more) {
                    PlanRemainingAhead(next_file_);
                    return; // its completion wakes the waiters
                }
                next_file_++;
                next_job_ = 0;
                SchedulePlansAhead();
                continue;
            }
            const ScanJobPlan& plan = slot.plan.planned.jobs[next_job_];
            CoalescedRanges layout = LayOut(slot, plan);
            if (!window_.Admit(layout.RegionBytes())) {
                return;
            }
            auto job = CreateJob(next_file_, plan, std::move(layout));
            created.push_back(job);
            queue_.push_back(Own(std::move(job)));
            next_job_++;
        }
    }

    mutable std::mutex mutex_; // guards everything below except the atomics
    std::vector<FileSlot> files_;
    size_t next_file_ = 0; // where TopUp creates the next job
    size_t next_job_ = 0;
    size_t sequence_ = 0;
    std::deque<ScanJobHandle> queue_; // created, not yet claimed, oldest first
    std::vector<Waker> waiters_;
    std::exception_ptr error_;

    std::atomic<bool> cancelled_{false};
    BackgroundGate background_; // fetches and file plans
    ReadAheadWindow window_;    // under mutex_
    uint64_t max_job_bytes_ = 0;
    JobFetcher fetcher_;

    std::atomic<uint64_t> planned_bytes_{0};
    std::atomic<uint64_t> decoded_bytes_{0};
};

namespace {

struct ScanLocal : LocalState {
    std::shared_ptr<MultiFileScan::State> state;
    ScanJobHandle job; // claimed; outlives the decoder reading its buffers
    std::unique_ptr<ScanJobDecoder> decoder;
    bool decoder_ready = false;
    int task_id = 0;
    bool parked = false;
    std::chrono::steady_clock::time_point parked_at;
};

} // namespace

MultiFileScan::MultiFileScan(std::shared_ptr<ScanFormat> format,
                             std::shared_ptr<const MultiFileBinding> binding,
                             std::vector<idx_t> column_ids, std::vector<LeafMask> leaf_masks,
                             std::vector<TableFilter> filters, ScanOptions options,
                             ScanServices services)
    : state_(std::make_shared<State>(std::move(format), std::move(binding), std::move(column_ids),
                                     std::move(leaf_masks), std::move(filters), options,
                                     services)) {
}

MultiFileScan::~MultiFileScan() {
    state_->StopBackgroundWork();
}

std::string MultiFileScan::Name() const {
    return state_->format->Name();
}

std::vector<LogicalType> MultiFileScan::OutputTypes() const {
    return state_->types;
}

std::unique_ptr<LocalState> MultiFileScan::InitLocal() {
    auto local = std::make_unique<ScanLocal>();
    local->state = state_;
    local->task_id = state_->next_task_id++;
    return local;
}

idx_t MultiFileScan::MaxThreads() const {
    // Jobs are not known before the files are planned; extra tasks find no job and finish.
    return std::max<idx_t>(1, state_->services.scheduler->RegularThreads());
}

idx_t MultiFileScan::BatchIndex(LocalState* local) const {
    auto& scan = *static_cast<ScanLocal*>(local);
    // A job's chunks all come from the task that claimed it, in order.
    return scan.job ? scan.job->sequence : 0;
}

double MultiFileScan::Progress() const {
    return state_->Progress();
}

void MultiFileScan::Cancel() {
    state_->Cancel();
}

void MultiFileScan::StopBackgroundWork() {
    state_->StopBackgroundWork();
}

const ScanStatistics& MultiFileScan::statistics() const {
    return state_->statistics;
}

std::string MultiFileScan::ProfileDetails() const {
    state_->statistics.budget_shrinks = state_->BudgetShrinks();
    return state_->statistics.Render("jobs", state_->options.read_ahead_depth);
}

SourceResult MultiFileScan::GetData(DataChunk& out, LocalState* local_state, TaskContext& context) {
    auto& local = *static_cast<ScanLocal*>(local_state);
    State& state = *state_;
    if (local.parked) {
        auto now = std::chrono::steady_clock::now();
        state.statistics.parks++;
        state.statistics.park_nanos += static_cast<uint64_t>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(now - local.parked_at).count());
        if (auto recorder = TraceRecorder::Active()) {
            recorder->Interval("parked", "scan task " + std::to_string(local.task_id),
                               local.parked_at, now);
        }
        local.parked = false;
    }
    auto park = [&] {
        local.parked = true;
        local.parked_at = std::chrono::steady_clock::now();
        return SourceResult::Blocked;
    };
    while (true) {
        if (local.decoder) {
            if (!local.decoder_ready) {
                if (state.cancelled()) {
                    state.ThrowIfFailed();
                    return SourceResult::Finished;
                }
                Waker waker = context.MakeWaker();
                if (!local.decoder->Ready(waker)) {
                    // Also on the scan's own waiter list, so that a cancellation wakes it; a
                    // cancellation before that is seen here.
                    state.AddWaiter(waker);
                    if (state.cancelled()) {
                        state.ThrowIfFailed();
                        return SourceResult::Finished;
                    }
                    return park();
                }
                local.decoder_ready = true;
            }
            bool more;
            {
                ScopedTraceSpan span("decode");
                more = local.decoder->Next(out);
            }
            if (more) {
                return SourceResult::HaveMoreOutput;
            }
            state.statistics.rows_filtered += local.decoder->RowsFiltered();
            local.decoder.reset();
            local.job.Reset();
            continue;
        }
        if (local.job) {
            if (!local.job->ReadyOrPark(context.MakeWaker())) {
                return park();
            }
            local.decoder = state.StartDecoding(local.job);
            local.decoder_ready = false;
            if (!local.decoder) {
                return SourceResult::Finished; // cancelled
            }
            continue;
        }
        State::Claim claim = state.options.read_ahead_depth == 0
                                 ? state.ClaimSynchronously(local.job)
                                 : state.ClaimJob(local.job, context);
        if (claim == State::Claim::Finished) {
            return SourceResult::Finished;
        }
        if (claim == State::Claim::Blocked) {
            return park();
        }
    }
}

} // namespace sluice
