#pragma once

#include "main/query_result.hpp"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace sluice {

enum class OutputMode { Box, Csv, Json, Line, Markdown };

struct RenderOptions {
    OutputMode mode = OutputMode::Box;
    // NULLs print as this when given, else as the mode's default (NULL; empty in csv; null in
    // json).
    std::optional<std::string> null_text = std::nullopt;
    // Box: at most this many rows, the rest elided in the middle with a count (0: all).
    size_t max_rows = 40;
    // Box and markdown: the least width of each column in turn (.width).
    std::vector<size_t> widths = {};
};

// Writes a query result in one of the shell's output modes. Box output follows DuckDB's
// layout (names and types in the header, numbers right-aligned). EXPLAIN's plans print as the
// indented trees they are, under a title, in box, line and markdown modes (csv and json keep
// them as data, for programs that parse them).
void RenderResult(QueryResult& result, const RenderOptions& options, std::ostream& out);

bool ParseOutputMode(const std::string& name, OutputMode& mode);

} // namespace sluice
