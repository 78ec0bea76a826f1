#include "execution/result_collector.hpp"

#include <algorithm>

namespace sluice {

SinkResult ResultCollector::Sink(DataChunk& chunk, LocalState* /*local*/, idx_t batch_index) {
    auto copy = std::make_unique<DataChunk>(types_, std::max<idx_t>(chunk.size(), 1));
    idx_t selection[kVectorSize];
    for (idx_t row = 0; row < chunk.size(); row++) {
        selection[row] = row;
    }
    copy->AppendSelected(chunk, selection, chunk.size());
    std::lock_guard<std::mutex> guard(mutex_);
    entries_.push_back({batch_index, entries_.size(), std::move(copy)});
    return SinkResult::NeedMoreInput;
}

std::vector<std::unique_ptr<DataChunk>> ResultCollector::TakeChunks() {
    std::lock_guard<std::mutex> guard(mutex_);
    std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
        return a.batch_index != b.batch_index ? a.batch_index < b.batch_index
                                              : a.arrival < b.arrival;
    });
    std::vector<std::unique_ptr<DataChunk>> chunks;
    for (auto& entry : entries_) {
        chunks.push_back(std::move(entry.chunk));
    }
    entries_.clear();
    return chunks;
}

} // namespace sluice
