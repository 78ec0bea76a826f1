#pragma once

#include "parallel/pipeline.hpp"

#include <memory>
#include <mutex>
#include <string>

namespace sluice {

// The sink of COPY (query) TO 'file.parquet' when row groups are too large to hold
// (ParquetCopySink::kMaxRowGroupRows): streams the query's rows into a file writer (Append(chunk),
// Finish(), rows_written()). The pipeline feeding it runs as one task, so rows keep the query's
// order.
template <class Writer>
class CopyToFileSink : public PipelineSink {
public:
    CopyToFileSink(std::string name, std::unique_ptr<Writer> writer)
        : name_(std::move(name)), writer_(std::move(writer)) {}

    std::string Name() const override { return name_; }
    SinkResult Sink(DataChunk& chunk, LocalState* /*local*/, idx_t /*batch_index*/) override {
        std::lock_guard<std::mutex> guard(mutex_);
        writer_->Append(chunk);
        return SinkResult::NeedMoreInput;
    }
    void Finalize() override {
        std::lock_guard<std::mutex> guard(mutex_);
        writer_->Finish();
    }
    uint64_t rows_written() const { return writer_->rows_written(); }

private:
    std::string name_;
    std::mutex mutex_;
    std::unique_ptr<Writer> writer_;
};

} // namespace sluice
