#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sluice {

// Spans of work on the scheduler's threads, written as a Chrome / Perfetto trace (SET
// trace_file): one lane per REGULAR and ASYNC thread, spans for fetches, decodes and parks. While
// a recorder is active every query records into it; Sluice activates one for the one query a
// trace was asked for.
class TraceRecorder {
public:
    using Clock = std::chrono::steady_clock;

    // The recorder spans go to, or null (the common case: one atomic load, no lock).
    static std::shared_ptr<TraceRecorder> Active();
    static void Activate(std::shared_ptr<TraceRecorder> recorder);
    static void Deactivate();

    // A span on the calling thread's lane. `args` is a JSON object's members ("\"bytes\": 12").
    void Span(const char* name, Clock::time_point start, Clock::time_point end,
              std::string args = {});
    // A span not tied to a thread (a parked task: parked on one worker, resumed on another),
    // drawn on its own track named after `track`.
    void Interval(const char* name, const std::string& track, Clock::time_point start,
                  Clock::time_point end);

    // A value over time (drawn as a counter track): the value from `time` on.
    void Counter(const char* name, Clock::time_point time, double value);

    // {"traceEvents": [...]} with thread names for the lanes.
    std::string ToJson() const;

private:
    struct Event {
        std::string name;
        int64_t lane;
        int64_t start_us;
        int64_t duration_us;
        std::string args;
        std::string track; // intervals only
    };
    struct Sample {
        std::string name;
        int64_t time_us;
        double value;
    };
    int64_t Micros(Clock::time_point time) const;

    Clock::time_point origin_ = Clock::now();
    mutable std::mutex mutex_;
    std::vector<Event> events_;
    std::vector<Sample> samples_;
};

// Records a span from construction to destruction when a recorder is active.
class ScopedTraceSpan {
public:
    explicit ScopedTraceSpan(const char* name);
    ~ScopedTraceSpan();
    ScopedTraceSpan(const ScopedTraceSpan&) = delete;
    ScopedTraceSpan& operator=(const ScopedTraceSpan&) = delete;

    void SetArgs(std::string args) { args_ = std::move(args); }

private:
    const char* name_;
    std::shared_ptr<TraceRecorder> recorder_;
    TraceRecorder::Clock::time_point start_;
    std::string args_;
};

} // namespace sluice
