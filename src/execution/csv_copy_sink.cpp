#include "execution/csv_copy_sink.hpp"

namespace sluice {

SinkResult CsvCopySink::Sink(DataChunk& chunk, LocalState*, idx_t) {
    std::lock_guard<std::mutex> guard(mutex_);
    writer_->Append(chunk);
    return SinkResult::NeedMoreInput;
}

void CsvCopySink::Finalize() {
    writer_->Finish();
}

} // namespace sluice
