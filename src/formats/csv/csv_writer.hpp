#pragma once

#include "common/data_chunk.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace sluice::csv {

struct CsvWriteOptions {
    char delimiter = ',';
    char quote = '"';
    char escape = '"'; // inside quotes, the quote and the escape itself are preceded by it
    bool header = true;
    std::string null_string; // NULL is written as this (empty by default, as in DuckDB)
};

// Formats rows as RFC 4180 CSV the way DuckDB writes them: every type in its VARCHAR form,
// fields quoted when they hold the delimiter, the quote or a line break, or when they
// would read back as NULL (the empty string, when NULL is written empty, or the NULL string);
// inside quotes, quote and escape characters are escaped; lines end in \n.
class CsvFormatter {
public:
    explicit CsvFormatter(CsvWriteOptions options);

    void AppendHeader(const std::vector<std::string>& names, std::string& out) const;
    // Appends rows [offset, offset + count) of `chunk`.
    void AppendRows(const DataChunk& chunk, idx_t offset, idx_t count, std::string& out) const;

private:
    void AppendField(std::string_view value, std::string& out) const;

    CsvWriteOptions options_;
};

// A CSV file being written; removed again unless Finish is reached.
class CsvFileWriter {
public:
    CsvFileWriter(std::string path, const std::vector<std::string>& names,
                  const CsvWriteOptions& options);
    ~CsvFileWriter();

    void Append(const DataChunk& chunk);
    // Bytes already formatted elsewhere (CsvFormatter::AppendRows on another thread).
    void Write(std::string_view bytes, uint64_t rows);
    void Finish();
    uint64_t rows_written() const { return rows_written_; }
    uint64_t bytes_written() const { return bytes_written_; }

private:
    std::string path_;
    CsvFormatter formatter_;
    std::FILE* file_ = nullptr;
    std::string buffer_;
    uint64_t rows_written_ = 0;
    uint64_t bytes_written_ = 0;
    bool finished_ = false;
};

} // namespace sluice::csv
