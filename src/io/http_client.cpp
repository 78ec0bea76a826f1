#include "io/http_client.hpp"

#include "common/exception.hpp"
#include "io/read_context.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <curl/curl.h>
#include <random>
#include <thread>

namespace sluice {

namespace {

// libcurl's global state, set up once before any handle exists.
void EnsureCurlInitialized() {
    static const bool initialized = [] {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
            throw Exception(ErrorKind::IO, "could not initialise libcurl");
        }
        return true;
    }();
    (void)initialized;
}

std::string Lower(std::string text) {
    for (char& c : text) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return text;
}

std::string TrimSpace(const std::string& text) {
    size_t begin = text.find_first_not_of(" \t\r\n");
    if (begin == std::string::npos) {
        return "";
    }
    size_t end = text.find_last_not_of(" \t\r\n");
    return text.substr(begin, end - begin + 1);
}

// State of one transfer, seen by libcurl's callbacks.
struct Transfer {
    HttpRequest* request;
    HttpResponse* response;
    CURL* curl;
    uint64_t expected = 0; // the range's size, when a destination is given
    bool overflow = false; // a 206 body longer than the range
};

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
    auto& transfer = *static_cast<Transfer*>(user);
    std::string line(data, size * count);
    if (line.rfind("HTTP/", 0) == 0) {
        transfer.response->headers.clear(); // a new response (after a redirect or 100-continue)
        return size * count;
    }
    size_t colon = line.find(':');
    if (colon != std::string::npos) {
        transfer.response->headers[Lower(TrimSpace(line.substr(0, colon)))] =
            TrimSpace(line.substr(colon + 1));
    }
    return size * count;
}

size_t OnBody(char* data, size_t size, size_t count, void* user) {
    auto& transfer = *static_cast<Transfer*>(user);
    size_t bytes = size * count;
    long status = 0;
    curl_easy_getinfo(transfer.curl, CURLINFO_RESPONSE_CODE, &status);
    HttpResponse& response = *transfer.response;
    if (status == 206 && transfer.request->destination) {
        if (response.received + bytes > transfer.expected) {
            transfer.overflow = true;
            return 0; // more than the range asked for: abort, the caller reports it
        }
        std::memcpy(transfer.request->destination + response.received, data, bytes);
    } else {
        response.body.append(data, bytes);
    }
    response.received += bytes;
    return bytes;
}

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
    if (!value || value->empty() ||
        !std::all_of(value->begin(), value->end(), [](char c) { return std::isdigit(c); })) {
        return std::nullopt;
    }
    return std::stoull(*value);
}

} // namespace

// An easy handle driven through its own multi handle: the transfer then runs in a loop that
// looks at the cancel flag every kCancelPollMs, where curl_easy_perform's progress callback may
// wait a second between calls while no data flows (waiting for the first byte, say). The multi
// handle keeps the connections, so they are reused by the next transfer on this handle.
struct HttpClient::Handle {
    CURL* curl = nullptr;
    CURLM* multi = nullptr;
    char error[CURL_ERROR_SIZE] = {};
    ~Handle() {
        if (curl) {
            curl_easy_cleanup(curl);
        }
        if (multi) {
            curl_multi_cleanup(multi);
        }
    }

    static constexpr int kCancelPollMs = 10;

    CURLcode Perform(const std::atomic<bool>* cancel) {
        if (curl_multi_add_handle(multi, curl) != CURLM_OK) {
            return CURLE_FAILED_INIT;
        }
        CURLcode result = CURLE_OK;
        int running = 1;
        while (running) {
            if (curl_multi_perform(multi, &running) != CURLM_OK) {
                result = CURLE_FAILED_INIT;
                break;
            }
            if (!running) {
                break;
            }
            if (cancel && cancel->load(std::memory_order_relaxed)) {
                result = CURLE_ABORTED_BY_CALLBACK;
                break;
            }
            curl_multi_poll(multi, nullptr, 0, kCancelPollMs, nullptr);
        }
        int queued = 0;
        while (CURLMsg* message = curl_multi_info_read(multi, &queued)) {
            if (message->msg == CURLMSG_DONE && message->easy_handle == curl &&
                result == CURLE_OK) {
                result = message->data.result;
            }
        }
        curl_multi_remove_handle(multi, curl);
        return result;
    }
};

const std::string* HttpResponse::Header(const std::string& lower_name) const {
    auto entry = headers.find(lower_name);
    return entry == headers.end() ? nullptr : &entry->second;
}

std::string HttpStatusText(long status) {
    switch (status) {
    case 400:
        return "400 Bad Request";
    case 401:
        return "401 Unauthorized";
    case 403:
        return "403 Forbidden";
    case 404:
        return "404 Not Found";
    case 408:
        return "408 Request Timeout";
    case 416:
        return "416 Range Not Satisfiable";
    case 429:
        return "429 Too Many Requests";
    case 500:
        return "500 Internal Server Error";
    case 502:
        return "502 Bad Gateway";
    case 503:
        return "503 Service Unavailable";
    case 504:
        return "504 Gateway Timeout";
    default:
        return std::to_string(status);
    }
}

std::string RedactUrl(const std::string& url) {
    size_t query = url.find('?');
    if (query == std::string::npos) {
        return url;
    }
    std::string lower = Lower(url.substr(query));
    bool secret = lower.find("signature") != std::string::npos ||
                  lower.find("credential") != std::string::npos ||
                  lower.find("token") != std::string::npos;
    return secret ? url.substr(0, query) + "?<redacted>" : url;
}

void HttpStats::CountFailure(long status) {
    failures++;
    std::lock_guard<std::mutex> guard(mutex_);
    by_status_[status]++;
}

std::map<long, uint64_t> HttpStats::FailuresByStatus() const {
    std::lock_guard<std::mutex> guard(mutex_);
    return by_status_;
}

HttpClient::HttpClient() {
    EnsureCurlInitialized();
}

HttpClient::~HttpClient() = default;

void HttpClient::SetOptions(const HttpOptions& options) {
    std::lock_guard<std::mutex> guard(mutex_);
    options_ = options;
}

HttpOptions HttpClient::options() const {
    std::lock_guard<std::mutex> guard(mutex_);
    return options_;
}

std::unique_ptr<HttpClient::Handle> HttpClient::Acquire() {
    {
        std::lock_guard<std::mutex> guard(mutex_);
        if (!idle_.empty()) {
            auto handle = std::move(idle_.back());
            idle_.pop_back();
            return handle;
        }
    }
    auto handle = std::make_unique<Handle>();
    handle->curl = curl_easy_init();
    handle->multi = curl_multi_init();
    if (!handle->curl || !handle->multi) {
        throw Exception(ErrorKind::IO, "could not create a libcurl handle");
    }
    return handle;
}

void HttpClient::Release(std::unique_ptr<Handle> handle) {
    std::lock_guard<std::mutex> guard(mutex_);
    idle_.push_back(std::move(handle));
}

bool HttpClient::IsTransientStatus(long status, const std::string& body) {
    switch (status) {
    case 408:
    case 429:
    case 500:
    case 502:
    case 503:
    case 504:
        return true;
    default:
        // S3 throttles with SlowDown, sometimes under other statuses.
        return body.find("<Code>SlowDown</Code>") != std::string::npos;
    }
}

bool HttpClient::Attempt(Handle& handle, HttpRequest& request, HttpResponse& response,
                         std::string& error, bool& transient) {
    CURL* curl = handle.curl;
    curl_easy_reset(curl); // keeps the handle's live connections
    HttpOptions options = this->options();
    Transfer transfer{&request, &response, curl};
    if (request.range) {
        transfer.expected = request.range->second - request.range->first + 1;
    }
    curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, handle.error);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, static_cast<long>(options.timeout_seconds));
    // A stall: under 1 byte/s for http_timeout seconds (before the first byte too).
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, static_cast<long>(options.timeout_seconds));
    curl_easy_setopt(curl, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, OnHeader);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, OnBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
    if (request.method == "HEAD") {
        curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    }
    std::string range;
    if (request.range) {
        range = std::to_string(request.range->first) + "-" + std::to_string(request.range->second);
        curl_easy_setopt(curl, CURLOPT_RANGE, range.c_str());
    }
    curl_slist* headers = nullptr;
    std::vector<std::string> all = request.headers;
    if (request.sign) {
        for (auto& header : request.sign(request)) {
            all.push_back(std::move(header));
        }
    }
    for (const auto& header : all) {
        headers = curl_slist_append(headers, header.c_str());
    }
    if (headers) {
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    }
    handle.error[0] = '\0';
    stats_.requests++;
    ReadStatistics* caller = CurrentReadContext().statistics;
    CURLcode code = handle.Perform(request.cancel);
    curl_slist_free_all(headers);
    stats_.bytes += response.received;
    if (caller) {
        caller->requests++;
        caller->bytes += response.received;
        curl_off_t first_byte = 0;
        if (curl_easy_getinfo(curl, CURLINFO_STARTTRANSFER_TIME_T, &first_byte) == CURLE_OK &&
            first_byte > 0) {
            caller->first_byte_micros += static_cast<uint64_t>(first_byte);
            caller->first_byte_samples++;
        }
    }
    if (code == CURLE_ABORTED_BY_CALLBACK) {
        throw Exception(ErrorKind::Interrupted, "request cancelled: " + RedactUrl(request.url));
    }
    if (code != CURLE_OK) {
        if (transfer.overflow) {
            error = "the server sent more than the " + std::to_string(transfer.expected) +
                    " bytes asked for";
            transient = false;
            return false;
        }
        error = handle.error[0] ? std::string(handle.error) : curl_easy_strerror(code);
        if (code == CURLE_OPERATION_TIMEDOUT) {
            error += " (http_timeout is " + std::to_string(options.timeout_seconds) + " s)";
        }
        transient = IsTransientCurlError(code);
        return false;
    }
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
    return true;
}

HttpResponse HttpClient::Execute(HttpRequest& request) {
    if (!request.cancel) {
        request.cancel = CurrentReadContext().cancel;
    }
    HttpOptions options = this->options();
    double wait_ms = static_cast<double>(options.retry_wait_ms);
    std::minstd_rand jitter(
        static_cast<uint32_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
    std::string last_problem;
    for (uint32_t attempt = 0;; attempt++) {
        HttpResponse response;
        std::string error;
        bool transient = false;
        auto handle = Acquire();
        bool completed = false;
        try {
            completed = Attempt(*handle, request, response, error, transient);
        } catch (...) {
            Release(std::move(handle));
            throw;
        }
        Release(std::move(handle));
        std::optional<uint64_t> retry_after;
        if (completed) {
            if (!IsTransientStatus(response.status, response.body)) {
                if (response.status >= 400) {
                    stats_.CountFailure(response.status);
                }
                return response;
            }
            last_problem = "HTTP " + HttpStatusText(response.status);
            retry_after = RetryAfterSeconds(response);
            transient = true;
        } else {
            last_problem = error;
        }
        stats_.CountFailure(completed ? response.status : 0);
        if (!transient || attempt >= options.retries) {
            std::string tries = attempt == 0 ? ""
                                             : " (after " + std::to_string(attempt + 1) +
                                                   " attempts; http_retries is " +
                                                   std::to_string(options.retries) + ")";
            throw Exception(ErrorKind::IO, request.method + " " + RedactUrl(request.url) +
                                               " failed: " + last_problem + tries);
        }
        stats_.retries++;
        if (ReadStatistics* caller = CurrentReadContext().statistics) {
            caller->retries++;
        }
        // Exponential backoff with +-25% jitter; a Retry-After from the server wins if longer.
        double wait = wait_ms * std::uniform_real_distribution<double>(0.75, 1.25)(jitter);
        if (retry_after) {
            wait = std::max(wait, 1000.0 * static_cast<double>(std::min(
                                               *retry_after, options.max_retry_after_seconds)));
        }
        auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::microseconds(static_cast<int64_t>(wait * 1000));
        while (std::chrono::steady_clock::now() < deadline) {
            if (request.cancel && request.cancel->load()) {
                throw Exception(ErrorKind::Interrupted,
                                "request cancelled: " + RedactUrl(request.url));
            }
            std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
                deadline - std::chrono::steady_clock::now(), std::chrono::milliseconds(20)));
        }
        wait_ms *= options.retry_backoff;
    }
}

} // namespace sluice
