#include "formats/parquet/parquet_statistics.hpp"

#include <cmath>
#include <cstring>

namespace sluice::parquet {

namespace {

template <class T>
bool Load(const std::string& bytes, T& value) {
    if (bytes.size() != sizeof(T)) {
        return false;
    }
    std::memcpy(&value, bytes.data(), sizeof(T));
    return true;
}

int64_t FloorDivide(int64_t value, int64_t divisor) {
    int64_t quotient = value / divisor;
    return (value % divisor != 0 && value < 0) ? quotient - 1 : quotient;
}

std::optional<Value> Decode(const ParquetColumn& column, const std::string& bytes) {
    const LogicalType& type = column.type;
    int32_t i32;
    int64_t i64;
    switch (column.conversion) {
    case Conversion::Boolean:
        if (bytes.size() != 1) {
            return std::nullopt;
        }
        return Value::Boolean(bytes[0] != 0);
    case Conversion::Int32:
    case Conversion::Int32ToInt8:
    case Conversion::Int32ToInt16:
    case Conversion::DecimalFromInt32:
        if (!Load(bytes, i32)) {
            return std::nullopt;
        }
        return Value::Integer(type, i32);
    case Conversion::UInt8:
    case Conversion::UInt16:
    case Conversion::UInt32: { // unsigned order: the bits are a uint32
        uint32_t u32;
        if (!Load(bytes, u32)) {
            return std::nullopt;
        }
        return Value::Integer(type, u32);
    }
    case Conversion::UInt64: {
        uint64_t u64;
        if (!Load(bytes, u64)) {
            return std::nullopt;
        }
        return Value::Integer(type, u64);
    }
    case Conversion::TimeMillis:
        if (!Load(bytes, i32)) {
            return std::nullopt;
        }
        return Value::Integer(type, int64_t(i32) * 1000);
    case Conversion::Int64:
    case Conversion::TimeMicros:
    case Conversion::TimestampMicros:
    case Conversion::DecimalFromInt64:
        if (!Load(bytes, i64)) {
            return std::nullopt;
        }
        return Value::Integer(type, i64);
    case Conversion::TimestampMillis:
        if (!Load(bytes, i64) || i64 > INT64_MAX / 1000 || i64 < INT64_MIN / 1000) {
            return std::nullopt;
        }
        return Value::Integer(type, i64 * 1000);
    case Conversion::TimeNanos:
    case Conversion::TimestampNanos: // flooring keeps both bounds valid: it is monotonic
        if (!Load(bytes, i64)) {
            return std::nullopt;
        }
        return Value::Integer(type, FloorDivide(i64, 1000));
    case Conversion::Float: {
        float value;
        if (!Load(bytes, value) || std::isnan(value)) {
            return std::nullopt;
        }
        return Value::Float(value);
    }
    case Conversion::Double: {
        double value;
        if (!Load(bytes, value) || std::isnan(value)) {
            return std::nullopt;
        }
        return Value::Double(value);
    }
    case Conversion::DecimalFromBytes: {
        if (bytes.empty() || bytes.size() > 16) {
            return std::nullopt;
        }
        bool negative = static_cast<uint8_t>(bytes[0]) & 0x80;
        unsigned __int128 value = negative ? ~static_cast<unsigned __int128>(0) : 0;
        for (char byte : bytes) {
            value = (value << 8) | static_cast<uint8_t>(byte);
        }
        return Value::Integer(type, static_cast<hugeint_t>(value));
    }
    case Conversion::Varchar:
        return Value::Varchar(bytes);
    case Conversion::Blob:
        return Value::Blob(bytes);
    case Conversion::Uuid: { // unsigned byte order is the order of the flipped int128
        if (bytes.size() != 16) {
            return std::nullopt;
        }
        unsigned __int128 bits = 0;
        for (char byte : bytes) {
            bits = (bits << 8) | static_cast<uint8_t>(byte);
        }
        return Value::Integer(
            type, static_cast<hugeint_t>(bits ^ (static_cast<unsigned __int128>(1) << 127)));
    }
    case Conversion::Int96Timestamp: // no defined sort order
    case Conversion::Float16:
        return std::nullopt;
    }
    return std::nullopt;
}

// The deprecated min/max fields were written with signed comparisons, which agree with the
// type's order only for numbers stored as numbers.
bool LegacyOrderIsUsable(const ParquetColumn& column) {
    if (column.type.IsUnsigned()) {
        return false; // the legacy fields ordered these as signed numbers
    }
    switch (column.physical) {
    case Type::BOOLEAN:
    case Type::INT32:
    case Type::INT64:
    case Type::FLOAT:
    case Type::DOUBLE:
        return true;
    default:
        return false;
    }
}

} // namespace

ColumnStatistics StatisticsFromBounds(const ParquetColumn& column, const std::string* min,
                                      const std::string* max, std::optional<int64_t> null_count,
                                      int64_t row_count) {
    ColumnStatistics result;
    result.row_count = static_cast<uint64_t>(row_count);
    result.may_contain_nan = column.type.IsFloating();
    if (!column.unsupported.empty() || column.nested) {
        return result;
    }
    if (null_count && *null_count >= 0 && *null_count <= row_count) {
        result.null_count = static_cast<uint64_t>(*null_count);
    }
    if (min && max) {
        result.min = Decode(column, *min);
        result.max = Decode(column, *max);
        if (!result.min || !result.max || result.min->Compare(*result.max) > 0) {
            result.min.reset(); // inconsistent bounds: trust neither
            result.max.reset();
        }
    }
    return result;
}

ColumnStatistics ReadColumnStatistics(const ParquetColumn& column, const ColumnChunk& chunk,
                                      int64_t row_count) {
    if (!chunk.meta_data || !chunk.meta_data->statistics) {
        return StatisticsFromBounds(column, nullptr, nullptr, std::nullopt, row_count);
    }
    const Statistics& statistics = *chunk.meta_data->statistics;
    const std::string* min = nullptr;
    const std::string* max = nullptr;
    if (statistics.min_value && statistics.max_value) {
        min = &*statistics.min_value;
        max = &*statistics.max_value;
    } else if (statistics.min && statistics.max && LegacyOrderIsUsable(column)) {
        min = &*statistics.min;
        max = &*statistics.max;
    }
    return StatisticsFromBounds(column, min, max, statistics.null_count, row_count);
}

} // namespace sluice::parquet
