#include "formats/parquet/row_group_encoder.hpp"

namespace sluice::parquet {

RowGroupEncoder::RowGroupEncoder(const WriteSchema& schema, const ColumnEncodeOptions& options) {
    columns_.reserve(schema.column_count());
    for (size_t column = 0; column < schema.column_count(); column++) {
        columns_.emplace_back(schema, column, options);
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
        column.Finish(group.columns);
    }
    return group;
}

} // namespace sluice::parquet
