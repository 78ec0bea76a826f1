#include "formats/csv/csv_scan_format.hpp"

#include "common/exception.hpp"
#include "common/utf8.hpp"
#include "formats/csv/csv_tokenizer.hpp"
#include "io/file_version_cache.hpp"

#include <algorithm>
#include <cstring>

namespace sluice {

namespace {

// Bytes the sniffer reads from the first file; later files read only enough for their header.
constexpr uint64_t kSniffBytes = 4 * 1024 * 1024;
constexpr uint64_t kHeaderBytes = 64 * 1024;
// Fetched past a job's end so that its last row is usually complete without another read.
constexpr uint64_t kJobTail = 64 * 1024;
constexpr size_t kSniffCacheCapacity = 1024;

std::string Quoted(std::string_view text) {
    constexpr size_t kShown = 80;
    std::string shown(text.substr(0, kShown));
    return "\"" + shown + (text.size() > kShown ? "...\"" : "\"");
}

bool EndsWith(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

ByteBuffer ReadAt(FileHandle& handle, uint64_t offset, uint64_t length) {
    ByteBuffer buffer = ByteBuffer::Allocate(length);
    if (length > 0) {
        handle.Read(buffer.get(), length, offset);
    }
    return buffer;
}

std::string_view View(const ByteBuffer& buffer) {
    return {reinterpret_cast<const char*>(buffer.get()), buffer.size};
}

uint64_t ByteOrderMark(std::string_view head) {
    return head.size() >= 3 && std::memcmp(head.data(), "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

} // namespace

void CsvJobBoundaries::Resize(size_t jobs) {
    std::lock_guard<std::mutex> guard(mutex_);
    starts_.assign(jobs, std::nullopt);
    stops_.assign(jobs, std::nullopt);
    waiting_.assign(jobs, {});
}

void CsvJobBoundaries::Check(size_t job, const std::string& path) {
    if (job == 0 || !starts_[job] || !stops_[job - 1] || *starts_[job] == *stops_[job - 1]) {
        return;
    }
    throw Exception(ErrorKind::InvalidInput,
                    "CSV error in '" + path + "' near byte " + std::to_string(*stops_[job - 1]) +
                        ": a quoted field holds a line break where the file was split for "
                        "parallel reading (the sniffer's sample had none); parallel = false "
                        "reads the file in order");
}

void CsvJobBoundaries::Started(size_t job, uint64_t start, const std::string& path) {
    std::lock_guard<std::mutex> guard(mutex_);
    starts_[job] = start;
    Check(job, path);
}

void CsvJobBoundaries::Stopped(size_t job, uint64_t stop, const std::string& path) {
    std::vector<Waker> wake;
    {
        std::lock_guard<std::mutex> guard(mutex_);
        stops_[job] = stop;
        if (job + 1 < waiting_.size()) {
            wake.swap(waiting_[job + 1]);
        }
        if (job + 1 < starts_.size()) {
            Check(job + 1, path);
        }
    }
    for (const Waker& waker : wake) {
        waker.Wake();
    }
}

std::optional<uint64_t> CsvJobBoundaries::StopBefore(size_t job, const Waker& waker) {
    std::lock_guard<std::mutex> guard(mutex_);
    if (stops_[job - 1]) {
        return stops_[job - 1];
    }
    waiting_[job].push_back(waker);
    return std::nullopt;
}

// Decodes the rows that begin in one job's byte range.
class CsvJobDecoder : public ScanJobDecoder {
public:
    CsvJobDecoder(CsvScanFile& file, const ScanJobPlan& job, ByteBuffer buffer)
        : file_(file), job_(job), buffer_(std::move(buffer)), buffer_offset_(job.ranges[0].offset),
          tokenizer_(file.dialect_) {}

    bool Ready(const Waker& waker) override {
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
        SetTokenizer(*start_);
        return true;
    }

    bool Next(DataChunk& out) override {
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
        while (count < kVectorSize) {
            uint64_t next = buffer_offset_ + tokenizer_.position();
            if (next >= job_.end) { // job ranges end at the file's end at the latest
                Finish(next);
                break;
            }
            uint64_t lines_before = tokenizer_.lines();
            CsvTokenizer::Result result = tokenizer_.Next(fields_);
            if (result == CsvTokenizer::Result::NeedMore) {
                Extend(out);
                continue;
            }
            if (result == CsvTokenizer::Result::End) {
                Finish(buffer_offset_ + tokenizer_.position());
                break;
            }
            if (result == CsvTokenizer::Result::Empty) {
                // In a one-column file an empty line is a NULL value, as in DuckDB.
                if (file_.columns_.size() == 1 && !tokenizer_.passed_comment()) {
                    for (idx_t position : file_.projection_.positions) {
                        out.column(position).SetNull(count);
                    }
                    count++;
                }
                continue;
            }
            uint64_t row_start = buffer_offset_ + tokenizer_.row_start();
            if (result == CsvTokenizer::Result::Error) {
                Reject(row_start, lines_before, tokenizer_.error());
                continue;
            }
            if (tokenizer_.position() - tokenizer_.row_start() >
                static_cast<uint64_t>(file_.options_.max_line_size)) {
                Reject(row_start, lines_before,
                       "a line is longer than " + std::to_string(file_.options_.max_line_size) +
                           " bytes (max_line_size raises the limit)");
                continue;
            }
            if (ConvertRow(out, count, row_start, lines_before, scratch)) {
                count++;
            }
        }
        out.SetSize(count);
        return count > 0 || !done_;
    }

private:
    using CsvTokenizer = csv::CsvTokenizer;
    using CsvField = csv::CsvField;

    const char* Data() const { return reinterpret_cast<const char*>(buffer_.get()); }
    bool AtFileEnd() const { return buffer_offset_ + buffer_.size >= file_.handle_->Size(); }

    void SetTokenizer(uint64_t file_offset) {
        tokenizer_.Reset(Data(), buffer_.size, file_offset - buffer_offset_, AtFileEnd());
    }

    // The first row begins after the first line break at or after the byte before the job's
    // range (the buffer starts there), reading further when a row spans the whole range.
    uint64_t FindFirstRow() {
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

    // Replaces the buffer with its bytes from `keep_from` on, followed by more of the file.
    void Grow(size_t keep_from) {
        uint64_t have = buffer_.size - keep_from;
        uint64_t file_size = file_.handle_->Size();
        uint64_t from = buffer_offset_ + buffer_.size;
        uint64_t more = std::min<uint64_t>(file_size - from, std::max<uint64_t>(kJobTail, have));
        ByteBuffer grown = ByteBuffer::Allocate(have + more);
        std::memcpy(grown.get(), buffer_.get() + keep_from, have);
        if (more > 0) {
            file_.handle_->Read(grown.get() + have, more, from);
        }
        buffer_offset_ += keep_from;
        buffer_ = std::move(grown);
    }

    // The row being read needs bytes past the buffer: fetch only what it needs, in steps.
    void Extend(DataChunk& out) {
        size_t row_start = tokenizer_.position();
        uint64_t row_bytes = buffer_.size - row_start;
        if (row_bytes > static_cast<uint64_t>(file_.options_.max_line_size)) {
            uint64_t offset = buffer_offset_ + row_start;
            throw Exception(ErrorKind::InvalidInput,
                            Where(offset, tokenizer_.lines()) + ": a line is longer than " +
                                std::to_string(file_.options_.max_line_size) +
                                " bytes (max_line_size raises the limit)");
        }
        KeepBufferAlive(out); // strings of this chunk point into the old buffer
        Grow(row_start);
        SetTokenizer(buffer_offset_);
        KeepBufferAlive(out);
    }

    void KeepBufferAlive(DataChunk& out) {
        for (size_t i = 0; i < file_.parsers_.size(); i++) {
            if (file_.parsers_[i].type().id() == LogicalTypeId::VARCHAR) {
                out.column(file_.projection_.positions[i]).KeepAlive(buffer_.data);
            }
        }
    }

    void Finish(uint64_t stop) {
        done_ = true;
        file_.boundaries_.Stopped(job_.index_in_file, stop, file_.path());
    }

    std::string Where(uint64_t row_start, uint64_t lines_before) {
        // Lines before this job's first row are only known by counting them again.
        uint64_t line = job_.begin == file_.data_start_
                            ? file_.lines_before_data_ + lines_before + 1
                            : file_.LineAt(*start_) + lines_before;
        return "CSV error in '" + file_.path() + "' on line " + std::to_string(line) + " (byte " +
               std::to_string(row_start) + ")";
    }

    // A row that cannot be read: skipped and counted with ignore_errors, else the error.
    void Reject(uint64_t row_start, uint64_t lines_before, const std::string& what) {
        if (file_.options_.ignore_errors) {
            file_.rows_rejected_++;
            return;
        }
        throw Exception(ErrorKind::InvalidInput, Where(row_start, lines_before) + ": " + what);
    }

    bool ConvertRow(DataChunk& out, idx_t row, uint64_t row_start, uint64_t lines_before,
                    std::string& scratch) {
        size_t width = file_.columns_.size();
        if (fields_.size() != width && !(fields_.size() < width && file_.options_.null_padding)) {
            Reject(row_start, lines_before,
                   "expected " + std::to_string(width) + " columns, found " +
                       std::to_string(fields_.size()) +
                       (fields_.size() < width ? " (null_padding = true reads the missing ones as "
                                                 "NULL; ignore_errors = true skips such rows)"
                                               : " (ignore_errors = true skips such rows)"));
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
            const CsvField& field = fields_[column];
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
            if (text_column && !IsValidUtf8(text)) {
                Reject(row_start, lines_before,
                       "column \"" + file_.columns_[column].name + "\" holds invalid UTF-8");
                return false;
            }
            if (!parser.Parse(text, vector, row)) {
                Reject(row_start, lines_before,
                       "column \"" + file_.columns_[column].name + "\": could not convert " +
                           Quoted(text) + " to " + parser.type().ToString() + " (types = {'" +
                           file_.columns_[column].name +
                           "': 'VARCHAR'} reads it as text; ignore_errors = true skips such "
                           "rows)");
                return false;
            }
        }
        return true;
    }

    CsvScanFile& file_;
    const ScanJobPlan& job_;
    ByteBuffer buffer_;
    uint64_t buffer_offset_; // the file offset of the buffer's first byte
    CsvTokenizer tokenizer_;
    std::vector<CsvField> fields_;
    std::optional<uint64_t> start_;
    bool done_ = false;
};

CsvScanFile::CsvScanFile(std::shared_ptr<FileHandle> handle, const CsvFileLayout& layout,
                         const csv::CsvReadOptions& options, bool sequential)
    : handle_(std::move(handle)), dialect_(layout.sniffed.dialect), options_(options),
      sequential_(sequential), data_start_(layout.data_start),
      lines_before_data_(layout.lines_before_data), bytes_per_row_(layout.sniffed.bytes_per_row) {
    for (size_t i = 0; i < layout.sniffed.names.size(); i++) {
        columns_.push_back({layout.sniffed.names[i], layout.sniffed.types[i], ""});
    }
    formats_ = layout.sniffed.formats;
}

double CsvScanFile::EstimatedRows() const {
    if (bytes_per_row_ <= 0) {
        return -1;
    }
    return static_cast<double>(handle_->Size() - data_start_) / bytes_per_row_;
}

FileJobs CsvScanFile::PlanJobs(const FileProjection& projection) {
    projection_ = projection;
    parsers_.clear();
    for (size_t column : projection_.columns) {
        const LogicalType& type = columns_[column].type;
        std::string spec = formats_[column];
        if (spec.empty() && type.id() == LogicalTypeId::DATE && options_.date_format) {
            spec = *options_.date_format;
        }
        if (spec.empty() && type.id() == LogicalTypeId::TIMESTAMP && options_.timestamp_format) {
            spec = *options_.timestamp_format;
        }
        std::string error;
        std::optional<csv::CsvDateFormat> format;
        if (!spec.empty()) {
            format = csv::CsvDateFormat::Parse(spec, error); // validated when bound
        }
        parsers_.emplace_back(type, options_, std::move(format));
    }
    FileJobs planned;
    uint64_t size = handle_->Size();
    uint64_t step = options_.buffer_size;
    for (uint64_t begin = data_start_; begin < size; begin += step) {
        ScanJobPlan job;
        job.index_in_file = planned.jobs.size();
        job.begin = begin;
        job.end = std::min(size, begin + step);
        // From the byte before the range (is it a line break?) to a little past its end.
        uint64_t from = begin > data_start_ ? begin - 1 : begin;
        uint64_t to = std::min(size, job.end + std::min(kJobTail, step));
        job.ranges.push_back({from, to - from});
        planned.jobs.push_back(std::move(job));
    }
    boundaries_.Resize(planned.jobs.size());
    return planned;
}

std::unique_ptr<ScanJobDecoder> CsvScanFile::Decode(const ScanJobPlan& job,
                                                    std::vector<ByteBuffer> buffers) {
    return std::make_unique<CsvJobDecoder>(*this, job, std::move(buffers[0]));
}

uint64_t CsvScanFile::LineAt(uint64_t offset) {
    ByteBuffer prefix = ReadAt(*handle_, data_start_, offset - data_start_);
    csv::CsvTokenizer tokenizer(dialect_);
    tokenizer.Reset(reinterpret_cast<const char*>(prefix.get()), prefix.size, 0, true);
    std::vector<csv::CsvField> fields;
    while (tokenizer.Next(fields) != csv::CsvTokenizer::Result::End) {
    }
    return lines_before_data_ + tokenizer.lines() + 1;
}

CsvScanFormat::CsvScanFormat(csv::CsvReadOptions options, bool sniff_each_file, bool parallel)
    : options_(std::move(options)), sniff_each_file_(sniff_each_file), parallel_(parallel) {
}

csv::CsvSniffResult CsvScanFormat::Sniffed() const {
    std::lock_guard<std::mutex> guard(mutex_);
    return *sniffed_;
}

std::shared_ptr<ScanFile> CsvScanFormat::Open(FileSystem& file_system, const std::string& path) {
    for (const char* suffix : {".gz", ".zst", ".bz2", ".xz", ".zip"}) {
        if (EndsWith(path, suffix)) {
            throw Exception(ErrorKind::NotImplemented,
                            "compressed CSV files are not read yet: '" + path + "'");
        }
    }
    std::shared_ptr<FileHandle> handle = file_system.Open(path);
    std::optional<csv::CsvSniffResult> known;
    {
        std::lock_guard<std::mutex> guard(mutex_);
        if (!sniff_each_file_) {
            known = sniffed_;
        }
    }
    std::shared_ptr<const CsvFileLayout> layout;
    if (known) {
        layout = std::make_shared<CsvFileLayout>(Learn(*handle, known));
    } else {
        // A file sniffed before with the same options (a view bound again, a repeated query)
        // is not read again unless it changed.
        static FileVersionCache<CsvFileLayout> sniffed_files(kSniffCacheCapacity);
        layout = sniffed_files.Get(*handle, options_.SniffKey(), [&] {
            return std::make_shared<CsvFileLayout>(Learn(*handle, std::nullopt));
        });
        std::lock_guard<std::mutex> guard(mutex_);
        if (!sniffed_) {
            sniffed_ = layout->sniffed;
        }
    }
    bool sequential = !parallel_ || layout->sniffed.quoted_line_breaks;
    return std::make_shared<CsvScanFile>(handle, *layout, options_, sequential);
}

CsvFileLayout CsvScanFormat::Learn(FileHandle& handle,
                                   const std::optional<csv::CsvSniffResult>& known) const {
    uint64_t size = handle.Size();
    uint64_t head_size = std::min(size, known ? kHeaderBytes : kSniffBytes);
    ByteBuffer head = ReadAt(handle, 0, head_size);
    uint64_t bom = ByteOrderMark(View(head));
    CsvFileLayout layout;
    layout.sniffed =
        known ? *known
              : csv::SniffCsv(View(head).substr(bom), head_size == size, options_, handle.path());
    const csv::CsvDialect& dialect = layout.sniffed.dialect;
    while (true) {
        const char* data = reinterpret_cast<const char*>(head.get());
        size_t position = bom;
        uint64_t lines = 0;
        for (int64_t i = 0; i < dialect.skip; i++, lines++) {
            position = csv::NextLineStart(data, head.size, position);
        }
        bool complete = true;
        if (dialect.header) {
            csv::CsvTokenizer tokenizer(dialect);
            tokenizer.Reset(data, head.size, position, head.size == size);
            std::vector<csv::CsvField> fields;
            csv::CsvTokenizer::Result result;
            do {
                result = tokenizer.Next(fields);
            } while (result == csv::CsvTokenizer::Result::Empty);
            complete = result != csv::CsvTokenizer::Result::NeedMore;
            position = tokenizer.position();
            lines += tokenizer.lines();
        }
        if (complete || head.size == size) {
            layout.data_start = position;
            layout.lines_before_data = lines;
            return layout;
        }
        if (head.size >= static_cast<uint64_t>(options_.max_line_size)) {
            throw Exception(ErrorKind::InvalidInput, "CSV error in '" + handle.path() +
                                                         "': the header is longer than " +
                                                         std::to_string(options_.max_line_size) +
                                                         " bytes (max_line_size raises the limit)");
        }
        head = ReadAt(handle, 0, std::min(size, head.size * 2));
    }
}

} // namespace sluice
