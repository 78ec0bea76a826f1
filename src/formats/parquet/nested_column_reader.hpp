#pragma once

#include "common/vector.hpp"
#include "formats/parquet/column_reader.hpp"
#include "formats/parquet/parquet_schema.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sluice::parquet {

// Streams the rows of a nested column (LIST, STRUCT, MAP) from the chunks of its leaves: each
// leaf's reader yields the levels and values of a batch of rows, and the column's node tree
// assembles them into nested vectors, level by level.
class NestedColumnReader {
public:
    // `leaves` read the column's leaf chunks, in the column's leaf order; a null reader leaves
    // its leaf out (the query reads no field it is in): fields without a read leaf come back
    // NULL. At least one leaf must be read.
    NestedColumnReader(const ParquetColumn& column,
                       std::vector<std::unique_ptr<ColumnReader>> leaves, std::string context);

    void Skip(uint64_t count);
    // Decodes the next `count` rows into rows [0, count) of `out`.
    void Read(idx_t count, Vector& out);
    // Goes through the next `count` rows, keeping rows `selection[0..selected)` (ascending) as
    // rows [0, selected) of `out`.
    void ReadSelected(idx_t count, const uint32_t* selection, size_t selected, Vector& out);

private:
    // Each value of a node is a run [begin, end) of entries of each leaf below it.
    struct Runs {
        std::vector<uint32_t> begin;
        std::vector<uint32_t> end;
    };

    // Writes the `count` values of `node` that `runs` (indexed by leaf) delimit to rows
    // `offset...` of `target`.
    void Assemble(const NestedNode& node, std::vector<Runs>& runs, Vector& target, idx_t offset,
                  idx_t count);
    // The first leaf below `node` that is read; none when the query reads nothing below it.
    std::optional<size_t> FirstReadLeaf(const NestedNode& node) const;
    // Cuts the lists `runs` delimits in leaf `leaf`'s entries into their elements' runs; the
    // lists' lengths go to `lengths`, or are checked against it when `check`.
    void SplitElements(const NestedNode& list, size_t leaf, const Runs& runs, Runs& elements,
                       std::vector<uint32_t>& lengths, bool check) const;
    [[noreturn]] void Fail(const std::string& what) const;

    const ParquetColumn& column_;
    std::vector<std::unique_ptr<ColumnReader>> leaves_;
    std::vector<LeafEntries> entries_; // per leaf, the current batch
    std::string context_;
    std::unique_ptr<Vector> scratch_; // ReadSelected's whole batch
    std::vector<idx_t> rows_;
};

} // namespace sluice::parquet
