#pragma once

#include "common/types.hpp"
#include "formats/parquet/parquet_metadata.hpp"

#include <string>
#include <vector>

namespace sluice::parquet {

struct ParquetColumn;

// How one level of a nested column's values is spelled in its leaves' repetition and definition
// levels (the Dremel encoding): a value is NULL where a leaf's definition level stops below
// `defined_level`, a list is empty where it stops below `element_level`, and a leaf entry whose
// repetition level is `repetition_level` starts the list's next element. Every leaf below a
// node spells the node's structure the same way, so any one of them can be read for it.
struct NestedNode {
    enum class Kind : uint8_t { Leaf, Struct, List };

    Kind kind = Kind::Leaf;
    LogicalType type;
    uint32_t defined_level = 0;
    uint32_t element_level = 0;       // List
    uint32_t repetition_level = 0;    // List
    std::vector<NestedNode> children; // Struct: the fields in order; List: the element
    size_t first_leaf = 0;            // the node's leaves, in the column's leaf order
    size_t leaf_count = 0;
};

// Builds the nested top-level column whose schema element is schema[index] (a group, or a
// repeated primitive), the way DuckDB reads it: LIST (three-level, and the legacy two-level
// shapes the format's compatibility rules describe), MAP, STRUCT, and bare repeated fields as
// lists. Fills the column's type, node tree and leaves; advances `index` past the subtree.
// Throws CorruptData on a malformed LIST or MAP.
void BuildNestedColumn(const std::vector<SchemaElement>& schema, size_t& index, size_t first_leaf,
                       ParquetColumn& column);

} // namespace sluice::parquet
