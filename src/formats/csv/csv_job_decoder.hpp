#pragma once

#include "formats/csv/csv_rejects.hpp"
#include "formats/csv/csv_tokenizer.hpp"
#include "formats/scan_format.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sluice {

class CsvScanFile;

// Decodes the rows of one CSV job into the projected columns. The loop over rows is shared;
// where the bytes come from is the subclass's: a byte range of a plain file (CsvRangeDecoder),
// or the next piece of a compressed file's stream (CsvStreamDecoder).
class CsvRowDecoder : public ScanJobDecoder {
public:
    bool Next(DataChunk& out) override;

protected:
    CsvRowDecoder(CsvScanFile& file, const ScanJobPlan& job, ByteBuffer buffer,
                  uint64_t buffer_offset);

    // Whether the row starting at file offset `next` belongs to the next job.
    virtual bool PastJobEnd(uint64_t next) const = 0;
    // The row at the tokenizer's position needs bytes past the buffer: bring them, or end the
    // job (Finish) and return false.
    virtual bool Refill(DataChunk& out) = 0;
    // The 1-based line of a row, for errors; `lines_before` are the lines the tokenizer passed
    // since it was last reset.
    virtual uint64_t LineOf(uint64_t lines_before) = 0;

    void Finish(uint64_t stop);
    // Points the tokenizer at `file_offset` of the buffer; `at_end`: no bytes follow it.
    void SetTokenizer(uint64_t file_offset, bool at_end);
    void KeepBufferAlive(DataChunk& out);
    const char* Data() const { return reinterpret_cast<const char*>(buffer_.get()); }
    [[noreturn]] void LineTooLong(uint64_t row_start, uint64_t lines_before);
    std::string Where(uint64_t row_start, uint64_t lines_before);

    CsvScanFile& file_;
    const ScanJobPlan& job_;
    ByteBuffer buffer_;
    uint64_t buffer_offset_; // the file offset of the buffer's first byte
    csv::CsvTokenizer tokenizer_;
    std::vector<csv::CsvField> fields_;
    std::string latin1_scratch_;
    bool done_ = false;

    // Keeps a rejected row for the rejects table (store_rejects), its line resolved now or later.
    virtual void RecordReject(csv::CsvRejectedRow row, uint64_t lines_before) = 0;
    // Whether a row error is held until the job's start is known to be right (true: the job
    // stops; the error surfaces when the previous job stops).
    virtual bool HoldError(const std::string&) { return false; }

private:
    struct RowError {
        csv::CsvErrorType type;
        std::string message;                // Sluice's, for the error thrown
        std::string rejects_message;        // DuckDB's, for the rejects table
        std::optional<uint64_t> column_idx; // 1-based, as DuckDB counts
        std::optional<std::string> column_name;
        uint64_t byte_position;
    };
    // A row that cannot be read: kept in the rejects table with store_rejects, skipped and
    // counted with ignore_errors, else the error.
    void Reject(uint64_t row_start, uint64_t lines_before, const RowError& error);
    bool ConvertRow(DataChunk& out, idx_t row, uint64_t row_start, uint64_t lines_before,
                    std::string& scratch);
};

// A job of an uncompressed file: the rows that begin in its byte range. Its first row starts
// after the first line break past its start (or, read in order, where the previous job
// stopped); a row crossing its end is completed by reading only the bytes it needs.
class CsvRangeDecoder : public CsvRowDecoder {
public:
    // Rows crossing the job's end are completed by reads under `context`.
    CsvRangeDecoder(CsvScanFile& file, const ScanJobPlan& job, ByteBuffer buffer,
                    const IoContext& context);
    bool Ready(const Waker& waker) override;

private:
    bool PastJobEnd(uint64_t next) const override { return next >= job_.end; }
    bool Refill(DataChunk& out) override;
    uint64_t LineOf(uint64_t lines_before) override;
    void RecordReject(csv::CsvRejectedRow row, uint64_t lines_before) override;
    bool HoldError(const std::string& message) override;

    bool AtFileEnd() const;
    uint64_t FindFirstRow();
    // Replaces the buffer with its bytes from `keep_from` on, followed by more of the file.
    void Grow(size_t keep_from);

    IoContext context_;
    std::optional<uint64_t> start_;
};

// A job of a compressed file: the next compressed byte range, decompressed a window at a time
// after the previous job has stopped, continuing its decompression and its unfinished row.
// Offsets are in the decompressed stream; lines are counted as the stream goes.
class CsvStreamDecoder : public CsvRowDecoder {
public:
    CsvStreamDecoder(CsvScanFile& file, const ScanJobPlan& job, ByteBuffer compressed);
    bool Ready(const Waker& waker) override;

private:
    bool PastJobEnd(uint64_t) const override { return false; }
    bool Refill(DataChunk& out) override;
    uint64_t LineOf(uint64_t lines_before) override { return lines_ + lines_before + 1; }
    void RecordReject(csv::CsvRejectedRow row, uint64_t lines_before) override;

    // Whether the tokenizer sees the stream's end: this is the file's last job and its data is
    // used up. A stream that stops inside a gzip member or zstd frame is a truncated file.
    bool AtStreamEnd() const;
    // Decompresses the next window after `carry` (the unfinished row) into the buffer.
    void NextWindow(std::string_view carry, uint64_t carry_offset);

    ByteBuffer compressed_;
    const uint8_t* input_;
    size_t input_left_;
    bool started_ = false;
    bool drained_ = false; // the job's input is used up and its output taken
    uint64_t lines_ = 0;   // lines before the job's first row (the tokenizer counts on)
};

} // namespace sluice
