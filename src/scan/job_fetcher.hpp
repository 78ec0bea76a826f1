#pragma once

#include "scan/background_gate.hpp"
#include "scan/scan_job.hpp"
#include "scan/scan_options.hpp"
#include "scan/scan_statistics.hpp"

#include <atomic>
#include <exception>
#include <functional>
#include <memory>

namespace sluice {

// Brings a job's bytes: each coalesced region from the external file cache when it has it (and
// the scan may use it), else by its range requests, which then go into the cache for later
// queries. Requests go to the handle as asynchronous reads when it takes them (HTTP, S3: no
// thread waits), else run as blocking tasks on the ASYNC pool; or here, one after the other, when
// the scan reads synchronously. Every fetch runs inside the scan's gate and the job's, so that
// neither the scan nor the job's buffers go while a transfer writes into them.
class JobFetcher {
public:
    JobFetcher(const ScanOptions& options, const ScanServices& services, ScanStatistics& statistics,
               const std::atomic<bool>& cancelled, BackgroundGate& scan_gate);

    // Starts the job's requests. Each task keeps `owner` alive and hands a
    // failed request's error to `fail`; the last one to finish completes the job.
    void Start(const std::shared_ptr<ScanJob>& job, std::shared_ptr<void> owner,
               std::function<void(std::exception_ptr)> fail);
    // Reads the job's requests on this thread and completes it; a failed request throws.
    void FetchHere(ScanJob& job);

private:
    // Starts one request as an asynchronous read; false when the scan or the job is closing.
    bool StartAsync(const std::shared_ptr<ScanJob>& job, const std::shared_ptr<void>& owner,
                    const std::function<void(std::exception_ptr)>& fail, size_t request);
    void ScheduleBlocking(const std::shared_ptr<ScanJob>& job, std::shared_ptr<void> owner,
                          std::function<void(std::exception_ptr)> fail, size_t request);
    // A request ended (after leaving the gates): its error goes to `fail`, and the last one
    // completes the job.
    void EndFetch(ScanJob& job, const std::function<void(std::exception_ptr)>& fail,
                  std::exception_ptr error);
    uint8_t* RequestTarget(ScanJob& job, size_t request);
    void CountRequest(const ByteRange& range);
    bool CachedRegion(ScanJob& job, size_t region);
    void ReadRequest(ScanJob& job, size_t request);
    // The job's last fetch is done: keep its remote bytes for later queries.
    void OnJobFetched(ScanJob& job);

    const ScanOptions& options_;
    const ScanServices& services_;
    ScanStatistics& statistics_;
    const std::atomic<bool>& cancelled_;
    BackgroundGate& scan_gate_;
};

} // namespace sluice
