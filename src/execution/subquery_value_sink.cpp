#include "execution/subquery_value_sink.hpp"

#include "common/exception.hpp"

namespace sluice {

SinkResult SubqueryValueSink::Sink(DataChunk& chunk, LocalState* /*local*/, idx_t /*batch_index*/) {
    std::lock_guard<std::mutex> guard(mutex_);
    if (chunk.size() == 0) {
        return SinkResult::NeedMoreInput;
    }
    if (exists_) {
        rows_ += chunk.size();
        return SinkResult::Finished;
    }
    rows_ += chunk.size();
    if (rows_ > 1) {
        throw Exception(ErrorKind::InvalidInput,
                        "More than one row returned by a subquery used as an expression - scalar "
                        "subqueries can only return a single row.");
    }
    target_->value = chunk.GetValue(0, 0);
    return SinkResult::NeedMoreInput;
}

void SubqueryValueSink::Finalize() {
    if (exists_) {
        target_->value = Value::Boolean(rows_ > 0);
    } else if (rows_ == 0) {
        target_->value = Value::Null(type_);
    }
    target_->filled = true;
}

} // namespace sluice
