#pragma once

#include "execution/scalar_functions.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sluice {

// Functions building and taking apart LIST, STRUCT and MAP values, with DuckDB's names, types
// and NULL rules.

// list_value(a, b, ...) and [a, b, ...]: the arguments, already of one element type.
BoundFunction BindListValue(const LogicalType& element, size_t count);
// struct_pack(name := value, ...) and {'name': value, ...}.
BoundFunction BindStructPack(const std::vector<StructField>& fields);
// map(keys, values) from two lists of equal length; keys unique and not NULL.
BoundFunction BindMap(const LogicalType& key, const LogicalType& value);
// s.field, s['field'] and struct_extract(s, 'field'): field `index` of a STRUCT.
BoundFunction BindStructExtract(const LogicalType& type, idx_t index);
// What a bound struct_extract is called: the field is no argument, so it names the function
// ("struct_extract('part')"), for expression equality and EXPLAIN.
std::string StructExtractName(const LogicalType& type, idx_t index);
// The field a bound struct_extract takes, when `expression` is one.
std::optional<idx_t> StructExtractField(const Expression& expression);

// list_transform (`filter` false: the body's value per element) and list_filter (true: the
// elements for which the BOOLEAN body is true). `body` reads the element as column 0, its index
// (from 1) as column 1 if `with_index`, then the values its row passes for `captures` (the
// function's arguments after the list).
BoundFunction BindListLambda(const LogicalType& list, std::shared_ptr<const Expression> body,
                             bool filter, bool with_index,
                             const std::vector<LogicalType>& captures);
// list_reduce: `body` (of the accumulator's type) folds the elements into an accumulator that
// starts as the initial value (the argument after the list, if `with_initial`) or the first
// element; it reads the accumulator as column 0, the element as column 1, the element's index
// (from 1) as column 2 if `with_index`, then the captured values (the remaining arguments).
BoundFunction BindListReduce(const LogicalType& list, std::shared_ptr<const Expression> body,
                             bool with_initial, bool with_index,
                             const std::vector<LogicalType>& captures);

// The list and map functions taking values only: array_extract (x[i], also on VARCHAR and MAP),
// array_slice (x[a:b]), len, list_contains, map_keys, map_values, map_extract, cardinality ...
// nullopt when `name` is not one of them or the types do not fit.
std::optional<BoundFunction> BindNestedFunction(const std::string& name,
                                                const std::vector<LogicalType>& types);

} // namespace sluice
