#pragma once

#include "common/date_time.hpp"
#include "common/types.hpp"

#include <string>
#include <vector>

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
    // A LIST or MAP (its elements; a MAP's are STRUCT(key, value) values) or a STRUCT (its
    // fields, in order).
    static Value Nested(LogicalType type, std::vector<Value> children);

    const LogicalType& type() const { return type_; }
    bool IsNull() const { return is_null_; }

    bool GetBoolean() const { return integer_ != 0; }
    // The integer of integer types, DATE (days), TIME/TIMESTAMP (micros) and DECIMAL (unscaled).
    hugeint_t GetInteger() const { return integer_; }
    double GetDouble() const { return double_; }
    const std::string& GetString() const { return string_; }
    interval_t GetInterval() const;
    const std::vector<Value>& children() const { return children_; }

    // DuckDB's text form of the value (its cast to VARCHAR); NULL prints as "NULL". Lists print
    // as [1, 2], structs as {'a': 1}, maps as {k=v}, their strings quoted where needed.
    std::string ToString() const;

    bool operator==(const Value& other) const;
    // Orders two non-NULL values of the same type: negative, zero or positive. Strings and blobs
    // compare as unsigned bytes; NaN sorts above every other floating-point value; lists and
    // structs compare element by element, a NULL element above any value, a prefix first.
    int Compare(const Value& other) const;
    // A hash of a non-NULL value that agrees with Compare: values comparing equal hash alike
    // (0.0 and -0.0, every NaN).
    size_t Hash() const;

private:
    LogicalType type_;
    bool is_null_ = true;
    hugeint_t integer_ = 0;
    double double_ = 0;
    std::string string_;
    std::vector<Value> children_;
};

} // namespace sluice
