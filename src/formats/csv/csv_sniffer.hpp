#pragma once

#include "formats/csv/csv_dialect.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace sluice::csv {

// What the sniffer found in a file's first bytes.
struct CsvSniffResult {
    CsvDialect dialect;
    std::vector<std::string> names;
    std::vector<LogicalType> types;
    // Per column, the sniffed DATE or TIMESTAMP format ("": ISO 8601, or the dateformat /
    // timestampformat option).
    std::vector<std::string> formats;
    // A quoted field held a line break: rows cannot be found from an arbitrary offset, so the
    // file is read in order.
    bool quoted_line_breaks = false;
    double bytes_per_row = 0; // in the sample, for row estimates
};

// Detects delimiter, quote, escape, header, column names and types from `sample` (the file's
// first bytes; `whole_file` when that is all of it), as DuckDB's sniffer does: the dialect whose
// rows have the most consistent column count (more columns on a tie), then per column the
// first of BOOLEAN, BIGINT, DOUBLE, TIME, DATE, TIMESTAMP (ISO, then DuckDB's other formats),
// VARCHAR every sampled value is, and
// a header when the first row does not fit the types below it (or every column is text).
// Options the user gave are kept, not sniffed.
CsvSniffResult SniffCsv(std::string_view sample, bool whole_file, const CsvReadOptions& options,
                        const std::string& path);

// Names for `count` columns without a header: column0, column1, ... (zero-padded past ten).
std::string DefaultColumnName(size_t index, size_t count);

} // namespace sluice::csv
