#pragma once

#include "execution/scalar_functions.hpp"

#include <optional>
#include <string>

namespace sluice {

// DuckDB's regular-expression functions, on RE2 (Debian's libre2), which DuckDB uses too:
// regexp_matches(s, pattern[, options]) (a match anywhere), regexp_full_match(s, pattern
// [, options]), regexp_replace(s, pattern, replacement[, options]) (the first match, every one
// with option 'g'; \1 .. \9 in the replacement), regexp_extract(s, pattern[, group]) (the group
// of the first match, '' when none). Options: c (case-sensitive), i (case-insensitive), l
// (literal pattern), s (dot matches newline), m / n / p (it does not: the default). A pattern
// or options given as constants are compiled once per batch of rows; a bad pattern is an
// InvalidInput error with RE2's reason. nullopt for other names or argument counts.
std::optional<BoundFunction> BindRegexpFunction(const std::string& name, size_t argument_count);

} // namespace sluice
