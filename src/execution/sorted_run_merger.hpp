#pragma once

#include "common/data_chunk.hpp"
#include "memory/spill_file.hpp"

#include <functional>
#include <memory>
#include <vector>

namespace sluice {

// Orders row `a_row` of `a` before row `b_row` of `b`.
using RowLess =
    std::function<bool(const DataChunk& a, idx_t a_row, const DataChunk& b, idx_t b_row)>;

// Merges sorted runs spilled to disk into one sorted stream, a chunk at a time: one chunk per
// run in memory, a heap of the runs' current rows. Equal rows come from the earlier run first.
class SortedRunMerger {
public:
    SortedRunMerger(std::vector<LogicalType> types, std::vector<const SpillFile*> runs,
                    RowLess less, size_t read_buffer);

    // Up to a chunk of the next rows into `out`; false once every run is exhausted.
    bool Next(DataChunk& out);
    // The memory one run's cursor holds while merging (a chunk and a read buffer).
    static idx_t CursorMemory(const std::vector<LogicalType>& types, size_t read_buffer);

private:
    struct Cursor {
        std::unique_ptr<SpillFile::Reader> reader;
        DataChunk chunk;
        idx_t row = 0;
    };
    bool Advance(Cursor& cursor); // to the next row; false at the run's end
    bool CursorLess(idx_t a, idx_t b) const;

    std::vector<LogicalType> types_;
    RowLess less_;
    std::vector<Cursor> cursors_;
    std::vector<idx_t> heap_; // cursor indices; the front holds the smallest row
};

} // namespace sluice
