#include "memory/temporary_memory_manager.hpp"

#include <algorithm>

namespace sluice {

TemporaryMemoryState::~TemporaryMemoryState() {
    manager_.Unregister(this);
    manager_.memory().Release(granted_.load());
}

idx_t TemporaryMemoryState::Request(idx_t wanted) {
    wanted = std::max(wanted, minimum_);
    std::lock_guard<std::mutex> guard(mutex_);
    idx_t granted = granted_.load();
    idx_t target = std::min(wanted, std::max(minimum_, manager_.FairShare()));
    target = std::max(target, in_use_.load());
    if (target < granted) {
        manager_.memory().Release(granted - target);
        granted = target;
    } else if (target > granted) {
        // The minimum is taken even past the limit: without it the owner cannot progress at all.
        if (granted < minimum_) {
            manager_.memory().ReserveForced(minimum_ - granted);
            granted = minimum_;
        }
        if (target > granted) {
            granted += manager_.memory().ReservePartly(target - granted);
        }
    }
    granted_.store(granted);
    return granted;
}

idx_t TemporaryMemoryState::Shrink() {
    std::unique_lock<std::mutex> guard(mutex_, std::try_to_lock);
    if (!guard.owns_lock()) {
        return 0; // busy changing its grant; its next Request sees the new share anyway
    }
    idx_t granted = granted_.load();
    idx_t keep = std::max(minimum_, in_use_.load());
    if (granted <= keep) {
        return 0;
    }
    manager_.memory().Release(granted - keep);
    granted_.store(keep);
    shrinks_.fetch_add(1);
    return granted - keep;
}

TemporaryMemoryManager::TemporaryMemoryManager(MemoryManager& memory) : memory_(memory) {
    memory_.SetReclaimer([this] { Reclaim(); });
}

TemporaryMemoryManager::~TemporaryMemoryManager() {
    memory_.SetReclaimer(nullptr);
}

std::unique_ptr<TemporaryMemoryState> TemporaryMemoryManager::Register(idx_t minimum) {
    std::unique_ptr<TemporaryMemoryState> state(new TemporaryMemoryState(*this, minimum));
    std::lock_guard<std::mutex> guard(mutex_);
    states_.push_back(state.get());
    return state;
}

void TemporaryMemoryManager::Unregister(TemporaryMemoryState* state) {
    std::lock_guard<std::mutex> guard(mutex_);
    states_.erase(std::remove(states_.begin(), states_.end(), state), states_.end());
}

idx_t TemporaryMemoryManager::FairShare() const {
    idx_t limit = memory_.limit();
    idx_t used = memory_.used();
    idx_t temporary_total = 0;
    size_t count = 0;
    {
        std::lock_guard<std::mutex> guard(mutex_);
        for (const TemporaryMemoryState* other : states_) {
            temporary_total += other->granted_.load();
        }
        count = std::max<size_t>(1, states_.size());
    }
    // Memory held by ordinary reservations is not available; what the states hold is theirs
    // to share.
    idx_t ordinary = used > temporary_total ? used - temporary_total : 0;
    idx_t free_for_temporary = limit > ordinary ? limit - ordinary : 0;
    idx_t allowance = std::min(free_for_temporary, static_cast<idx_t>(limit * kMaxShareOfLimit));
    return allowance / count;
}

idx_t TemporaryMemoryManager::Granted() const {
    std::lock_guard<std::mutex> guard(mutex_);
    idx_t total = 0;
    for (const TemporaryMemoryState* state : states_) {
        total += state->granted();
    }
    return total;
}

idx_t TemporaryMemoryManager::StateCount() const {
    std::lock_guard<std::mutex> guard(mutex_);
    return states_.size();
}

void TemporaryMemoryManager::Reclaim() {
    std::lock_guard<std::mutex> guard(mutex_);
    for (TemporaryMemoryState* state : states_) {
        state->Shrink();
    }
}

} // namespace sluice
