#pragma once

#include "common/types.hpp"
#include "sql/ast.hpp"

#include <optional>
#include <string>

namespace sluice {

// Resolves a SQL type name and its aliases (INT, INT4, TEXT, NUMERIC, FLOAT8 ...) to its type.
// DECIMAL without modifiers is DECIMAL(18,3), as in DuckDB. nullopt for unknown names; throws
// for invalid modifiers.
std::optional<LogicalType> ResolveTypeName(const TypeName& name);

// The spelling DuckDB uses for a type inside a derived column name: CAST(1 AS "TINYINT"),
// CAST(1 AS DECIMAL(5, 2)). Names that are not SQL keywords are double-quoted.
std::string TypeNameToString(const TypeName& name);

} // namespace sluice
