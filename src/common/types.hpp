#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

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
    LIST,     // a variable number of values of one child type
    STRUCT,   // named fields, each of its own type
    MAP,      // a LIST of STRUCT(key, value) entries
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
    LIST,    // list_entry_t per row, the elements in a child vector (MAP too)
    STRUCT,  // no data of its own: one child vector per field
};

// Where a row's elements sit in the child vector of a LIST vector.
struct list_entry_t {
    uint64_t offset;
    uint64_t length;
};

class LogicalType;
struct StructField;

class LogicalType {
public:
    LogicalType() = default;
    LogicalType(LogicalTypeId id) : id_(id) {} // NOLINT: implicit for brevity, like an enum

    static LogicalType Decimal(uint8_t width, uint8_t scale);
    static LogicalType List(const LogicalType& element);
    static LogicalType Struct(std::vector<StructField> fields);
    static LogicalType Map(const LogicalType& key, const LogicalType& value);

    LogicalTypeId id() const { return id_; }
    uint8_t width() const { return width_; }
    uint8_t scale() const { return scale_; }

    PhysicalType physical() const; // inline below: it is asked for per value
    bool IsNumeric() const;
    bool IsInteger() const; // signed or unsigned
    bool IsUnsigned() const;
    bool IsFloating() const { return id_ == LogicalTypeId::FLOAT || id_ == LogicalTypeId::DOUBLE; }
    bool IsNested() const {
        return id_ == LogicalTypeId::LIST || id_ == LogicalTypeId::STRUCT ||
               id_ == LogicalTypeId::MAP;
    }
    // The element type of a LIST; a MAP's element is its STRUCT(key, value) entry.
    const LogicalType& element() const;
    // The fields of a STRUCT.
    const std::vector<StructField>& fields() const;
    // A MAP's key and value types.
    const LogicalType& key() const;
    const LogicalType& value() const;

    // SQL spelling: INTEGER, DECIMAL(12,1), VARCHAR ...
    std::string ToString() const;
    // The lower-case spelling DuckDB's box renderer prints under column names: int32, varchar ...
    std::string DisplayName() const;

    bool operator==(const LogicalType& other) const;
    bool operator!=(const LogicalType& other) const { return !(*this == other); }

private:
    LogicalTypeId id_ = LogicalTypeId::SQLNULL;
    uint8_t width_ = 0;
    uint8_t scale_ = 0;
    // LIST and MAP: one unnamed field, the element; STRUCT: its fields. Shared and immutable, so
    // that copying a type stays cheap.
    std::shared_ptr<const std::vector<StructField>> children_;
};

struct StructField {
    std::string name;
    LogicalType type;
};

// Which leaves of a nested type a scan reads, by position among the type's leaves in depth-first
// order (a STRUCT's fields in order, the element of a LIST or a MAP); empty: every leaf. A
// Parquet file stores one column chunk per leaf, so a query reading `items[1].part` needs only
// one of the chunks of `items`.
using LeafMask = std::vector<bool>;

// How many leaves (values of a non-nested type) a value of `type` is made of: 1 unless nested.
size_t LeafCount(const LogicalType& type);

inline bool LogicalType::operator==(const LogicalType& other) const {
    if (id_ != other.id_ || width_ != other.width_ || scale_ != other.scale_) {
        return false;
    }
    if (children_ == other.children_) {
        return true;
    }
    if (!children_ || !other.children_ || children_->size() != other.children_->size()) {
        return false;
    }
    for (size_t i = 0; i < children_->size(); i++) {
        const StructField& a = (*children_)[i];
        const StructField& b = (*other.children_)[i];
        if (a.name != b.name || a.type != b.type) {
            return false;
        }
    }
    return true;
}

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
    case LogicalTypeId::LIST:
    case LogicalTypeId::MAP:
        return PhysicalType::LIST;
    case LogicalTypeId::STRUCT:
        return PhysicalType::STRUCT;
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
