#include "execution/result_collector.hpp"

namespace sluice {

SinkResult ResultCollector::Sink(DataChunk& chunk, LocalState* /*local*/) {
    auto copy = std::make_unique<DataChunk>(types_, std::max<idx_t>(chunk.size(), 1));
    idx_t selection[kVectorSize];
    for (idx_t row = 0; row < chunk.size(); row++) {
        selection[row] = row;
    }
    copy->AppendSelected(chunk, selection, chunk.size());
    std::lock_guard<std::mutex> guard(mutex_);
    chunks_.push_back(std::move(copy));
    return SinkResult::NeedMoreInput;
}

std::vector<std::unique_ptr<DataChunk>> ResultCollector::TakeChunks() {
    std::lock_guard<std::mutex> guard(mutex_);
    return std::move(chunks_);
}

} // namespace sluice
