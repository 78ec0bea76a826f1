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

// A request on its way. Each attempt has its own easy handle; connections outlive them in the
// multi handle's cache.
struct HttpEventLoop::Transfer {
    HttpRequest request;
    HttpOptions options;
    HttpCompletion done;
    HttpResponse response;
    CURL* curl = nullptr;
    curl_slist* headers = nullptr;
    std::string range;
    char error[CURL_ERROR_SIZE] = {};
    uint64_t expected = 0; // the range's size, when a destination is given
    bool overflow = false; // a 206 body longer than the range
    // Queued: waiting for its host's window; Running: counted in it (in the multi handle once
    // started); Waiting: for its retry's time.
    enum class State { Queued, Running, Waiting } state = State::Waiting;
    std::string host;
    InFlightController* link = nullptr; // its host's
    uint32_t attempt = 0;
    double wait_ms = 0;
    Clock::time_point retry_at;
    std::minstd_rand jitter{static_cast<uint32_t>(Clock::now().time_since_epoch().count())};

    // libcurl's callbacks: `user` is the response for headers, the transfer for the body.
    static size_t OnHeader(char* data, size_t size, size_t count, void* user);
    static size_t OnBody(char* data, size_t size, size_t count, void* user);
};

size_t HttpEventLoop::Transfer::OnHeader(char* data, size_t size, size_t count, void* user) {
    auto& response = *static_cast<HttpResponse*>(user);
    std::string_view line(data, size * count);
    if (line.rfind("HTTP/", 0) == 0) {
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
    auto& transfer = *static_cast<Transfer*>(user);
    size_t bytes = size * count;
    long status = 0;
    curl_easy_getinfo(transfer.curl, CURLINFO_RESPONSE_CODE, &status);
    HttpResponse& response = transfer.response;
    if (status == 206 && transfer.request.destination) {
        if (response.received + bytes > transfer.expected) {
            transfer.overflow = true;
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
        int queued = 0;
        while (CURLMsg* message = curl_multi_info_read(multi, &queued)) {
            if (message->msg != CURLMSG_DONE) {
                continue;
            }
            char* transfer = nullptr;
            curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &transfer);
            OnAttemptDone(*reinterpret_cast<Transfer*>(transfer), message->data.result);
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
    // A fresh easy handle per attempt: libcurl 7.88 keeps a pointer to the last header of a
    // handle's previous transfer and follows it when the next response opens with a folded
    // header line (a use after free, fixed upstream in 8.1.0). Connections are not lost by
    // this: they live in the multi handle's cache, and TLS sessions in the loop's share.
    transfer.curl = curl_easy_init();
    if (!transfer.curl) {
        Finish(transfer, std::make_exception_ptr(
                             Exception(ErrorKind::IO, "could not create a libcurl handle")));
        return;
    }
    CURL* curl = transfer.curl;
    curl_easy_setopt(curl, CURLOPT_SHARE, share_);
    const HttpRequest& request = transfer.request;
    const HttpOptions& options = transfer.options;
    transfer.response = HttpResponse();
    transfer.overflow = false;
    transfer.expected = request.range ? request.range->second - request.range->first + 1 : 0;
    curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(curl, CURLOPT_PRIVATE, &transfer);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, transfer.error);
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
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer.response);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, Transfer::OnBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
    curl_easy_setopt(curl, CURLOPT_NOBODY, request.method == "HEAD" ? 1L : 0L);
    if (request.range) {
        transfer.range =
            std::to_string(request.range->first) + "-" + std::to_string(request.range->second);
        curl_easy_setopt(curl, CURLOPT_RANGE, transfer.range.c_str());
    } else if (request.suffix) {
        transfer.range = "-" + std::to_string(*request.suffix);
        curl_easy_setopt(curl, CURLOPT_RANGE, transfer.range.c_str());
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
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, transfer.headers);
    transfer.error[0] = '\0';
    stats_.requests++;
    if (curl_multi_add_handle(static_cast<CURLM*>(multi_), curl) != CURLM_OK) {
        Finish(transfer,
               std::make_exception_ptr(Exception(ErrorKind::IO, "could not start a request for " +
                                                                    RedactUrl(request.url))));
        return;
    }
}

void HttpEventLoop::OnAttemptDone(Transfer& transfer, int curl_code) {
    auto code = static_cast<CURLcode>(curl_code);
    CURL* curl = transfer.curl;
    curl_multi_remove_handle(static_cast<CURLM*>(multi_), curl);
    HttpRequest& request = transfer.request;
    HttpResponse& response = transfer.response;
    const HttpOptions& options = transfer.options;
    stats_.bytes += response.received;
    long connects = 0;
    if (curl_easy_getinfo(curl, CURLINFO_NUM_CONNECTS, &connects) == CURLE_OK && connects > 0) {
        stats_.connections += static_cast<uint64_t>(connects);
        if (request.url.rfind("https://", 0) == 0) {
            stats_.tls_handshakes += static_cast<uint64_t>(connects);
        }
    }
    if (ReadStatistics* caller = request.context.statistics) {
        caller->requests++;
        caller->bytes += response.received;
        caller->connections += static_cast<uint64_t>(std::max(connects, 0L));
        curl_off_t first_byte = 0;
        if (curl_easy_getinfo(curl, CURLINFO_STARTTRANSFER_TIME_T, &first_byte) == CURLE_OK &&
            first_byte > 0) {
            caller->first_byte_micros += static_cast<uint64_t>(first_byte);
            caller->first_byte_samples++;
        }
    }
    std::string problem;
    bool transient = false;
    std::optional<uint64_t> retry_after;
    if (code != CURLE_OK) {
        if (transfer.overflow) {
            problem = "the server sent more than the " + std::to_string(transfer.expected) +
                      " bytes asked for";
        } else {
            problem = transfer.error[0] ? std::string(transfer.error) : curl_easy_strerror(code);
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
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
        curl_off_t total = 0;
        curl_off_t first_byte = 0;
        curl_easy_getinfo(curl, CURLINFO_TOTAL_TIME_T, &total);
        curl_easy_getinfo(curl, CURLINFO_STARTTRANSFER_TIME_T, &first_byte);
        transfer.link->Completed(static_cast<double>(total) / 1e6,
                                 static_cast<double>(first_byte) / 1e6, response.received);
        LeaveWindow(transfer, HttpClient::IsThrottling(response.status, response.body));
        if (!HttpClient::IsTransientStatus(response.status, response.body)) {
            if (response.status >= 400) {
                stats_.CountFailure(response.status);
            }
            Finish(transfer, nullptr);
            return;
        }
        stats_.CountFailure(response.status);
        problem = "HTTP " + HttpStatusText(response.status);
        retry_after = RetryAfterSeconds(response);
        transient = true;
    }
    if (!transient || transfer.attempt >= options.retries) {
        std::string tries = transfer.attempt == 0
                                ? ""
                                : " (after " + std::to_string(transfer.attempt + 1) +
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
    transfer.attempt++;
    curl_easy_cleanup(curl);
    transfer.curl = nullptr;
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
    std::vector<Transfer*> cancelled;
    std::vector<Transfer*> due;
    for (auto& [transfer, owned] : transfers_) {
        if (transfer->request.context.Cancelled()) {
            cancelled.push_back(transfer);
        } else if (transfer->state != Transfer::State::Waiting) {
            if (transfer->request.context.cancel) {
                timeout = std::min(timeout, kCancelPollMs);
            }
        } else if (transfer->retry_at <= now) {
            due.push_back(transfer);
        } else {
            auto wait =
                std::chrono::duration_cast<std::chrono::milliseconds>(transfer->retry_at - now)
                    .count() +
                1;
            timeout = std::min<int>(timeout, static_cast<int>(std::min<int64_t>(wait, 1000)));
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
    if (!due.empty()) {
        timeout = 0;
    }
    next_sweep_ = now + std::chrono::milliseconds(timeout);
    return timeout;
}

void HttpEventLoop::Finish(Transfer& transfer, std::exception_ptr error) {
    if (transfer.state == Transfer::State::Queued) {
        auto& queued = hosts_.at(transfer.host).queued;
        queued.erase(std::find(queued.begin(), queued.end(), &transfer));
    }
    if (transfer.curl) {
        if (transfer.state == Transfer::State::Running) {
            curl_multi_remove_handle(static_cast<CURLM*>(multi_), transfer.curl);
        }
        curl_easy_cleanup(transfer.curl);
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
