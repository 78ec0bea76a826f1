#include "parallel/trace_recorder.hpp"

#include "parallel/task_scheduler.hpp"

#include <atomic>
#include <map>

namespace sluice {

namespace {

std::atomic<TraceRecorder*> active_recorder{nullptr};
std::mutex active_mutex;
std::shared_ptr<TraceRecorder> active_owner; // keeps the active recorder alive

// Lanes: 0 for threads outside the scheduler (the client), 1.. REGULAR, 1001.. ASYNC.
constexpr int64_t kAsyncLaneBase = 1001;

int64_t CurrentLane() {
    TaskPool pool;
    uint32_t index = 0;
    if (!TaskScheduler::OnWorkerThread(pool, index)) {
        return 0;
    }
    return (pool == TaskPool::Regular ? 1 : kAsyncLaneBase) + static_cast<int64_t>(index);
}

std::string LaneName(int64_t lane) {
    if (lane == 0) {
        return "client";
    }
    if (lane >= kAsyncLaneBase) {
        return "ASYNC " + std::to_string(lane - kAsyncLaneBase);
    }
    return "REGULAR " + std::to_string(lane - 1);
}

std::string Quoted(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
        }
        out += c;
    }
    return out + "\"";
}

} // namespace

std::shared_ptr<TraceRecorder> TraceRecorder::Active() {
    if (!active_recorder.load(std::memory_order_acquire)) {
        return nullptr;
    }
    std::lock_guard<std::mutex> guard(active_mutex);
    return active_owner;
}

void TraceRecorder::Activate(std::shared_ptr<TraceRecorder> recorder) {
    std::lock_guard<std::mutex> guard(active_mutex);
    active_recorder.store(recorder.get(), std::memory_order_release);
    active_owner = std::move(recorder);
}

void TraceRecorder::Deactivate() {
    std::lock_guard<std::mutex> guard(active_mutex);
    active_recorder.store(nullptr, std::memory_order_release);
    active_owner.reset(); // spans still open hold their own reference
}

int64_t TraceRecorder::Micros(Clock::time_point time) const {
    return std::chrono::duration_cast<std::chrono::microseconds>(time - origin_).count();
}

void TraceRecorder::Span(const char* name, Clock::time_point start, Clock::time_point end,
                         std::string args) {
    Event event{name, CurrentLane(), Micros(start), Micros(end) - Micros(start), std::move(args),
                ""};
    std::lock_guard<std::mutex> guard(mutex_);
    events_.push_back(std::move(event));
}

void TraceRecorder::Interval(const char* name, const std::string& track, Clock::time_point start,
                             Clock::time_point end) {
    Event event{name, -1, Micros(start), Micros(end) - Micros(start), "", track};
    std::lock_guard<std::mutex> guard(mutex_);
    events_.push_back(std::move(event));
}

void TraceRecorder::Counter(const char* name, Clock::time_point time, double value) {
    std::lock_guard<std::mutex> guard(mutex_);
    samples_.push_back({name, Micros(time), value});
}

std::string TraceRecorder::ToJson() const {
    std::lock_guard<std::mutex> guard(mutex_);
    std::string out = "{\"traceEvents\": [\n";
    std::map<int64_t, std::string> lanes;
    std::map<std::string, int64_t> tracks; // interval tracks get lanes after the threads
    for (const Event& event : events_) {
        if (event.lane >= 0) {
            lanes[event.lane] = LaneName(event.lane);
        } else if (!tracks.count(event.track)) {
            int64_t lane = 100000 + static_cast<int64_t>(tracks.size());
            tracks[event.track] = lane;
            lanes[lane] = event.track;
        }
    }
    bool first = true;
    auto add = [&](const std::string& line) {
        out += first ? "  " : ",\n  ";
        out += line;
        first = false;
    };
    for (const auto& [lane, name] : lanes) {
        add("{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": " +
            std::to_string(lane) + ", \"args\": {\"name\": " + Quoted(name) + "}}");
        add("{\"ph\": \"M\", \"name\": \"thread_sort_index\", \"pid\": 1, \"tid\": " +
            std::to_string(lane) + ", \"args\": {\"sort_index\": " + std::to_string(lane) + "}}");
    }
    for (const Event& event : events_) {
        int64_t lane = event.lane >= 0 ? event.lane : tracks[event.track];
        add("{\"ph\": \"X\", \"name\": " + Quoted(event.name) + ", \"pid\": 1, \"tid\": " +
            std::to_string(lane) + ", \"ts\": " + std::to_string(event.start_us) + ", \"dur\": " +
            std::to_string(event.duration_us) + ", \"args\": {" + event.args + "}}");
    }
    for (const Sample& sample : samples_) {
        add("{\"ph\": \"C\", \"name\": " + Quoted(sample.name) +
            ", \"pid\": 1, \"ts\": " + std::to_string(sample.time_us) +
            ", \"args\": {\"value\": " + std::to_string(sample.value) + "}}");
    }
    out += "\n]}\n";
    return out;
}

ScopedTraceSpan::ScopedTraceSpan(const char* name)
    : name_(name), recorder_(TraceRecorder::Active()) {
    if (recorder_) {
        start_ = TraceRecorder::Clock::now();
    }
}

ScopedTraceSpan::~ScopedTraceSpan() {
    if (recorder_) {
        recorder_->Span(name_, start_, TraceRecorder::Clock::now(), std::move(args_));
    }
}

} // namespace sluice
