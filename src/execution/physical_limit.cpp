#include "execution/physical_limit.hpp"

#include "common/cast.hpp"
#include "common/exception.hpp"
#include "execution/expression_executor.hpp"

#include <algorithm>

namespace sluice {

std::optional<uint64_t> LimitCount(const Value& value, bool at_run_time) {
    if (value.IsNull()) {
        return std::nullopt;
    }
    if (at_run_time) {
        try {
            return static_cast<uint64_t>(CastValue(value, LogicalTypeId::UBIGINT).GetInteger());
        } catch (const Exception& error) {
            throw Exception(ErrorKind::InvalidInput, error.RawMessage());
        }
    }
    int64_t count = static_cast<int64_t>(CastValue(value, LogicalTypeId::BIGINT).GetInteger());
    if (count < 0) {
        throw Exception(ErrorKind::Binder, "LIMIT/OFFSET cannot be negative");
    }
    return static_cast<uint64_t>(count);
}

OperatorResult PhysicalLimit::Execute(DataChunk& input, DataChunk& output, LocalState* /*local*/) {
    uint64_t first;
    {
        std::lock_guard<std::mutex> guard(mutex_);
        if (!counts_known_) {
            if (limit_expression_) {
                limit_ = LimitCount(ExpressionExecutor::EvaluateConstant(*limit_expression_), true);
            }
            if (offset_expression_) {
                offset_ =
                    LimitCount(ExpressionExecutor::EvaluateConstant(*offset_expression_), true)
                        .value_or(0);
            }
            counts_known_ = true;
        }
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
