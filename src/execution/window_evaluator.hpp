#pragma once

#include "common/string_heap.hpp"
#include "execution/row_operations.hpp"
#include "execution/window_function.hpp"

#include <memory>
#include <vector>

namespace sluice {

// The rows of one bucket of a WindowSink in window order (partition keys, then ORDER BY keys),
// with where each partition and each peer group (rows equal in every ORDER BY key) begins.
// Positions are indexes into `rows`.
struct WindowLayout {
    const std::vector<std::unique_ptr<DataChunk>>* chunks = nullptr;
    std::vector<RowLocation> rows;
    std::vector<uint32_t> partition_of;    // per position
    std::vector<uint32_t> partition_start; // per partition, then the end
    std::vector<uint32_t> peer_of;         // per position
    std::vector<uint32_t> peer_start;      // per peer group, then the end

    idx_t size() const { return rows.size(); }
    idx_t PartitionBegin(idx_t position) const { return partition_start[partition_of[position]]; }
    idx_t PartitionEnd(idx_t position) const { return partition_start[partition_of[position] + 1]; }
    idx_t PeerBegin(idx_t position) const { return peer_start[peer_of[position]]; }
    idx_t PeerEnd(idx_t position) const { return peer_start[peer_of[position] + 1]; }
    // Column `column` of the sink's input at `position`: the vector, and the row to read in it.
    const Vector& At(idx_t column, idx_t position, idx_t& row) const {
        const RowLocation& location = rows[position];
        const Vector& vector = (*chunks)[location.chunk]->column(column);
        row = vector.vector_type() == VectorType::CONSTANT ? 0 : location.row;
        return vector;
    }
};

// Where results go: position p of the layout is row p % kVectorSize of output chunk
// p / kVectorSize, in column `column`.
struct WindowOutput {
    std::vector<std::unique_ptr<DataChunk>>* chunks;
    idx_t column;
    Vector& At(idx_t position, idx_t& row) const {
        row = position % kVectorSize;
        return (*chunks)[position / kVectorSize]->column(column);
    }
};

// Computes one window function over positions [begin, end) of a layout. `order_key` is the
// first ORDER BY key's column and direction (RANGE frames with offsets search it).
void EvaluateWindowFunction(const WindowFunction& function, const WindowLayout& layout,
                            idx_t order_key, bool descending, const WindowOutput& output,
                            idx_t begin, idx_t end);

// Whether a range of positions costs about its length alone, so that ranges of one partition
// may be computed apart (on several threads): every function but aggregates whose frames need
// a segment tree or run from the partition's start (which would be combined again per range).
bool EvaluatesInRanges(const WindowFunction& function);

} // namespace sluice
