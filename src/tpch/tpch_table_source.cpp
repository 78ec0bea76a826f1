#include "tpch/tpch_table_source.hpp"

#include <algorithm>

namespace sluice::tpch {

namespace {

struct BatchCursor : LocalState {
    uint64_t batch = UINT64_MAX;
    uint64_t done = 0; // rows of the batch generated so far
};

} // namespace

void AppendBatches(uint64_t first, uint64_t count, uint64_t batch_rows,
                   std::vector<RowBatch>& batches) {
    for (uint64_t offset = 0; offset < count; offset += batch_rows) {
        batches.push_back({first + offset, std::min(batch_rows, count - offset)});
    }
}

TpchTableSource::TpchTableSource(std::shared_ptr<const TableGenerator> generator,
                                 std::vector<RowBatch> batches)
    : generator_(std::move(generator)), batches_(std::move(batches)) {
    for (const auto& batch : batches_) {
        total_rows_ += batch.count;
    }
}

std::vector<LogicalType> TpchTableSource::OutputTypes() const {
    return SchemaOf(generator_->table()).types;
}

std::unique_ptr<LocalState> TpchTableSource::InitLocal() {
    return std::make_unique<BatchCursor>();
}

SourceResult TpchTableSource::GetData(DataChunk& out, LocalState* local, TaskContext&) {
    auto& cursor = *static_cast<BatchCursor*>(local);
    if (cursor.batch == UINT64_MAX || cursor.done == batches_[cursor.batch].count) {
        cursor.batch = next_batch_.fetch_add(1);
        cursor.done = 0;
        if (cursor.batch >= batches_.size()) {
            cursor.batch = batches_.size();
            return SourceResult::Finished;
        }
    }
    const RowBatch& batch = batches_[cursor.batch];
    auto rows = static_cast<idx_t>(std::min<uint64_t>(kVectorSize, batch.count - cursor.done));
    generator_->Generate(batch.first + cursor.done, rows, out);
    cursor.done += rows;
    rows_generated_.fetch_add(rows);
    return SourceResult::HaveMoreOutput;
}

idx_t TpchTableSource::BatchIndex(LocalState* local) const {
    return static_cast<BatchCursor*>(local)->batch;
}

double TpchTableSource::Progress() const {
    return total_rows_ == 0
               ? 1.0
               : static_cast<double>(rows_generated_.load()) / static_cast<double>(total_rows_);
}

} // namespace sluice::tpch
