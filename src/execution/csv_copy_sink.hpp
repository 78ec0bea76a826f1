#pragma once

#include "formats/csv/csv_writer.hpp"
#include "parallel/pipeline.hpp"

#include <mutex>

namespace sluice {

// The sink of COPY (query) TO 'file.csv': streams the query's rows into a CsvFileWriter. The
// pipeline feeding it runs as one task, so rows keep the query's order.
class CsvCopySink : public PipelineSink {
public:
    std::string Name() const override { return "COPY_TO_CSV"; }
    explicit CsvCopySink(std::unique_ptr<csv::CsvFileWriter> writer) : writer_(std::move(writer)) {}

    SinkResult Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) override;
    void Finalize() override;
    uint64_t rows_written() const { return writer_->rows_written(); }

private:
    std::mutex mutex_;
    std::unique_ptr<csv::CsvFileWriter> writer_;
};

} // namespace sluice
