#include "execution/rows_source.hpp"

#include <algorithm>

namespace sluice {

RowsSource::RowsSource(std::vector<LogicalType> types, std::vector<std::vector<Value>> rows)
    : types_(std::move(types)), rows_(std::move(rows)), row_count_(rows_.size()) {
}

std::shared_ptr<RowsSource> RowsSource::SingleRow() {
    return std::make_shared<RowsSource>(std::vector<LogicalType>{},
                                        std::vector<std::vector<Value>>(1));
}

namespace {
struct RowsLocal : LocalState {
    idx_t start = 0;
};
} // namespace

std::unique_ptr<LocalState> RowsSource::InitLocal() {
    return std::make_unique<RowsLocal>();
}

idx_t RowsSource::BatchIndex(LocalState* local) const {
    return static_cast<RowsLocal*>(local)->start / kVectorSize;
}

SourceResult RowsSource::GetData(DataChunk& out, LocalState* local, TaskContext& /*context*/) {
    idx_t start = next_row_.fetch_add(kVectorSize);
    static_cast<RowsLocal*>(local)->start = start;
    if (start >= row_count_) {
        return SourceResult::Finished;
    }
    idx_t end = std::min(row_count_, start + kVectorSize);
    for (idx_t row = start; row < end; row++) {
        for (idx_t column = 0; column < types_.size(); column++) {
            out.SetValue(column, row - start, rows_[row][column]);
        }
    }
    out.SetSize(end - start);
    return end == row_count_ ? SourceResult::Finished : SourceResult::HaveMoreOutput;
}

double RowsSource::Progress() const {
    return row_count_ == 0 ? 1.0
                           : std::min(1.0, static_cast<double>(next_row_.load()) / row_count_);
}

} // namespace sluice
