#pragma once

#include "parallel/pipeline.hpp"

#include <atomic>
#include <vector>

namespace sluice {

// Emits a fixed list of rows; with no columns and one row it is the FROM-less SELECT's input.
// Small metadata functions (sluice_settings) materialise their rows into it.
class RowsSource : public PipelineSource {
public:
    std::string Name() const override { return "ROWS"; }
    RowsSource(std::vector<LogicalType> types, std::vector<std::vector<Value>> rows);
    // One row without columns.
    static std::shared_ptr<RowsSource> SingleRow();

    std::vector<LogicalType> OutputTypes() const override { return types_; }
    std::unique_ptr<LocalState> InitLocal() override;
    SourceResult GetData(DataChunk& out, LocalState* local, TaskContext& context) override;
    idx_t BatchIndex(LocalState* local) const override;
    double Progress() const override;

private:
    std::vector<LogicalType> types_;
    std::vector<std::vector<Value>> rows_;
    idx_t row_count_;
    std::atomic<idx_t> next_row_{0};
};

} // namespace sluice
