#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sluice {

// Column names made unique as DuckDB makes them, ignoring case: a repeated c becomes c_1, then
// c_2 (skipping any already taken), for tables, views, subqueries and files written.
std::vector<std::string> UniqueColumnNames(const std::vector<std::string>& names);

// Strips ASCII whitespace from both ends.
std::string_view Trim(std::string_view text);
std::string Lower(std::string_view text);
std::string Upper(std::string_view text);
bool EqualsIgnoreCase(std::string_view a, std::string_view b);
bool EndsWith(std::string_view text, std::string_view suffix);
// Replaces %XX escapes (URLs, S3 keys, hive partition folders) by their bytes; a '%' not
// followed by two hex digits stays as it is.
std::string PercentDecode(std::string_view text);

} // namespace sluice
