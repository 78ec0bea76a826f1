#pragma once

#include "common/types.hpp"
#include "formats/csv/csv_rejects.hpp"
#include "formats/stream_decoder.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sluice::csv {

// How a CSV file is laid out. `quote` and `escape` of 0 mean none; `escape` equal to `quote`
// is RFC 4180's doubled quote.
struct CsvDialect {
    std::string delimiter = ",";
    char quote = '"';
    char escape = '"';
    char comment = 0;
    bool header = true;
    int64_t skip = 0; // lines before the header / the data

    // "," or "\\t" as DuckDB shows them; "(empty)" for none.
    static std::string Show(char c);
    std::string ShowDelimiter() const;
};

// read_csv's options as given (unset: sniffed), with DuckDB's names and defaults.
struct CsvReadOptions {
    std::optional<std::string> delimiter;
    std::optional<char> quote;
    std::optional<char> escape;
    std::optional<char> comment;
    std::optional<bool> header;
    std::optional<int64_t> skip;
    std::optional<std::string> new_line; // validated; \n, \r\n and \r all end rows anyway
    std::vector<std::string> null_strings = {""};
    bool auto_detect = true;
    int64_t sample_size = 20480; // rows; -1 the whole file
    bool all_varchar = false;
    bool null_padding = false;
    bool strict_mode = true;
    bool ignore_errors = false;
    int64_t max_line_size = 2000000;
    uint64_t buffer_size = 8 * 1024 * 1024; // bytes per scan job
    std::string compression = "auto";       // auto (by extension), none, gzip, zstd
    TextEncoding encoding = TextEncoding::Utf8;
    // columns = {'name': 'TYPE', ...}: names and types, nothing sniffed.
    std::vector<std::pair<std::string, LogicalType>> columns;
    // names = [...]: the first columns' names.
    std::vector<std::string> names;
    // types = {'name': 'TYPE'} or [..] by position.
    std::vector<std::pair<std::string, LogicalType>> types_by_name;
    std::vector<LogicalType> types_by_position;
    std::optional<std::string> date_format;
    std::optional<std::string> timestamp_format;
    char decimal_separator = '.';
    std::optional<char> thousands;
    std::vector<LogicalType> auto_type_candidates; // empty: DuckDB's
    // store_rejects = true: rejected rows are kept here (and skipped) instead of failing.
    std::shared_ptr<CsvRejects> rejects;

    // Every option that changes what sniffing a file finds, as one string (a cache key).
    std::string SniffKey() const;
};

} // namespace sluice::csv
