#pragma once

#include "common/data_chunk.hpp"
#include "tpch/tpch_tables.hpp"

#include <string>

namespace sluice::tpch {

// Formats generated rows as dbgen's .tbl text: every field followed by '|', the last one too,
// lines ending in '\n'; money with two decimals, dates as YYYY-MM-DD, text as is (dbgen's text
// never holds '|' or a line break), and l_quantity as the whole number dbgen prints.
class TblFormatter {
public:
    explicit TblFormatter(Table table);

    // Appends every row of `chunk` (of SchemaOf(table) types).
    void AppendRows(const DataChunk& chunk, std::string& out) const;

private:
    enum class Field : uint8_t { Integer, BigInt, Money, WholeMoney, Date, Text };
    std::vector<Field> fields_;
};

} // namespace sluice::tpch
