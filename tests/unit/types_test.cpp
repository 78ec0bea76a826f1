#include "common/cast.hpp"
#include "common/chunk_serializer.hpp"
#include "common/data_chunk.hpp"
#include "common/date_time.hpp"
#include "common/exception.hpp"
#include "common/memory_size.hpp"
#include "common/number_format.hpp"
#include "common/vector.hpp"

#include <gtest/gtest.h>

using namespace sluice;

TEST(LogicalType, DecimalPhysicalTypeFollowsWidth) {
    EXPECT_EQ(LogicalType::Decimal(4, 2).physical(), PhysicalType::INT16);
    EXPECT_EQ(LogicalType::Decimal(5, 2).physical(), PhysicalType::INT32);
    EXPECT_EQ(LogicalType::Decimal(9, 0).physical(), PhysicalType::INT32);
    EXPECT_EQ(LogicalType::Decimal(10, 0).physical(), PhysicalType::INT64);
    EXPECT_EQ(LogicalType::Decimal(18, 3).physical(), PhysicalType::INT64);
    EXPECT_EQ(LogicalType::Decimal(19, 3).physical(), PhysicalType::INT128);
    EXPECT_EQ(LogicalType::Decimal(38, 38).physical(), PhysicalType::INT128);
    EXPECT_THROW(LogicalType::Decimal(39, 0), Exception);
    EXPECT_THROW(LogicalType::Decimal(5, 6), Exception);
}

TEST(LogicalType, NamesMatchDuckDB) {
    EXPECT_EQ(LogicalType::Decimal(12, 1).ToString(), "DECIMAL(12,1)");
    EXPECT_EQ(LogicalType(LogicalTypeId::INTEGER).DisplayName(), "int32");
    EXPECT_EQ(LogicalType(LogicalTypeId::HUGEINT).DisplayName(), "int128");
    EXPECT_EQ(LogicalType(LogicalTypeId::TIMESTAMP).DisplayName(), "timestamp");
}

TEST(StringType, ShortStringsAreInlined) {
    std::string twelve = "123456789012";
    string_t inlined(twelve.data(), 12);
    EXPECT_TRUE(inlined.IsInlined());
    EXPECT_NE(inlined.data(), twelve.data());
    EXPECT_EQ(inlined.str(), twelve);

    std::string thirteen = "1234567890123";
    string_t pointer(thirteen.data(), 13);
    EXPECT_FALSE(pointer.IsInlined());
    EXPECT_EQ(pointer.data(), thirteen.data());
    EXPECT_TRUE(string_t("abc", 3) < string_t("abd", 3));
}

TEST(Vector, OwnsLongStringsInItsArena) {
    Vector vector(LogicalTypeId::VARCHAR);
    {
        std::string temporary(100, 'x');
        vector.SetValue(0, Value::Varchar(temporary));
        vector.SetValue(1, Value::Varchar("short"));
    }
    EXPECT_EQ(vector.GetValue(0).GetString(), std::string(100, 'x'));
    EXPECT_EQ(vector.GetValue(1).GetString(), "short");
    EXPECT_GT(vector.string_heap().AllocatedBytes(), 0u);
}

TEST(Vector, ValidityAndConstants) {
    Vector vector(LogicalTypeId::INTEGER);
    EXPECT_TRUE(vector.validity().AllValid());
    vector.SetValue(3, Value::Integer(LogicalTypeId::INTEGER, 7));
    vector.SetNull(5);
    EXPECT_FALSE(vector.validity().AllValid());
    EXPECT_TRUE(vector.GetValue(5).IsNull());
    EXPECT_EQ(vector.GetValue(3).GetInteger(), 7);

    Vector constant(LogicalTypeId::BIGINT);
    constant.SetConstant(Value::Integer(LogicalTypeId::BIGINT, 42));
    EXPECT_EQ(constant.GetValue(2000).GetInteger(), 42);
    constant.Flatten(kVectorSize);
    EXPECT_EQ(constant.vector_type(), VectorType::FLAT);
    EXPECT_EQ(constant.data<int64_t>()[kVectorSize - 1], 42);

    Vector null_constant(LogicalTypeId::DOUBLE);
    null_constant.SetConstant(Value::Null(LogicalTypeId::DOUBLE));
    null_constant.Flatten(10);
    EXPECT_TRUE(null_constant.GetValue(9).IsNull());
}

TEST(DataChunk, HoldsVectorSizeRowsAndAppendsSelections) {
    EXPECT_EQ(kVectorSize, 2048u);
    DataChunk chunk({LogicalTypeId::INTEGER, LogicalTypeId::VARCHAR});
    for (idx_t row = 0; row < kVectorSize; row++) {
        chunk.SetValue(0, row, Value::Integer(LogicalTypeId::INTEGER, static_cast<int64_t>(row)));
        chunk.SetValue(1, row, Value::Varchar("row number " + std::to_string(row)));
    }
    chunk.SetSize(kVectorSize);
    DataChunk selected(chunk.Types());
    idx_t rows[] = {1, 2047};
    selected.AppendSelected(chunk, rows, 2);
    ASSERT_EQ(selected.size(), 2u);
    EXPECT_EQ(selected.GetValue(0, 1).GetInteger(), 2047);
    EXPECT_EQ(selected.GetValue(1, 0).GetString(), "row number 1");
}

TEST(DateTime, CivilConversionRoundTripsOverMillennia) {
    for (int32_t days = -800000; days <= 800000; days += 7) {
        int64_t year;
        int32_t month, day;
        date::ToCivil(days, year, month, day);
        ASSERT_TRUE(date::IsValidCivil(year, month, day)) << days;
        ASSERT_EQ(date::FromCivil(year, month, day), days);
        int32_t parsed;
        ASSERT_TRUE(date::TryParse(date::ToString(days), parsed)) << date::ToString(days);
        ASSERT_EQ(parsed, days);
    }
    EXPECT_EQ(date::FromCivil(1970, 1, 1), 0);
    EXPECT_EQ(date::FromCivil(2000, 3, 1), 11017);
}

TEST(DateTime, RejectsInvalidText) {
    int32_t days;
    for (const char* text : {"2021-02-29", "2020-13-01", "2020-00-10", "x", "", "2020-01-01x",
                             "2020-1-", "0000-01-01 (BC)"}) {
        EXPECT_FALSE(date::TryParse(text, days)) << text;
    }
    int64_t micros;
    for (const char* text : {"25:00:00", "12:60", "12", "aa:bb", "12:00:00A"}) {
        EXPECT_FALSE(dtime::TryParse(text, micros)) << text;
    }
    // A cast lets a time end after a separator, as DuckDB's does; the CSV sniffer does not.
    for (const char* text : {"12:00:00.", "12:", "12:0", "2020-01-01"}) {
        EXPECT_TRUE(dtime::TryParse(text, micros)) << text;
        EXPECT_FALSE(dtime::TryParseTimeOfDay(text, micros)) << text;
    }
    EXPECT_TRUE(timestamp::TryParse("2020-01-01T10:00:00Z", micros));
    EXPECT_FALSE(timestamp::TryParse("2020-01-01 10:00:00+05", micros));
}

TEST(NumberFormat, ShortestRoundTripLikeDuckDB) {
    EXPECT_EQ(FormatDouble(1.0), "1.0");
    EXPECT_EQ(FormatDouble(0.1), "0.1");
    EXPECT_EQ(FormatDouble(1e16), "1e+16");
    EXPECT_EQ(FormatDouble(1e15), "1000000000000000.0");
    EXPECT_EQ(FormatDouble(1e-5), "1e-05");
    EXPECT_EQ(FormatDouble(0.0001), "0.0001");
    EXPECT_EQ(FormatDouble(-0.0), "-0.0");
    EXPECT_EQ(FormatDouble(1.0 / 3), "0.3333333333333333");
    EXPECT_EQ(FormatFloat(12345678.9f), "12345679.0");
    EXPECT_EQ(FormatDecimal(-5, 3, 2), "-0.05");
    EXPECT_EQ(FormatDecimal(5, 1, 1), ".5");
    hugeint_t max = PowerOfTen(38) - 1;
    EXPECT_EQ(FormatHugeint(max), std::string(38, '9'));
    hugeint_t min = -(static_cast<hugeint_t>((static_cast<unsigned __int128>(1) << 127) - 1)) - 1;
    EXPECT_EQ(FormatHugeint(min), "-170141183460469231731687303715884105728");
    hugeint_t parsed;
    ASSERT_TRUE(TryParseHugeint("-170141183460469231731687303715884105728", parsed));
    EXPECT_EQ(parsed, min);
    EXPECT_FALSE(TryParseHugeint("170141183460469231731687303715884105728", parsed));
    EXPECT_EQ(FormatBlob(std::string("\xAA"
                                     "A\\'\"",
                                     5)),
              "\\xAAA\\x5C\\x27\\x22");
}

TEST(Cast, RoundsHalfAwayFromZeroAndChecksRanges) {
    LogicalType decimal = LogicalType::Decimal(3, 1);
    EXPECT_EQ(CastValue(Value::Decimal(3, 2, 125), decimal).GetInteger(), 13);
    EXPECT_EQ(CastValue(Value::Decimal(3, 2, -125), decimal).GetInteger(), -13);
    EXPECT_THROW(CastValue(Value::Integer(LogicalTypeId::INTEGER, 300), LogicalTypeId::TINYINT),
                 Exception);
    EXPECT_THROW(CastValue(Value::Varchar("abc"), LogicalTypeId::INTEGER), Exception);
    Value result;
    EXPECT_FALSE(TryCastValue(Value::Varchar("1e999999999"), LogicalType::Decimal(5, 0), result));
    EXPECT_TRUE(TryCastValue(Value::Varchar(" 12 "), LogicalTypeId::SMALLINT, result));
    EXPECT_EQ(result.GetInteger(), 12);
}

TEST(MemorySize, ParsesUnitsAndPercentages) {
    EXPECT_EQ(ParseMemorySize("4GB"), 4000000000ull);
    EXPECT_EQ(ParseMemorySize("512MiB"), 512ull << 20);
    EXPECT_EQ(ParseMemorySize("1.5 GiB"), 3ull << 29);
    EXPECT_EQ(ParseMemorySize("100%"), SystemMemoryBytes());
    EXPECT_FALSE(ParseMemorySize("lots").has_value());
    EXPECT_FALSE(ParseMemorySize("4XB").has_value());
    EXPECT_FALSE(ParseMemorySize("150%").has_value());
    EXPECT_FALSE(ParseMemorySize("99999999999TB").has_value());
    EXPECT_EQ(FormatMemorySize(512), "512 bytes");
    EXPECT_EQ(FormatMemorySize(3ull << 29), "1.5 GiB");
}

// A few rows read back from a spill file hold their strings in a heap of just their size: a
// compacted chunk keeps the heaps of every piece it gathered, and whole 64 KiB blocks per piece
// made a spilled join partition take 30 times its reserved memory.
TEST(ChunkSerializer, RoundTripsAndSizesTheStringHeapToItsStrings) {
    DataChunk chunk({LogicalType(LogicalTypeId::VARCHAR), LogicalType(LogicalTypeId::BIGINT)});
    const std::string long_text(100, 'x');
    for (idx_t row = 0; row < 3; row++) {
        chunk.column(0).data<string_t>()[row] = chunk.column(0).AddString(long_text);
        chunk.column(1).data<int64_t>()[row] = static_cast<int64_t>(row);
    }
    chunk.column(0).data<string_t>()[3] = chunk.column(0).AddString("short");
    chunk.column(1).SetNull(3);
    chunk.SetSize(4);
    std::string bytes;
    SerializeChunk(chunk, bytes);
    DataChunk read({LogicalType(LogicalTypeId::VARCHAR), LogicalType(LogicalTypeId::BIGINT)});
    DeserializeChunk(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), read);
    ASSERT_EQ(read.size(), 4u);
    for (idx_t row = 0; row < 3; row++) {
        EXPECT_EQ(read.column(0).data<string_t>()[row].view(), long_text);
        EXPECT_EQ(read.column(1).data<int64_t>()[row], static_cast<int64_t>(row));
    }
    EXPECT_EQ(read.column(0).data<string_t>()[3].view(), "short");
    EXPECT_FALSE(read.column(1).RowIsValid(3));
    EXPECT_EQ(read.column(0).string_heap().AllocatedBytes(), 3 * long_text.size());
}
