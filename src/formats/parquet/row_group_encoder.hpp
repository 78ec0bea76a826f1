#pragma once

#include "formats/parquet/column_shredder.hpp"

namespace sluice::parquet {

struct EncodedRowGroup {
    uint64_t rows = 0;
    std::vector<EncodedColumnChunk> columns; // one per leaf of the schema
};

// Encodes the rows of one row group, column by column as they arrive. Independent of any file,
// so several row groups can be encoded at once on different threads and placed in order later.
class RowGroupEncoder {
public:
    // `schema` must outlive the encoder.
    RowGroupEncoder(const WriteSchema& schema, const ColumnEncodeOptions& options);

    // Rows [offset, offset + count) of `chunk`.
    void Append(const DataChunk& chunk, idx_t offset, idx_t count);
    uint64_t rows() const { return rows_; }
    EncodedRowGroup Finish();

private:
    std::vector<ColumnShredder> columns_;
    uint64_t rows_ = 0;
};

} // namespace sluice::parquet
