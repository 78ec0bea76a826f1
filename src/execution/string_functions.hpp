#pragma once

#include "execution/scalar_functions.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace sluice {

// s LIKE pattern: % matches any run of characters, _ exactly one; `escape` (if not 0) makes the
// next character literal. ILIKE compares case-insensitively (ASCII).
bool LikeMatches(std::string_view text, std::string_view pattern, bool case_insensitive,
                 char escape = 0);
// (VARCHAR, VARCHAR) -> BOOLEAN.
BoundFunction BindLike(bool case_insensitive);
// substring(s, start[, length]): 1-based, in characters, as DuckDB counts them.
BoundFunction BindSubstring(size_t argument_count);
// DuckDB's string functions called with `argument_count` arguments: lower, upper, length,
// concat, concat_ws, trim, ltrim, rtrim, replace, reverse, left, right, repeat, lpad, rpad,
// starts_with, ends_with, contains, strpos / instr / position, split_part (positions and
// lengths in characters), chr, ascii, md5, sha1 and sha256 (OpenSSL, lowercase hex). nullopt for
// other names.
std::optional<BoundFunction> BindStringFunction(const std::string& name, size_t argument_count);

} // namespace sluice
