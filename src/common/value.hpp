#pragma once

#include "common/date_time.hpp"
#include "common/types.hpp"

#include <string>

namespace sluice {

// A single typed SQL value (possibly NULL). Used for constants, settings and result access;
// bulk data lives in Vectors, never in Values.
class Value {
public:
    Value() = default; // NULL of type SQLNULL
    static Value Null(LogicalType type);
    static Value Boolean(bool value);
    static Value Integer(LogicalType type, hugeint_t value); // any integer, DATE, TIME, TIMESTAMP
    static Value Decimal(uint8_t width, uint8_t scale, hugeint_t unscaled);
    static Value Float(float value);
    static Value Double(double value);
    static Value Varchar(std::string value);
    static Value Blob(std::string bytes);
    static Value Interval(interval_t interval);

    const LogicalType& type() const { return type_; }
    bool IsNull() const { return is_null_; }

    bool GetBoolean() const { return integer_ != 0; }
    // The integer of integer types, DATE (days), TIME/TIMESTAMP (micros) and DECIMAL (unscaled).
    hugeint_t GetInteger() const { return integer_; }
    double GetDouble() const { return double_; }
    const std::string& GetString() const { return string_; }
    interval_t GetInterval() const;

    // DuckDB's text form of the value; NULL prints as "NULL".
    std::string ToString() const;

    bool operator==(const Value& other) const;
    // Orders two non-NULL values of the same type: negative, zero or positive. Strings and blobs
    // compare as unsigned bytes; NaN sorts above every other floating-point value.
    int Compare(const Value& other) const;

private:
    LogicalType type_;
    bool is_null_ = true;
    hugeint_t integer_ = 0;
    double double_ = 0;
    std::string string_;
};

} // namespace sluice
