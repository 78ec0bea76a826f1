#pragma once

#include "common/types.hpp"

#include <algorithm>
#include <limits>
#include <vector>

namespace sluice {

// What an order-keeping sink knows of the batches still to come. Sources hand batches out in
// increasing order and each task takes them in that order (PipelineSource::BatchIndex), so every
// batch below the lowest one a running task is on is complete: the watermark. Tasks register the
// batch they are on by address (0 until they sink one, which keeps the watermark low until they
// have) and leave when they combine. Not thread-safe: the sink's lock guards it.
class BatchWatermark {
public:
    void Join(const idx_t* batch) { batches_.push_back(batch); }
    void Leave(const idx_t* batch) {
        batches_.erase(std::find(batches_.begin(), batches_.end(), batch));
    }
    // Every batch below it is complete; the largest index once every task has left.
    idx_t Lowest() const {
        idx_t lowest = std::numeric_limits<idx_t>::max();
        for (const idx_t* batch : batches_) {
            lowest = std::min(lowest, *batch);
        }
        return lowest;
    }

private:
    std::vector<const idx_t*> batches_;
};

} // namespace sluice
