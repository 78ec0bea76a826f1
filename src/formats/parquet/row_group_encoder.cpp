#include "formats/parquet/row_group_encoder.hpp"

namespace sluice::parquet {

RowGroupEncoder::RowGroupEncoder(const std::vector<LogicalType>& types,
                                 const ColumnEncodeOptions& options) {
    columns_.reserve(types.size());
    for (const auto& type : types) {
        columns_.emplace_back(type, options);
    }
}

void RowGroupEncoder::Append(const DataChunk& chunk, idx_t offset, idx_t count) {
    for (size_t column = 0; column < columns_.size(); column++) {
        columns_[column].Append(chunk.column(column), offset, count);
    }
    rows_ += count;
}

EncodedRowGroup RowGroupEncoder::Finish() {
    EncodedRowGroup group;
    group.rows = rows_;
    for (auto& column : columns_) {
        group.columns.push_back(column.Finish());
    }
    return group;
}

} // namespace sluice::parquet
