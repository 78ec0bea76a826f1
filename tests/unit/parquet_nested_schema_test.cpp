// How Parquet schema trees become nested columns: the LIST shapes of the format's backward
// compatibility rules, MAP, STRUCT and bare repeated fields, with the levels each value uses.
#include "formats/parquet/parquet_schema.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace sluice;
using namespace sluice::parquet;

namespace {

SchemaElement Group(std::string name, Repetition repetition, int32_t children,
                    ConvertedType converted = ConvertedType::NONE) {
    SchemaElement element;
    element.name = std::move(name);
    element.repetition = repetition;
    element.num_children = children;
    element.converted_type = converted;
    return element;
}

SchemaElement Leaf(std::string name, Repetition repetition, Type type,
                   ConvertedType converted = ConvertedType::NONE) {
    SchemaElement element;
    element.name = std::move(name);
    element.repetition = repetition;
    element.type = type;
    element.converted_type = converted;
    return element;
}

// The one column of a file whose schema root holds `elements` (one top-level field).
ParquetColumn OnlyColumn(std::vector<SchemaElement> elements) {
    FileMetaData metadata;
    SchemaElement root;
    root.name = "schema";
    root.num_children = 1;
    metadata.schema.push_back(root);
    metadata.schema.insert(metadata.schema.end(), elements.begin(), elements.end());
    std::vector<ParquetColumn> columns = BuildColumns(metadata);
    EXPECT_EQ(columns.size(), 1u);
    return columns.at(0);
}

} // namespace

TEST(ParquetNestedSchema, ThreeLevelListOfOptionalValues) {
    ParquetColumn column = OnlyColumn({Group("a", Repetition::OPTIONAL, 1, ConvertedType::LIST),
                                       Group("list", Repetition::REPEATED, 1),
                                       Leaf("element", Repetition::OPTIONAL, Type::INT32)});
    EXPECT_EQ(column.type.ToString(), "INTEGER[]");
    ASSERT_TRUE(column.nested);
    EXPECT_EQ(column.nested->defined_level, 1u);
    EXPECT_EQ(column.nested->element_level, 2u);
    EXPECT_EQ(column.nested->repetition_level, 1u);
    EXPECT_EQ(column.nested->children.at(0).defined_level, 3u);
    ASSERT_EQ(column.leaves.size(), 1u);
    EXPECT_EQ(column.leaves[0].max_definition_level, 3u);
    EXPECT_EQ(column.leaves[0].max_repetition_level, 1u);
    EXPECT_EQ(column.leaves[0].name, "a.list.element");
}

TEST(ParquetNestedSchema, LegacyTwoLevelListShapes) {
    // A repeated primitive is the element itself.
    ParquetColumn primitive = OnlyColumn({Group("a", Repetition::OPTIONAL, 1, ConvertedType::LIST),
                                          Leaf("element", Repetition::REPEATED, Type::INT32)});
    EXPECT_EQ(primitive.type.ToString(), "INTEGER[]");
    EXPECT_EQ(primitive.leaves.at(0).max_definition_level, 2u);
    // A repeated group named "array" or "<list>_tuple", or of several fields, is the element.
    for (const char* name : {"array", "a_tuple"}) {
        ParquetColumn group = OnlyColumn({Group("a", Repetition::OPTIONAL, 1, ConvertedType::LIST),
                                          Group(name, Repetition::REPEATED, 1),
                                          Leaf("x", Repetition::REQUIRED, Type::INT64)});
        EXPECT_EQ(group.type.ToString(), "STRUCT(x BIGINT)[]") << name;
    }
    ParquetColumn fields = OnlyColumn({Group("a", Repetition::REQUIRED, 1, ConvertedType::LIST),
                                       Group("item", Repetition::REPEATED, 2),
                                       Leaf("x", Repetition::REQUIRED, Type::INT64),
                                       Leaf("y", Repetition::OPTIONAL, Type::DOUBLE)});
    EXPECT_EQ(fields.type.ToString(), "STRUCT(x BIGINT, y DOUBLE)[]");
    EXPECT_EQ(fields.nested->defined_level, 0u);
    EXPECT_EQ(fields.leaves.at(1).max_definition_level, 2u);
}

TEST(ParquetNestedSchema, MapsStructsAndBareRepeatedFields) {
    ParquetColumn map =
        OnlyColumn({Group("m", Repetition::OPTIONAL, 1, ConvertedType::MAP),
                    Group("key_value", Repetition::REPEATED, 2),
                    Leaf("key", Repetition::REQUIRED, Type::BYTE_ARRAY, ConvertedType::UTF8),
                    Leaf("value", Repetition::OPTIONAL, Type::INT32)});
    EXPECT_EQ(map.type.ToString(), "MAP(VARCHAR, INTEGER)");
    EXPECT_EQ(map.leaves.size(), 2u);

    ParquetColumn bare = OnlyColumn({Leaf("r", Repetition::REPEATED, Type::INT32)});
    EXPECT_EQ(bare.type.ToString(), "INTEGER[]");
    EXPECT_EQ(bare.nested->defined_level, 0u);
    EXPECT_EQ(bare.leaves.at(0).max_definition_level, 1u);
    EXPECT_EQ(bare.leaves.at(0).max_repetition_level, 1u);

    ParquetColumn record = OnlyColumn(
        {Group("s", Repetition::OPTIONAL, 2), Leaf("a", Repetition::REQUIRED, Type::INT32),
         Group("b", Repetition::REPEATED, 1),
         Leaf("c", Repetition::OPTIONAL, Type::BYTE_ARRAY, ConvertedType::UTF8)});
    EXPECT_EQ(record.type.ToString(), "STRUCT(a INTEGER, b STRUCT(c VARCHAR)[])");
    EXPECT_EQ(record.leaves.at(1).max_definition_level, 3u);
    EXPECT_EQ(record.leaves.at(1).max_repetition_level, 1u);
    EXPECT_EQ(record.leaves.at(1).leaf_index, 1u);
}

TEST(ParquetNestedSchema, MalformedListsAndMapsAreErrors) {
    EXPECT_THROW(OnlyColumn({Group("a", Repetition::OPTIONAL, 1, ConvertedType::LIST),
                             Leaf("element", Repetition::OPTIONAL, Type::INT32)}),
                 std::runtime_error);
    EXPECT_THROW(OnlyColumn({Group("m", Repetition::OPTIONAL, 1, ConvertedType::MAP),
                             Group("key_value", Repetition::REPEATED, 1),
                             Leaf("key", Repetition::REQUIRED, Type::INT32)}),
                 std::runtime_error);
}
