#include "common/value.hpp"

#include "common/date_time.hpp"
#include "common/number_format.hpp"

#include <cmath>
#include <cstring>

namespace sluice {

Value Value::Null(LogicalType type) {
    Value value;
    value.type_ = type;
    return value;
}

Value Value::Boolean(bool b) {
    Value value;
    value.type_ = LogicalTypeId::BOOLEAN;
    value.is_null_ = false;
    value.integer_ = b ? 1 : 0;
    return value;
}

Value Value::Integer(LogicalType type, hugeint_t integer) {
    Value value;
    value.type_ = type;
    value.is_null_ = false;
    value.integer_ = integer;
    return value;
}

Value Value::Decimal(uint8_t width, uint8_t scale, hugeint_t unscaled) {
    return Integer(LogicalType::Decimal(width, scale), unscaled);
}

Value Value::Float(float f) {
    Value value;
    value.type_ = LogicalTypeId::FLOAT;
    value.is_null_ = false;
    value.double_ = f;
    return value;
}

Value Value::Double(double d) {
    Value value;
    value.type_ = LogicalTypeId::DOUBLE;
    value.is_null_ = false;
    value.double_ = d;
    return value;
}

Value Value::Varchar(std::string text) {
    Value value;
    value.type_ = LogicalTypeId::VARCHAR;
    value.is_null_ = false;
    value.string_ = std::move(text);
    return value;
}

Value Value::Blob(std::string bytes) {
    Value value = Varchar(std::move(bytes));
    value.type_ = LogicalTypeId::BLOB;
    return value;
}

// An interval shares the 16-byte integer slot, as it does in vectors.
Value Value::Interval(interval_t interval) {
    Value value;
    value.type_ = LogicalTypeId::INTERVAL;
    value.is_null_ = false;
    std::memcpy(&value.integer_, &interval, sizeof(interval));
    return value;
}

interval_t Value::GetInterval() const {
    interval_t interval;
    std::memcpy(&interval, &integer_, sizeof(interval));
    return interval;
}

std::string Value::ToString() const {
    if (is_null_) {
        return "NULL";
    }
    switch (type_.id()) {
    case LogicalTypeId::SQLNULL:
        return "NULL";
    case LogicalTypeId::BOOLEAN:
        return integer_ ? "true" : "false";
    case LogicalTypeId::TINYINT:
    case LogicalTypeId::SMALLINT:
    case LogicalTypeId::INTEGER:
    case LogicalTypeId::BIGINT:
    case LogicalTypeId::HUGEINT:
    case LogicalTypeId::UTINYINT:
    case LogicalTypeId::USMALLINT:
    case LogicalTypeId::UINTEGER:
    case LogicalTypeId::UBIGINT:
        return FormatHugeint(integer_);
    case LogicalTypeId::DECIMAL:
        return FormatDecimal(integer_, type_.width(), type_.scale());
    case LogicalTypeId::FLOAT:
        return FormatFloat(static_cast<float>(double_));
    case LogicalTypeId::DOUBLE:
        return FormatDouble(double_);
    case LogicalTypeId::DATE:
        return date::ToString(static_cast<int32_t>(integer_));
    case LogicalTypeId::TIME:
        return dtime::ToString(static_cast<int64_t>(integer_));
    case LogicalTypeId::TIMESTAMP:
        return timestamp::ToString(static_cast<int64_t>(integer_));
    case LogicalTypeId::TIMESTAMP_TZ:
        return timestamp::ToStringUtc(static_cast<int64_t>(integer_));
    case LogicalTypeId::TIMESTAMP_NS:
        return timestamp::ToStringNanos(static_cast<int64_t>(integer_));
    case LogicalTypeId::VARCHAR:
        return string_;
    case LogicalTypeId::BLOB:
        return FormatBlob(string_);
    case LogicalTypeId::UUID:
        return FormatUuid(integer_);
    case LogicalTypeId::INTERVAL:
        return interval::ToString(GetInterval());
    }
    return "?";
}

int Value::Compare(const Value& other) const {
    if (type_.IsFloating()) {
        bool nan = std::isnan(double_), other_nan = std::isnan(other.double_);
        if (nan || other_nan) {
            return nan == other_nan ? 0 : (nan ? 1 : -1);
        }
        return double_ < other.double_ ? -1 : double_ > other.double_;
    }
    if (type_.physical() == PhysicalType::VARCHAR) {
        int order = string_.compare(other.string_); // char_traits compares as unsigned char
        return order < 0 ? -1 : order > 0;
    }
    return integer_ < other.integer_ ? -1 : integer_ > other.integer_;
}

bool Value::operator==(const Value& other) const {
    if (type_ != other.type_ || is_null_ != other.is_null_) {
        return false;
    }
    return is_null_ ||
           (integer_ == other.integer_ && double_ == other.double_ && string_ == other.string_);
}

} // namespace sluice
