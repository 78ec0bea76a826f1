#pragma once

#include "parallel/pipeline.hpp"
#include "tpch/tpch_tables.hpp"

#include <atomic>
#include <memory>

namespace sluice::tpch {

// A range of rows that one task generates as a unit (for files: one row group).
struct RowBatch {
    uint64_t first = 0;
    uint64_t count = 0;
};

// Splits rows [first, first + count) into batches of at most `batch_rows`.
void AppendBatches(uint64_t first, uint64_t count, uint64_t batch_rows,
                   std::vector<RowBatch>& batches);

// A pipeline source generating one TPC-H table, batch by batch on as many tasks as there are
// batches; each chunk's batch index is its batch's position, so sinks can restore row order.
class TpchTableSource : public PipelineSource {
public:
    TpchTableSource(std::shared_ptr<const TableGenerator> generator, std::vector<RowBatch> batches);

    std::string Name() const override { return "TPCH_" + TableName(generator_->table()); }
    std::vector<LogicalType> OutputTypes() const override;
    std::unique_ptr<LocalState> InitLocal() override;
    SourceResult GetData(DataChunk& out, LocalState* local, TaskContext& context) override;
    idx_t MaxThreads() const override { return batches_.size(); }
    idx_t BatchIndex(LocalState* local) const override;
    double Progress() const override;
    uint64_t rows_generated() const { return rows_generated_.load(); }

private:
    std::shared_ptr<const TableGenerator> generator_;
    std::vector<RowBatch> batches_;
    uint64_t total_rows_ = 0;
    std::atomic<uint64_t> next_batch_{0};
    std::atomic<uint64_t> rows_generated_{0};
};

} // namespace sluice::tpch
