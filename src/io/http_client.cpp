#include "io/http_client.hpp"

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "io/http_event_loop.hpp"

#include <curl/curl.h>
#include <future>

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

} // namespace

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

// The loops go first: their threads end every transfer still in flight.
HttpClient::~HttpClient() = default;

void HttpClient::SetOptions(const HttpOptions& options) {
    std::lock_guard<std::mutex> guard(mutex_);
    options_ = options;
}

HttpOptions HttpClient::options() const {
    std::lock_guard<std::mutex> guard(mutex_);
    return options_;
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
        return IsThrottling(status, body);
    }
}

bool HttpClient::IsThrottling(long status, const std::string& body) {
    // S3 throttles with SlowDown, sometimes under other statuses.
    return status == 429 || status == 503 ||
           body.find("<Code>SlowDown</Code>") != std::string::npos;
}

std::string HttpClient::HostOf(const std::string& url) {
    size_t start = url.find("://");
    start = start == std::string::npos ? 0 : start + 3;
    size_t end = url.find_first_of("/?#", start);
    return url.substr(0, end == std::string::npos ? url.size() : end);
}

std::shared_ptr<const InFlightController> HttpClient::LinkTo(const std::string& url) {
    HttpOptions options = this->options();
    return controllers_.For(HostOf(url), options.connections_per_host);
}

HttpEventLoop& HttpClient::NextLoop(size_t loops) {
    std::lock_guard<std::mutex> guard(mutex_);
    while (loops_.size() < loops) {
        loops_.push_back(std::make_unique<HttpEventLoop>(stats_, controllers_));
    }
    return *loops_[next_loop_++ % loops];
}

void HttpClient::Submit(HttpRequest request, HttpCompletion done) {
    HttpOptions options = this->options();
    // Each loop caps its own connections: together they keep to the setting.
    size_t loops = std::max<size_t>(1, options.io_threads);
    options.connections_per_host = static_cast<uint32_t>(
        std::max<size_t>(1, (options.connections_per_host + loops - 1) / loops));
    NextLoop(loops).Submit(std::move(request), options, std::move(done));
}

HttpResponse HttpClient::Execute(HttpRequest& request) {
    if (HttpEventLoop::OnEventThread()) {
        throw Exception(ErrorKind::Internal,
                        "a blocking HTTP request was made on an HTTP event thread");
    }
    std::promise<HttpResponse> answer;
    std::future<HttpResponse> future = answer.get_future();
    Submit(request, [&answer](HttpResponse response, std::exception_ptr error) {
        if (error) {
            answer.set_exception(std::move(error));
        } else {
            answer.set_value(std::move(response));
        }
    });
    return future.get();
}

} // namespace sluice
