#pragma once

#include "common/byte_buffer.hpp"
#include "common/data_chunk.hpp"
#include "io/byte_range.hpp"
#include "io/file_system.hpp"

#include <memory>
#include <string>
#include <vector>

namespace sluice {

// One unit of read-ahead: a Parquet row group, or a CSV byte range. Its bytes are `ranges` of
// its file; once they are in memory the format decodes them on its own.
struct ScanJobPlan {
    size_t index_in_file = 0; // the row group
    std::vector<ByteRange> ranges;
    int64_t rows = 0;
    int64_t first_row = 0; // in its file

    uint64_t Bytes() const {
        uint64_t total = 0;
        for (const ByteRange& range : ranges) {
            total += range.length;
        }
        return total;
    }
};

// A file opened and cut into jobs, in file order.
struct PlannedFile {
    std::shared_ptr<FileHandle> handle;
    std::vector<ScanJobPlan> jobs;
    size_t jobs_pruned = 0; // ruled out by statistics before any byte was fetched
};

// Turns one job's bytes into chunks.
class ScanJobDecoder {
public:
    virtual ~ScanJobDecoder() = default;
    // Fills `out` with the next rows; false once the job is done.
    virtual bool Next(DataChunk& out) = 0;
};

// What the multi-file scan needs from a file format, and all it knows of it: plan the jobs of a
// file, and decode a finished job into chunks. Implementations are thread-safe: files are
// planned on ASYNC threads while jobs of earlier files are decoded on REGULAR ones.
class ScanFormat {
public:
    virtual ~ScanFormat() = default;
    virtual std::string Name() const = 0; // "READ_PARQUET"
    virtual std::vector<LogicalType> OutputTypes() const = 0;
    virtual size_t FileCount() const = 0;
    virtual const std::string& FilePath(size_t file) const = 0;
    // Opens file `file`, reads what planning needs (a footer) and lists its jobs. Blocking; called
    // once per file.
    virtual PlannedFile PlanFile(size_t file) = 0;
    // A decoder over `job`'s bytes: `buffers[i]` holds `job.ranges[i]`. Only for planned files.
    virtual std::unique_ptr<ScanJobDecoder> Decode(size_t file, const ScanJobPlan& job,
                                                   std::vector<ByteBuffer> buffers) = 0;
};

} // namespace sluice
