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

// Throws a clear error unless `scale_factor` is one dbgen can make: positive, below 30,000 (where
// dbgen changes to 64-bit key streams), and whole from 1 up.
void CheckScaleFactor(double scale_factor);

class RowWriter;

// Generates the rows of one TPC-H table at one scale factor exactly as TPC's dbgen 2.x does: its
// random number streams, seeds, per-row boundaries, text pool and distributions, so every value
// is dbgen's. Any range of rows can be generated independently (the streams are advanced to the
// range's first row), so tables are generated in parallel chunks and streamed to files. Lineitem
// has 1-7 lines per order as drawn, about 4 x orders.
class TableGenerator {
public:
    TableGenerator(Table table, double scale_factor);

    Table table() const { return table_; }
    uint64_t row_count() const { return row_count_; }
    // Fills `chunk` (of SchemaOf(table) types) with rows [first, first + count); count is at
    // most kVectorSize.
    void Generate(uint64_t first, idx_t count, DataChunk& chunk) const;

private:
    void GenerateParts(uint64_t first, idx_t count, RowWriter& out) const;
    void GeneratePartSupps(uint64_t first, idx_t count, RowWriter& out) const;
    void GenerateSuppliers(uint64_t first, idx_t count, RowWriter& out) const;
    void GenerateCustomers(uint64_t first, idx_t count, RowWriter& out) const;
    void GenerateOrders(uint64_t first, idx_t count, RowWriter& out) const;
    void GenerateLineItems(uint64_t first, idx_t count, RowWriter& out) const;

    Table table_;
    double scale_factor_ = 0;
    uint64_t row_count_ = 0;
    // Lineitem only: the first lineitem row of every block of kOrdersPerBlock orders.
    std::vector<uint64_t> block_first_line_;
};

} // namespace sluice::tpch
