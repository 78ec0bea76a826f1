#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace sluice::csv {

// Why a row was rejected, with DuckDB's names (its rejects table's error_type).
enum class CsvErrorType : uint8_t {
    Cast,
    MissingColumns,
    TooManyColumns,
    UnquotedValue,
    LineSizeOverMaximum,
    InvalidEncoding,
};
const char* CsvErrorTypeName(CsvErrorType type);

// The line a row of a job starts on, once the jobs before it have counted theirs (a job read in
// parallel does not know how many lines precede it). Nothing while that is not known (a query
// that stopped early, by a LIMIT, before the earlier jobs were read).
class CsvLineResolver {
public:
    virtual ~CsvLineResolver() = default;
    virtual std::optional<uint64_t> Line(size_t job, uint64_t lines_in_job) const = 0;
};

// One rejected row, as read_csv's rejects table (rejects_table, default reject_errors) holds it.
struct CsvRejectedRow {
    std::string path;
    std::optional<uint64_t> line;
    uint64_t line_byte_position = 0;    // where the row starts
    uint64_t byte_position = 0;         // where the error is
    std::optional<uint64_t> column_idx; // 1-based
    std::optional<std::string> column_name;
    CsvErrorType type = CsvErrorType::Cast;
    std::string csv_line;
    std::string error_message;
};

// The rows a scan with store_rejects = true rejected, from every decoding thread. At most
// `limit` per file are kept (0: all), as DuckDB's rejects_limit.
class CsvRejects {
public:
    explicit CsvRejects(uint64_t limit) : limit_(limit) {}

    // Whether another row of `path` is kept.
    bool Wants(const std::string& path);
    // `row.line` is left unset: it is resolved by `resolver` when the rows are taken.
    void Add(CsvRejectedRow row, std::shared_ptr<const CsvLineResolver> resolver, size_t job,
             uint64_t lines_in_job);
    // Every row kept so far, with its line resolved where it can be; in file and byte order.
    std::vector<CsvRejectedRow> Take();

private:
    struct Entry {
        CsvRejectedRow row;
        std::shared_ptr<const CsvLineResolver> resolver;
        size_t job;
        uint64_t lines_in_job;
    };
    const uint64_t limit_;
    std::mutex mutex_;
    std::vector<Entry> entries_;
    std::vector<std::pair<std::string, uint64_t>> kept_per_file_;
};

} // namespace sluice::csv
