#pragma once

#include "execution/scalar_functions.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sluice {

// DuckDB's numeric functions on `arguments` of these types: abs, sign, ceil / ceiling, floor,
// trunc, round (with `digits`, the constant second argument, when given), sqrt, cbrt, exp, ln,
// log (base 10), log10, log2, power / pow, pi. Result types follow DuckDB: rounding a
// DECIMAL(p, s) gives DECIMAL(p, digits) (DECIMAL(p, 0) for ceil, floor, trunc and negative
// digits), integers stay integers, the rest is DOUBLE. nullopt for other names or types.
std::optional<BoundFunction> BindMathFunction(const std::string& name,
                                              const std::vector<LogicalType>& arguments,
                                              std::optional<int64_t> digits);

// greatest / least over values of one type: NULLs are skipped, NULL only when all are.
BoundFunction BindGreatestLeast(bool greatest, size_t argument_count, const LogicalType& type);

} // namespace sluice
