#include "execution/physical_limit.hpp"

#include <algorithm>

namespace sluice {

OperatorResult PhysicalLimit::Execute(DataChunk& input, DataChunk& output, LocalState* /*local*/) {
    uint64_t first;
    {
        std::lock_guard<std::mutex> guard(mutex_);
        first = seen_;
        seen_ += input.size();
    }
    uint64_t end = limit_ ? offset_ + *limit_ : UINT64_MAX;
    // Rows [first, first + size) arrive; keep those within [offset, end).
    uint64_t keep_from = std::max(first, offset_);
    uint64_t keep_to = std::min(first + input.size(), end);
    if (keep_from < keep_to) {
        idx_t selection[kVectorSize];
        idx_t count = 0;
        for (uint64_t row = keep_from; row < keep_to; row++) {
            selection[count++] = row - first;
        }
        output.AppendSelected(input, selection, count);
    }
    return first + input.size() >= end ? OperatorResult::Finished : OperatorResult::NeedMoreInput;
}

} // namespace sluice
