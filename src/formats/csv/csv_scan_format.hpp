#pragma once

#include "formats/csv/csv_dialect.hpp"
#include "formats/csv/csv_rejects.hpp"
#include "formats/csv/csv_sniffer.hpp"
#include "formats/csv/csv_value_parser.hpp"
#include "formats/scan_format.hpp"
#include "formats/stream_decoder.hpp"
#include "parallel/task.hpp"

#include <atomic>
#include <mutex>
#include <optional>

namespace sluice {

// Where each job of a CSV file really starts and stops. A job's rows are those that begin in
// its byte range; it finds its first row after the first line break past its start, which is
// right unless a quoted field holds a line break there. Each job reports where it started and
// where it stopped, and the two must meet: a mismatch is an error, never a wrong row. In
// sequential mode (quoted line breaks seen by the sniffer, or parallel = false) a job starts
// where the previous one stopped, and its decoder waits for that.
class CsvJobBoundaries {
public:
    void Resize(size_t jobs);
    // Records job `job`'s first row; throws if it does not meet the previous job's stop.
    void Started(size_t job, uint64_t start, const std::string& path);
    // Records where job `job` stopped (the start of the first row it left to the next job) and
    // how many lines it passed from its first row on.
    void Stopped(size_t job, uint64_t stop, uint64_t lines, const std::string& path);
    // A row error in job `job`, read in parallel. A job that started inside a quoted field reads
    // garbage, and then the wrong start is the error to report: so the row error is held (true:
    // the job stops) until the previous job's stop shows whether the start was right; thrown by
    // the caller (false) when that is known already and right; the wrong start's error is
    // thrown here when it is known and wrong.
    bool HoldError(size_t job, const std::string& message, const std::string& path);
    // Lines passed by jobs before `job`, once all of them have stopped.
    std::optional<uint64_t> LinesBefore(size_t job) const;
    // The previous job's stop, or nothing (then `waker` is woken once it is known).
    std::optional<uint64_t> StopBefore(size_t job, const Waker& waker);

private:
    void Check(size_t job, const std::string& path); // under the lock

    mutable std::mutex mutex_;
    std::vector<std::optional<uint64_t>> starts_;
    std::vector<std::optional<uint64_t>> stops_;
    std::vector<std::optional<uint64_t>> lines_;
    std::vector<std::optional<std::string>>
        held_;                                // per job: its row error, until its start is checked
    std::vector<std::vector<Waker>> waiting_; // per job, for the previous job's stop
};

// What opening a CSV file learns: its dialect and columns, and where its data starts.
struct CsvFileLayout {
    csv::CsvSniffResult sniffed;
    uint64_t data_start = 0;        // after a byte-order mark, skipped lines and the header
    uint64_t lines_before_data = 0; // for line numbers in errors
    double compression_ratio = 1;   // decompressed bytes per file byte, from the head
};

// An opened CSV file: its dialect and columns (sniffed from the first file or given), where its
// data starts (after skipped lines, a byte-order mark and the header), and its jobs: fixed byte
// ranges of `buffer_size`, each fetched with a little more at its end so that its last row
// rarely needs another read. A compressed file's jobs are ranges of its compressed bytes, read
// in order as one stream (offsets in errors are then the decompressed stream's).
class CsvScanFile : public ScanFile,
                    public csv::CsvLineResolver,
                    public std::enable_shared_from_this<CsvScanFile> {
public:
    CsvScanFile(std::shared_ptr<FileHandle> handle, const CsvFileLayout& layout,
                const csv::CsvReadOptions& options, bool sequential, const FileCoding& coding);

    const std::string& path() const override { return handle_->path(); }
    std::shared_ptr<FileHandle> handle() const override { return handle_; }
    const std::vector<ScanColumn>& Columns() const override { return columns_; }
    double EstimatedRows() const override;
    bool KnowsRowNumbers() const override { return false; }
    FileJobs PlanJobs(const FileProjection& projection, const IoContext& context) override;
    std::unique_ptr<ScanJobDecoder> Decode(const ScanJobPlan& job, std::vector<ByteBuffer> buffers,
                                           const IoContext& context) override;

    const csv::CsvDialect& dialect() const { return dialect_; }
    bool sequential() const { return sequential_; }
    uint64_t rows_rejected() const { return rows_rejected_.load(); }
    std::optional<uint64_t> Line(size_t job, uint64_t lines_in_job) const override;

private:
    friend class CsvRowDecoder;
    friend class CsvRangeDecoder;
    friend class CsvStreamDecoder;

    // A compressed file's decompression, handed from each job to the next (after the previous
    // job's stop is recorded, which orders the hand-over).
    struct Stream {
        std::unique_ptr<StreamDecoder> decoder;
        std::string carry;         // the row the previous job could not finish
        uint64_t carry_offset = 0; // where it starts in the decompressed stream
        uint64_t lines = 0;        // lines before it
    };

    // The 1-based line of the row starting at `offset`, counted from the file's start (read
    // again: only for error messages).
    uint64_t LineAt(uint64_t offset, const IoContext& context);

    std::shared_ptr<FileHandle> handle_;
    csv::CsvDialect dialect_;
    csv::CsvReadOptions options_;
    std::vector<ScanColumn> columns_;
    std::vector<std::string> formats_; // per column: its DATE or TIMESTAMP format, "" for ISO
    bool sequential_;
    FileCoding coding_;
    Stream stream_;
    double compression_ratio_;
    uint64_t data_start_;
    uint64_t lines_before_data_;
    double bytes_per_row_;
    FileProjection projection_;
    std::vector<csv::CsvValueParser> parsers_; // per projected column
    CsvJobBoundaries boundaries_;
    std::atomic<uint64_t> rows_rejected_{0};
};

// read_csv's format: sniffs the first file (every file with union_by_name) unless told
// everything, then opens files with that dialect and those columns.
class CsvScanFormat : public ScanFormat {
public:
    CsvScanFormat(csv::CsvReadOptions options, bool sniff_each_file, bool parallel);

    std::string Name() const override { return "READ_CSV"; }
    std::shared_ptr<ScanFile> Open(FileSystem& file_system, const std::string& path,
                                   const IoContext& context) override;

    // What the first file's sniffing found (after the first Open).
    csv::CsvSniffResult Sniffed() const;

private:
    // Reads the file's head: sniffs it unless `known`, and finds where its data starts.
    CsvFileLayout Learn(FileHandle& handle, const FileCoding& coding,
                        const std::optional<csv::CsvSniffResult>& known,
                        const IoContext& context) const;

    csv::CsvReadOptions options_;
    bool sniff_each_file_;
    bool parallel_;
    mutable std::mutex mutex_;
    std::optional<csv::CsvSniffResult> sniffed_;
};

} // namespace sluice
