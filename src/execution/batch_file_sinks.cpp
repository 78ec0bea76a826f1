#include "execution/batch_file_sinks.hpp"

#include "common/exception.hpp"

namespace sluice {

template <class Encoded>
void BatchFileSink<Encoded>::Place(idx_t batch, Encoded encoded) {
    std::lock_guard<std::mutex> guard(mutex_);
    pending_.emplace(batch, std::move(encoded));
    while (!pending_.empty() && pending_.begin()->first == next_batch_) {
        while (plan_.first_batch[file_ + 1] <= next_batch_) {
            file_++; // (files without batches do not occur: plans give each file one or more)
        }
        if (next_batch_ == plan_.first_batch[file_]) {
            OpenFile(plan_.paths[file_]);
        }
        WriteBatch(pending_.begin()->second);
        pending_.erase(pending_.begin());
        next_batch_++;
        if (next_batch_ == plan_.first_batch[file_ + 1]) {
            CloseFile();
        }
    }
}

template <class Encoded>
void BatchFileSink<Encoded>::Finalize() {
    if (!pending_.empty() || next_batch_ != plan_.first_batch.back()) {
        throw Exception(ErrorKind::Internal,
                        "batches missing when writing \"" + plan_.paths[file_] + "\"");
    }
}

template class BatchFileSink<parquet::EncodedRowGroup>;
template class BatchFileSink<std::pair<std::string, uint64_t>>;

namespace {

struct ParquetLocal : LocalState {
    idx_t batch = 0;
    std::unique_ptr<parquet::RowGroupEncoder> encoder;
};

struct CsvLocal : LocalState {
    idx_t batch = 0;
    bool active = false;
    std::string text;
    uint64_t rows = 0;
};

} // namespace

ParquetRowGroupSink::ParquetRowGroupSink(FileBatchPlan plan, std::vector<std::string> names,
                                         std::vector<LogicalType> types,
                                         parquet::ParquetWriteOptions options)
    : BatchFileSink(std::move(plan)), schema_(names, types), options_(options),
      column_options_(options.ColumnOptions(parquet::ParquetWriter::DirectoryOf(plan_.paths[0]))) {
}

std::unique_ptr<LocalState> ParquetRowGroupSink::InitLocal() {
    return std::make_unique<ParquetLocal>();
}

SinkResult ParquetRowGroupSink::Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) {
    auto& state = *static_cast<ParquetLocal*>(local);
    if (state.encoder && state.batch != batch_index) {
        FinishLocal(local);
    }
    if (!state.encoder) {
        state.batch = batch_index;
        state.encoder = std::make_unique<parquet::RowGroupEncoder>(schema_, column_options_);
    }
    state.encoder->Append(chunk, 0, chunk.size());
    return SinkResult::NeedMoreInput;
}

void ParquetRowGroupSink::FinishLocal(LocalState* local) {
    auto& state = *static_cast<ParquetLocal*>(local);
    if (state.encoder) {
        parquet::EncodedRowGroup group = state.encoder->Finish();
        state.encoder.reset();
        Place(state.batch, std::move(group));
    }
}

void ParquetRowGroupSink::Combine(LocalState* local) {
    FinishLocal(local);
}

void ParquetRowGroupSink::OpenFile(const std::string& path) {
    writer_ = std::make_unique<parquet::ParquetWriter>(path, schema_, options_);
}

void ParquetRowGroupSink::WriteBatch(parquet::EncodedRowGroup& encoded) {
    rows_written_ += encoded.rows;
    writer_->AppendRowGroup(std::move(encoded));
}

void ParquetRowGroupSink::CloseFile() {
    writer_->Finish();
    bytes_written_ += writer_->bytes_written();
    writer_.reset();
}

TextBatchSink::TextBatchSink(FileBatchPlan plan, std::vector<std::string> names,
                             csv::CsvWriteOptions options, RowFormatter format)
    : BatchFileSink(std::move(plan)), names_(std::move(names)), options_(std::move(options)),
      format_(std::move(format)) {
}

std::shared_ptr<TextBatchSink> TextBatchSink::Csv(FileBatchPlan plan,
                                                  std::vector<std::string> names,
                                                  csv::CsvWriteOptions options) {
    auto formatter = std::make_shared<csv::CsvFormatter>(options);
    return std::make_shared<TextBatchSink>(std::move(plan), std::move(names), std::move(options),
                                           [formatter](const DataChunk& chunk, std::string& out) {
                                               formatter->AppendRows(chunk, 0, chunk.size(), out);
                                           });
}

std::unique_ptr<LocalState> TextBatchSink::InitLocal() {
    return std::make_unique<CsvLocal>();
}

SinkResult TextBatchSink::Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) {
    auto& state = *static_cast<CsvLocal*>(local);
    if (state.active && state.batch != batch_index) {
        FinishLocal(local);
    }
    state.active = true;
    state.batch = batch_index;
    format_(chunk, state.text);
    state.rows += chunk.size();
    return SinkResult::NeedMoreInput;
}

void TextBatchSink::FinishLocal(LocalState* local) {
    auto& state = *static_cast<CsvLocal*>(local);
    if (state.active) {
        Place(state.batch, {std::move(state.text), state.rows});
        state.text.clear();
        state.rows = 0;
        state.active = false;
    }
}

void TextBatchSink::Combine(LocalState* local) {
    FinishLocal(local);
}

void TextBatchSink::OpenFile(const std::string& path) {
    writer_ = std::make_unique<csv::CsvFileWriter>(path, names_, options_);
}

void TextBatchSink::WriteBatch(std::pair<std::string, uint64_t>& encoded) {
    writer_->Write(encoded.first, encoded.second);
    rows_written_ += encoded.second;
}

void TextBatchSink::CloseFile() {
    writer_->Finish();
    bytes_written_ += writer_->bytes_written();
    writer_.reset();
}

} // namespace sluice
