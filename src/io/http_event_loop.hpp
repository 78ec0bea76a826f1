#pragma once

#include "io/http_client.hpp"

#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace sluice {

// One event thread driving any number of HTTP transfers on one curl multi handle: transfers are
// added as they are submitted, progress as their sockets become ready (curl_multi_poll), and end
// with their completion called on this thread. Waits for a retry are timers here, not sleeping
// threads, and a cancel flag is noticed within kCancelPollMs. The multi handle keeps the
// connections, so later transfers to the same host reuse them.
class HttpEventLoop {
public:
    explicit HttpEventLoop(HttpStats& stats);
    // Ends every transfer still here as Interrupted, then joins the thread.
    ~HttpEventLoop();
    HttpEventLoop(const HttpEventLoop&) = delete;
    HttpEventLoop& operator=(const HttpEventLoop&) = delete;

    void Submit(HttpRequest request, const HttpOptions& options, HttpCompletion done);

    // Whether the calling thread is an event thread (which must never wait for a transfer).
    static bool OnEventThread();

    static constexpr int kCancelPollMs = 10;

private:
    struct Transfer;
    using Clock = std::chrono::steady_clock;

    void Run();
    // Takes the submitted transfers; false once the loop is stopping.
    bool TakeSubmitted();
    void StartAttempt(Transfer& transfer);
    void OnAttemptDone(Transfer& transfer, int curl_code);
    // Ends cancelled transfers, starts retries that are due; returns the poll timeout.
    int Sweep();
    void Finish(Transfer& transfer, std::exception_ptr error);

    HttpStats& stats_;
    void* multi_ = nullptr; // CURLM*
    std::vector<void*> idle_easy_;
    std::unordered_map<Transfer*, std::unique_ptr<Transfer>> transfers_;
    uint32_t connections_per_host_ = 0;

    std::mutex mutex_;
    std::deque<std::unique_ptr<Transfer>> submitted_;
    bool stopping_ = false;
    std::thread thread_;
};

} // namespace sluice
