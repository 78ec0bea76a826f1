#pragma once

#include "common/types.hpp"
#include "formats/parquet/parquet_metadata.hpp"
#include "formats/parquet/thrift_compact_writer.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace sluice::parquet {

// How the values of one column (or of a field or element inside it) become its leaves'
// repetition and definition levels when written (the record shredding of the Dremel paper, which
// Parquet's levels follow).
struct ShredNode {
    enum class Kind : uint8_t { Leaf, Struct, List };
    Kind kind = Kind::Leaf;
    // A MAP's keys and its key/value entries: Parquet REQUIRED, so a NULL cannot be written.
    bool required = false;
    uint32_t null_level = 0;       // definition level of a NULL here
    uint32_t defined_level = 0;    // a leaf: its maximum level; a list: present but empty
    uint32_t repetition_level = 0; // a list: the level at which its next element starts
    size_t first_leaf = 0;         // the leaves under this node, numbered within the column
    size_t leaf_count = 0;
    std::vector<ShredNode> children; // a struct's fields; a list's element
};

// One leaf column of the file: a column chunk per row group.
struct WriteLeaf {
    std::vector<std::string> path; // path_in_schema
    LogicalType type;
    uint32_t max_definition = 1;
    uint32_t max_repetition = 0;
};

// The schema of a Parquet file being written, as DuckDB writes it: every column and field
// OPTIONAL; a LIST as the standard three levels (`<name> (LIST)` / repeated `list` / `element`);
// a MAP as `<name> (MAP)` / repeated `key_value` / REQUIRED `key` and OPTIONAL `value`; a STRUCT
// as a group. Throws NotImplemented for a type Parquet cannot hold.
class WriteSchema {
public:
    WriteSchema(const std::vector<std::string>& names, const std::vector<LogicalType>& types);

    size_t column_count() const { return columns_.size(); }
    const ShredNode& column(size_t index) const { return columns_[index]; }
    // Every column's leaves in schema order; column `c`'s start at column_first_leaf(c).
    const std::vector<WriteLeaf>& leaves() const { return leaves_; }
    size_t column_first_leaf(size_t index) const { return first_leaves_[index]; }

    // The `schema` list of FileMetaData (field 2): the root, then each column's elements depth
    // first.
    void WriteElements(ThriftCompactWriter& writer) const;

private:
    struct Element {
        std::string name;
        Repetition repetition = Repetition::OPTIONAL;
        int32_t children = 0;                          // groups
        ConvertedType converted = ConvertedType::NONE; // groups: LIST or MAP
        size_t leaf = SIZE_MAX;                        // leaves: their index in leaves_
    };

    ShredNode Build(const std::string& name, const LogicalType& type, uint32_t null_level,
                    uint32_t repetition_level, bool required, std::vector<std::string> path);

    std::vector<ShredNode> columns_;
    std::vector<WriteLeaf> leaves_;
    std::vector<size_t> first_leaves_;
    std::vector<Element> elements_;
};

} // namespace sluice::parquet
