#include "cli/query_monitor.hpp"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace sluice {

namespace {

std::atomic<bool> g_interrupt_requested{false};

void OnSigint(int) {
    g_interrupt_requested.store(true);
}

} // namespace

QueryMonitor::QueryMonitor(Connection& connection, bool progress_bar, std::string label,
                           std::chrono::milliseconds delay)
    : connection_(connection), progress_bar_(progress_bar && isatty(STDERR_FILENO)),
      label_(std::move(label)), delay_(delay), thread_([this] { Run(); }) {
}

QueryMonitor::~QueryMonitor() {
    {
        std::lock_guard<std::mutex> guard(mutex_);
        done_ = true;
    }
    wake_.notify_all();
    thread_.join();
    if (drawn_) {
        std::fprintf(stderr, "\r%*s\r", static_cast<int>(label_.size()) + 60, "");
        std::fflush(stderr);
    }
}

void QueryMonitor::Run() {
    auto start = std::chrono::steady_clock::now();
    auto drawn = start;
    std::unique_lock<std::mutex> lock(mutex_);
    while (!done_) {
        // Ctrl-C is looked at every 10 ms (a query stops within 100 ms of it); the bar is drawn
        // every 100 ms.
        wake_.wait_for(lock, std::chrono::milliseconds(10));
        if (g_interrupt_requested.exchange(false)) {
            connection_.Interrupt();
        }
        auto now = std::chrono::steady_clock::now();
        if (progress_bar_ && !done_ && now - start >= delay_ &&
            now - drawn >= std::chrono::milliseconds(100)) {
            Draw(connection_.QueryProgress());
            drawn = now;
        }
    }
}

void QueryMonitor::Draw(double progress) {
    if (progress < 0) {
        return;
    }
    int percent = static_cast<int>(progress * 100);
    int filled = percent * 40 / 100;
    std::string bar;
    for (int i = 0; i < 40; i++) {
        bar += i < filled ? "█" : " ";
    }
    std::fprintf(stderr, "\r%s%3d%% ▕%s▏", label_.c_str(), percent, bar.c_str());
    std::fflush(stderr);
    drawn_ = true;
}

void InstallInterruptHandler() {
    struct sigaction action {};
    action.sa_handler = OnSigint;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
}

} // namespace sluice
