#pragma once

#include "common/value.hpp"
#include "common/vector.hpp"

#include <string_view>

namespace sluice {

// Conversions between SQL types with DuckDB's semantics: numeric casts round half away from
// zero and fail when out of range, strings parse strictly. Failures throw Conversion errors.
Value CastValue(const Value& value, const LogicalType& target);
// As CastValue, but returns false instead of throwing.
bool TryCastValue(const Value& value, const LogicalType& target, Value& result);
void CastVector(const Vector& source, Vector& result, idx_t count);

// Parses SQL text into a value of `target`; false when the text is not a valid `target`.
bool TryParseValue(std::string_view text, const LogicalType& target, Value& result);

// Whether a cast from `source` to `target` exists at all.
bool CastExists(const LogicalType& source, const LogicalType& target);

} // namespace sluice
