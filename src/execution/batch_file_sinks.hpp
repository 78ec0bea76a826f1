#pragma once

#include "formats/csv/csv_writer.hpp"
#include "formats/parquet/parquet_writer.hpp"
#include "parallel/pipeline.hpp"

#include <functional>
#include <map>
#include <mutex>

namespace sluice {

// Which batches make up which file: file i holds batches [first_batch[i], first_batch[i + 1]).
struct FileBatchPlan {
    std::vector<std::string> paths;
    std::vector<idx_t> first_batch; // paths.size() + 1 entries
};

// Sinks that write files from a source whose batches arrive out of order on several tasks: the
// task that produced a batch also encodes it (the expensive part, in parallel), and encoded
// batches are placed in the files in batch order. Each batch must come from a single task.
template <class Encoded>
class BatchFileSink : public PipelineSink {
public:
    explicit BatchFileSink(FileBatchPlan plan) : plan_(std::move(plan)) {}

    void Finalize() override;
    uint64_t rows_written() const { return rows_written_; }
    uint64_t bytes_written() const { return bytes_written_; }

protected:
    // Places one encoded batch in its file once all batches before it are placed.
    void Place(idx_t batch, Encoded encoded);

    virtual void OpenFile(const std::string& path) = 0;
    virtual void WriteBatch(Encoded& encoded) = 0;
    virtual void CloseFile() = 0; // finishes the open file; adds to bytes_written_

    FileBatchPlan plan_;
    uint64_t rows_written_ = 0;
    uint64_t bytes_written_ = 0;

private:
    std::mutex mutex_;
    std::map<idx_t, Encoded> pending_;
    idx_t next_batch_ = 0;
    size_t file_ = 0; // the file batch next_batch_ belongs to
};

// Every batch becomes one row group of a Parquet file.
class ParquetRowGroupSink : public BatchFileSink<parquet::EncodedRowGroup> {
public:
    ParquetRowGroupSink(FileBatchPlan plan, std::vector<std::string> names,
                        std::vector<LogicalType> types, parquet::ParquetWriteOptions options);

    std::string Name() const override { return "PARQUET_ROW_GROUPS"; }
    std::unique_ptr<LocalState> InitLocal() override;
    SinkResult Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) override;
    void Combine(LocalState* local) override;

private:
    void OpenFile(const std::string& path) override;
    void WriteBatch(parquet::EncodedRowGroup& encoded) override;
    void CloseFile() override;
    void FinishLocal(LocalState* local);

    parquet::WriteSchema schema_; // the files' schema, which the row group encoders follow
    parquet::ParquetWriteOptions options_;
    parquet::ColumnEncodeOptions column_options_;
    std::unique_ptr<parquet::ParquetWriter> writer_;
};

// Every batch becomes a run of text lines formatted by `format` (CSV, or dbgen's .tbl); each file
// starts with the CSV header if the options ask for one.
class TextBatchSink : public BatchFileSink<std::pair<std::string, uint64_t>> {
public:
    using RowFormatter = std::function<void(const DataChunk& chunk, std::string& out)>;

    TextBatchSink(FileBatchPlan plan, std::vector<std::string> names, csv::CsvWriteOptions options,
                  RowFormatter format);
    // CSV as DuckDB writes it.
    static std::shared_ptr<TextBatchSink> Csv(FileBatchPlan plan, std::vector<std::string> names,
                                              csv::CsvWriteOptions options);

    std::string Name() const override { return "TEXT_BATCHES"; }
    std::unique_ptr<LocalState> InitLocal() override;
    SinkResult Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) override;
    void Combine(LocalState* local) override;

private:
    void OpenFile(const std::string& path) override;
    void WriteBatch(std::pair<std::string, uint64_t>& encoded) override;
    void CloseFile() override;
    void FinishLocal(LocalState* local);

    std::vector<std::string> names_;
    csv::CsvWriteOptions options_;
    RowFormatter format_;
    std::unique_ptr<csv::CsvFileWriter> writer_;
};

} // namespace sluice
