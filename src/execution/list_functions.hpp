#pragma once

#include "execution/scalar_functions.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sluice {

// Functions over whole lists, with DuckDB's names, types and NULL rules: list_sort,
// list_reverse_sort, list_distinct, list_unique, list_concat (and "||", NULL when a side is),
// list_position, list_reverse, flatten, array_to_string, string_split, and every aggregate as
// list_<aggregate> (list_sum, list_max, list_avg ...; list_aggregate(l, 'name') binds to these).
// nullopt when `name` is not one of them or the types do not fit. `options` are the constant text
// arguments list_sort takes (direction, NULL order), already checked by the caller to be constants.
std::optional<BoundFunction> BindListFunction(const std::string& name,
                                              const std::vector<LogicalType>& types,
                                              const std::vector<std::string>& options = {});

} // namespace sluice
