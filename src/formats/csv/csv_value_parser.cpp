#include "formats/csv/csv_value_parser.hpp"

#include "common/cast.hpp"
#include "common/date_time.hpp"
#include "common/string_util.hpp"

#include <cctype>
#include <charconv>
#include <cmath>

namespace sluice::csv {

namespace {

std::string_view TrimSpaces(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
        text.remove_suffix(1);
    }
    return text;
}

bool ParseInt64(std::string_view text, int64_t& value) {
    text = TrimSpaces(text);
    if (!text.empty() && text.front() == '+') {
        text.remove_prefix(1);
    }
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size() && !text.empty();
}

// Plain decimals ("-1234.56") of at most 15 digits are an exact integer over an exact power of
// ten, so one division rounds them correctly (Clinger's fast path); anything else (exponents,
// more digits, inf) goes to from_chars.
bool ParseSimpleDecimal(std::string_view text, char decimal_separator, double& value) {
    static constexpr double kPowersOfTen[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                              1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    size_t i = 0;
    bool negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
        negative = text[i] == '-';
        i++;
    }
    uint64_t mantissa = 0;
    int digits = 0;
    int scale = -1; // digits after the separator; -1 before it
    for (; i < text.size(); i++) {
        char c = text[i];
        if (c >= '0' && c <= '9') {
            mantissa = mantissa * 10 + static_cast<uint64_t>(c - '0');
            digits++;
            scale += scale >= 0 ? 1 : 0;
        } else if (c == decimal_separator && scale < 0) {
            scale = 0;
        } else {
            return false;
        }
    }
    if (digits == 0 || digits > 15) {
        return false;
    }
    double result = static_cast<double>(mantissa) / kPowersOfTen[scale > 0 ? scale : 0];
    value = negative ? -result : result;
    return true;
}

bool ParseDouble(std::string_view text, char decimal_separator, double& value) {
    text = TrimSpaces(text);
    if (ParseSimpleDecimal(text, decimal_separator, value)) {
        return true;
    }
    std::string replaced;
    if (decimal_separator != '.') {
        replaced.assign(text);
        for (char& c : replaced) {
            if (c == decimal_separator) {
                c = '.';
            } else if (c == '.') {
                return false;
            }
        }
        text = replaced;
    }
    if (!text.empty() && text.front() == '+') {
        text.remove_prefix(1);
    }
    if (text.empty()) {
        return false;
    }
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return (error == std::errc() || error == std::errc::result_out_of_range) &&
           end == text.data() + text.size();
}

bool ParseBoolean(std::string_view text, bool& value) {
    std::string lower = Lower(std::string(TrimSpaces(text)));
    if (lower == "true" || lower == "t") {
        value = true;
        return true;
    }
    if (lower == "false" || lower == "f") {
        value = false;
        return true;
    }
    return false;
}

// The text without any `thousands` character, as DuckDB reads it (grouping is not checked).
std::string_view WithoutThousands(std::string_view text, char thousands, std::string& scratch) {
    scratch.clear();
    for (char c : text) {
        if (c != thousands) {
            scratch.push_back(c);
        }
    }
    return scratch;
}

} // namespace

CsvValueParser::CsvValueParser(LogicalType type, const CsvReadOptions& options,
                               std::optional<CsvDateFormat> format)
    : type_(std::move(type)), format_(std::move(format)),
      decimal_separator_(options.decimal_separator), thousands_(options.thousands.value_or(0)),
      numeric_(type_.IsNumeric()) {
    switch (type_.id()) {
    case LogicalTypeId::VARCHAR:
        kind_ = Kind::Varchar;
        break;
    case LogicalTypeId::BOOLEAN:
        kind_ = Kind::Boolean;
        break;
    case LogicalTypeId::BIGINT:
    case LogicalTypeId::INTEGER:
    case LogicalTypeId::SMALLINT:
    case LogicalTypeId::TINYINT:
        kind_ = Kind::Integer;
        break;
    case LogicalTypeId::DOUBLE:
        kind_ = Kind::Double;
        break;
    case LogicalTypeId::FLOAT:
        kind_ = Kind::Float;
        break;
    case LogicalTypeId::DATE:
        kind_ = Kind::Date;
        break;
    case LogicalTypeId::TIME:
        kind_ = Kind::Time;
        break;
    case LogicalTypeId::TIMESTAMP:
        kind_ = Kind::Timestamp;
        break;
    default:
        kind_ = Kind::Cast;
        break;
    }
}

bool CsvValueParser::Parse(std::string_view text, Vector& out, idx_t row) const {
    if (HasThousands(text)) {
        std::string stripped;
        return ParseValue(WithoutThousands(text, thousands_, stripped), out, row);
    }
    return ParseValue(text, out, row);
}

bool CsvValueParser::Accepts(std::string_view text) const {
    if (HasThousands(text)) {
        std::string stripped;
        return AcceptsValue(WithoutThousands(text, thousands_, stripped));
    }
    return AcceptsValue(text);
}

bool CsvValueParser::ParseValue(std::string_view text, Vector& out, idx_t row) const {
    switch (kind_) {
    case Kind::Varchar:
        out.data<string_t>()[row] = string_t(text.data(), static_cast<uint32_t>(text.size()));
        return true;
    case Kind::Boolean: {
        bool value;
        if (!ParseBoolean(text, value)) {
            Value cast; // '1', 'yes' and the other spellings a cast takes
            if (!TryParseValue(text, type_, cast)) {
                return false;
            }
            value = cast.GetBoolean();
        }
        out.data<bool>()[row] = value;
        return true;
    }
    case Kind::Integer: {
        int64_t value;
        if (!ParseInt64(text, value)) {
            break; // '1.5' rounds, as a cast does
        }
        switch (type_.physical()) {
        case PhysicalType::INT64:
            out.data<int64_t>()[row] = value;
            return true;
        case PhysicalType::INT32:
            if (value < INT32_MIN || value > INT32_MAX) {
                return false;
            }
            out.data<int32_t>()[row] = static_cast<int32_t>(value);
            return true;
        default:
            break;
        }
        break;
    }
    case Kind::Double:
    case Kind::Float: {
        double value;
        if (!ParseDouble(text, decimal_separator_, value)) {
            return false;
        }
        if (kind_ == Kind::Float) {
            out.data<float>()[row] = static_cast<float>(value);
        } else {
            out.data<double>()[row] = value;
        }
        return true;
    }
    case Kind::Date: {
        int32_t days;
        if (format_ ? !format_->ParseDate(TrimSpaces(text), days)
                    : !date::TryParse(TrimSpaces(text), days)) {
            return false;
        }
        out.data<int32_t>()[row] = days;
        return true;
    }
    case Kind::Time: {
        int64_t micros;
        if (!dtime::TryParse(TrimSpaces(text), micros)) {
            return false;
        }
        out.data<int64_t>()[row] = micros;
        return true;
    }
    case Kind::Timestamp: {
        int64_t micros;
        if (format_ ? !format_->ParseTimestamp(TrimSpaces(text), micros)
                    : !timestamp::TryParse(TrimSpaces(text), micros)) {
            return false;
        }
        out.data<int64_t>()[row] = micros;
        return true;
    }
    case Kind::Cast:
        break;
    }
    std::string replaced;
    if (decimal_separator_ != '.' && type_.id() == LogicalTypeId::DECIMAL) {
        replaced.assign(text);
        for (char& c : replaced) {
            c = c == decimal_separator_ ? '.' : c;
        }
        text = replaced;
    }
    Value value;
    if (!TryParseValue(text, type_, value)) {
        return false;
    }
    out.SetValue(row, value);
    return true;
}

bool CsvValueParser::AcceptsValue(std::string_view text) const {
    switch (kind_) {
    case Kind::Varchar:
        return true;
    case Kind::Boolean: {
        bool value;
        return ParseBoolean(text, value);
    }
    case Kind::Integer: {
        int64_t value;
        return ParseInt64(text, value);
    }
    case Kind::Double:
    case Kind::Float: {
        double value;
        // Sniffed numbers are decimal: no "inf" or "nan" words, no hex.
        for (char c : TrimSpaces(text)) {
            if (std::isalpha(static_cast<unsigned char>(c)) && c != 'e' && c != 'E') {
                return false;
            }
        }
        return ParseDouble(text, decimal_separator_, value) && std::isfinite(value);
    }
    case Kind::Date: {
        int32_t days;
        std::string_view trimmed = TrimSpaces(text);
        if (format_) {
            return format_->ParseDate(trimmed, days);
        }
        return trimmed.size() >= 8 && date::TryParse(trimmed, days);
    }
    case Kind::Time: {
        int64_t micros; // a column of dates is not a column of midnights
        return dtime::TryParseTimeOfDay(TrimSpaces(text), micros);
    }
    case Kind::Timestamp: {
        int64_t micros;
        std::string_view trimmed = TrimSpaces(text);
        if (format_) {
            return format_->ParseTimestamp(trimmed, micros);
        }
        return trimmed.find_first_of(" T", 8) != std::string_view::npos &&
               timestamp::TryParse(trimmed, micros);
    }
    case Kind::Cast:
        break;
    }
    Value value;
    return TryParseValue(text, type_, value);
}

} // namespace sluice::csv
