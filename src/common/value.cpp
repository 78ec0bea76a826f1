#include "common/value.hpp"

#include "common/date_time.hpp"
#include "common/number_format.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

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

Value Value::Nested(LogicalType type, std::vector<Value> children) {
    Value value;
    value.type_ = std::move(type);
    value.is_null_ = false;
    value.children_ = std::move(children);
    return value;
}

interval_t Value::GetInterval() const {
    interval_t interval;
    std::memcpy(&interval, &integer_, sizeof(interval));
    return interval;
}

namespace {

// Whether a value's text needs quotes inside a nested value's text, as DuckDB decides: when it
// is empty, is "NULL" in any case, starts or ends with white space, or holds a character that
// the nested syntax uses.
bool NeedsQuotes(const std::string& text) {
    if (text.empty() || std::isspace(static_cast<unsigned char>(text.front())) ||
        std::isspace(static_cast<unsigned char>(text.back()))) {
        return true;
    }
    if (text.size() == 4 && (text[0] | 0x20) == 'n' && (text[1] | 0x20) == 'u' &&
        (text[2] | 0x20) == 'l' && (text[3] | 0x20) == 'l') {
        return true;
    }
    return text.find_first_of("[]{}(),:='\"") != std::string::npos;
}

std::string QuotedText(const std::string& text);

// A child value's text inside a list, struct or map.
std::string ChildText(const Value& child) {
    if (child.IsNull() || child.type().IsNested()) {
        return child.ToString();
    }
    std::string text = child.ToString();
    return NeedsQuotes(text) ? QuotedText(text) : text;
}

// 'text', with quotes and backslashes escaped by a backslash.
std::string QuotedText(const std::string& text) {
    std::string quoted = "'";
    for (char c : text) {
        if (c == '\'' || c == '\\') {
            quoted += '\\';
        }
        quoted += c;
    }
    return quoted + "'";
}

std::string NestedText(const Value& value) {
    const std::vector<Value>& children = value.children();
    std::string text;
    switch (value.type().id()) {
    case LogicalTypeId::LIST:
        text = "[";
        for (idx_t i = 0; i < children.size(); i++) {
            text += (i ? ", " : "") + ChildText(children[i]);
        }
        return text + "]";
    case LogicalTypeId::MAP:
        text = "{";
        for (idx_t i = 0; i < children.size(); i++) {
            text += (i ? ", " : "") + ChildText(children[i].children()[0]) + "=" +
                    ChildText(children[i].children()[1]);
        }
        return text + "}";
    default:
        text = "{";
        for (idx_t i = 0; i < children.size(); i++) {
            text += (i ? ", " : "") + QuotedText(value.type().fields()[i].name) + ": " +
                    ChildText(children[i]);
        }
        return text + "}";
    }
}

} // namespace

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
    case LogicalTypeId::LIST:
    case LogicalTypeId::STRUCT:
    case LogicalTypeId::MAP:
        return NestedText(*this);
    }
    return "?";
}

int Value::Compare(const Value& other) const {
    if (type_.IsNested()) {
        idx_t common = std::min(children_.size(), other.children_.size());
        for (idx_t i = 0; i < common; i++) {
            const Value& a = children_[i];
            const Value& b = other.children_[i];
            if (a.is_null_ || b.is_null_) {
                if (a.is_null_ != b.is_null_) {
                    return a.is_null_ ? 1 : -1;
                }
                continue;
            }
            if (int order = a.Compare(b)) {
                return order;
            }
        }
        return children_.size() < other.children_.size()   ? -1
               : children_.size() > other.children_.size() ? 1
                                                           : 0;
    }
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

size_t Value::Hash() const {
    auto mix = [](size_t seed, size_t value) {
        return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
    };
    if (type_.IsNested()) {
        size_t hash = children_.size();
        for (const Value& child : children_) {
            hash = mix(hash, child.is_null_ ? 0x5a17ce : child.Hash());
        }
        return hash;
    }
    if (type_.IsFloating()) {
        double normal = std::isnan(double_) ? std::numeric_limits<double>::quiet_NaN()
                        : double_ == 0      ? 0.0
                                            : double_;
        return std::isnan(normal) ? 0x7ff8 : std::hash<double>()(normal);
    }
    if (type_.physical() == PhysicalType::VARCHAR) {
        return std::hash<std::string>()(string_);
    }
    auto bits = static_cast<unsigned __int128>(integer_);
    return mix(std::hash<uint64_t>()(static_cast<uint64_t>(bits)),
               std::hash<uint64_t>()(static_cast<uint64_t>(bits >> 64)));
}

bool Value::operator==(const Value& other) const {
    if (type_ != other.type_ || is_null_ != other.is_null_) {
        return false;
    }
    return is_null_ || (integer_ == other.integer_ && double_ == other.double_ &&
                        string_ == other.string_ && children_ == other.children_);
}

} // namespace sluice
