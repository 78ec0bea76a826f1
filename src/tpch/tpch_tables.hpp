#pragma once

#include "common/data_chunk.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sluice::tpch {

enum class Table : uint8_t { Part, Supplier, PartSupp, Customer, Orders, LineItem, Nation, Region };

// All eight tables, in the order dbgen lists them.
const std::vector<Table>& AllTables();
const std::string& TableName(Table table);
std::optional<Table> TableFromName(const std::string& name);

struct TableSchema {
    std::vector<std::string> names;
    std::vector<LogicalType> types;
};
const TableSchema& SchemaOf(Table table);

// Throws a clear error unless `scale_factor` is one dbgen can make (positive, at most 100,000).
void CheckScaleFactor(double scale_factor);

// Generates the rows of one TPC-H table at one scale factor, following the TPC-H specification
// v3.0.1 clause 4.2.3. Any range of rows can be generated independently (each row has its own
// random stream), so tables are generated in parallel chunks and streamed to files. Row counts
// are the specification's (SF x base, nation and region fixed); lineitem has 1-7 lines per
// order as drawn, about 4 x orders.
class TableGenerator {
public:
    TableGenerator(Table table, double scale_factor);

    Table table() const { return table_; }
    uint64_t row_count() const { return row_count_; }
    // Fills `chunk` (of SchemaOf(table) types) with rows [first, first + count); count is at
    // most kVectorSize.
    void Generate(uint64_t first, idx_t count, DataChunk& chunk) const;

private:
    void GenerateLineItems(uint64_t first, idx_t count, DataChunk& chunk) const;

    Table table_;
    double scale_factor_ = 0;
    uint64_t row_count_ = 0;
    // Lineitem only: the first lineitem row of every block of kOrdersPerBlock orders.
    std::vector<uint64_t> block_first_line_;
};

} // namespace sluice::tpch
