#include "scan/scan_statistics.hpp"

#include "common/memory_size.hpp"

#include <algorithm>
#include <cstdio>

namespace sluice {

void InFlightGauge::Advance(Clock::time_point now) {
    if (started_) {
        area_ += static_cast<double>(current_) *
                 std::chrono::duration<double>(now - last_change_).count();
    }
    last_change_ = now;
}

void InFlightGauge::Begin() {
    std::lock_guard<std::mutex> guard(mutex_);
    auto now = Clock::now();
    Advance(now);
    if (!started_) {
        started_ = true;
        first_ = now;
    }
    current_++;
    peak_ = std::max(peak_, current_);
}

void InFlightGauge::End() {
    std::lock_guard<std::mutex> guard(mutex_);
    auto now = Clock::now();
    Advance(now);
    current_--;
    last_end_ = now;
}

uint64_t InFlightGauge::peak() const {
    std::lock_guard<std::mutex> guard(mutex_);
    return peak_;
}

double InFlightGauge::Mean() const {
    std::lock_guard<std::mutex> guard(mutex_);
    double span = started_ ? std::chrono::duration<double>(last_end_ - first_).count() : 0;
    return span > 0 ? area_ / span : 0;
}

void ScanStatistics::RaiseTo(std::atomic<uint64_t>& counter, uint64_t value) {
    uint64_t seen = counter.load();
    while (seen < value && !counter.compare_exchange_weak(seen, value)) {
    }
}

void ScanStatistics::NoteReadRoute(const std::string& route) {
    std::lock_guard<std::mutex> guard(routes_mutex_);
    if (std::find(routes_.begin(), routes_.end(), route) == routes_.end()) {
        routes_.push_back(route);
    }
}

void ScanStatistics::NoteReads(const FileHandle& handle) {
    NoteReadRoute(handle.ReadRoute());
    std::shared_ptr<const InFlightController> link = handle.InFlight();
    std::lock_guard<std::mutex> guard(routes_mutex_);
    if (link && std::find(links_.begin(), links_.end(), link) == links_.end()) {
        links_.push_back(std::move(link));
    }
}

void ScanStatistics::NoteCoalescing(
    const CoalescingOptions& chosen,
    const std::optional<InFlightController::RequestEstimate>& estimate) {
    std::lock_guard<std::mutex> guard(routes_mutex_);
    CoalescingSeen& seen = coalescing_;
    seen.jobs++;
    seen.smallest.max_gap = std::min(seen.smallest.max_gap, chosen.max_gap);
    seen.smallest.max_request = std::min(seen.smallest.max_request, chosen.max_request);
    seen.largest.max_gap = std::max(seen.largest.max_gap, chosen.max_gap);
    seen.largest.max_request = std::max(seen.largest.max_request, chosen.max_request);
    if (estimate) {
        seen.fitted++;
        seen.last_estimate = *estimate;
    }
}

std::string ScanStatistics::Render(const char* unit_name, int64_t read_ahead_depth) const {
    char buffer[512];
    std::string out;
    auto line = [&](const char* format, auto... values) {
        std::snprintf(buffer, sizeof(buffer), format, values...);
        out += "    ";
        out += buffer;
        out += "\n";
    };
    line("files %llu (%llu planned, %llu pruned by partition, %llu read in order), %s %llu "
         "scanned, %llu pruned (%llu by bloom filters), %llu cut into page-level jobs, rows "
         "skipped by page index %llu, rows filtered while decoding %llu",
         static_cast<unsigned long long>(files.load()),
         static_cast<unsigned long long>(files_planned.load()),
         static_cast<unsigned long long>(files_pruned.load()),
         static_cast<unsigned long long>(files_in_order.load()), unit_name,
         static_cast<unsigned long long>(jobs_scanned.load()),
         static_cast<unsigned long long>(jobs_pruned.load()),
         static_cast<unsigned long long>(jobs_pruned_by_bloom.load()),
         static_cast<unsigned long long>(units_cut.load()),
         static_cast<unsigned long long>(rows_pruned_by_page_index.load()),
         static_cast<unsigned long long>(rows_filtered.load()));
    uint64_t samples = reads.first_byte_samples.load();
    line("bytes requested %s, received %s, from cache %s",
         FormatMemorySize(bytes_requested.load()).c_str(),
         FormatMemorySize(reads.bytes.load()).c_str(),
         FormatMemorySize(bytes_from_cache.load()).c_str());
    line("requests %llu (%llu range reads), retries %llu, hedged %llu, connections opened %llu, "
         "in flight max %llu mean %.1f, first byte mean %.1f ms",
         static_cast<unsigned long long>(reads.requests.load()),
         static_cast<unsigned long long>(fetches.load()),
         static_cast<unsigned long long>(reads.retries.load()),
         static_cast<unsigned long long>(reads.hedged.load()),
         static_cast<unsigned long long>(reads.connections.load()),
         static_cast<unsigned long long>(in_flight.peak()), in_flight.Mean(),
         samples ? static_cast<double>(reads.first_byte_micros.load()) / samples / 1000.0 : 0.0);
    {
        std::lock_guard<std::mutex> guard(routes_mutex_);
        if (!routes_.empty()) {
            std::string joined;
            for (const std::string& route : routes_) {
                joined += (joined.empty() ? "" : "; ") + route;
            }
            line("reads via %s", joined.c_str());
        }
        for (const auto& link : links_) {
            line("%s", link->Describe().c_str());
        }
        const CoalescingSeen& seen = coalescing_;
        auto span = [](uint64_t low, uint64_t high) {
            return low == high ? FormatMemorySize(low)
                               : FormatMemorySize(low) + " to " + FormatMemorySize(high);
        };
        if (seen.jobs > 0) {
            std::string fitted =
                seen.fitted == 0
                    ? std::string("fixed")
                    : std::to_string(seen.fitted) + " of " + std::to_string(seen.jobs) +
                          " jobs fitted to the link: first byte " +
                          std::to_string(static_cast<int>(
                              seen.last_estimate.first_byte_seconds * 1000 + 0.5)) +
                          " ms x " +
                          FormatMemorySize(
                              static_cast<uint64_t>(seen.last_estimate.bytes_per_second)) +
                          "/s per request" + (seen.last_estimate.link_full ? ", link full" : "");
            line("coalescing gaps up to %s, requests up to %s (%s)",
                 span(seen.smallest.max_gap, seen.largest.max_gap).c_str(),
                 span(seen.smallest.max_request, seen.largest.max_request).c_str(), fitted.c_str());
        }
    }
    line("parks %llu, parked %.1f ms", static_cast<unsigned long long>(parks.load()),
         static_cast<double>(park_nanos.load()) / 1e6);
    line("read_ahead_depth %lld, depth reached %llu, budget granted %s (shrunk %llu times), "
         "held max %s, largest job %s",
         static_cast<long long>(read_ahead_depth),
         static_cast<unsigned long long>(depth_reached.load()),
         FormatMemorySize(budget_granted.load()).c_str(),
         static_cast<unsigned long long>(budget_shrinks.load()),
         FormatMemorySize(held_peak.load()).c_str(), FormatMemorySize(largest_job.load()).c_str());
    return out;
}

} // namespace sluice
