#pragma once

#include <string>
#include <string_view>

namespace sluice {

// Whether `word` (any case) is one of the SQL keywords DuckDB knows, reserved or not: DuckDB
// double-quotes such names where it prints identifiers.
bool IsSqlKeyword(std::string_view word);

// `name` as DuckDB prints an identifier: bare when it is made of letters (lower-case ones only
// unless `allow_capitals`), digits and underscores, starts with no digit and is no keyword;
// double-quoted otherwise. Struct fields in type names allow capitals, column references in an
// expression's text do not.
std::string QuoteIdentifierIfNeeded(const std::string& name, bool allow_capitals);

} // namespace sluice
