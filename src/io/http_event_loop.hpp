#pragma once

#include "io/concurrency_window.hpp"
#include "io/hedging_policy.hpp"
#include "io/http_client.hpp"
#include "io/in_flight_controller.hpp"

#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

namespace sluice {

// One event thread driving any number of HTTP transfers on one curl multi handle: transfers are
// added as they are submitted (as far as their host's limits admit: this loop's share of the
// InFlightController's target and its ConcurrencyWindow; the rest queue, first come first served),
// progress as their sockets become ready (curl_multi_poll), and end with their completion called on
// this thread. Waits for a retry are timers here, not sleeping threads, and a cancel flag is
// noticed within kCancelPollMs. A GET slow to answer is hedged (HedgingPolicy): a copy goes out
// on another connection, the first 2xx body wins and the other copy is aborted before it writes
// a byte. The multi handle keeps the connections, so later transfers to the
// same host reuse them.
class HttpEventLoop {
public:
    HttpEventLoop(HttpStats& stats, InFlightControllers& controllers);
    // Ends every transfer still here as Interrupted, then joins the thread.
    ~HttpEventLoop();
    HttpEventLoop(const HttpEventLoop&) = delete;
    HttpEventLoop& operator=(const HttpEventLoop&) = delete;

    void Submit(HttpRequest request, const HttpOptions& options, HttpCompletion done);

    // Whether the calling thread is an event thread (which must never wait for a transfer).
    static bool OnEventThread();

    static constexpr int kCancelPollMs = 10;
    static constexpr int kTickMs = 20;

private:
    struct Attempt;
    struct Transfer;
    using Clock = std::chrono::steady_clock;

    // Requests to one host (scheme, name and port): how many may run at once is the smaller of
    // this loop's share of the host's self-tuned target and of its throttling window.
    struct Host {
        Host(double ceiling, std::shared_ptr<InFlightController> link)
            : window(ceiling), link(std::move(link)) {}
        ConcurrencyWindow window;
        HedgingPolicy hedging;
        std::shared_ptr<InFlightController> link;
        std::deque<Transfer*> queued;
    };

    void Run();
    // Starts the transfer's attempt if its host's window has room, else queues it.
    void Admit(Transfer& transfer);
    bool CanStart(const Host& host) const;
    // Lets each host's controller decide (and know whether requests wait), then starts what the
    // limits now admit.
    void AdmitQueued();
    // The transfer stops counting in its host's window; `throttled` (503, 429) halves it.
    void LeaveWindow(Transfer& transfer, bool throttled);
    // Takes the submitted transfers; false once the loop is stopping.
    bool TakeSubmitted();
    // Signs the request and launches its next attempt.
    void StartAttempt(Transfer& transfer);
    // A new easy handle for the transfer, added to the multi handle; none if libcurl refuses.
    std::unique_ptr<Attempt> LaunchAttempt(Transfer& transfer);
    // When the transfer's attempt, still without an answer, is to be hedged; none if not.
    std::optional<Clock::time_point> HedgeTime(const Transfer& transfer) const;
    void StartHedge(Transfer& transfer);
    // Removes and frees the attempt; the other one, if any, carries on as the transfer's attempt.
    void EndAttempt(Attempt& attempt);
    // Counts what the attempt cost: bytes, connections, its first byte.
    void CountReceived(const Transfer& transfer, const Attempt& attempt);
    // Ends the attempts whose twin's body came first (marked inside libcurl's callbacks, where
    // handles cannot be removed).
    void ReleaseAbandoned();
    void OnAttemptDone(Attempt& attempt, int curl_code);
    // Ends cancelled transfers, starts retries that are due; returns the poll timeout. Looks at
    // the transfers only when something may be due (next_sweep_): a cancel flag to poll, every
    // kCancelPollMs, or a retry's time.
    int Sweep();
    void Finish(Transfer& transfer, std::exception_ptr error);

    HttpStats& stats_;
    InFlightControllers& controllers_;
    void* multi_ = nullptr; // CURLM*
    void* share_ = nullptr; // CURLSH*: TLS sessions and DNS answers of this loop's handles
    std::unordered_map<Transfer*, std::unique_ptr<Transfer>> transfers_;
    std::vector<Attempt*> abandoned_;
    std::chrono::steady_clock::time_point next_sweep_{};
    uint32_t connections_per_host_ = 0; // this loop's share
    uint32_t loops_ = 1;                // how many loops share each host's target
    uint32_t max_in_flight_ = 0;        // http_max_in_flight: 0 self-tuned
    std::unordered_map<std::string, Host> hosts_;

    std::mutex mutex_;
    std::deque<std::unique_ptr<Transfer>> submitted_;
    bool stopping_ = false;
    std::thread thread_;
};

} // namespace sluice
