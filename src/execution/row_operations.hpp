#pragma once

#include "common/data_chunk.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace sluice {

// Hashes rows [0, count) of `vector` into `hashes`, mixing into the existing hashes unless
// `first`. NULLs hash alike; CONSTANT vectors are read at row 0.
void HashVector(const Vector& vector, idx_t count, uint64_t* hashes, bool first);

// Row `a_row` of `a` equals row `b_row` of `b` (same type); NULL equals NULL (grouping
// semantics: joins drop NULL keys before comparing).
bool RowsEqual(const Vector& a, idx_t a_row, const Vector& b, idx_t b_row);
// RowsEqual for one physical type, chosen once per column instead of per row.
using RowsEqualFunction = bool (*)(const Vector& a, idx_t a_row, const Vector& b, idx_t b_row);
RowsEqualFunction RowsEqualFor(PhysicalType type);

// Orders row `a_row` of `a` against row `b_row` of `b` (same type, both non-NULL):
// negative, zero or positive.
int CompareRows(const Vector& a, idx_t a_row, const Vector& b, idx_t b_row);

// A 64-bit prefix of a row's sort order: when the prefixes of two rows differ, they order the
// rows as CompareRows (with `descending` and `nulls_first`) would; equal prefixes say nothing.
// Sorting by prefix first, then comparing rows only on ties, keeps most comparisons to two
// integers. Integers, dates and timestamps map exactly; doubles by their bits; strings by their
// first eight bytes; 128-bit integers by their upper half.
uint64_t OrderPrefix(const Vector& vector, idx_t row, bool descending, bool nulls_first);

// The bytes a chunk's rows take: its buffers, and the strings too long to inline.
idx_t ChunkMemory(const DataChunk& chunk);

// A chunk showing `source`'s rows without copying them (see Vector::Reference).
std::unique_ptr<DataChunk> ReferenceChunk(const DataChunk& source);

// `source`'s rows copied into a chunk of their own size.
std::unique_ptr<DataChunk> CopyChunk(const DataChunk& source);

// A chunk of `source`'s rows for a sink to keep: referenced when at least half full, else
// copied into a chunk of their own size (a few rows would otherwise hold whole vectors).
std::unique_ptr<DataChunk> KeepChunk(const DataChunk& source);

// Keeps `source`'s rows in `chunks` for a sink: a chunk at least half full is referenced as it
// is; sparser ones (after selective filters and joins) are copied together into `filling`, a
// chunk of the list with room, since each would otherwise hold whole vectors for a few rows
// (TPC-H Q9's join build: 3 GB for 3 million rows). Returns the bytes newly held.
idx_t AppendRowsCompactly(std::vector<std::unique_ptr<DataChunk>>& chunks, DataChunk*& filling,
                          const DataChunk& source);

// Where a row lives in a list of chunks.
struct RowLocation {
    uint32_t chunk;
    uint32_t row;
};

// Column `column` of `chunks` at `rows[0..count)` into `target` rows [offset, offset + count).
// Long strings stay where they are; `owner` (which owns the chunks) is kept alive instead.
void GatherRows(const std::vector<std::unique_ptr<DataChunk>>& chunks, idx_t column,
                const RowLocation* rows, idx_t count, Vector& target, idx_t offset,
                const std::shared_ptr<const void>& owner);

} // namespace sluice
