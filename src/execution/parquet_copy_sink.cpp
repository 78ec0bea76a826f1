#include "execution/parquet_copy_sink.hpp"

#include "execution/row_operations.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace sluice {

namespace {

std::unique_ptr<DataChunk> CopyRows(const DataChunk& chunk, idx_t offset, idx_t count) {
    auto copy = std::make_unique<DataChunk>(chunk.Types(), std::max<idx_t>(count, 1));
    idx_t selection[kVectorSize];
    std::iota(selection, selection + count, offset);
    copy->AppendSelected(chunk, selection, count);
    copy->Flatten();
    return copy;
}

} // namespace

struct ParquetCopySink::Local : TaskState {
    Rows buffer; // the batch's rows
};

void ParquetCopySink::Rows::Add(std::unique_ptr<DataChunk> chunk) {
    rows += chunk->size();
    bytes += ChunkMemory(*chunk);
    chunks.push_back(std::move(chunk));
}

ParquetCopySink::ParquetCopySink(std::string path, std::vector<std::string> names,
                                 std::vector<LogicalType> types,
                                 parquet::ParquetWriteOptions options, MemoryManager* memory)
    : schema_(names, types), options_(options),
      column_options_(options.ColumnOptions(parquet::ParquetWriter::DirectoryOf(path))),
      writer_(std::make_unique<parquet::ParquetWriter>(std::move(path), schema_, options)),
      reservation_(memory, "COPY_TO_PARQUET") {
}

std::unique_ptr<OrderedBatchSink::TaskState> ParquetCopySink::NewTaskState() {
    return std::make_unique<Local>();
}

void ParquetCopySink::Append(DataChunk& chunk, TaskState& task) {
    if (chunk.size() > 0) {
        static_cast<Local&>(task).buffer.Add(CopyRows(chunk, 0, chunk.size()));
    }
    // Row groups cut wait for whichever task comes by: encoding spreads over the tasks.
    if (ready_count_.load(std::memory_order_relaxed) > 0) {
        EncodeReady(1);
    }
}

void ParquetCopySink::AfterWatermarkMoved(bool task_done) {
    if (task_done) {
        EncodeReady(std::numeric_limits<idx_t>::max()); // no rows of its own left: it helps
    }
}

void ParquetCopySink::FinishBatch(TaskState& task) {
    auto& local = static_cast<Local&>(task);
    {
        std::lock_guard<std::mutex> guard(mutex_);
        if (local.buffer.rows > 0) {
            held_bytes_ += local.buffer.bytes;
            held_.emplace(local.batch, std::move(local.buffer));
        }
        idx_t total = held_bytes_ + cutting_.rows.bytes + ready_bytes_;
        if (held_bytes_ > kHeldBytes || !reservation_.TryResize(total)) {
            // Too much waits above the watermark: those batches are cut alone.
            for (auto entry = held_.lower_bound(watermark_.Lowest()); entry != held_.end();) {
                alone_.insert(entry->first);
                held_bytes_ -= entry->second.bytes;
                Group group;
                idx_t parts = 0;
                CutInto(entry->first, std::move(entry->second), group, parts);
                if (group.rows.rows > 0) {
                    Ready(std::move(group));
                }
                entry = held_.erase(entry);
            }
        }
        CutGroups(false);
        Account();
    }
    local.buffer = Rows();
}

void ParquetCopySink::Account() {
    reservation_.ForceResize(held_bytes_ + cutting_.rows.bytes + ready_bytes_);
}

void ParquetCopySink::CutGroups(bool final) {
    idx_t watermark = final ? std::numeric_limits<idx_t>::max() : watermark_.Lowest();
    for (auto entry = held_.begin(); entry != held_.end() && entry->first < watermark;) {
        held_bytes_ -= entry->second.bytes;
        Cut(entry->first, std::move(entry->second));
        entry = held_.erase(entry);
    }
    if (final && cutting_.rows.rows > 0) {
        Ready(std::move(cutting_));
        cutting_ = Group();
    }
}

void ParquetCopySink::Ready(Group group) {
    ready_bytes_ += group.rows.bytes;
    ready_.push_back(std::move(group));
    ready_count_.fetch_add(1, std::memory_order_relaxed);
}

void ParquetCopySink::Cut(idx_t batch, Rows rows) {
    if (cutting_.rows.rows > 0) {
        auto alone = alone_.upper_bound(last_cut_batch_);
        if (alone != alone_.end() && *alone < batch) {
            Ready(std::move(cutting_)); // a batch cut alone comes between
            cutting_ = Group();
        }
    }
    last_cut_batch_ = batch;
    idx_t parts = 0;
    CutInto(batch, std::move(rows), cutting_, parts);
}

void ParquetCopySink::CutInto(idx_t batch, Rows rows, Group& group, idx_t& parts) {
    for (size_t c = 0; c < rows.chunks.size(); c++) {
        std::unique_ptr<DataChunk>& chunk = rows.chunks[c];
        idx_t size = chunk->size();
        for (idx_t offset = 0; offset < size;) {
            if (group.rows.rows == 0) {
                bool at_start = c == 0 && offset == 0;
                group.position = {batch, at_start ? 0 : ++parts};
            }
            idx_t take = std::min<idx_t>(size - offset, options_.row_group_size - group.rows.rows);
            group.rows.Add(take == size ? std::move(chunk) : CopyRows(*chunk, offset, take));
            offset += take;
            if (group.rows.rows == options_.row_group_size) {
                Ready(std::move(group));
                group = Group();
            }
        }
    }
}

void ParquetCopySink::EncodeReady(idx_t most) {
    for (idx_t done = 0; done < most; done++) {
        Group group;
        {
            std::lock_guard<std::mutex> guard(mutex_);
            if (ready_.empty()) {
                return;
            }
            group = std::move(ready_.front());
            ready_.pop_front();
            ready_count_.fetch_sub(1, std::memory_order_relaxed);
            ready_bytes_ -= group.rows.bytes;
            Account();
        }
        parquet::RowGroupEncoder encoder(schema_, column_options_);
        for (const auto& chunk : group.rows.chunks) {
            encoder.Append(*chunk, 0, chunk->size());
        }
        group.rows = Rows(); // the rows go before the encoded pages are written
        parquet::EncodedRowGroup encoded = encoder.Finish();
        std::lock_guard<std::mutex> guard(mutex_);
        writer_->AppendRowGroup(std::move(encoded));
        placed_.push_back(group.position);
    }
}

void ParquetCopySink::Finalize() {
    CutGroups(true); // every task has combined: every held batch is complete
    EncodeReady(std::numeric_limits<idx_t>::max());
    std::vector<size_t> order(placed_.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return placed_[a] < placed_[b]; });
    writer_->OrderRowGroups(order);
    writer_->Finish();
}

} // namespace sluice
