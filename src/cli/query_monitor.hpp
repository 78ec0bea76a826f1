#pragma once

#include "main/connection.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace sluice {

// Watches a running statement from a helper thread for as long as it lives: forwards Ctrl-C to
// the connection (a signal handler may not take locks) and, on a terminal, draws a progress bar
// (after `delay`, so quick statements stay quiet), prefixed with `label`.
class QueryMonitor {
public:
    QueryMonitor(Connection& connection, bool progress_bar, std::string label = "",
                 std::chrono::milliseconds delay = std::chrono::seconds(2));
    ~QueryMonitor();
    QueryMonitor(const QueryMonitor&) = delete;
    QueryMonitor& operator=(const QueryMonitor&) = delete;

private:
    void Run();
    void Draw(double progress);

    Connection& connection_;
    bool progress_bar_;
    std::string label_;
    std::chrono::milliseconds delay_;
    bool drawn_ = false;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool done_ = false;
    std::thread thread_;
};

// Routes Ctrl-C to the running statement (it is cancelled) instead of killing the process.
void InstallInterruptHandler();

} // namespace sluice
