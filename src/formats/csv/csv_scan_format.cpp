#include "formats/csv/csv_scan_format.hpp"

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "formats/csv/csv_job_decoder.hpp"
#include "formats/csv/csv_tokenizer.hpp"
#include "io/file_version_cache.hpp"

#include <algorithm>
#include <cstring>

namespace sluice {

namespace {

// Bytes the sniffer reads from the first file; later files read only enough for their header.
constexpr uint64_t kSniffBytes = 4 * 1024 * 1024;
constexpr uint64_t kHeaderBytes = 64 * 1024;
// Fetched past a job's end so that its last row is usually complete without another read: room
// for a few dozen rows of the sniffed size, within these bounds. Those bytes are fetched twice
// (also by the next job), so the tail stays small next to a job.
constexpr uint64_t kMinJobTail = 4 * 1024;
constexpr uint64_t kMaxJobTail = 64 * 1024;
constexpr double kTailRows = 32;
constexpr size_t kSniffCacheCapacity = 1024;

ByteBuffer ReadAt(FileHandle& handle, uint64_t offset, uint64_t length, const IoContext& context) {
    ByteBuffer buffer = ByteBuffer::Allocate(length);
    if (length > 0) {
        handle.Read(buffer.get(), length, offset, context);
    }
    return buffer;
}

std::string_view View(const ByteBuffer& buffer) {
    return {reinterpret_cast<const char*>(buffer.get()), buffer.size};
}

// The first `want` bytes of a file's content (decompressed if need be).
struct FileHead {
    ByteBuffer bytes;
    bool whole = false;           // the content ends within them
    double compression_ratio = 1; // content bytes per file byte read
};

FileHead ReadHead(FileHandle& handle, const FileCoding& coding, uint64_t want,
                  const IoContext& context) {
    FileHead head;
    uint64_t size = handle.Size();
    if (!coding.Streamed()) {
        head.bytes = ReadAt(handle, 0, std::min(size, want), context);
        head.whole = head.bytes.size == size;
        return head;
    }
    constexpr uint64_t kPiece = 256 * 1024;
    auto decoder = StreamDecoder::Make(coding, handle.path());
    head.bytes = ByteBuffer::Allocate(want);
    size_t produced = 0;
    uint64_t offset = 0;
    while (produced < want && offset < size) {
        ByteBuffer piece = ReadAt(handle, offset, std::min(kPiece, size - offset), context);
        offset += piece.size;
        const uint8_t* input = piece.get();
        size_t left = piece.size;
        while (produced < want) {
            size_t got = decoder->Decode(input, left, head.bytes.get() + produced, want - produced);
            produced += got;
            if (got == 0) {
                break;
            }
        }
        offset -= left; // not consumed: the head is full
    }
    // Whole when everything was read and nothing more comes out.
    uint8_t probe[4]; // room for one character
    const uint8_t* none = nullptr;
    size_t zero = 0;
    head.whole = offset >= size && decoder->Decode(none, zero, probe, sizeof(probe)) == 0;
    if (head.whole && !decoder->AtCleanEnd()) {
        throw Exception(ErrorKind::InvalidInput, "CSV error in '" + handle.path() + "': the " +
                                                     coding.StreamName() +
                                                     " data ends early (the file is truncated)");
    }
    head.bytes.size = produced;
    head.compression_ratio =
        offset > 0 ? static_cast<double>(produced) / static_cast<double>(offset) : 1;
    return head;
}

uint64_t ByteOrderMark(std::string_view head) {
    return head.size() >= 3 && std::memcmp(head.data(), "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

} // namespace

void CsvJobBoundaries::Resize(size_t jobs) {
    std::lock_guard<std::mutex> guard(mutex_);
    starts_.assign(jobs, std::nullopt);
    stops_.assign(jobs, std::nullopt);
    lines_.assign(jobs, std::nullopt);
    held_.assign(jobs, std::nullopt);
    waiting_.assign(jobs, {});
}

void CsvJobBoundaries::Check(size_t job, const std::string& path) {
    if (job == 0 || !starts_[job] || !stops_[job - 1]) {
        return;
    }
    if (*starts_[job] == *stops_[job - 1]) {
        if (held_[job]) { // the job started right: its error was real
            std::string message = std::move(*held_[job]);
            held_[job].reset();
            throw Exception(ErrorKind::InvalidInput, message);
        }
        return;
    }
    throw Exception(ErrorKind::InvalidInput,
                    "CSV error in '" + path + "' near byte " + std::to_string(*stops_[job - 1]) +
                        ": a quoted field holds a line break where the file was split for "
                        "parallel reading (the sniffer's sample had none); parallel = false "
                        "reads the file in order");
}

bool CsvJobBoundaries::HoldError(size_t job, const std::string& message, const std::string& path) {
    std::lock_guard<std::mutex> guard(mutex_);
    if (job == 0) {
        return false;
    }
    if (stops_[job - 1]) {
        Check(job, path); // a wrong start is the error to report
        return false;
    }
    held_[job] = message;
    return true;
}

void CsvJobBoundaries::Started(size_t job, uint64_t start, const std::string& path) {
    std::lock_guard<std::mutex> guard(mutex_);
    starts_[job] = start;
    Check(job, path);
}

void CsvJobBoundaries::Stopped(size_t job, uint64_t stop, uint64_t lines, const std::string& path) {
    std::vector<Waker> wake;
    {
        std::lock_guard<std::mutex> guard(mutex_);
        stops_[job] = stop;
        lines_[job] = lines;
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

std::optional<uint64_t> CsvJobBoundaries::LinesBefore(size_t job) const {
    std::lock_guard<std::mutex> guard(mutex_);
    uint64_t total = 0;
    for (size_t j = 0; j < job; j++) {
        if (!lines_[j]) {
            return std::nullopt;
        }
        total += *lines_[j];
    }
    return total;
}

std::optional<uint64_t> CsvJobBoundaries::StopBefore(size_t job, const Waker& waker) {
    std::lock_guard<std::mutex> guard(mutex_);
    if (stops_[job - 1]) {
        return stops_[job - 1];
    }
    waiting_[job].push_back(waker);
    return std::nullopt;
}

CsvScanFile::CsvScanFile(std::shared_ptr<FileHandle> handle, const CsvFileLayout& layout,
                         const csv::CsvReadOptions& options, bool sequential,
                         const FileCoding& coding)
    : handle_(std::move(handle)), dialect_(layout.sniffed.dialect), options_(options),
      sequential_(sequential || coding.Streamed()), coding_(coding),
      compression_ratio_(layout.compression_ratio), data_start_(layout.data_start),
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
    if (coding_.Streamed()) {
        return static_cast<double>(handle_->Size()) * compression_ratio_ / bytes_per_row_;
    }
    return static_cast<double>(handle_->Size() - data_start_) / bytes_per_row_;
}

FileJobs CsvScanFile::PlanJobs(const FileProjection& projection, const IoContext& /*context*/) {
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
    planned.in_order = sequential_;
    uint64_t size = handle_->Size();
    uint64_t step = options_.buffer_size;
    if (coding_.Streamed()) {
        // The file's bytes, in order; the head is decoded again by the first job.
        stream_.decoder = StreamDecoder::Make(coding_, handle_->path());
        for (uint64_t begin = 0; begin < size; begin += step) {
            ScanJobPlan job;
            job.index_in_file = planned.jobs.size();
            job.begin = begin;
            job.end = std::min(size, begin + step);
            job.ranges.push_back({begin, job.end - begin});
            planned.jobs.push_back(std::move(job));
        }
        boundaries_.Resize(planned.jobs.size());
        return planned;
    }
    uint64_t tail =
        bytes_per_row_ > 0
            ? std::clamp(static_cast<uint64_t>(std::min(bytes_per_row_ * kTailRows, 1e9)),
                         kMinJobTail, kMaxJobTail)
            : kMaxJobTail;
    for (uint64_t begin = data_start_; begin < size; begin += step) {
        ScanJobPlan job;
        job.index_in_file = planned.jobs.size();
        job.begin = begin;
        job.end = std::min(size, begin + step);
        // From the byte before the range (is it a line break?) to a little past its end.
        uint64_t from = begin > data_start_ ? begin - 1 : begin;
        uint64_t to = std::min(size, job.end + std::min(tail, step));
        job.ranges.push_back({from, to - from});
        planned.jobs.push_back(std::move(job));
    }
    boundaries_.Resize(planned.jobs.size());
    return planned;
}

std::unique_ptr<ScanJobDecoder> CsvScanFile::Decode(const ScanJobPlan& job,
                                                    std::vector<ByteBuffer> buffers,
                                                    const IoContext& context) {
    if (coding_.Streamed()) {
        return std::make_unique<CsvStreamDecoder>(*this, job, std::move(buffers[0]));
    }
    return std::make_unique<CsvRangeDecoder>(*this, job, std::move(buffers[0]), context);
}

std::optional<uint64_t> CsvScanFile::Line(size_t job, uint64_t lines_in_job) const {
    std::optional<uint64_t> before = boundaries_.LinesBefore(job);
    if (!before) {
        return std::nullopt;
    }
    return lines_before_data_ + *before + lines_in_job + 1;
}

uint64_t CsvScanFile::LineAt(uint64_t offset, const IoContext& context) {
    ByteBuffer prefix = ReadAt(*handle_, data_start_, offset - data_start_, context);
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

std::shared_ptr<ScanFile> CsvScanFormat::Open(FileSystem& file_system, const std::string& path,
                                              const IoContext& context) {
    FileCoding coding;
    coding.compression = CompressionFromOption(options_.compression, path, "read_csv");
    coding.encoding = options_.encoding;
    for (const char* suffix : {".bz2", ".xz", ".zip"}) {
        if (coding.compression == StreamCompression::None && EndsWith(Lower(path), suffix)) {
            throw Exception(ErrorKind::NotImplemented,
                            "CSV files compressed as " + std::string(suffix + 1) +
                                " are not read (gzip and zstd are): '" + path + "'");
        }
    }
    std::shared_ptr<FileHandle> handle = file_system.Open(path, context);
    std::optional<csv::CsvSniffResult> known;
    {
        std::lock_guard<std::mutex> guard(mutex_);
        if (!sniff_each_file_) {
            known = sniffed_;
        }
    }
    std::shared_ptr<const CsvFileLayout> layout;
    if (known) {
        layout = std::make_shared<CsvFileLayout>(Learn(*handle, coding, known, context));
    } else {
        // A file sniffed before with the same options (a view bound again, a repeated query)
        // is not read again unless it changed.
        static FileVersionCache<CsvFileLayout> sniffed_files(kSniffCacheCapacity);
        layout = sniffed_files.Get(*handle, options_.SniffKey(), [&] {
            return std::make_shared<CsvFileLayout>(Learn(*handle, coding, std::nullopt, context));
        });
        std::lock_guard<std::mutex> guard(mutex_);
        if (!sniffed_) {
            sniffed_ = layout->sniffed;
        }
    }
    bool sequential = !parallel_ || layout->sniffed.quoted_line_breaks;
    return std::make_shared<CsvScanFile>(handle, *layout, options_, sequential, coding);
}

CsvFileLayout CsvScanFormat::Learn(FileHandle& handle, const FileCoding& coding,
                                   const std::optional<csv::CsvSniffResult>& known,
                                   const IoContext& context) const {
    FileHead head = ReadHead(handle, coding, known ? kHeaderBytes : kSniffBytes, context);
    uint64_t bom = ByteOrderMark(View(head.bytes));
    CsvFileLayout layout;
    layout.compression_ratio = head.compression_ratio;
    layout.sniffed =
        known ? *known
              : csv::SniffCsv(View(head.bytes).substr(bom), head.whole, options_, handle.path());
    const csv::CsvDialect& dialect = layout.sniffed.dialect;
    while (true) {
        const char* data = reinterpret_cast<const char*>(head.bytes.get());
        size_t size = head.bytes.size;
        size_t position = bom;
        uint64_t lines = 0;
        for (int64_t i = 0; i < dialect.skip; i++, lines++) {
            position = csv::NextLineStart(data, size, position);
        }
        bool complete = true;
        if (dialect.header) {
            csv::CsvTokenizer tokenizer(dialect);
            tokenizer.Reset(data, size, position, head.whole);
            std::vector<csv::CsvField> fields;
            csv::CsvTokenizer::Result result;
            do {
                result = tokenizer.Next(fields);
            } while (result == csv::CsvTokenizer::Result::Empty);
            complete = result != csv::CsvTokenizer::Result::NeedMore;
            position = tokenizer.position();
            lines += tokenizer.lines();
        }
        if (complete || head.whole) {
            layout.data_start = position;
            layout.lines_before_data = lines;
            return layout;
        }
        if (size >= static_cast<uint64_t>(options_.max_line_size)) {
            throw Exception(ErrorKind::InvalidInput, "CSV error in '" + handle.path() +
                                                         "': the header is longer than " +
                                                         std::to_string(options_.max_line_size) +
                                                         " bytes (max_line_size raises the limit)");
        }
        head = ReadHead(handle, coding, size * 2, context);
    }
}

} // namespace sluice
