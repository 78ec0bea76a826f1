#include "scan/job_fetcher.hpp"

#include "common/exception.hpp"
#include "io/io_context.hpp"
#include "parallel/function_task.hpp"
#include "parallel/trace_recorder.hpp"

namespace sluice {

JobFetcher::JobFetcher(const ScanOptions& options, const ScanServices& services,
                       ScanStatistics& statistics, const std::atomic<bool>& cancelled,
                       BackgroundGate& scan_gate)
    : options_(options), services_(services), statistics_(statistics), cancelled_(cancelled),
      scan_gate_(scan_gate) {
}

void JobFetcher::Start(const std::shared_ptr<ScanJob>& job, std::shared_ptr<void> owner,
                       std::function<void(std::exception_ptr)> fail) {
    for (size_t r = 0; r < job->regions.size(); r++) {
        if (!CachedRegion(*job, r)) {
            job->regions[r] = ByteBuffer::Allocate(job->layout.regions[r].length);
        }
    }
    bool noted = false;
    for (size_t i = 0; i < job->layout.requests.size(); i++) {
        if (job->from_cache[job->layout.request_region[i]]) {
            if (job->FetchDone(nullptr)) {
                OnJobFetched(*job);
            }
            continue;
        }
        if (!noted) {
            statistics_.NoteReads(*job->handle);
            noted = true;
        }
        if (!job->handle->ReadsAsynchronously() || !StartAsync(job, owner, fail, i)) {
            ScheduleBlocking(job, owner, fail, i);
        }
    }
}

bool JobFetcher::StartAsync(const std::shared_ptr<ScanJob>& job, const std::shared_ptr<void>& owner,
                            const std::function<void(std::exception_ptr)>& fail, size_t request) {
    // Entered now, left when the transfer ends: the buffers and the scan stay while it writes.
    auto entries = std::make_shared<std::pair<BackgroundGate::Entry, BackgroundGate::Entry>>(
        scan_gate_.Enter(), job->fetches.Enter());
    if (!entries->first || !entries->second) {
        return false; // the blocking path reports the cancellation
    }
    const ByteRange& range = job->layout.requests[request];
    auto started = TraceRecorder::Clock::now();
    AsyncRead read;
    read.buffer = RequestTarget(*job, request);
    read.length = range.length;
    read.offset = range.offset;
    read.context = {&cancelled_, &statistics_.reads};
    read.done = [this, owner, fail, job, entries, started](std::exception_ptr error) mutable {
        statistics_.in_flight.End();
        if (auto recorder = TraceRecorder::Active()) {
            recorder->Interval("fetch", "asynchronous reads", started, TraceRecorder::Clock::now());
        }
        entries.reset();
        EndFetch(*job, fail, error);
    };
    CountRequest(range);
    job->handle->ReadAsync(std::move(read));
    return true;
}

void JobFetcher::ScheduleBlocking(const std::shared_ptr<ScanJob>& job, std::shared_ptr<void> owner,
                                  std::function<void(std::exception_ptr)> fail, size_t request) {
    services_.scheduler->Schedule(std::make_shared<FunctionTask>(
        TaskPool::Async,
        [this, owner, fail, job, request] {
            std::exception_ptr error;
            {
                BackgroundGate::Entry scan_entry = scan_gate_.Enter();
                BackgroundGate::Entry job_entry = job->fetches.Enter();
                try {
                    if (!scan_entry || !job_entry) {
                        throw Exception(ErrorKind::Interrupted, "fetch cancelled");
                    }
                    ReadRequest(*job, request);
                } catch (...) {
                    error = std::current_exception();
                }
            }
            EndFetch(*job, fail, error);
        },
        fail));
}

void JobFetcher::EndFetch(ScanJob& job, const std::function<void(std::exception_ptr)>& fail,
                          std::exception_ptr error) {
    if (auto recorder = TraceRecorder::Active()) {
        if (auto link = job.handle->InFlight()) {
            recorder->Counter("in-flight target per host", TraceRecorder::Clock::now(),
                              link->target());
        }
    }
    if (error) {
        fail(error);
    }
    if (job.FetchDone(error)) {
        OnJobFetched(job);
    }
}

void JobFetcher::FetchHere(ScanJob& job) {
    statistics_.NoteReadRoute("blocking reads in the scan task");
    for (size_t r = 0; r < job.regions.size(); r++) {
        if (CachedRegion(job, r)) {
            continue;
        }
        job.regions[r] = ByteBuffer::Allocate(job.layout.regions[r].length);
        for (size_t i = 0; i < job.layout.requests.size(); i++) {
            if (job.layout.request_region[i] == r) {
                ReadRequest(job, i);
            }
        }
    }
    job.ExpectFetches(0); // all read, here
    OnJobFetched(job);
}

bool JobFetcher::CachedRegion(ScanJob& job, size_t region) {
    if (!options_.cache_remote_ranges || !services_.cache || !job.handle->IsRemote()) {
        return false;
    }
    const ByteRange& range = job.layout.regions[region];
    std::optional<ByteBuffer> cached =
        services_.cache->Lookup(*job.handle, range.offset, range.length);
    if (!cached) {
        return false;
    }
    job.regions[region] = std::move(*cached);
    job.from_cache[region] = true;
    statistics_.bytes_from_cache += range.length;
    return true;
}

uint8_t* JobFetcher::RequestTarget(ScanJob& job, size_t request) {
    const ByteRange& range = job.layout.requests[request];
    const ByteRange& region = job.layout.regions[job.layout.request_region[request]];
    return job.regions[job.layout.request_region[request]].get() + (range.offset - region.offset);
}

void JobFetcher::CountRequest(const ByteRange& range) {
    statistics_.fetches++;
    statistics_.bytes_requested += range.length;
    statistics_.in_flight.Begin();
}

void JobFetcher::ReadRequest(ScanJob& job, size_t request) {
    const ByteRange& range = job.layout.requests[request];
    uint8_t* target = RequestTarget(job, request);
    ScopedTraceSpan span("fetch");
    if (TraceRecorder::Active()) {
        span.SetArgs("\"bytes\": " + std::to_string(range.length) + ", \"offset\": " +
                     std::to_string(range.offset) + ", \"file\": " + std::to_string(job.file) +
                     ", \"job\": " + std::to_string(job.sequence));
    }
    CountRequest(range);
    try {
        if (cancelled_.load()) {
            throw Exception(ErrorKind::Interrupted, "fetch cancelled");
        }
        job.handle->Read(target, range.length, range.offset, {&cancelled_, &statistics_.reads});
    } catch (...) {
        statistics_.in_flight.End();
        throw;
    }
    statistics_.in_flight.End();
}

void JobFetcher::OnJobFetched(ScanJob& job) {
    if (!options_.cache_remote_ranges || !services_.cache || !job.handle->IsRemote() ||
        job.error()) {
        return;
    }
    for (size_t r = 0; r < job.regions.size(); r++) {
        if (!job.from_cache[r]) {
            services_.cache->Insert(*job.handle, job.layout.regions[r].offset, job.regions[r]);
        }
    }
}

} // namespace sluice
