#pragma once

#include <string_view>

namespace sluice {

// Whether `word` (any case) is one of the SQL keywords DuckDB knows, reserved or not: DuckDB
// double-quotes such names where it prints identifiers, in types for instance.
bool IsSqlKeyword(std::string_view word);

} // namespace sluice
