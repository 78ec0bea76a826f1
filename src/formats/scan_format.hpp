#pragma once

#include "common/byte_buffer.hpp"
#include "common/data_chunk.hpp"
#include "common/table_filter.hpp"
#include "io/byte_range.hpp"
#include "io/file_system.hpp"
#include "parallel/task.hpp"

#include <memory>
#include <string>
#include <vector>

namespace sluice {

class MemoryManager;

// One column of a file as its format reads it. `unsupported` names what keeps the column from
// being read (a nested Parquet type, say); such a column may be listed but not projected.
struct ScanColumn {
    std::string name;
    LogicalType type;
    std::string unsupported;
};

// One unit of read-ahead: a Parquet row group, or a CSV byte range. Its bytes are `ranges` of
// its file; once they are in memory the format decodes them on its own.
struct ScanJobPlan {
    size_t index_in_file = 0; // the row group, the CSV range
    std::vector<ByteRange> ranges;
    int64_t rows = -1;      // -1: not known before decoding (CSV)
    int64_t first_row = -1; // in its file; -1: not known before decoding
    // The file position the job's data begins at and ends before (CSV: rows starting there).
    uint64_t begin = 0;
    uint64_t end = 0;

    uint64_t Bytes() const {
        uint64_t total = 0;
        for (const ByteRange& range : ranges) {
            total += range.length;
        }
        return total;
    }
};

// The jobs of one file, in file order.
struct FileJobs {
    std::vector<ScanJobPlan> jobs;
    size_t jobs_pruned = 0;                 // ruled out by statistics before any byte was fetched
    size_t jobs_pruned_by_bloom = 0;        // of those, ruled out by a bloom filter
    size_t units_cut = 0;                   // row groups cut into several page-level jobs
    uint64_t rows_pruned_by_page_index = 0; // rows of planned units no job reads
    // Each job continues where the previous one stopped (a compressed CSV file, or one whose
    // quoted fields hold line breaks): decoded one after the other, though fetched ahead.
    bool in_order = false;
    // PlanRemainingJobs has jobs to add after these.
    bool more = false;
};

// Which of a file's columns a scan reads, and where each goes in the output chunk.
struct FileProjection {
    std::vector<size_t> columns;  // indices into the file's Columns()
    std::vector<idx_t> positions; // output column of each
    // On the file's column indices: to skip data with, and to drop rows while decoding.
    std::vector<TableFilter> filters;
    // A unit whose bytes exceed this (a huge row group) is cut into jobs of about this size where
    // the format can; 0: never.
    uint64_t max_job_bytes = 0;
    // Of each nested column, the leaves to read (empty: all); the others may be left NULL.
    std::vector<LeafMask> leaf_masks;
    // Where decoders reserve the buffers they allocate for a job (null: nowhere).
    MemoryManager* memory = nullptr;
};

// Turns one job's bytes into chunks.
class ScanJobDecoder {
public:
    virtual ~ScanJobDecoder() = default;
    // Whether decoding can begin. A job that depends on another (a CSV job read in order needs
    // to know where the previous one stopped) says false and wakes `waker` once it can; the scan
    // task parks meanwhile.
    virtual bool Ready(const Waker& /*waker*/) { return true; }
    // Fills the projected columns of `out` (and its size) with the next rows; false once the job
    // is done. Other columns of `out` are the multi-file scan's.
    virtual bool Next(DataChunk& out) = 0;
    // For decoders that drop rows their filters rule out: the row of the job each row of the
    // last chunk is. Null when chunks hold the job's rows in order without gaps; a decoder
    // answers one way for all its chunks.
    virtual const uint64_t* RowsInJob() const { return nullptr; }
    // Rows dropped so far because filters ruled them out (EXPLAIN ANALYZE counts them).
    virtual uint64_t RowsFiltered() const { return 0; }
};

// A file opened by its format: its columns, and, once projected, its jobs and their decoding.
// Thread-safe: jobs of one file are decoded on several REGULAR threads at once.
class ScanFile {
public:
    virtual ~ScanFile() = default;
    virtual const std::string& path() const = 0;
    virtual std::shared_ptr<FileHandle> handle() const = 0;
    virtual const std::vector<ScanColumn>& Columns() const = 0;
    // Rows in the file as far as known without reading it (negative: unknown).
    virtual double EstimatedRows() const = 0;
    // At most how many distinct values column `column` holds, as far as known without reading
    // it (negative: unknown); the optimizer sizes joins with it.
    virtual double DistinctEstimate(size_t /*column*/) const { return -1; }
    // Whether decoded jobs know each row's number in the file (file_row_number).
    virtual bool KnowsRowNumbers() const = 0;
    // Cuts the file into jobs reading `projection` (reading indexes under `context`). Called
    // once, before any Decode.
    virtual FileJobs PlanJobs(const FileProjection& projection, const IoContext& context) = 0;
    // The jobs PlanJobs left for later (it said `more`): the rest of the file, planned while its
    // first jobs are fetched. Called once, after PlanJobs, while those jobs may be decoding.
    virtual FileJobs PlanRemainingJobs(const IoContext& /*context*/) { return {}; }
    // A decoder over `job`'s bytes: `buffers[i]` holds `job.ranges[i]`. A decoder that must read
    // past them (a CSV row running beyond its job's range) reads under `context`.
    virtual std::unique_ptr<ScanJobDecoder>
    Decode(const ScanJobPlan& job, std::vector<ByteBuffer> buffers, const IoContext& context) = 0;
};

// What the multi-file scan needs from a file format, and all it knows of it: open a file (read
// its footer or header; blocking, on an ASYNC thread when a scan plans ahead).
class ScanFormat {
public:
    virtual ~ScanFormat() = default;
    virtual std::string Name() const = 0; // "READ_PARQUET"
    // Its files drop rows that fail the scan's filters while they decode (TableFilters are
    // otherwise used only to skip what statistics rule out).
    virtual bool FiltersRows() const { return false; }
    virtual std::shared_ptr<ScanFile> Open(FileSystem& file_system, const std::string& path,
                                           const IoContext& context) = 0;
};

} // namespace sluice
