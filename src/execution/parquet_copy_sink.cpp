#include "execution/parquet_copy_sink.hpp"

namespace sluice {

SinkResult ParquetCopySink::Sink(DataChunk& chunk, LocalState* /*local*/, idx_t /*batch_index*/) {
    std::lock_guard<std::mutex> guard(mutex_);
    writer_->Append(chunk);
    return SinkResult::NeedMoreInput;
}

void ParquetCopySink::Finalize() {
    std::lock_guard<std::mutex> guard(mutex_);
    writer_->Finish();
}

} // namespace sluice
