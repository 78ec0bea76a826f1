#include "io/concurrency_window.hpp"

#include <algorithm>

namespace sluice {

bool ConcurrencyWindow::Finished(bool throttled, Clock::time_point now) {
    if (running_ > 0) {
        running_--;
    }
    if (!throttled) {
        window_ = std::min(ceiling_, window_ + 1.0 / window_);
        return false;
    }
    if (now - last_decrease_ < kCalmDown) {
        return false;
    }
    last_decrease_ = now;
    window_ = std::max(1.0, window_ / 2);
    return true;
}

void ConcurrencyWindow::SetCeiling(double ceiling) {
    // A raised ceiling is grown into; a lowered one applies at once.
    ceiling_ = ceiling;
    window_ = std::min(window_, ceiling_);
}

} // namespace sluice
