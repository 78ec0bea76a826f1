// The schema the Parquet writer gives nested columns, read back by the reader's schema code: both
// sides must agree on every type and on each leaf's levels, or shredded values would be read at
// the wrong depth.
#include "formats/parquet/parquet_schema.hpp"
#include "formats/parquet/thrift_compact_reader.hpp"
#include "formats/parquet/write_schema.hpp"

#include <gtest/gtest.h>

using namespace sluice;
using namespace sluice::parquet;

namespace {

// The columns the reader sees in a footer holding `schema` and no row groups.
std::vector<ParquetColumn> ReadBack(const WriteSchema& schema) {
    std::vector<uint8_t> footer;
    ThriftCompactWriter writer(footer);
    writer.BeginStruct();
    writer.WriteI32Field(1, 1);
    schema.WriteElements(writer);
    writer.WriteI64Field(3, 0);
    writer.BeginListField(4, ThriftCompactReader::Type::kStruct, 0);
    writer.EndStruct();
    return BuildColumns(DecodeFileMetaData(footer.data(), footer.size()));
}

} // namespace

TEST(ParquetWriteSchema, NestedColumnsReadBackWithTheirTypesAndLevels) {
    LogicalType list = LogicalType::List(LogicalTypeId::INTEGER);
    LogicalType map = LogicalType::Map(LogicalTypeId::VARCHAR, list);
    LogicalType record = LogicalType::Struct({{"a", LogicalTypeId::BIGINT}, {"m", map}});
    std::vector<LogicalType> types = {LogicalTypeId::DATE, list, LogicalType::List(record), record};
    WriteSchema schema({"d", "l", "lr", "r"}, types);

    std::vector<ParquetColumn> columns = ReadBack(schema);
    ASSERT_EQ(columns.size(), types.size());
    size_t leaf = 0;
    for (size_t column = 0; column < types.size(); column++) {
        EXPECT_EQ(columns[column].type, types[column]) << columns[column].type.ToString();
        EXPECT_EQ(columns[column].unsupported, "");
        EXPECT_EQ(schema.column_first_leaf(column), leaf);
        std::vector<ParquetColumn> leaves = columns[column].leaves;
        if (leaves.empty()) {
            leaves.push_back(columns[column]); // a flat column is its own leaf
        }
        ASSERT_EQ(leaves.size(), schema.column(column).leaf_count);
        for (const ParquetColumn& read : leaves) {
            const WriteLeaf& written = schema.leaves().at(leaf++);
            EXPECT_EQ(read.max_definition_level, written.max_definition) << written.path.back();
            EXPECT_EQ(read.max_repetition_level, written.max_repetition) << written.path.back();
        }
    }
    EXPECT_EQ(leaf, schema.leaves().size());

    // lr: a list (levels 1 empty, 2 element) of structs (3 present) whose map (4 empty, 5 entry,
    // repetition 2) holds a REQUIRED key (5) and a list value (6 present, 7 element, 8 defined).
    const WriteLeaf& key = schema.leaves().at(3);
    EXPECT_EQ(key.path,
              (std::vector<std::string>{"lr", "list", "element", "m", "key_value", "key"}));
    EXPECT_EQ(key.max_definition, 5u);
    EXPECT_EQ(key.max_repetition, 2u);
    const WriteLeaf& value = schema.leaves().at(4);
    EXPECT_EQ(value.max_definition, 8u);
    EXPECT_EQ(value.max_repetition, 3u);
}
