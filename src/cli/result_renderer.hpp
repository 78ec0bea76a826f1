#pragma once

#include "main/query_result.hpp"

#include <optional>
#include <ostream>
#include <string>

namespace sluice {

enum class OutputMode { Box, Csv, Json, Line };

// Writes a query result in one of the shell's output modes. Box output follows DuckDB's
// layout (names and types in the header, numbers right-aligned, 40 rows at most). NULLs print
// as `null_text` when given, else as the mode's default (NULL; empty in csv; null in json).
void RenderResult(QueryResult& result, OutputMode mode, std::ostream& out,
                  const std::optional<std::string>& null_text = std::nullopt);

bool ParseOutputMode(const std::string& name, OutputMode& mode);

} // namespace sluice
