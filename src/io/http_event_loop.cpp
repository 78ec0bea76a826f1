#include "io/http_event_loop.hpp"

#include "common/exception.hpp"
#include "common/string_util.hpp"

#include <algorithm>
#include <cstring>
#include <curl/curl.h>
#include <random>

namespace sluice {

namespace {

thread_local bool tls_on_event_thread = false;

bool IsTransientCurlError(CURLcode code) {
    switch (code) {
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_SSL_CONNECT_ERROR:
        return true;
    default:
        return false;
    }
}

// Retry-After in seconds (the HTTP-date form is rare from object stores and is ignored).
std::optional<uint64_t> RetryAfterSeconds(const HttpResponse& response) {
    const std::string* value = response.Header("retry-after");
    if (!value || value->empty() || value->size() > 9 ||
        !std::all_of(value->begin(), value->end(), [](char c) { return std::isdigit(c); })) {
        return std::nullopt;
    }
    return std::stoull(*value);
}

} // namespace

// One try at a transfer on an easy handle of its own: the first, a retry, or a hedge sent beside
// a slow first. Connections outlive attempts in the multi handle's cache.
struct HttpEventLoop::Attempt {
    Transfer* transfer = nullptr;
    CURL* curl = nullptr;
    HttpResponse response;
    char error[CURL_ERROR_SIZE] = {};
    bool overflow = false;  // a 206 body longer than the range
    bool answered = false;  // its status line arrived
    bool abandoned = false; // its twin's body came first: it is aborted
    bool in_multi = false;  // added to the multi handle, not yet removed
    Clock::time_point started;
};

// A request on its way: one attempt at a time, or two while a hedge runs.
struct HttpEventLoop::Transfer {
    HttpEventLoop* loop = nullptr;
    HttpRequest request;
    HttpOptions options;
    HttpCompletion done;
    std::unique_ptr<Attempt> attempt; // none while waiting for a retry
    std::unique_ptr<Attempt> hedge;   // a copy of `attempt` sent because it was slow to answer
    bool body_taken = false;          // with a hedge: one of the two began its 2xx body
    HttpResponse response;            // the final answer, handed to `done`
    curl_slist* headers = nullptr;
    std::string range;
    uint64_t expected = 0; // the range's size, when a destination is given
    // Queued: waiting for its host's window; Running: counted in it (in the multi handle once
    // started); Waiting: for its retry's time.
    enum class State { Queued, Running, Waiting } state = State::Waiting;
    std::string host;
    InFlightController* link = nullptr; // its host's
    uint32_t tries = 0;                 // attempts that failed before the current one
    double wait_ms = 0;
    Clock::time_point retry_at;
    std::minstd_rand jitter{static_cast<uint32_t>(Clock::now().time_since_epoch().count())};

    // The attempt that is not `one` (with a hedge running).
    Attempt& Twin(const Attempt& one) { return attempt.get() == &one ? *hedge : *attempt; }

    // libcurl's callbacks: `user` is the attempt.
    static size_t OnHeader(char* data, size_t size, size_t count, void* user);
    static size_t OnBody(char* data, size_t size, size_t count, void* user);
};

size_t HttpEventLoop::Transfer::OnHeader(char* data, size_t size, size_t count, void* user) {
    auto& attempt = *static_cast<Attempt*>(user);
    HttpResponse& response = attempt.response;
    std::string_view line(data, size * count);
    if (line.rfind("HTTP/", 0) == 0) {
        attempt.answered = true;
        response.headers.clear(); // a new response (after a redirect or 100-continue)
        return size * count;
    }
    size_t colon = line.find(':');
    if (colon != std::string_view::npos) {
        response.headers[Lower(Trim(line.substr(0, colon)))] =
            std::string(Trim(line.substr(colon + 1)));
    }
    return size * count;
}

size_t HttpEventLoop::Transfer::OnBody(char* data, size_t size, size_t count, void* user) {
    auto& attempt = *static_cast<Attempt*>(user);
    Transfer& transfer = *attempt.transfer;
    if (attempt.abandoned) {
        return 0;
    }
    size_t bytes = size * count;
    long status = 0;
    curl_easy_getinfo(attempt.curl, CURLINFO_RESPONSE_CODE, &status);
    if (transfer.hedge && !transfer.body_taken && status >= 200 && status < 300) {
        // The first 2xx body of the two wins: the other is aborted before it writes a byte.
        transfer.body_taken = true;
        Attempt& twin = transfer.Twin(attempt);
        twin.abandoned = true;
        transfer.loop->abandoned_.push_back(&twin);
    }
    HttpResponse& response = attempt.response;
    if (status == 206 && transfer.request.destination) {
        if (response.received + bytes > transfer.expected) {
            attempt.overflow = true;
            return 0; // more than the range asked for: abort, the attempt reports it
        }
        std::memcpy(transfer.request.destination + response.received, data, bytes);
    } else {
        response.body.append(data, bytes);
    }
    response.received += bytes;
    transfer.link->Received(bytes);
    return bytes;
}

HttpEventLoop::HttpEventLoop(HttpStats& stats, InFlightControllers& controllers)
    : stats_(stats), controllers_(controllers) {
    multi_ = curl_multi_init();
    share_ = curl_share_init();
    if (!multi_ || !share_) {
        curl_multi_cleanup(static_cast<CURLM*>(multi_));
        curl_share_cleanup(static_cast<CURLSH*>(share_));
        throw Exception(ErrorKind::IO, "could not create libcurl's multi and share handles");
    }
    // Only this loop's thread uses the share, so it needs no locks.
    curl_share_setopt(static_cast<CURLSH*>(share_), CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
    curl_share_setopt(static_cast<CURLSH*>(share_), CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
    thread_ = std::thread([this] { Run(); });
}

HttpEventLoop::~HttpEventLoop() {
    {
        std::lock_guard<std::mutex> guard(mutex_);
        stopping_ = true;
    }
    curl_multi_wakeup(static_cast<CURLM*>(multi_));
    thread_.join();
    curl_multi_cleanup(static_cast<CURLM*>(multi_));
    curl_share_cleanup(static_cast<CURLSH*>(share_));
}

bool HttpEventLoop::OnEventThread() {
    return tls_on_event_thread;
}

void HttpEventLoop::Submit(HttpRequest request, const HttpOptions& options, HttpCompletion done) {
    auto transfer = std::make_unique<Transfer>();
    transfer->loop = this;
    transfer->request = std::move(request);
    transfer->options = options;
    transfer->done = std::move(done);
    transfer->wait_ms = static_cast<double>(options.retry_wait_ms);
    {
        std::lock_guard<std::mutex> guard(mutex_);
        submitted_.push_back(std::move(transfer));
    }
    curl_multi_wakeup(static_cast<CURLM*>(multi_));
}

bool HttpEventLoop::TakeSubmitted() {
    std::deque<std::unique_ptr<Transfer>> submitted;
    bool stopping;
    {
        std::lock_guard<std::mutex> guard(mutex_);
        submitted.swap(submitted_);
        stopping = stopping_;
    }
    if (!submitted.empty()) {
        next_sweep_ = Clock::time_point{}; // their cancel flags are watched from now
    }
    for (auto& owned : submitted) {
        Transfer& transfer = *owned;
        transfers_.emplace(&transfer, std::move(owned));
        const HttpOptions& options = transfer.options;
        if (options.connections_per_host != connections_per_host_ || options.io_threads != loops_ ||
            options.max_in_flight != max_in_flight_) {
            connections_per_host_ = options.connections_per_host;
            loops_ = std::max<uint32_t>(1, options.io_threads);
            max_in_flight_ = options.max_in_flight;
            curl_multi_setopt(static_cast<CURLM*>(multi_), CURLMOPT_MAX_HOST_CONNECTIONS,
                              static_cast<long>(connections_per_host_));
            // Idle connections kept for the next requests. libcurl's default keeps four per
            // easy handle added: as a statement's last transfers end, the count of handles
            // falls and the pool is pruned to a few, so the next statement would connect anew.
            curl_multi_setopt(static_cast<CURLM*>(multi_), CURLMOPT_MAXCONNECTS,
                              static_cast<long>(connections_per_host_));
            for (auto& [name, host] : hosts_) {
                host.window.SetCeiling(connections_per_host_);
                host.link->SetLimits(connections_per_host_ * loops_, max_in_flight_);
            }
        }
        transfer.host = HttpClient::HostOf(transfer.request.url);
        Admit(transfer);
    }
    return !stopping;
}

void HttpEventLoop::Admit(Transfer& transfer) {
    auto found = hosts_.find(transfer.host);
    if (found == hosts_.end()) {
        auto link = controllers_.For(transfer.host, connections_per_host_ * loops_);
        link->SetLimits(connections_per_host_ * loops_, max_in_flight_);
        found = hosts_.try_emplace(transfer.host, connections_per_host_, std::move(link)).first;
    }
    Host& host = found->second;
    transfer.link = host.link.get();
    if (!CanStart(host) || !host.queued.empty()) { // first come, first served
        transfer.state = Transfer::State::Queued;
        host.queued.push_back(&transfer);
        host.link->Waited();
        return;
    }
    host.window.Started();
    transfer.state = Transfer::State::Running;
    StartAttempt(transfer);
}

bool HttpEventLoop::CanStart(const Host& host) const {
    // Each loop takes its share of the host's target, rounded up.
    uint32_t share = (host.link->target() + loops_ - 1) / loops_;
    return host.window.CanStart() && host.window.running() < share;
}

void HttpEventLoop::AdmitQueued() {
    auto now = Clock::now();
    for (auto& [name, host] : hosts_) {
        if (!host.queued.empty()) {
            host.link->Waited();
        }
        host.link->Tick(now);
        while (!host.queued.empty() && CanStart(host)) {
            Transfer* transfer = host.queued.front();
            host.queued.pop_front();
            host.window.Started();
            transfer->state = Transfer::State::Running;
            StartAttempt(*transfer);
        }
    }
}

void HttpEventLoop::LeaveWindow(Transfer& transfer, bool throttled) {
    if (transfer.state != Transfer::State::Running) {
        return;
    }
    transfer.state = Transfer::State::Waiting;
    ConcurrencyWindow& window = hosts_.at(transfer.host).window;
    if (window.Finished(throttled, Clock::now())) {
        stats_.throttled++;
    }
    auto size = static_cast<uint64_t>(window.window());
    uint64_t smallest = stats_.smallest_window.load();
    while (size < smallest && !stats_.smallest_window.compare_exchange_weak(smallest, size)) {
    }
}

void HttpEventLoop::Run() {
    tls_on_event_thread = true;
    CURLM* multi = static_cast<CURLM*>(multi_);
    while (TakeSubmitted()) {
        int running = 0;
        curl_multi_perform(multi, &running);
        ReleaseAbandoned();
        int queued = 0;
        while (CURLMsg* message = curl_multi_info_read(multi, &queued)) {
            if (message->msg != CURLMSG_DONE) {
                continue;
            }
            char* attempt = nullptr;
            curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &attempt);
            OnAttemptDone(*reinterpret_cast<Attempt*>(attempt), message->data.result);
        }
        int timeout = Sweep();
        AdmitQueued();
        if (!transfers_.empty()) {
            timeout = std::min(timeout, kTickMs); // the controllers' steps end on time
        }
        curl_multi_poll(multi, nullptr, 0, timeout, nullptr);
    }
    while (!transfers_.empty()) {
        Finish(*transfers_.begin()->first,
               std::make_exception_ptr(
                   Exception(ErrorKind::Interrupted, "the HTTP client was closed")));
    }
}

void HttpEventLoop::StartAttempt(Transfer& transfer) {
    const HttpRequest& request = transfer.request;
    transfer.response = HttpResponse();
    transfer.expected = request.range ? request.range->second - request.range->first + 1 : 0;
    if (request.range) {
        transfer.range =
            std::to_string(request.range->first) + "-" + std::to_string(request.range->second);
    } else if (request.suffix) {
        transfer.range = "-" + std::to_string(*request.suffix);
    }
    if (transfer.headers) {
        curl_slist_free_all(transfer.headers);
        transfer.headers = nullptr;
    }
    try {
        std::vector<std::string> all = request.headers;
        if (request.sign) {
            for (auto& header : request.sign(request)) {
                all.push_back(std::move(header));
            }
        }
        for (const auto& header : all) {
            transfer.headers = curl_slist_append(transfer.headers, header.c_str());
        }
    } catch (...) {
        Finish(transfer, std::current_exception());
        return;
    }
    transfer.attempt = LaunchAttempt(transfer);
    if (!transfer.attempt) {
        Finish(transfer,
               std::make_exception_ptr(Exception(ErrorKind::IO, "could not start a request for " +
                                                                    RedactUrl(request.url))));
        return;
    }
    if (std::optional<Clock::time_point> at = HedgeTime(transfer)) {
        next_sweep_ = std::min(next_sweep_, *at);
    }
}

std::unique_ptr<HttpEventLoop::Attempt> HttpEventLoop::LaunchAttempt(Transfer& transfer) {
    // A fresh easy handle per attempt: libcurl 7.88 keeps a pointer to the last header of a
    // handle's previous transfer and follows it when the next response opens with a folded
    // header line (a use after free, fixed upstream in 8.1.0). Connections are not lost by
    // this: they live in the multi handle's cache, and TLS sessions in the loop's share.
    auto attempt = std::make_unique<Attempt>();
    attempt->transfer = &transfer;
    attempt->curl = curl_easy_init();
    CURL* curl = attempt->curl;
    if (!curl) {
        return nullptr;
    }
    const HttpRequest& request = transfer.request;
    const HttpOptions& options = transfer.options;
    curl_easy_setopt(curl, CURLOPT_SHARE, share_);
    curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(curl, CURLOPT_PRIVATE, attempt.get());
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, attempt->error);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, static_cast<long>(options.timeout_seconds));
    // A stall: under 1 byte/s for http_timeout seconds (before the first byte too).
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, static_cast<long>(options.timeout_seconds));
    curl_easy_setopt(curl, CURLOPT_TCP_KEEPALIVE, 1L);
    if (!options.ca_cert_file.empty()) {
        curl_easy_setopt(curl, CURLOPT_CAINFO, options.ca_cert_file.c_str());
    }
    if (!options.ca_cert_dir.empty()) {
        curl_easy_setopt(curl, CURLOPT_CAPATH, options.ca_cert_dir.c_str());
    }
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, Transfer::OnHeader);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, attempt.get());
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, Transfer::OnBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, attempt.get());
    curl_easy_setopt(curl, CURLOPT_NOBODY, request.method == "HEAD" ? 1L : 0L);
    if (!transfer.range.empty()) {
        curl_easy_setopt(curl, CURLOPT_RANGE, transfer.range.c_str());
    }
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, transfer.headers);
    stats_.requests++;
    attempt->started = Clock::now();
    if (curl_multi_add_handle(static_cast<CURLM*>(multi_), curl) != CURLM_OK) {
        curl_easy_cleanup(curl);
        return nullptr;
    }
    attempt->in_multi = true;
    return attempt;
}

void HttpEventLoop::StartHedge(Transfer& transfer) {
    transfer.hedge = LaunchAttempt(transfer);
    if (!transfer.hedge) {
        return; // the first attempt goes on alone
    }
    transfer.body_taken = false;
    stats_.hedged++;
    if (ReadStatistics* caller = transfer.request.context.statistics) {
        caller->hedged++;
    }
}

void HttpEventLoop::EndAttempt(Attempt& attempt) {
    Transfer& transfer = *attempt.transfer;
    if (attempt.in_multi) {
        curl_multi_remove_handle(static_cast<CURLM*>(multi_), attempt.curl);
    }
    curl_easy_cleanup(attempt.curl);
    if (transfer.hedge.get() == &attempt) {
        transfer.hedge.reset();
    } else {
        transfer.attempt = std::move(transfer.hedge); // the hedge, if any, carries on alone
    }
}

void HttpEventLoop::CountReceived(const Transfer& transfer, const Attempt& attempt) {
    stats_.bytes += attempt.response.received;
    long connects = 0;
    if (curl_easy_getinfo(attempt.curl, CURLINFO_NUM_CONNECTS, &connects) != CURLE_OK) {
        connects = 0;
    }
    if (connects > 0) {
        stats_.connections += static_cast<uint64_t>(connects);
        if (transfer.request.url.rfind("https://", 0) == 0) {
            stats_.tls_handshakes += static_cast<uint64_t>(connects);
        }
    }
    if (ReadStatistics* caller = transfer.request.context.statistics) {
        caller->requests++;
        caller->bytes += attempt.response.received;
        caller->connections += static_cast<uint64_t>(std::max(connects, 0L));
        curl_off_t first_byte = 0;
        if (curl_easy_getinfo(attempt.curl, CURLINFO_STARTTRANSFER_TIME_T, &first_byte) ==
                CURLE_OK &&
            first_byte > 0) {
            caller->first_byte_micros += static_cast<uint64_t>(first_byte);
            caller->first_byte_samples++;
        }
    }
}

void HttpEventLoop::ReleaseAbandoned() {
    for (Attempt* attempt : abandoned_) {
        CountReceived(*attempt->transfer, *attempt);
        EndAttempt(*attempt);
    }
    abandoned_.clear();
}

void HttpEventLoop::OnAttemptDone(Attempt& attempt, int curl_code) {
    auto code = static_cast<CURLcode>(curl_code);
    Transfer& transfer = *attempt.transfer;
    CURL* curl = attempt.curl;
    curl_multi_remove_handle(static_cast<CURLM*>(multi_), curl);
    attempt.in_multi = false;
    HttpRequest& request = transfer.request;
    HttpResponse& response = attempt.response;
    const HttpOptions& options = transfer.options;
    CountReceived(transfer, attempt);
    if (code == CURLE_OK) {
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
    }
    bool failed = code != CURLE_OK || HttpClient::IsTransientStatus(response.status, response.body);
    if (transfer.hedge) {
        Attempt& twin = transfer.Twin(attempt);
        if (failed) {
            // The twin may still answer: this attempt just ends (no retry is spent on it).
            stats_.CountFailure(code == CURLE_OK ? response.status : 0);
            EndAttempt(attempt);
            return;
        }
        // The first answer wins; the twin is aborted, whatever it received counted.
        CountReceived(transfer, twin);
        EndAttempt(twin);
    }
    std::string problem;
    bool transient = false;
    std::optional<uint64_t> retry_after;
    if (code != CURLE_OK) {
        if (attempt.overflow) {
            problem = "the server sent more than the " + std::to_string(transfer.expected) +
                      " bytes asked for";
        } else {
            problem = attempt.error[0] ? std::string(attempt.error) : curl_easy_strerror(code);
            if (code == CURLE_OPERATION_TIMEDOUT) {
                problem += " (http_timeout is " + std::to_string(options.timeout_seconds) + " s)";
            } else if (code == CURLE_PEER_FAILED_VERIFICATION || code == CURLE_SSL_CACERT_BADFILE) {
                problem += " (verified against the certificate authorities " +
                           (options.ca_cert_file.empty() ? std::string("of the system")
                                                         : "in '" + options.ca_cert_file + "'") +
                           "; ca_cert_file sets others)";
            }
            transient = IsTransientCurlError(code);
        }
        LeaveWindow(transfer, false);
        stats_.CountFailure(0);
    } else {
        curl_off_t total = 0;
        curl_off_t first_byte = 0;
        curl_easy_getinfo(curl, CURLINFO_TOTAL_TIME_T, &total);
        curl_easy_getinfo(curl, CURLINFO_STARTTRANSFER_TIME_T, &first_byte);
        transfer.link->Completed(static_cast<double>(total) / 1e6,
                                 static_cast<double>(first_byte) / 1e6, response.received);
        hosts_.at(transfer.host).hedging.Record(static_cast<double>(first_byte) / 1e6);
        LeaveWindow(transfer, HttpClient::IsThrottling(response.status, response.body));
        if (!failed) {
            if (response.status >= 400) {
                stats_.CountFailure(response.status);
            }
            transfer.response = std::move(response);
            Finish(transfer, nullptr);
            return;
        }
        stats_.CountFailure(response.status);
        problem = "HTTP " + HttpStatusText(response.status);
        retry_after = RetryAfterSeconds(response);
        transient = true;
    }
    if (!transient || transfer.tries >= options.retries) {
        std::string tries = transfer.tries == 0 ? ""
                                                : " (after " + std::to_string(transfer.tries + 1) +
                                                      " attempts; http_retries is " +
                                                      std::to_string(options.retries) + ")";
        Finish(transfer, std::make_exception_ptr(Exception(
                             ErrorKind::IO, request.method + " " + RedactUrl(request.url) +
                                                " failed: " + problem + tries)));
        return;
    }
    stats_.retries++;
    if (ReadStatistics* caller = request.context.statistics) {
        caller->retries++;
    }
    // Exponential backoff with +-25% jitter; a Retry-After from the server wins if longer.
    double wait =
        transfer.wait_ms * std::uniform_real_distribution<double>(0.75, 1.25)(transfer.jitter);
    if (retry_after) {
        wait = std::max(wait, 1000.0 * static_cast<double>(std::min(
                                           *retry_after, options.max_retry_after_seconds)));
    }
    transfer.retry_at = Clock::now() + std::chrono::microseconds(static_cast<int64_t>(wait * 1000));
    next_sweep_ = std::min(next_sweep_, transfer.retry_at);
    transfer.wait_ms *= options.retry_backoff;
    transfer.tries++;
    EndAttempt(attempt);
}

int HttpEventLoop::Sweep() {
    auto now = Clock::now();
    if (now < next_sweep_) {
        // Nothing is due yet: the loop wakes for every socket event, and looking at every
        // transfer each time cost more CPU than the transfers' own bookkeeping.
        return static_cast<int>(
            std::chrono::duration_cast<std::chrono::milliseconds>(next_sweep_ - now).count() + 1);
    }
    int timeout = 1000;
    auto until = [&](Clock::time_point when) {
        auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(when - now).count() + 1;
        timeout = std::min<int>(timeout, static_cast<int>(std::min<int64_t>(wait, 1000)));
    };
    std::vector<Transfer*> cancelled;
    std::vector<Transfer*> due;
    std::vector<Transfer*> slow;
    for (auto& [transfer, owned] : transfers_) {
        if (transfer->request.context.Cancelled()) {
            cancelled.push_back(transfer);
        } else if (transfer->state != Transfer::State::Waiting) {
            if (transfer->request.context.cancel) {
                timeout = std::min(timeout, kCancelPollMs);
            }
            if (std::optional<Clock::time_point> at = HedgeTime(*transfer)) {
                if (*at <= now) {
                    slow.push_back(transfer);
                } else {
                    until(*at);
                }
            }
        } else if (transfer->retry_at <= now) {
            due.push_back(transfer);
        } else {
            until(transfer->retry_at);
            if (transfer->request.context.cancel) {
                timeout = std::min(timeout, kCancelPollMs);
            }
        }
    }
    for (Transfer* transfer : cancelled) {
        Finish(*transfer, std::make_exception_ptr(
                              Exception(ErrorKind::Interrupted,
                                        "request cancelled: " + RedactUrl(transfer->request.url))));
    }
    for (Transfer* transfer : due) {
        Admit(*transfer);
    }
    for (Transfer* transfer : slow) {
        StartHedge(*transfer);
    }
    if (!due.empty()) {
        timeout = 0;
    }
    next_sweep_ = now + std::chrono::milliseconds(timeout);
    return timeout;
}

std::optional<HttpEventLoop::Clock::time_point>
HttpEventLoop::HedgeTime(const Transfer& transfer) const {
    const Attempt* attempt = transfer.attempt.get();
    if (!attempt || transfer.hedge || attempt->answered || !transfer.options.hedging ||
        transfer.request.method != "GET") {
        return std::nullopt;
    }
    std::optional<double> delay = hosts_.at(transfer.host).hedging.Delay();
    if (!delay) {
        return std::nullopt;
    }
    return attempt->started +
           std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(*delay));
}

void HttpEventLoop::Finish(Transfer& transfer, std::exception_ptr error) {
    if (transfer.state == Transfer::State::Queued) {
        auto& queued = hosts_.at(transfer.host).queued;
        queued.erase(std::find(queued.begin(), queued.end(), &transfer));
    }
    while (transfer.attempt || transfer.hedge) {
        EndAttempt(transfer.hedge ? *transfer.hedge : *transfer.attempt);
    }
    LeaveWindow(transfer, false);
    if (transfer.headers) {
        curl_slist_free_all(transfer.headers);
    }
    std::unique_ptr<Transfer> owned = std::move(transfers_.at(&transfer));
    transfers_.erase(&transfer);
    HttpCompletion done = std::move(owned->done);
    HttpResponse response = std::move(owned->response);
    owned.reset();
    done(std::move(response), std::move(error));
}

} // namespace sluice
