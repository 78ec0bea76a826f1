#include "formats/parquet/parquet_value_layout.hpp"

#include "common/exception.hpp"

#include <cmath>
#include <cstring>

namespace sluice::parquet {

namespace {

// The fewest bytes whose two's complement holds every DECIMAL(precision) value.
int32_t DecimalBytes(int precision) {
    double bits = std::ceil(precision * std::log2(10.0)) + 1;
    return static_cast<int32_t>(std::ceil(bits / 8));
}

} // namespace

Layout LayoutOf(const LogicalType& type) {
    switch (type.id()) {
    case LogicalTypeId::BOOLEAN:
        return {Type::BOOLEAN, 0, 1};
    case LogicalTypeId::TINYINT:
        return {Type::INT32, 0, 4, ConvertedType::INT_8};
    case LogicalTypeId::SMALLINT:
        return {Type::INT32, 0, 4, ConvertedType::INT_16};
    case LogicalTypeId::INTEGER:
        return {Type::INT32, 0, 4};
    case LogicalTypeId::DATE:
        return {Type::INT32, 0, 4, ConvertedType::DATE};
    case LogicalTypeId::BIGINT:
        return {Type::INT64, 0, 8};
    case LogicalTypeId::UTINYINT:
        return {Type::INT32, 0, 4, ConvertedType::UINT_8, 0, 0, true};
    case LogicalTypeId::USMALLINT:
        return {Type::INT32, 0, 4, ConvertedType::UINT_16, 0, 0, true};
    case LogicalTypeId::UINTEGER:
        return {Type::INT32, 0, 4, ConvertedType::UINT_32, 0, 0, true};
    case LogicalTypeId::UBIGINT:
        return {Type::INT64, 0, 8, ConvertedType::UINT_64, 0, 0, true};
    case LogicalTypeId::TIME:
        return {Type::INT64, 0, 8, ConvertedType::TIME_MICROS};
    case LogicalTypeId::TIMESTAMP:
    case LogicalTypeId::TIMESTAMP_TZ:
        return {Type::INT64, 0, 8, ConvertedType::TIMESTAMP_MICROS};
    case LogicalTypeId::TIMESTAMP_NS: // no converted type exists for nanoseconds
        return {Type::INT64, 0, 8};
    case LogicalTypeId::HUGEINT: // exact, as DECIMAL(38,0)
        return {Type::FIXED_LEN_BYTE_ARRAY, 16, 16, ConvertedType::DECIMAL, 38, 0};
    case LogicalTypeId::DECIMAL:
        if (type.width() <= 9) {
            return {Type::INT32, 0, 4, ConvertedType::DECIMAL, type.width(), type.scale()};
        }
        if (type.width() <= 18) {
            return {Type::INT64, 0, 8, ConvertedType::DECIMAL, type.width(), type.scale()};
        }
        return {Type::FIXED_LEN_BYTE_ARRAY,
                DecimalBytes(type.width()),
                DecimalBytes(type.width()),
                ConvertedType::DECIMAL,
                type.width(),
                type.scale()};
    case LogicalTypeId::FLOAT:
        return {Type::FLOAT, 0, 4};
    case LogicalTypeId::DOUBLE:
        return {Type::DOUBLE, 0, 8};
    case LogicalTypeId::VARCHAR:
        return {Type::BYTE_ARRAY, 0, 0, ConvertedType::UTF8};
    case LogicalTypeId::BLOB:
        return {Type::BYTE_ARRAY, 0, 0};
    case LogicalTypeId::UUID: // statistics order: unsigned bytes
        return {Type::FIXED_LEN_BYTE_ARRAY, 16, 16, ConvertedType::NONE, 0, 0, true};
    case LogicalTypeId::SQLNULL:
        return {Type::INT32, 0, 4};
    case LogicalTypeId::INTERVAL:
    case LogicalTypeId::LIST:
    case LogicalTypeId::STRUCT:
    case LogicalTypeId::MAP:
        break;
    }
    throw Exception(ErrorKind::NotImplemented, "writing " + type.ToString() + " to Parquet");
}

namespace {

template <class T>
void AppendLittleEndian(std::vector<uint8_t>& out, T value) {
    uint8_t bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    out.insert(out.end(), bytes, bytes + sizeof(T));
}

} // namespace

void AppendValue(const Vector& vector, idx_t row, const Layout& layout, ColumnValues& values) {
    const LogicalType& type = vector.type();
    switch (type.id()) {
    case LogicalTypeId::BOOLEAN:
        values.fixed.push_back(vector.data<bool>()[row] ? 1 : 0);
        return;
    case LogicalTypeId::TINYINT:
        AppendLittleEndian<int32_t>(values.fixed, vector.data<int8_t>()[row]);
        return;
    case LogicalTypeId::SMALLINT:
        AppendLittleEndian<int32_t>(values.fixed, vector.data<int16_t>()[row]);
        return;
    case LogicalTypeId::INTEGER:
    case LogicalTypeId::DATE:
    case LogicalTypeId::SQLNULL:
        AppendLittleEndian<int32_t>(values.fixed, vector.data<int32_t>()[row]);
        return;
    case LogicalTypeId::INTERVAL: // LayoutOf refuses it before any value is appended
        break;
    case LogicalTypeId::BIGINT:
    case LogicalTypeId::TIME:
    case LogicalTypeId::TIMESTAMP:
    case LogicalTypeId::TIMESTAMP_TZ:
    case LogicalTypeId::TIMESTAMP_NS:
        AppendLittleEndian<int64_t>(values.fixed, vector.data<int64_t>()[row]);
        return;
    case LogicalTypeId::UTINYINT:
    case LogicalTypeId::USMALLINT:
    case LogicalTypeId::UINTEGER:
        AppendLittleEndian<uint32_t>(values.fixed, static_cast<uint32_t>(GetInteger(vector, row)));
        return;
    case LogicalTypeId::UBIGINT:
        AppendLittleEndian<uint64_t>(values.fixed, vector.data<uint64_t>()[row]);
        return;
    case LogicalTypeId::FLOAT:
        AppendLittleEndian<float>(values.fixed, vector.data<float>()[row]);
        return;
    case LogicalTypeId::DOUBLE:
        AppendLittleEndian<double>(values.fixed, vector.data<double>()[row]);
        return;
    case LogicalTypeId::HUGEINT:
    case LogicalTypeId::DECIMAL: {
        hugeint_t value = type.id() == LogicalTypeId::HUGEINT ? vector.data<hugeint_t>()[row]
                                                              : GetInteger(vector, row);
        if (layout.type == Type::INT32) {
            AppendLittleEndian<int32_t>(values.fixed, static_cast<int32_t>(value));
        } else if (layout.type == Type::INT64) {
            AppendLittleEndian<int64_t>(values.fixed, static_cast<int64_t>(value));
        } else {
            for (int32_t byte = layout.type_length - 1; byte >= 0; byte--) {
                values.fixed.push_back(
                    static_cast<uint8_t>(static_cast<unsigned __int128>(value) >> (8 * byte)));
            }
        }
        return;
    }
    case LogicalTypeId::VARCHAR:
    case LogicalTypeId::BLOB:
        values.AppendBinary(vector.data<string_t>()[row].view());
        return;
    case LogicalTypeId::UUID: {
        auto bits = static_cast<unsigned __int128>(vector.data<hugeint_t>()[row]) ^
                    (static_cast<unsigned __int128>(1) << 127);
        for (int byte = 15; byte >= 0; byte--) {
            values.fixed.push_back(static_cast<uint8_t>(bits >> (8 * byte)));
        }
        return;
    }
    case LogicalTypeId::LIST:
    case LogicalTypeId::STRUCT:
    case LogicalTypeId::MAP:
        throw Exception(ErrorKind::NotImplemented, "writing " + type.ToString() + " to Parquet");
    }
}

namespace {

// Orders two PLAIN values the way the column's statistics must: signed for numbers (decimals in
// big-endian bytes included), unsigned bytes for strings. NaN is left out by the caller.
int Compare(std::string_view a, std::string_view b, const Layout& layout) {
    switch (layout.type) {
    case Type::BOOLEAN:
        return int(uint8_t(a[0])) - int(uint8_t(b[0]));
    case Type::INT32: {
        if (layout.is_unsigned) {
            uint32_t x, y;
            std::memcpy(&x, a.data(), 4);
            std::memcpy(&y, b.data(), 4);
            return x < y ? -1 : x > y;
        }
        int32_t x, y;
        std::memcpy(&x, a.data(), 4);
        std::memcpy(&y, b.data(), 4);
        return x < y ? -1 : x > y;
    }
    case Type::INT64: {
        if (layout.is_unsigned) {
            uint64_t x, y;
            std::memcpy(&x, a.data(), 8);
            std::memcpy(&y, b.data(), 8);
            return x < y ? -1 : x > y;
        }
        int64_t x, y;
        std::memcpy(&x, a.data(), 8);
        std::memcpy(&y, b.data(), 8);
        return x < y ? -1 : x > y;
    }
    case Type::FLOAT: {
        float x, y;
        std::memcpy(&x, a.data(), 4);
        std::memcpy(&y, b.data(), 4);
        return x < y ? -1 : x > y;
    }
    case Type::DOUBLE: {
        double x, y;
        std::memcpy(&x, a.data(), 8);
        std::memcpy(&y, b.data(), 8);
        return x < y ? -1 : x > y;
    }
    case Type::FIXED_LEN_BYTE_ARRAY: { // big-endian two's complement decimals, or UUID bytes
        if (layout.is_unsigned) {
            int order = std::memcmp(a.data(), b.data(), a.size());
            return order < 0 ? -1 : order > 0;
        }
        bool a_negative = uint8_t(a[0]) & 0x80, b_negative = uint8_t(b[0]) & 0x80;
        if (a_negative != b_negative) {
            return a_negative ? -1 : 1;
        }
        int order = std::memcmp(a.data(), b.data(), a.size());
        return order < 0 ? -1 : order > 0;
    }
    default: {
        size_t common = std::min(a.size(), b.size()); // empty strings may have no data pointer
        int order = common == 0 ? 0 : std::memcmp(a.data(), b.data(), common);
        if (order != 0) {
            return order < 0 ? -1 : 1;
        }
        return a.size() < b.size() ? -1 : a.size() > b.size();
    }
    }
}

bool IsNaN(std::string_view value, const Layout& layout) {
    if (layout.type == Type::FLOAT) {
        float x;
        std::memcpy(&x, value.data(), 4);
        return std::isnan(x);
    }
    if (layout.type == Type::DOUBLE) {
        double x;
        std::memcpy(&x, value.data(), 8);
        return std::isnan(x);
    }
    return false;
}

// String statistics longer than this are left out rather than truncated.
constexpr size_t kMaxStatisticsLength = 64;

} // namespace

void MinMax::Add(std::string_view value, const Layout& layout) {
    if (IsNaN(value, layout)) {
        return;
    }
    if (!present) {
        min = max = std::string(value);
        present = true;
        return;
    }
    if (Compare(value, min, layout) < 0) {
        min = std::string(value);
    }
    if (Compare(value, max, layout) > 0) {
        max = std::string(value);
    }
}

void MinMax::Merge(const MinMax& other, const Layout& layout) {
    if (other.present) {
        Add(other.min, layout);
        Add(other.max, layout);
    }
}

bool MinMax::Writable() const {
    return present && min.size() <= kMaxStatisticsLength && max.size() <= kMaxStatisticsLength;
}

void WriteStatistics(ThriftCompactWriter& writer, int16_t field, int64_t null_count,
                     const MinMax& range) {
    writer.BeginStructField(field);
    writer.WriteI64Field(3, null_count);
    if (range.Writable()) {
        writer.WriteBinaryField(5, range.max);
        writer.WriteBinaryField(6, range.min);
    }
    writer.EndStruct();
}

void AppendPlain(const ColumnValues& values, size_t begin, size_t end, const Layout& layout,
                 std::vector<uint8_t>& out) {
    if (layout.type == Type::BOOLEAN) {
        size_t start = out.size();
        out.resize(start + (end - begin + 7) / 8, 0);
        for (size_t i = begin; i < end; i++) {
            if (values.fixed[i]) {
                out[start + (i - begin) / 8] |= static_cast<uint8_t>(1u << ((i - begin) % 8));
            }
        }
    } else if (layout.width == 0) {
        for (size_t i = begin; i < end; i++) {
            std::string_view value = values.Value(i, 0);
            AppendLittleEndian<uint32_t>(out, static_cast<uint32_t>(value.size()));
            out.insert(out.end(), value.begin(), value.end());
        }
    } else {
        out.insert(out.end(), values.fixed.begin() + begin * layout.width,
                   values.fixed.begin() + end * layout.width);
    }
}

void WriteLogicalType(ThriftCompactWriter& writer, const LogicalType& type, const Layout& layout) {
    auto empty_member = [&](int16_t id) {
        writer.BeginStructField(10);
        writer.BeginStructField(id);
        writer.EndStruct();
        writer.EndStruct();
    };
    switch (type.id()) {
    case LogicalTypeId::VARCHAR:
        empty_member(1);
        return;
    case LogicalTypeId::DATE:
        empty_member(6);
        return;
    case LogicalTypeId::UUID:
        empty_member(14);
        return;
    case LogicalTypeId::DECIMAL:
    case LogicalTypeId::HUGEINT:
        writer.BeginStructField(10);
        writer.BeginStructField(5);
        writer.WriteI32Field(1, layout.scale);
        writer.WriteI32Field(2, layout.precision);
        writer.EndStruct();
        writer.EndStruct();
        return;
    case LogicalTypeId::TIME:
    case LogicalTypeId::TIMESTAMP:
    case LogicalTypeId::TIMESTAMP_TZ:
    case LogicalTypeId::TIMESTAMP_NS:
        writer.BeginStructField(10);
        writer.BeginStructField(type.id() == LogicalTypeId::TIME ? 7 : 8);
        // Local times are not adjusted to UTC; instants are.
        writer.WriteBoolField(1, type.id() == LogicalTypeId::TIMESTAMP_TZ);
        writer.BeginStructField(2);
        writer.BeginStructField(type.id() == LogicalTypeId::TIMESTAMP_NS ? 3 : 2); // NANOS, MICROS
        writer.EndStruct();
        writer.EndStruct();
        writer.EndStruct();
        writer.EndStruct();
        return;
    case LogicalTypeId::TINYINT:
    case LogicalTypeId::SMALLINT:
    case LogicalTypeId::UTINYINT:
    case LogicalTypeId::USMALLINT:
    case LogicalTypeId::UINTEGER:
    case LogicalTypeId::UBIGINT:
        writer.BeginStructField(10);
        writer.BeginStructField(10);
        writer.WriteByteField(1, static_cast<int8_t>(8 << (IntegerRank(type.id()) - 1)));
        writer.WriteBoolField(2, !type.IsUnsigned());
        writer.EndStruct();
        writer.EndStruct();
        return;
    default:
        return;
    }
}

} // namespace sluice::parquet
