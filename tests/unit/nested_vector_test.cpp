#include "common/cast.hpp"
#include "common/chunk_serializer.hpp"
#include "common/data_chunk.hpp"
#include "common/vector.hpp"

#include <gtest/gtest.h>

using namespace sluice;

namespace {

// STRUCT(name VARCHAR, tags VARCHAR[]): strings long enough to live in heaps, NULLs at every
// level, an empty list.
LogicalType RecordType() {
    return LogicalType::Struct({StructField{"name", LogicalTypeId::VARCHAR},
                                StructField{"tags", LogicalType::List(LogicalTypeId::VARCHAR)}});
}

Value Record(const std::string& name, std::vector<Value> tags, bool null_tags = false) {
    LogicalType tags_type = LogicalType::List(LogicalTypeId::VARCHAR);
    return Value::Nested(RecordType(),
                         {Value::Varchar(name),
                          null_tags ? Value::Null(tags_type) : Value::Nested(tags_type, tags)});
}

std::vector<Value> Rows() {
    std::string long_text(40, 'x');
    return {
        Record("first " + long_text, {Value::Varchar("a " + long_text), Value::Varchar("b")}),
        Value::Null(RecordType()),
        Record("third", {}),
        Record("fourth", {Value::Null(LogicalTypeId::VARCHAR), Value::Varchar(long_text)}),
        Record("fifth", {}, true),
    };
}

Vector Filled(const std::vector<Value>& rows) {
    Vector vector(RecordType());
    for (idx_t row = 0; row < rows.size(); row++) {
        vector.SetValue(row, rows[row]);
    }
    return vector;
}

} // namespace

TEST(NestedVector, HoldsValuesWithNullsAtEveryLevel) {
    std::vector<Value> rows = Rows();
    Vector vector = Filled(rows);
    for (idx_t row = 0; row < rows.size(); row++) {
        EXPECT_EQ(vector.GetValue(row).ToString(), rows[row].ToString()) << row;
    }
    EXPECT_FALSE(vector.RowIsValid(1));
    EXPECT_FALSE(vector.struct_child(0).RowIsValid(1)) << "a NULL struct is NULL in its fields";
    EXPECT_EQ(rows[3].ToString(), "{'name': fourth, 'tags': [NULL, " + std::string(40, 'x') + "]}");
}

TEST(NestedVector, GatherCompactAndCopyKeepEachRowWhole) {
    std::vector<Value> rows = Rows();
    Vector source = Filled(rows);
    Vector gathered(RecordType());
    const idx_t picks[] = {4, 3, 0, 1};
    gathered.Gather(source, picks, 4);
    for (idx_t i = 0; i < 4; i++) {
        EXPECT_EQ(gathered.GetValue(i).ToString(), rows[picks[i]].ToString()) << i;
    }
    const uint32_t kept[] = {1, 2};
    gathered.Compact(kept, 2);
    EXPECT_EQ(gathered.GetValue(0).ToString(), rows[3].ToString());
    EXPECT_EQ(gathered.GetValue(1).ToString(), rows[0].ToString());
    Vector copied(RecordType());
    copied.CopyRow(source, 3, 0);
    copied.CopyRow(source, 1, 1);
    EXPECT_EQ(copied.GetValue(0).ToString(), rows[3].ToString());
    EXPECT_FALSE(copied.RowIsValid(1));
}

TEST(NestedVector, ResetAfterReferenceLeavesTheReferencedRowsAlone) {
    std::vector<Value> rows = Rows();
    Vector source = Filled(rows);
    Vector view(RecordType());
    view.Reference(source);
    view.Reset();
    view.SetValue(0, Record("other", {Value::Varchar("z")}));
    EXPECT_EQ(source.GetValue(0).ToString(), rows[0].ToString());
    EXPECT_EQ(view.GetValue(0).ToString(), "{'name': other, 'tags': [z]}");
}

TEST(NestedVector, SlicesShowTheirRowsAtAnyOffsetAndLeaveThemAloneOnReset) {
    // 300 rows cycling through Rows(), with NULLs at offsets that straddle validity words.
    std::vector<Value> cycle = Rows();
    std::vector<Value> rows;
    for (idx_t row = 0; row < 300; row++) {
        rows.push_back(row % 7 == 6 ? Value::Null(RecordType()) : cycle[row % cycle.size()]);
    }
    Vector source = Filled(rows);
    for (idx_t offset : {0, 1, 63, 64, 65, 130}) {
        for (idx_t count : {1, 63, 64, 65, 170}) {
            Vector view(RecordType(), 8);
            view.Slice(source, offset, count);
            for (idx_t i = 0; i < count; i++) {
                ASSERT_EQ(view.GetValue(i).ToString(), rows[offset + i].ToString())
                    << "row " << i << " of [" << offset << ", +" << count << ")";
            }
            // Reset gives the view buffers of its own, as large as the slice needed.
            view.Reset();
            for (idx_t i = 0; i < count; i++) {
                view.SetValue(i, Record("other", {}));
            }
            EXPECT_EQ(source.GetValue(offset).ToString(), rows[offset].ToString());
        }
    }
}

TEST(NestedVector, NullRangesMatchNullRowsAtEveryLevel) {
    for (idx_t begin : {0, 1, 63, 64, 65, 200}) {
        for (idx_t count : {0, 1, 62, 63, 64, 65, 128, 300}) {
            Vector by_range = Filled(Rows());
            Vector by_row = Filled(Rows());
            by_range.SetNullRange(begin, count);
            for (idx_t row = begin; row < begin + count; row++) {
                by_row.SetNull(row);
            }
            for (idx_t row = 0; row < 600; row++) {
                ASSERT_EQ(by_range.RowIsValid(row), by_row.RowIsValid(row))
                    << "row " << row << " of [" << begin << ", +" << count << ")";
                ASSERT_EQ(by_range.struct_child(1).RowIsValid(row),
                          by_row.struct_child(1).RowIsValid(row));
            }
            for (idx_t row = 0; row < Rows().size(); row++) {
                ASSERT_EQ(by_range.GetValue(row).ToString(), by_row.GetValue(row).ToString());
            }
        }
    }
}

TEST(NestedVector, ListsGrowPastTheVectorCapacity) {
    LogicalType type = LogicalType::List(LogicalTypeId::BIGINT);
    Vector vector(type, 4);
    std::vector<Value> elements;
    for (int i = 0; i < 5000; i++) {
        elements.push_back(i % 7 == 0 ? Value::Null(LogicalTypeId::BIGINT)
                                      : Value::Integer(LogicalTypeId::BIGINT, i));
    }
    vector.SetValue(0, Value::Nested(type, elements));
    vector.SetValue(1, Value::Nested(type, {}));
    vector.SetValue(2, Value::Nested(type, elements));
    EXPECT_EQ(vector.list_size(), 10000u);
    EXPECT_EQ(vector.GetValue(2).children().size(), 5000u);
    EXPECT_TRUE(vector.GetValue(2).children()[7].IsNull());
    EXPECT_EQ(vector.GetValue(2).children()[4999].GetInteger(), 4999);
}

TEST(NestedVector, ConstantVectorsFlattenIntoEveryRow) {
    Vector vector(RecordType());
    vector.SetConstant(Rows()[0]);
    vector.Flatten(3);
    for (idx_t row = 0; row < 3; row++) {
        EXPECT_EQ(vector.GetValue(row).ToString(), Rows()[0].ToString());
    }
}

TEST(NestedVector, SpilledChunksReadBackTheSameRows) {
    std::vector<Value> rows = Rows();
    DataChunk chunk(
        {RecordType(), LogicalType::Map(LogicalTypeId::VARCHAR, LogicalTypeId::INTEGER)});
    LogicalType map = chunk.column(1).type();
    for (idx_t row = 0; row < rows.size(); row++) {
        chunk.SetValue(0, row, rows[row]);
        Value entry = Value::Nested(map.element(), {Value::Varchar("k" + std::to_string(row)),
                                                    Value::Integer(LogicalTypeId::INTEGER, row)});
        chunk.SetValue(1, row, row == 2 ? Value::Null(map) : Value::Nested(map, {entry}));
    }
    chunk.SetSize(rows.size());
    std::string bytes;
    SerializeChunk(chunk, bytes);
    DataChunk read(chunk.Types());
    DeserializeChunk(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), read);
    ASSERT_EQ(read.size(), rows.size());
    for (idx_t row = 0; row < rows.size(); row++) {
        EXPECT_EQ(read.GetValue(0, row).ToString(), rows[row].ToString()) << row;
        EXPECT_EQ(read.GetValue(1, row).ToString(), chunk.GetValue(1, row).ToString()) << row;
    }
}

TEST(NestedVector, TextFormParsesBackToTheSameValue) {
    for (const Value& row : Rows()) {
        if (row.IsNull()) {
            continue;
        }
        Value parsed = CastValue(Value::Varchar(row.ToString()), RecordType());
        EXPECT_EQ(parsed.ToString(), row.ToString());
        EXPECT_TRUE(parsed == row) << row.ToString();
    }
}

TEST(NestedVector, ResetAfterReferencingASmallerVectorHoldsAFullChunkAgain) {
    // A filter hands on its input by reference when every row passes, then copies the rows that
    // pass into the same output: after Reset the output holds its own capacity again, not the
    // referenced vector's (TPC-DS Q4 failed with "AppendSelected beyond capacity").
    for (const LogicalType& type : {LogicalType(LogicalTypeId::BIGINT), RecordType()}) {
        Vector small(type, 1);
        small.SetValue(0, Value::Null(type));
        Vector output(type, kVectorSize);
        output.Reference(small);
        output.Reset();
        ASSERT_GE(output.capacity(), kVectorSize) << type.ToString();
        {
            Vector gone(type, 2);
            output.Reference(gone);
        } // the referenced buffer is now the output's alone, and still two rows long
        output.Reset();
        ASSERT_GE(output.capacity(), kVectorSize) << type.ToString();
        for (idx_t row = 0; row < kVectorSize; row++) {
            output.SetValue(row, Value::Null(type));
        }
        EXPECT_TRUE(output.GetValue(kVectorSize - 1).IsNull());
    }
}
