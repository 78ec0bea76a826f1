#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace sluice {

using idx_t = uint64_t;
using hugeint_t = __int128;

// Rows per DataChunk: large enough to amortise interpretation, small enough to stay in L1/L2.
constexpr idx_t kVectorSize = 2048;

enum class LogicalTypeId : uint8_t {
    SQLNULL, // the type of an untyped NULL literal; it casts implicitly to anything
    BOOLEAN,
    TINYINT,
    SMALLINT,
    INTEGER,
    BIGINT,
    HUGEINT,
    UTINYINT, // unsigned integers, as in DuckDB
    USMALLINT,
    UINTEGER,
    UBIGINT,
    FLOAT,
    DOUBLE,
    DECIMAL,
    DATE,
    TIME,
    TIMESTAMP,
    TIMESTAMP_TZ, // an instant, microseconds since the epoch in UTC; shown in UTC (+00)
    TIMESTAMP_NS, // nanoseconds since the epoch
    VARCHAR,
    BLOB,
    UUID,     // 128 bits; stored with the top bit flipped so that int128 order is byte order
    INTERVAL, // interval_t (months, days, micros) in a 16-byte slot
};

// How a value is laid out in a vector. Several logical types share one layout
// (DATE is INT32 days, TIME and TIMESTAMP are INT64 microseconds, DECIMAL picks by width).
enum class PhysicalType : uint8_t {
    BOOL,
    INT8,
    INT16,
    INT32,
    INT64,
    INT128,
    UINT8,
    UINT16,
    UINT32,
    UINT64,
    FLOAT,
    DOUBLE,
    VARCHAR, // string_t; BLOB uses it too
};

class LogicalType {
public:
    LogicalType() = default;
    LogicalType(LogicalTypeId id) : id_(id) {} // NOLINT: implicit for brevity, like an enum

    static LogicalType Decimal(uint8_t width, uint8_t scale);

    LogicalTypeId id() const { return id_; }
    uint8_t width() const { return width_; }
    uint8_t scale() const { return scale_; }

    PhysicalType physical() const; // inline below: it is asked for per value
    bool IsNumeric() const;
    bool IsInteger() const; // signed or unsigned
    bool IsUnsigned() const;
    bool IsFloating() const { return id_ == LogicalTypeId::FLOAT || id_ == LogicalTypeId::DOUBLE; }

    // SQL spelling: INTEGER, DECIMAL(12,1), VARCHAR ...
    std::string ToString() const;
    // The lower-case spelling DuckDB's box renderer prints under column names: int32, varchar ...
    std::string DisplayName() const;

    bool operator==(const LogicalType& other) const {
        return id_ == other.id_ && width_ == other.width_ && scale_ == other.scale_;
    }
    bool operator!=(const LogicalType& other) const { return !(*this == other); }

private:
    LogicalTypeId id_ = LogicalTypeId::SQLNULL;
    uint8_t width_ = 0;
    uint8_t scale_ = 0;
};

inline PhysicalType LogicalType::physical() const {
    switch (id_) {
    case LogicalTypeId::SQLNULL:
    case LogicalTypeId::INTEGER:
    case LogicalTypeId::DATE:
        return PhysicalType::INT32;
    case LogicalTypeId::BOOLEAN:
        return PhysicalType::BOOL;
    case LogicalTypeId::TINYINT:
        return PhysicalType::INT8;
    case LogicalTypeId::SMALLINT:
        return PhysicalType::INT16;
    case LogicalTypeId::BIGINT:
    case LogicalTypeId::TIME:
    case LogicalTypeId::TIMESTAMP:
    case LogicalTypeId::TIMESTAMP_TZ:
    case LogicalTypeId::TIMESTAMP_NS:
        return PhysicalType::INT64;
    case LogicalTypeId::HUGEINT:
    case LogicalTypeId::UUID:
    case LogicalTypeId::INTERVAL:
        return PhysicalType::INT128;
    case LogicalTypeId::UTINYINT:
        return PhysicalType::UINT8;
    case LogicalTypeId::USMALLINT:
        return PhysicalType::UINT16;
    case LogicalTypeId::UINTEGER:
        return PhysicalType::UINT32;
    case LogicalTypeId::UBIGINT:
        return PhysicalType::UINT64;
    case LogicalTypeId::FLOAT:
        return PhysicalType::FLOAT;
    case LogicalTypeId::DOUBLE:
        return PhysicalType::DOUBLE;
    case LogicalTypeId::DECIMAL:
        if (width_ <= 4) {
            return PhysicalType::INT16;
        }
        if (width_ <= 9) {
            return PhysicalType::INT32;
        }
        if (width_ <= 18) {
            return PhysicalType::INT64;
        }
        return PhysicalType::INT128;
    case LogicalTypeId::VARCHAR:
    case LogicalTypeId::BLOB:
        return PhysicalType::VARCHAR;
    }
    return PhysicalType::INT32;
}

constexpr uint8_t kMaxDecimalWidth = 38;

idx_t PhysicalTypeSize(PhysicalType type);

// The DECIMAL width able to hold every value of an integer type (INTEGER -> 10).
uint8_t IntegerDecimalWidth(LogicalTypeId id);
// Integer widths in steps: 1 for 8 bits ... 4 for 64 bits, 5 for HUGEINT.
int IntegerRank(LogicalTypeId id);

} // namespace sluice
