#include "common/cast.hpp"

#include "common/date_time.hpp"
#include "common/exception.hpp"
#include "common/nested_text.hpp"
#include "common/number_format.hpp"
#include "common/string_util.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace sluice {

namespace {

// DuckDB's names for types in conversion messages (INT32 rather than INTEGER).
std::string InternalName(const LogicalType& type) {
    switch (type.id()) {
    case LogicalTypeId::BOOLEAN:
        return "BOOL";
    case LogicalTypeId::TINYINT:
        return "INT8";
    case LogicalTypeId::SMALLINT:
        return "INT16";
    case LogicalTypeId::INTEGER:
        return "INT32";
    case LogicalTypeId::BIGINT:
        return "INT64";
    case LogicalTypeId::HUGEINT:
    case LogicalTypeId::UUID: // DuckDB names the storage in this message
        return "INT128";
    case LogicalTypeId::UTINYINT:
        return "UINT8";
    case LogicalTypeId::USMALLINT:
        return "UINT16";
    case LogicalTypeId::UINTEGER:
        return "UINT32";
    case LogicalTypeId::UBIGINT:
        return "UINT64";
    default:
        return type.ToString();
    }
}

bool IntegerFits(LogicalTypeId id, hugeint_t value) {
    switch (id) {
    case LogicalTypeId::TINYINT:
        return value >= INT8_MIN && value <= INT8_MAX;
    case LogicalTypeId::SMALLINT:
        return value >= INT16_MIN && value <= INT16_MAX;
    case LogicalTypeId::INTEGER:
        return value >= INT32_MIN && value <= INT32_MAX;
    case LogicalTypeId::BIGINT:
        return value >= INT64_MIN && value <= INT64_MAX;
    case LogicalTypeId::UTINYINT:
        return value >= 0 && value <= UINT8_MAX;
    case LogicalTypeId::USMALLINT:
        return value >= 0 && value <= UINT16_MAX;
    case LogicalTypeId::UINTEGER:
        return value >= 0 && value <= UINT32_MAX;
    case LogicalTypeId::UBIGINT:
        return value >= 0 && value <= static_cast<hugeint_t>(UINT64_MAX);
    default:
        return true;
    }
}

bool DecimalFits(const LogicalType& type, hugeint_t unscaled) {
    hugeint_t limit = PowerOfTen(type.width());
    return unscaled < limit && unscaled > -limit;
}

// Divides by 10^digits rounding half away from zero.
hugeint_t DivideRounding(hugeint_t value, int digits) {
    if (digits <= 0) {
        return value;
    }
    hugeint_t divisor = PowerOfTen(digits);
    hugeint_t quotient = value / divisor;
    hugeint_t remainder = value % divisor;
    if (remainder * 2 >= divisor) {
        quotient++;
    } else if (remainder * 2 <= -divisor) {
        quotient--;
    }
    return quotient;
}

// Parses "[-+]digits[.digits][e[-+]digits]" exactly into an unscaled integer with `scale`
// fractional digits, rounding half away from zero. False on syntax errors or overflow.
bool ParseDecimalText(std::string_view text, uint8_t scale, hugeint_t& result) {
    size_t pos = 0;
    bool negative = false;
    if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) {
        negative = text[pos] == '-';
        pos++;
    }
    std::string digits;
    int fraction_digits = 0;
    bool seen_point = false, any_digit = false;
    for (; pos < text.size(); pos++) {
        char c = text[pos];
        if (std::isdigit((unsigned char)c)) {
            any_digit = true;
            if (!(digits.empty() && c == '0')) {
                digits += c;
            }
            if (seen_point) {
                fraction_digits++;
            }
        } else if (c == '.' && !seen_point) {
            seen_point = true;
        } else {
            break;
        }
    }
    if (!any_digit) {
        return false;
    }
    int exponent = 0;
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
        pos++;
        bool exponent_negative = false;
        if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) {
            exponent_negative = text[pos] == '-';
            pos++;
        }
        size_t start = pos;
        while (pos < text.size() && std::isdigit((unsigned char)text[pos]) && pos - start < 6) {
            exponent = exponent * 10 + (text[pos] - '0');
            pos++;
        }
        if (pos == start) {
            return false;
        }
        exponent = exponent_negative ? -exponent : exponent;
    }
    if (pos != text.size()) {
        return false;
    }
    // value = digits * 10^(exponent - fraction_digits); we want value * 10^scale.
    int shift = exponent - fraction_digits + scale;
    if (digits.empty()) {
        result = 0;
        return true;
    }
    if (shift > 0) {
        if (digits.size() + shift > 38) {
            return false;
        }
        digits.append(static_cast<size_t>(shift), '0');
        shift = 0;
    }
    // Keep at most 39 significant digits before rounding away the rest.
    int drop = -shift;
    if (static_cast<int>(digits.size()) - drop > 38) {
        return false;
    }
    if (drop > static_cast<int>(digits.size())) {
        result = 0;
        return true;
    }
    std::string kept = digits.substr(0, digits.size() - static_cast<size_t>(drop));
    hugeint_t value = 0;
    if (!kept.empty() && !TryParseHugeint(kept, value)) {
        return false;
    }
    if (drop > 0 && digits[digits.size() - static_cast<size_t>(drop)] >= '5') {
        value++;
    }
    result = negative ? -value : value;
    return true;
}

bool ParseBlobText(std::string_view text, std::string& bytes) {
    bytes.clear();
    for (size_t i = 0; i < text.size(); i++) {
        if (static_cast<unsigned char>(text[i]) >= 0x80) {
            return false; // DuckDB's blob text is ASCII: other bytes are written \xNN
        }
        if (text[i] != '\\') {
            bytes += text[i];
            continue;
        }
        if (i + 3 >= text.size() || (text[i + 1] != 'x' && text[i + 1] != 'X')) {
            return false;
        }
        auto hex = [](char c) -> int {
            if (c >= '0' && c <= '9') {
                return c - '0';
            }
            c = static_cast<char>(std::tolower((unsigned char)c));
            return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        };
        int high = hex(text[i + 2]), low = hex(text[i + 3]);
        if (high < 0 || low < 0) {
            return false;
        }
        bytes += static_cast<char>(high * 16 + low);
        i += 3;
    }
    return true;
}

constexpr double kPowersOfTenDouble[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                         1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                         1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// unscaled / 10^scale correctly rounded: one division when both are exact doubles, else through
// the decimal text (two roundings, of the integer and of the quotient, can land a step off:
// 99999999999999999999.99999 became 1.0000000000000002e20, above 1e20).
double DecimalToDouble(hugeint_t unscaled, int scale) {
    constexpr hugeint_t kExact = hugeint_t(1) << 53;
    if (unscaled < kExact && unscaled > -kExact && scale <= 22) {
        return static_cast<double>(unscaled) / kPowersOfTenDouble[scale];
    }
    bool negative = unscaled < 0;
    std::string digits;
    for (hugeint_t rest = negative ? -unscaled : unscaled; rest > 0; rest /= 10) {
        digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(rest % 10)));
    }
    std::string text =
        (negative ? "-" : "") + (digits.empty() ? "0" : digits) + "e-" + std::to_string(scale);
    return std::strtod(text.c_str(), nullptr);
}

double NumericToDouble(const Value& value) {
    switch (value.type().id()) {
    case LogicalTypeId::FLOAT:
    case LogicalTypeId::DOUBLE:
        return value.GetDouble();
    case LogicalTypeId::DECIMAL:
        return DecimalToDouble(value.GetInteger(), value.type().scale());
    default:
        return static_cast<double>(value.GetInteger());
    }
}

bool IsIntegerLike(const LogicalType& type) {
    return type.IsInteger() || type.id() == LogicalTypeId::BOOLEAN;
}

bool CastNumeric(const Value& value, const LogicalType& target, Value& result) {
    const LogicalType& source = value.type();
    LogicalTypeId id = target.id();
    if (id == LogicalTypeId::FLOAT) {
        double d = NumericToDouble(value);
        if (std::isfinite(d) && std::fabs(d) > std::numeric_limits<float>::max()) {
            return false;
        }
        result = Value::Float(static_cast<float>(d));
        return true;
    }
    if (id == LogicalTypeId::DOUBLE) {
        result = Value::Double(NumericToDouble(value));
        return true;
    }
    if (id == LogicalTypeId::BOOLEAN) {
        result =
            Value::Boolean(source.IsFloating() ? value.GetDouble() != 0 : value.GetInteger() != 0);
        return true;
    }
    // Target is an integer or a decimal: first find the unscaled integer at the target scale.
    int target_scale = id == LogicalTypeId::DECIMAL ? target.scale() : 0;
    hugeint_t unscaled;
    if (source.IsFloating()) {
        double scaled = value.GetDouble() * std::pow(10.0, target_scale);
        if (!std::isfinite(scaled) || std::fabs(scaled) >= 1.7e38) {
            return false;
        }
        unscaled = static_cast<hugeint_t>(std::nearbyint(scaled));
        if (id == LogicalTypeId::DECIMAL) {
            unscaled = static_cast<hugeint_t>(std::round(scaled));
        }
    } else {
        int source_scale = source.id() == LogicalTypeId::DECIMAL ? source.scale() : 0;
        if (target_scale >= source_scale) {
            hugeint_t factor = PowerOfTen(target_scale - source_scale);
            hugeint_t limit = PowerOfTen(38);
            if (value.GetInteger() > limit / factor || value.GetInteger() < -limit / factor) {
                return false;
            }
            unscaled = value.GetInteger() * factor;
        } else {
            unscaled = DivideRounding(value.GetInteger(), source_scale - target_scale);
        }
    }
    if (id == LogicalTypeId::DECIMAL) {
        if (!DecimalFits(target, unscaled)) {
            return false;
        }
    } else if (!IntegerFits(id, unscaled)) {
        return false;
    }
    result = Value::Integer(target, unscaled);
    return true;
}

bool CastFromString(std::string_view text, const LogicalType& target, Value& result) {
    std::string_view trimmed = Trim(text);
    switch (target.id()) {
    case LogicalTypeId::LIST:
    case LogicalTypeId::STRUCT:
    case LogicalTypeId::MAP:
        return ParseNestedText(text, target, result);
    case LogicalTypeId::VARCHAR:
        result = Value::Varchar(std::string(text));
        return true;
    case LogicalTypeId::BLOB: {
        std::string bytes;
        if (!ParseBlobText(text, bytes)) {
            return false;
        }
        result = Value::Blob(std::move(bytes));
        return true;
    }
    case LogicalTypeId::BOOLEAN: {
        std::string lower = Lower(trimmed);
        if (lower == "true" || lower == "t" || lower == "1" || lower == "yes" || lower == "y") {
            result = Value::Boolean(true);
            return true;
        }
        if (lower == "false" || lower == "f" || lower == "0" || lower == "no" || lower == "n") {
            result = Value::Boolean(false);
            return true;
        }
        return false;
    }
    case LogicalTypeId::TINYINT:
    case LogicalTypeId::SMALLINT:
    case LogicalTypeId::INTEGER:
    case LogicalTypeId::BIGINT:
    case LogicalTypeId::HUGEINT:
    case LogicalTypeId::UTINYINT:
    case LogicalTypeId::USMALLINT:
    case LogicalTypeId::UINTEGER:
    case LogicalTypeId::UBIGINT: {
        hugeint_t value;
        if (TryParseHugeint(trimmed, value)) {
            if (!IntegerFits(target.id(), value)) {
                return false;
            }
            result = Value::Integer(target, value);
            return true;
        }
        // '1.5'::INTEGER rounds like a decimal does.
        if (!ParseDecimalText(trimmed, 0, value) || !IntegerFits(target.id(), value)) {
            return false;
        }
        result = Value::Integer(target, value);
        return true;
    }
    case LogicalTypeId::DECIMAL: {
        hugeint_t unscaled;
        if (!ParseDecimalText(trimmed, target.scale(), unscaled) ||
            !DecimalFits(target, unscaled)) {
            return false;
        }
        result = Value::Integer(target, unscaled);
        return true;
    }
    case LogicalTypeId::FLOAT:
    case LogicalTypeId::DOUBLE: {
        std::string buffer(trimmed);
        if (buffer.empty()) {
            return false;
        }
        char* end = nullptr;
        double d = std::strtod(buffer.c_str(), &end);
        // strtod accepts hexadecimal floats, which SQL does not.
        bool hex = buffer.find_first_of("xX") != std::string::npos;
        if (end != buffer.c_str() + buffer.size() || hex) {
            return false;
        }
        if (target.id() == LogicalTypeId::FLOAT) {
            if (std::isfinite(d) && std::fabs(d) > std::numeric_limits<float>::max()) {
                return false;
            }
            result = Value::Float(static_cast<float>(d));
        } else {
            result = Value::Double(d); // out-of-range text becomes +/-inf, as in DuckDB
        }
        return true;
    }
    case LogicalTypeId::DATE: {
        int32_t days;
        if (!date::TryParse(trimmed, days)) {
            return false;
        }
        result = Value::Integer(target, days);
        return true;
    }
    case LogicalTypeId::TIME: {
        int64_t micros;
        if (!dtime::TryParse(trimmed, micros)) {
            return false;
        }
        result = Value::Integer(target, micros);
        return true;
    }
    case LogicalTypeId::TIMESTAMP: {
        int64_t micros;
        if (!timestamp::TryParse(trimmed, micros)) {
            return false;
        }
        result = Value::Integer(target, micros);
        return true;
    }
    case LogicalTypeId::TIMESTAMP_NS: {
        int64_t nanos;
        if (!timestamp::TryParseNanos(trimmed, nanos)) {
            return false;
        }
        result = Value::Integer(target, nanos);
        return true;
    }
    case LogicalTypeId::TIMESTAMP_TZ: {
        int64_t micros;
        if (!timestamp::TryParseWithOffset(trimmed, micros)) {
            return false;
        }
        result = Value::Integer(target, micros);
        return true;
    }
    case LogicalTypeId::INTERVAL: {
        interval_t parsed;
        if (!interval::TryParse(trimmed, parsed)) {
            return false;
        }
        result = Value::Interval(parsed);
        return true;
    }
    case LogicalTypeId::UUID: {
        hugeint_t uuid;
        if (!TryParseUuid(trimmed, uuid)) {
            return false;
        }
        result = Value::Integer(target, uuid);
        return true;
    }
    case LogicalTypeId::SQLNULL:
        return false;
    }
    return false;
}

bool TemporalCast(const Value& value, const LogicalType& target, Value& result) {
    LogicalTypeId from = value.type().id(), to = target.id();
    if (from == LogicalTypeId::TIMESTAMP_NS && to == LogicalTypeId::TIMESTAMP) {
        int64_t nanos = static_cast<int64_t>(value.GetInteger());
        result = Value::Integer(target, nanos / 1000 - (nanos % 1000 < 0 ? 1 : 0));
        return true;
    }
    if (from == LogicalTypeId::TIMESTAMP && to == LogicalTypeId::TIMESTAMP_NS) {
        int64_t micros = static_cast<int64_t>(value.GetInteger()), nanos;
        if (__builtin_mul_overflow(micros, int64_t(1000), &nanos)) {
            return false;
        }
        result = Value::Integer(target, nanos);
        return true;
    }
    // Time zones are UTC: TIMESTAMP and TIMESTAMP WITH TIME ZONE hold the same microseconds.
    bool from_tz = from == LogicalTypeId::TIMESTAMP_TZ, to_tz = to == LogicalTypeId::TIMESTAMP_TZ;
    if ((from_tz && to == LogicalTypeId::TIMESTAMP) ||
        (to_tz && from == LogicalTypeId::TIMESTAMP)) {
        result = Value::Integer(target, value.GetInteger());
        return true;
    }
    if (from_tz) {
        from = LogicalTypeId::TIMESTAMP;
    }
    if (to_tz && from == LogicalTypeId::DATE) {
        to = LogicalTypeId::TIMESTAMP;
    }
    if (from == LogicalTypeId::DATE && to == LogicalTypeId::TIMESTAMP) {
        int64_t micros;
        if (!timestamp::TryFromDate(static_cast<int32_t>(value.GetInteger()), micros)) {
            return false;
        }
        result = Value::Integer(target, micros);
        return true;
    }
    if (from == LogicalTypeId::TIMESTAMP && to == LogicalTypeId::DATE) {
        result =
            Value::Integer(target, timestamp::ToDate(static_cast<int64_t>(value.GetInteger())));
        return true;
    }
    if (from == LogicalTypeId::TIMESTAMP && to == LogicalTypeId::TIME) {
        auto micros = static_cast<int64_t>(value.GetInteger());
        int64_t day_start = static_cast<int64_t>(timestamp::ToDate(micros)) * dtime::kMicrosPerDay;
        result = Value::Integer(target, micros - day_start);
        return true;
    }
    return false;
}

constexpr int64_t kNoSourceField = -1;

// Which source field each of a STRUCT target's fields takes, as DuckDB casts structs: by name
// (case aside) when any name matches, a target field no source field names being NULL and
// source fields the target does not name dropped; by position when none match and the counts
// agree. Empty when the struct cannot be cast.
std::vector<int64_t> StructFieldSources(const LogicalType& source, const LogicalType& target) {
    const auto& from = source.fields();
    const auto& to = target.fields();
    std::vector<int64_t> sources;
    bool matched = false;
    for (const auto& field : to) {
        auto found = std::find_if(from.begin(), from.end(), [&](const StructField& candidate) {
            return Lower(candidate.name) == Lower(field.name);
        });
        matched = matched || found != from.end();
        sources.push_back(found == from.end() ? kNoSourceField : found - from.begin());
    }
    if (matched) {
        return sources;
    }
    sources.clear();
    for (idx_t i = 0; i < to.size() && from.size() == to.size(); i++) {
        sources.push_back(static_cast<int64_t>(i));
    }
    return sources;
}

// LIST to LIST and MAP to MAP element by element, STRUCT to STRUCT field by field (by name or
// by position: StructFieldSources).
bool NestedCast(const Value& value, const LogicalType& target, Value& result) {
    const LogicalType& source = value.type();
    std::vector<Value> children;
    if (source.id() == LogicalTypeId::STRUCT) {
        if (target.id() != LogicalTypeId::STRUCT) {
            return false;
        }
        std::vector<int64_t> sources = StructFieldSources(source, target);
        if (sources.size() != target.fields().size()) {
            return false;
        }
        for (idx_t i = 0; i < target.fields().size(); i++) {
            Value field = Value::Null(target.fields()[i].type);
            if (sources[i] != kNoSourceField &&
                !TryCastValue(value.children()[static_cast<idx_t>(sources[i])],
                              target.fields()[i].type, field)) {
                return false;
            }
            children.push_back(std::move(field));
        }
    } else {
        if (target.id() != source.id()) {
            return false;
        }
        for (const Value& element : value.children()) {
            Value cast;
            if (!TryCastValue(element, target.element(), cast)) {
                return false;
            }
            children.push_back(std::move(cast));
        }
    }
    result = Value::Nested(target, std::move(children));
    return true;
}

} // namespace

bool CastExists(const LogicalType& source, const LogicalType& target) {
    LogicalTypeId from = source.id(), to = target.id();
    if (source == target || from == LogicalTypeId::SQLNULL || from == LogicalTypeId::VARCHAR ||
        to == LogicalTypeId::VARCHAR) {
        return true;
    }
    if (source.IsNested() || target.IsNested()) {
        if (from != to) {
            return false;
        }
        if (from == LogicalTypeId::STRUCT) {
            std::vector<int64_t> sources = StructFieldSources(source, target);
            if (sources.size() != target.fields().size()) {
                return false;
            }
            for (idx_t i = 0; i < sources.size(); i++) {
                if (sources[i] != kNoSourceField &&
                    !CastExists(source.fields()[static_cast<idx_t>(sources[i])].type,
                                target.fields()[i].type)) {
                    return false;
                }
            }
            return true;
        }
        return CastExists(source.element(), target.element());
    }
    bool from_number = source.IsNumeric() || from == LogicalTypeId::BOOLEAN;
    bool to_number = target.IsNumeric() || to == LogicalTypeId::BOOLEAN;
    if (from_number && to_number) {
        return true;
    }
    if ((from == LogicalTypeId::TIMESTAMP_NS && to == LogicalTypeId::TIMESTAMP) ||
        (from == LogicalTypeId::TIMESTAMP && to == LogicalTypeId::TIMESTAMP_NS)) {
        return true;
    }
    auto is_timestamp = [](LogicalTypeId id) {
        return id == LogicalTypeId::TIMESTAMP || id == LogicalTypeId::TIMESTAMP_TZ;
    };
    return (from == LogicalTypeId::DATE && is_timestamp(to)) ||
           (is_timestamp(from) &&
            (to == LogicalTypeId::DATE || to == LogicalTypeId::TIME || is_timestamp(to)));
}

bool TryParseValue(std::string_view text, const LogicalType& target, Value& result) {
    return CastFromString(text, target, result);
}

bool TryCastValue(const Value& value, const LogicalType& target, Value& result) {
    if (value.IsNull()) {
        result = Value::Null(target);
        return true;
    }
    const LogicalType& source = value.type();
    if (source == target) {
        result = value;
        return true;
    }
    if (target.id() == LogicalTypeId::VARCHAR) {
        result = Value::Varchar(value.ToString());
        return true;
    }
    if (source.id() == LogicalTypeId::VARCHAR) {
        return CastFromString(value.GetString(), target, result);
    }
    if (source.IsNested() || target.IsNested()) {
        return NestedCast(value, target, result);
    }
    bool from_number = source.IsNumeric() || IsIntegerLike(source);
    bool to_number = target.IsNumeric() || target.id() == LogicalTypeId::BOOLEAN;
    if (from_number && to_number) {
        return CastNumeric(value, target, result);
    }
    return TemporalCast(value, target, result);
}

Value CastValue(const Value& value, const LogicalType& target) {
    Value result;
    if (TryCastValue(value, target, result)) {
        return result;
    }
    if (!CastExists(value.type(), target)) {
        throw Exception(ErrorKind::Conversion, "Unimplemented type for cast (" +
                                                   value.type().ToString() + " -> " +
                                                   target.ToString() + ")");
    }
    if (value.type().id() == LogicalTypeId::VARCHAR && target.IsNested()) {
        // Name the element that did not parse, or else the whole text, as DuckDB does.
        NestedTextFailure failed;
        if (!ParseNestedText(value.GetString(), target, result, &failed) &&
            !failed.element.empty()) {
            throw Exception(ErrorKind::Conversion, "Could not convert string '" + failed.element +
                                                       "' to " + InternalName(failed.type));
        }
        throw Exception(ErrorKind::Conversion, "Type VARCHAR with value '" + value.GetString() +
                                                   "' can't be cast to the destination type " +
                                                   target.ToString());
    }
    if (value.type().id() == LogicalTypeId::VARCHAR) {
        throw Exception(ErrorKind::Conversion, "Could not convert string '" + value.GetString() +
                                                   "' to " + InternalName(target));
    }
    throw Exception(ErrorKind::Conversion, "Type " + InternalName(value.type()) + " with value " +
                                               value.ToString() +
                                               " can't be cast because the value is out of range "
                                               "for the destination type " +
                                               InternalName(target));
}

namespace {

bool IsExactNumber(const LogicalType& type) {
    return type.IsInteger() || type.id() == LogicalTypeId::DECIMAL;
}

// Calls `f(T{})` with the C++ type of a signed integer layout; false for other layouts.
template <class F>
bool WithSignedLayout(PhysicalType type, F&& f) {
    switch (type) {
    case PhysicalType::INT8:
        f(int8_t{});
        return true;
    case PhysicalType::INT16:
        f(int16_t{});
        return true;
    case PhysicalType::INT32:
        f(int32_t{});
        return true;
    case PhysicalType::INT64:
        f(int64_t{});
        return true;
    case PhysicalType::INT128:
        f(hugeint_t{});
        return true;
    default:
        return false;
    }
}

// The digits before the decimal point an exact number type can hold.
int IntegerDigits(const LogicalType& type) {
    return type.id() == LogicalTypeId::DECIMAL ? type.width() - type.scale()
                                               : IntegerDecimalWidth(type.id());
}

// Casts that cannot overflow (an integer or DECIMAL into a type with at least as many integer
// digits and no smaller scale), and exact numbers to DOUBLE: one typed loop, no checks.
bool WideningCast(const Vector& source, Vector& result, idx_t count, int from_scale, int to_scale) {
    const LogicalType& from = source.type();
    const LogicalType& to = result.type();
    bool to_double = to.id() == LogicalTypeId::DOUBLE;
    if (!to_double && (to_scale < from_scale || IntegerDigits(to) < IntegerDigits(from) ||
                       from.IsUnsigned() || to.IsUnsigned())) {
        return false;
    }
    const ValidityMask& validity = source.validity();
    auto copy_validity = [&](idx_t row) {
        if (!validity.RowIsValid(row)) {
            result.SetNull(row);
        }
    };
    bool done = false;
    WithSignedLayout(from.physical(), [&](auto source_tag) {
        using S = decltype(source_tag);
        const S* in = source.data<S>();
        if (to_double) {
            double* out = result.data<double>();
            for (idx_t row = 0; row < count; row++) {
                out[row] = DecimalToDouble(in[row], from_scale);
                copy_validity(row);
            }
            done = true;
            return;
        }
        hugeint_t factor = PowerOfTen(to_scale - from_scale);
        done = WithSignedLayout(to.physical(), [&](auto target_tag) {
            using T = decltype(target_tag);
            T* out = result.data<T>();
            if (validity.AllValid()) {
                for (idx_t row = 0; row < count; row++) {
                    out[row] = static_cast<T>(static_cast<hugeint_t>(in[row]) * factor);
                }
                return;
            }
            // NULL rows hold arbitrary bytes: not multiplied, so that nothing overflows.
            for (idx_t row = 0; row < count; row++) {
                if (validity.RowIsValid(row)) {
                    out[row] = static_cast<T>(static_cast<hugeint_t>(in[row]) * factor);
                } else {
                    result.SetNull(row);
                }
            }
        });
    });
    return done;
}

// Typed loops for the casts between exact numbers and to floating point, which bulk work (COPY,
// expressions over scans) needs; everything else goes value by value.
bool FastCast(const Vector& source, Vector& result, idx_t count) {
    const LogicalType& from = source.type();
    const LogicalType& to = result.type();
    if (!IsExactNumber(from) || !(IsExactNumber(to) || to.IsFloating())) {
        return false;
    }
    int from_scale = from.id() == LogicalTypeId::DECIMAL ? from.scale() : 0;
    int to_scale = to.id() == LogicalTypeId::DECIMAL ? to.scale() : 0;
    if (WideningCast(source, result, count, from_scale, to_scale)) {
        return true;
    }
    hugeint_t factor = to_scale >= from_scale ? PowerOfTen(to_scale - from_scale) : 1;
    for (idx_t row = 0; row < count; row++) {
        if (!source.validity().RowIsValid(row)) {
            result.SetNull(row);
            continue;
        }
        hugeint_t value = GetInteger(source, row);
        if (to.id() == LogicalTypeId::DOUBLE) {
            result.data<double>()[row] = DecimalToDouble(value, from_scale);
            continue;
        }
        if (to.id() == LogicalTypeId::FLOAT) {
            result.data<float>()[row] = static_cast<float>(DecimalToDouble(value, from_scale));
            continue;
        }
        hugeint_t converted;
        bool fits;
        if (to_scale >= from_scale) {
            fits = !__builtin_mul_overflow(value, factor, &converted);
        } else {
            converted = DivideRounding(value, from_scale - to_scale);
            fits = true;
        }
        fits = fits && (to.id() == LogicalTypeId::DECIMAL ? DecimalFits(to, converted)
                                                          : IntegerFits(to.id(), converted));
        if (!fits) {
            CastValue(source.GetValue(row), to); // throws the cast's own out-of-range error
        }
        SetInteger(result, row, converted);
    }
    return true;
}

} // namespace

void CastVector(const Vector& source, Vector& result, idx_t count) {
    if (source.vector_type() == VectorType::CONSTANT) {
        result.SetConstant(CastValue(source.GetValue(0), result.type()));
        return;
    }
    if (FastCast(source, result, count)) {
        return;
    }
    if (source.type().id() == LogicalTypeId::DATE &&
        result.type().id() == LogicalTypeId::TIMESTAMP) {
        const int32_t* days = source.data<int32_t>();
        int64_t* micros = result.data<int64_t>();
        for (idx_t row = 0; row < count; row++) {
            if (!source.validity().RowIsValid(row)) {
                result.SetNull(row);
            } else if (!timestamp::TryFromDate(days[row], micros[row])) {
                result.SetValue(row, CastValue(source.GetValue(row), result.type())); // the error
            }
        }
        return;
    }
    for (idx_t row = 0; row < count; row++) {
        result.SetValue(row, CastValue(source.GetValue(row), result.type()));
    }
}

} // namespace sluice
