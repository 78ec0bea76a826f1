#include "formats/csv/csv_job_decoder.hpp"

#include "common/exception.hpp"
#include "common/utf8.hpp"
#include "formats/csv/csv_scan_format.hpp"

#include <algorithm>
#include <cstring>

namespace sluice {

namespace {

// Fetched past a job's end when a row crosses it, and the least a refill brings.
constexpr uint64_t kRefillBytes = 64 * 1024;
// Decompressed bytes a compressed job holds at a time.
constexpr size_t kStreamWindow = 1024 * 1024;

std::string Quoted(std::string_view text) {
    constexpr size_t kShown = 80;
    std::string shown(text.substr(0, kShown));
    return "\"" + shown + (text.size() > kShown ? "...\"" : "\"");
}

} // namespace

CsvRowDecoder::CsvRowDecoder(CsvScanFile& file, const ScanJobPlan& job, ByteBuffer buffer,
                             uint64_t buffer_offset)
    : file_(file), job_(job), buffer_(std::move(buffer)), buffer_offset_(buffer_offset),
      tokenizer_(file.dialect_) {
}

bool CsvRowDecoder::Next(DataChunk& out) {
    if (done_) {
        return false;
    }
    const FileProjection& projection = file_.projection_;
    for (idx_t position : projection.positions) {
        out.column(position).Reset();
    }
    KeepBufferAlive(out);
    idx_t count = 0;
    std::string scratch;
    while (count < kVectorSize && !done_) {
        uint64_t next = buffer_offset_ + tokenizer_.position();
        if (PastJobEnd(next)) {
            Finish(next);
            break;
        }
        uint64_t lines_before = tokenizer_.lines();
        csv::CsvTokenizer::Result result = tokenizer_.Next(fields_);
        if (result == csv::CsvTokenizer::Result::NeedMore) {
            if (!Refill(out)) {
                break;
            }
            continue;
        }
        if (result == csv::CsvTokenizer::Result::End) {
            Finish(buffer_offset_ + tokenizer_.position());
            break;
        }
        if (result == csv::CsvTokenizer::Result::Empty) {
            // In a one-column file an empty line is a NULL value, as in DuckDB.
            if (file_.columns_.size() == 1 && !tokenizer_.passed_comment()) {
                for (idx_t position : projection.positions) {
                    out.column(position).SetNull(count);
                }
                count++;
            }
            continue;
        }
        uint64_t row_start = buffer_offset_ + tokenizer_.row_start();
        if (result == csv::CsvTokenizer::Result::Error) {
            Reject(row_start, lines_before,
                   {csv::CsvErrorType::UnquotedValue, tokenizer_.error(),
                    "Value with unterminated quote found.", std::nullopt, std::nullopt, row_start});
            continue;
        }
        if (tokenizer_.position() - tokenizer_.row_start() >
            static_cast<uint64_t>(file_.options_.max_line_size)) {
            uint64_t size = tokenizer_.position() - tokenizer_.row_start();
            Reject(row_start, lines_before,
                   {csv::CsvErrorType::LineSizeOverMaximum,
                    "a line is longer than " + std::to_string(file_.options_.max_line_size) +
                        " bytes (max_line_size raises the limit)",
                    "Maximum line size of " + std::to_string(file_.options_.max_line_size) +
                        " bytes exceeded. Actual Size:" + std::to_string(size) + " bytes.",
                    std::nullopt, std::nullopt, row_start});
            continue;
        }
        if (ConvertRow(out, count, row_start, lines_before, scratch)) {
            count++;
        }
    }
    out.SetSize(count);
    return count > 0 || !done_;
}

void CsvRowDecoder::Finish(uint64_t stop) {
    done_ = true;
    file_.boundaries_.Stopped(job_.index_in_file, stop, tokenizer_.lines(), file_.path());
}

void CsvRowDecoder::SetTokenizer(uint64_t file_offset, bool at_end) {
    tokenizer_.Reset(Data(), buffer_.size, file_offset - buffer_offset_, at_end);
}

void CsvRowDecoder::KeepBufferAlive(DataChunk& out) {
    for (size_t i = 0; i < file_.parsers_.size(); i++) {
        if (file_.parsers_[i].type().id() == LogicalTypeId::VARCHAR) {
            out.column(file_.projection_.positions[i]).KeepAlive(buffer_.data);
        }
    }
}

std::string CsvRowDecoder::Where(uint64_t row_start, uint64_t lines_before) {
    return "CSV error in '" + file_.path() + "' on line " + std::to_string(LineOf(lines_before)) +
           " (byte " + std::to_string(row_start) + ")";
}

void CsvRowDecoder::LineTooLong(uint64_t row_start, uint64_t lines_before) {
    throw Exception(ErrorKind::InvalidInput, Where(row_start, lines_before) +
                                                 ": a line is longer than " +
                                                 std::to_string(file_.options_.max_line_size) +
                                                 " bytes (max_line_size raises the limit)");
}

void CsvRowDecoder::Reject(uint64_t row_start, uint64_t lines_before, const RowError& error) {
    if (file_.options_.rejects) {
        file_.rows_rejected_++;
        if (!file_.options_.rejects->Wants(file_.path())) {
            return;
        }
        csv::CsvRejectedRow row;
        row.path = file_.path();
        row.line_byte_position = row_start;
        row.byte_position = error.byte_position;
        row.column_idx = error.column_idx;
        row.column_name = error.column_name;
        row.type = error.type;
        size_t begin = tokenizer_.row_start();
        size_t end = std::min<size_t>(std::max(tokenizer_.position(), begin), buffer_.size);
        std::string_view text(Data() + begin, end - begin);
        while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) {
            text.remove_suffix(1);
        }
        row.csv_line.assign(text);
        row.error_message = error.rejects_message;
        RecordReject(std::move(row), lines_before);
        return;
    }
    if (file_.options_.ignore_errors) {
        file_.rows_rejected_++;
        return;
    }
    std::string message = Where(row_start, lines_before) + ": " + error.message;
    if (HoldError(message)) {
        done_ = true; // the rest of this job is not read: the query fails either way
        return;
    }
    throw Exception(ErrorKind::InvalidInput, message);
}

bool CsvRowDecoder::ConvertRow(DataChunk& out, idx_t row, uint64_t row_start, uint64_t lines_before,
                               std::string& scratch) {
    size_t width = file_.columns_.size();
    if (fields_.size() != width && !(fields_.size() < width && file_.options_.null_padding)) {
        bool missing = fields_.size() < width;
        // As DuckDB reports it: the columns found, or the first one too many, and where the
        // row ends or the extra field begins.
        uint64_t position =
            missing ? buffer_offset_ + fields_.back().offset + fields_.back().length
                    : buffer_offset_ + fields_[width].offset - file_.dialect_.delimiter.size();
        Reject(row_start, lines_before,
               {missing ? csv::CsvErrorType::MissingColumns : csv::CsvErrorType::TooManyColumns,
                "expected " + std::to_string(width) + " columns, found " +
                    std::to_string(fields_.size()) +
                    (missing ? " (null_padding = true reads the missing ones as NULL; "
                               "ignore_errors = true skips such rows)"
                             : " (ignore_errors = true skips such rows)"),
                "Expected Number of Columns: " + std::to_string(width) +
                    " Found: " + std::to_string(fields_.size()),
                missing ? fields_.size() : width + 1,
                missing ? std::optional<std::string>(file_.columns_[fields_.size()].name)
                        : std::nullopt,
                position});
        return false;
    }
    const FileProjection& projection = file_.projection_;
    for (size_t i = 0; i < projection.columns.size(); i++) {
        size_t column = projection.columns[i];
        Vector& vector = out.column(projection.positions[i]);
        if (column >= fields_.size()) {
            vector.SetNull(row);
            continue;
        }
        const csv::CsvField& field = fields_[column];
        std::string_view text = tokenizer_.Text(field);
        string_t unescaped; // lives until the value is parsed: short strings are inline
        if (field.escaped) {
            // Unescaped text lives in the vector's own arena.
            unescaped = vector.AddString(tokenizer_.Unescape(field, scratch));
            text = std::string_view(unescaped.data(), unescaped.size());
        }
        const auto& nulls = file_.options_.null_strings;
        if (std::find(nulls.begin(), nulls.end(), text) != nulls.end()) {
            vector.SetNull(row);
            continue;
        }
        const csv::CsvValueParser& parser = file_.parsers_[i];
        bool text_column = parser.type().id() == LogicalTypeId::VARCHAR;
        string_t converted; // as `unescaped`
        if (text_column && file_.options_.encoding == TextEncoding::Latin1) {
            std::string_view utf8 = Latin1ToUtf8(text, latin1_scratch_);
            if (utf8.data() != text.data()) {
                converted = vector.AddString(utf8);
                text = std::string_view(converted.data(), converted.size());
            }
        } else if (text_column && !IsValidUtf8(text)) {
            Reject(row_start, lines_before,
                   {csv::CsvErrorType::InvalidEncoding,
                    "column \"" + file_.columns_[column].name +
                        "\" holds invalid UTF-8 (encoding = 'latin-1' or 'utf-16' reads other "
                        "encodings)",
                    "Invalid unicode (byte sequence mismatch) detected.", column + 1,
                    file_.columns_[column].name, buffer_offset_ + field.offset});
            return false;
        }
        if (!parser.Parse(text, vector, row)) {
            const std::string& name = file_.columns_[column].name;
            Reject(row_start, lines_before,
                   {csv::CsvErrorType::Cast,
                    "column \"" + name + "\": could not convert " + Quoted(text) + " to " +
                        parser.type().ToString() + " (types = {'" + name +
                        "': 'VARCHAR'} reads it as text; ignore_errors = true skips such rows)",
                    "Error when converting column \"" + name + "\". Could not convert string \"" +
                        std::string(text) + "\" to '" + parser.type().ToString() + "'",
                    column + 1, name, buffer_offset_ + field.offset});
            return false;
        }
    }
    return true;
}

CsvRangeDecoder::CsvRangeDecoder(CsvScanFile& file, const ScanJobPlan& job, ByteBuffer buffer,
                                 const IoContext& context)
    : CsvRowDecoder(file, job, std::move(buffer), job.ranges[0].offset), context_(context) {
}

bool CsvRangeDecoder::Ready(const Waker& waker) {
    if (start_) {
        return true;
    }
    if (job_.begin == file_.data_start_) {
        start_ = job_.begin;
    } else if (file_.sequential_) {
        start_ = file_.boundaries_.StopBefore(job_.index_in_file, waker);
        if (!start_) {
            return false;
        }
    } else {
        start_ = FindFirstRow();
    }
    file_.boundaries_.Started(job_.index_in_file, *start_, file_.path());
    SetTokenizer(*start_, AtFileEnd());
    return true;
}

bool CsvRangeDecoder::AtFileEnd() const {
    return buffer_offset_ + buffer_.size >= file_.handle_->Size();
}

uint64_t CsvRangeDecoder::LineOf(uint64_t lines_before) {
    // Lines before this job's first row are only known by counting them again.
    return job_.begin == file_.data_start_ ? file_.lines_before_data_ + lines_before + 1
                                           : file_.LineAt(*start_, context_) + lines_before;
}

// The first row begins after the first line break at or after the byte before the job's range
// (the buffer starts there), reading further when a row spans the whole range.
uint64_t CsvRangeDecoder::FindFirstRow() {
    while (true) {
        size_t next = csv::NextLineStart(Data(), buffer_.size, 0);
        if (next < buffer_.size || AtFileEnd()) {
            return buffer_offset_ + next;
        }
        if (buffer_.size > static_cast<uint64_t>(file_.options_.max_line_size)) {
            throw Exception(ErrorKind::InvalidInput,
                            "CSV error in '" + file_.path() + "' after byte " +
                                std::to_string(buffer_offset_) + ": a line is longer than " +
                                std::to_string(file_.options_.max_line_size) +
                                " bytes (max_line_size raises the limit)");
        }
        Grow(0);
    }
}

void CsvRangeDecoder::Grow(size_t keep_from) {
    uint64_t have = buffer_.size - keep_from;
    uint64_t file_size = file_.handle_->Size();
    uint64_t from = buffer_offset_ + buffer_.size;
    uint64_t more = std::min<uint64_t>(file_size - from, std::max<uint64_t>(kRefillBytes, have));
    ByteBuffer grown = ByteBuffer::Allocate(have + more);
    std::memcpy(grown.get(), buffer_.get() + keep_from, have);
    if (more > 0) {
        file_.handle_->Read(grown.get() + have, more, from, context_);
    }
    buffer_offset_ += keep_from;
    buffer_ = std::move(grown);
}

// Fetches only what the row being read needs, in steps.
bool CsvRangeDecoder::Refill(DataChunk& out) {
    size_t row_start = tokenizer_.position();
    if (buffer_.size - row_start > static_cast<uint64_t>(file_.options_.max_line_size)) {
        LineTooLong(buffer_offset_ + row_start, tokenizer_.lines());
    }
    KeepBufferAlive(out); // strings of this chunk point into the old buffer
    Grow(row_start);
    SetTokenizer(buffer_offset_, AtFileEnd());
    KeepBufferAlive(out);
    return true;
}

CsvStreamDecoder::CsvStreamDecoder(CsvScanFile& file, const ScanJobPlan& job, ByteBuffer compressed)
    : CsvRowDecoder(file, job, ByteBuffer{}, 0), compressed_(std::move(compressed)),
      input_(compressed_.get()), input_left_(compressed_.size) {
}

bool CsvStreamDecoder::Ready(const Waker& waker) {
    if (started_) {
        return true;
    }
    if (job_.index_in_file > 0 && !file_.boundaries_.StopBefore(job_.index_in_file, waker)) {
        return false;
    }
    started_ = true;
    CsvScanFile::Stream& stream = file_.stream_;
    std::string carry;
    uint64_t carry_offset = 0;
    lines_ = file_.lines_before_data_;
    if (job_.index_in_file > 0) {
        carry = std::move(stream.carry);
        carry_offset = stream.carry_offset;
        lines_ = stream.lines;
    }
    NextWindow(carry, carry_offset);
    // The head before the data (byte-order mark, skipped lines, header) was read when the file
    // was opened; it may span several small jobs.
    while (buffer_offset_ + buffer_.size < file_.data_start_ && !drained_) {
        NextWindow({}, buffer_offset_ + buffer_.size);
    }
    file_.boundaries_.Started(job_.index_in_file, carry_offset, file_.path());
    uint64_t start =
        std::min(std::max(carry_offset, file_.data_start_), buffer_offset_ + buffer_.size);
    SetTokenizer(start, AtStreamEnd());
    return true;
}

bool CsvStreamDecoder::AtStreamEnd() const {
    if (!drained_ || job_.end < file_.handle_->Size()) {
        return false;
    }
    if (!file_.stream_.decoder->AtCleanEnd()) {
        throw Exception(ErrorKind::InvalidInput, "CSV error in '" + file_.path() + "': the " +
                                                     file_.coding_.StreamName() +
                                                     " data ends early (the file is truncated)");
    }
    return true;
}

void CsvStreamDecoder::NextWindow(std::string_view carry, uint64_t carry_offset) {
    size_t capacity = std::max(kStreamWindow, carry.size());
    ByteBuffer window = ByteBuffer::Allocate(carry.size() + capacity);
    if (!carry.empty()) {
        std::memcpy(window.get(), carry.data(), carry.size());
    }
    size_t produced =
        file_.stream_.decoder->Decode(input_, input_left_, window.get() + carry.size(), capacity);
    drained_ = input_left_ == 0 && produced < capacity;
    window.size = carry.size() + produced;
    buffer_ = std::move(window);
    buffer_offset_ = carry_offset;
}

bool CsvStreamDecoder::Refill(DataChunk& out) {
    size_t row_start = tokenizer_.position();
    uint64_t row_offset = buffer_offset_ + row_start;
    std::string_view carry(Data() + row_start, buffer_.size - row_start);
    if (carry.size() > static_cast<uint64_t>(file_.options_.max_line_size)) {
        LineTooLong(row_offset, tokenizer_.lines());
    }
    if (drained_) {
        // Not the file's last job (that one's tokenizer knows it is at the end): the next job
        // continues the stream and this row.
        CsvScanFile::Stream& stream = file_.stream_;
        stream.carry.assign(carry);
        stream.carry_offset = row_offset;
        stream.lines = lines_ + tokenizer_.lines();
        Finish(row_offset);
        return false;
    }
    KeepBufferAlive(out); // strings of this chunk point into the old window
    NextWindow(carry, row_offset);
    SetTokenizer(buffer_offset_, AtStreamEnd());
    KeepBufferAlive(out);
    return true;
}

bool CsvRangeDecoder::HoldError(const std::string& message) {
    return !file_.sequential_ &&
           file_.boundaries_.HoldError(job_.index_in_file, message, file_.path());
}

void CsvRangeDecoder::RecordReject(csv::CsvRejectedRow row, uint64_t lines_before) {
    // The line is known once the earlier jobs have counted theirs.
    file_.options_.rejects->Add(std::move(row), file_.shared_from_this(), job_.index_in_file,
                                lines_before);
}

void CsvStreamDecoder::RecordReject(csv::CsvRejectedRow row, uint64_t lines_before) {
    row.line = LineOf(lines_before);
    file_.options_.rejects->Add(std::move(row), nullptr, job_.index_in_file, lines_before);
}

} // namespace sluice
