#pragma once

#include "io/in_flight_controller.hpp"
#include "io/io_context.hpp"

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace sluice {

// How HTTP requests are retried and bounded (the http_* settings).
struct HttpOptions {
    uint32_t retries = 3;                  // http_retries
    uint64_t retry_wait_ms = 100;          // http_retry_wait_ms: the first wait
    double retry_backoff = 4;              // http_retry_backoff: each wait is this times the last
    uint64_t timeout_seconds = 30;         // http_timeout: a transfer stalled this long fails
    uint64_t max_retry_after_seconds = 60; // a server's Retry-After is honoured up to this
    uint32_t io_threads = 2;               // http_io_threads: event threads driving transfers
    uint32_t connections_per_host = 512;   // http_connections_per_host: at most this many open
    uint32_t max_in_flight = 0; // http_max_in_flight: requests per host at once; 0 self-tuned
    // TLS: the certificate authorities to trust, PEM (ca_cert_file), or a directory of them by
    // hash (SSL_CERT_DIR); empty: the system store.
    std::string ca_cert_file;
    std::string ca_cert_dir;
    bool hedging = true; // http_hedging: a GET slow to answer is sent again (HedgingPolicy)
};

struct HttpRequest {
    std::string method = "GET"; // GET or HEAD
    std::string url;
    std::vector<std::string> headers; // "Name: value"
    // Bytes [first, last] of the object; none: all of it.
    std::optional<std::pair<uint64_t, uint64_t>> range;
    // Or the last `suffix` bytes (Range: bytes=-N; a 206's Content-Range then tells the size).
    std::optional<uint64_t> suffix;
    // Where a 206 body goes (exactly the range's size); other bodies are kept in `body`.
    char* destination = nullptr;
    // Called before each attempt for headers that depend on the time (request signing).
    std::function<std::vector<std::string>(const HttpRequest&)> sign;
    // Its cancel flag aborts the transfer (checked every few milliseconds, waits for a retry
    // included); its statistics count every attempt.
    IoContext context;
};

struct HttpResponse {
    long status = 0;
    std::map<std::string, std::string> headers; // names lower-cased; the final response's
    std::string body;                           // unless written to the request's destination
    uint64_t received = 0;                      // body bytes, wherever they went

    const std::string* Header(const std::string& lower_name) const;
};

// Counters of every request made through one client.
struct HttpStats {
    std::atomic<uint64_t> requests{0};
    std::atomic<uint64_t> retries{0};
    std::atomic<uint64_t> bytes{0};
    std::atomic<uint64_t> failures{0}; // attempts that failed (status or transport)
    // Connections opened (TCP connects), and of them those that began with a TLS handshake.
    std::atomic<uint64_t> connections{0};
    std::atomic<uint64_t> tls_handshakes{0};
    std::atomic<uint64_t> hedged{0}; // requests sent again because the first was slow to answer
    // Times a host's concurrency window was halved (503 SlowDown, 429), and its smallest size.
    std::atomic<uint64_t> throttled{0};
    std::atomic<uint64_t> smallest_window{UINT64_MAX};

    // Failed attempts by HTTP status; transport errors (no status) count under 0.
    void CountFailure(long status);
    std::map<long, uint64_t> FailuresByStatus() const;

private:
    mutable std::mutex mutex_;
    std::map<long, uint64_t> by_status_;
};

// What a submitted request ends with: the response (any status but a transient one), or the
// error that ended it (an IO error naming the URL and the cause once retries are exhausted, or
// at once for a non-transient transport error; Interrupted when cancelled).
using HttpCompletion = std::function<void(HttpResponse response, std::exception_ptr error)>;

class HttpEventLoop;

// HTTP(S) through libcurl, driven by a few event threads (HttpEventLoop, http_io_threads of
// them), each multiplexing any number of transfers on one curl multi handle: requests in flight
// hold no thread. Connections (and TLS sessions) are reused with keep-alive, at most
// http_connections_per_host per host; TLS verified against the system CA store or the one given
// (ca_cert_file), sessions resumed on new connections; proxies from the usual environment
// variables. Transient failures (connection errors, resets, stalls, 408, 429,
// 500, 502, 503, 504 and S3's SlowDown) are retried with exponential backoff and jitter,
// honouring Retry-After; any other response is the caller's to judge. Thread-safe.
class HttpClient {
public:
    HttpClient();
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    void SetOptions(const HttpOptions& options);
    HttpOptions options() const;
    const HttpStats& stats() const { return stats_; }

    // Starts the request and returns at once; `done` runs on an event thread, must be quick,
    // and must not throw or wait for another request.
    void Submit(HttpRequest request, HttpCompletion done);
    // Submit, then wait: returns the response or throws its error.
    HttpResponse Execute(HttpRequest& request);

    // Whether a response status is worth retrying.
    static bool IsTransientStatus(long status, const std::string& body);
    // Whether it asks the client to slow down (503 SlowDown, 429).
    static bool IsThrottling(long status, const std::string& body);

    // The controller of how many requests to the URL's host are in flight (for EXPLAIN ANALYZE).
    std::shared_ptr<const InFlightController> LinkTo(const std::string& url);
    // "https://host:port" of a URL: requests to one host share their limits.
    static std::string HostOf(const std::string& url);

private:
    // The next of the first `loops` event loops, made as needed.
    HttpEventLoop& NextLoop(size_t loops);

    mutable std::mutex mutex_;
    HttpOptions options_;
    HttpStats stats_; // before the loops, which count into it until they stop
    InFlightControllers controllers_;
    std::vector<std::unique_ptr<HttpEventLoop>> loops_; // grown to io_threads, never shrunk
    size_t next_loop_ = 0;
};

// "404 Not Found", "503 Service Unavailable" ...: a status with its reason phrase.
std::string HttpStatusText(long status);

// The URL with any query string's credentials-looking parts kept out of messages.
std::string RedactUrl(const std::string& url);

} // namespace sluice
