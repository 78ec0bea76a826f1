#pragma once

#include "formats/parquet/column_chunk_encoder.hpp"
#include "formats/parquet/write_schema.hpp"

#include <vector>

namespace sluice::parquet {

// Encodes one column of a row group into its leaves' column chunks: a flat column goes straight
// to its one encoder; a nested one is shredded, each value walked top down to give every leaf
// under it an entry (a repetition level, a definition level and, if defined, a value).
class ColumnShredder {
public:
    ColumnShredder(const WriteSchema& schema, size_t column, const ColumnEncodeOptions& options);

    // Rows [offset, offset + count) of `vector`.
    void Append(const Vector& vector, idx_t offset, idx_t count);
    // Appends the column's chunks, one per leaf in schema order.
    void Finish(std::vector<EncodedColumnChunk>& chunks);

private:
    void Shred(const ShredNode& node, const Vector& vector, idx_t row, uint32_t repetition);
    // An entry at `level` for every leaf under `node`: a NULL or an empty list.
    void Absent(const ShredNode& node, uint32_t repetition, uint32_t level);

    const ShredNode& root_;
    std::vector<ColumnChunkEncoder> leaves_;
};

} // namespace sluice::parquet
