#pragma once

#include "common/types.hpp"

#include <string>
#include <string_view>

namespace sluice {

// Text forms of numbers exactly as DuckDB prints them: the shortest digits that round-trip,
// laid out like Python's repr (1.0, 1e+16, 1e-05, inf, nan).
std::string FormatDouble(double value);
std::string FormatFloat(float value);
std::string FormatHugeint(hugeint_t value);
// `value` is the unscaled integer of a DECIMAL(width, scale). As in DuckDB, a type without
// integer digits (width == scale) prints no leading zero: .5, -.05.
std::string FormatDecimal(hugeint_t value, uint8_t width, uint8_t scale);
// Printable ASCII as is; other bytes and \ ' " as \xHH.
std::string FormatBlob(std::string_view bytes);

// 10^exponent for exponent in [0, 38].
hugeint_t PowerOfTen(int exponent);

// UUIDs: the stored int128 (top bit flipped) to and from 8-4-4-4-12 lower-case hex; parsing
// accepts upper case, braces and missing hyphens.
std::string FormatUuid(hugeint_t value);
bool TryParseUuid(std::string_view text, hugeint_t& result);

// Parses an optionally signed decimal integer that fits in int128.
bool TryParseHugeint(std::string_view text, hugeint_t& result);

} // namespace sluice
