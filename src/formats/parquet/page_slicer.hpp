#pragma once

#include "common/table_filter.hpp"
#include "formats/parquet/page_index.hpp"
#include "formats/parquet/parquet_reader.hpp"
#include "io/file_system.hpp"

#include <map>
#include <optional>
#include <vector>

namespace sluice::parquet {

// Plans the jobs of row groups from their pages: rows whose page bounds (column index) rule out
// a filter are left out, and row ranges larger than the job size are cut at page starts (from
// the offset index, or, in local files without one, from the page headers). Reads the page
// indexes it needs at planning time, one read per stretch of index bytes.
class PageSlicer {
public:
    // `columns` are projected, `filters` on file column indices (those on struct fields are left
    // out: nested columns have no page jobs); `max_job_bytes` 0: never cut.
    // Index reads go through `file` under `context`.
    PageSlicer(const ParquetFileReader& reader, FileHandle& file, const IoContext& context,
               const std::vector<size_t>& columns, const std::vector<TableFilter>& filters,
               uint64_t max_job_bytes);

    // Whether `group` is worth its page index: too large for one job (and its pages can be
    // located), or (`for_bounds`) with page bounds on a filtered column.
    bool WantsPages(size_t group, bool for_bounds = true) const;
    // Reads the page indexes of `groups` (ascending, each one WantsPages said yes to).
    void LocatePages(const std::vector<size_t>& groups);

    struct Slices {
        std::vector<RowGroupSlice> slices; // in row order; none when no row can match
        uint64_t rows_skipped = 0;         // by page bounds
        bool cut = false;                  // a row range was cut into several slices
    };
    // The slices of `group`, once LocatePages read its pages; nullopt when they could not be
    // located (the group is then read whole).
    std::optional<Slices> Slice(size_t group) const;

private:
    using RowRanges = std::vector<std::pair<uint64_t, uint64_t>>;
    // The page index of a row group's projected and filtered columns.
    struct GroupPages {
        std::vector<OffsetIndex> offsets;                       // per projected column
        std::vector<std::optional<OffsetIndex>> filter_offsets; // per filter
        std::vector<std::optional<ColumnIndex>> filter_bounds;  // per filter
    };

    // The page locations of a chunk without an offset index, from its page headers: one small
    // read per page. Nullopt when the headers do not add up to the row group.
    std::optional<OffsetIndex> WalkPageHeaders(size_t group, size_t column) const;
    // The rows of `group` in which every filter may match by its pages' bounds: ascending,
    // disjoint [begin, end) ranges.
    RowRanges RowsThatMayMatch(size_t group, const GroupPages& pages) const;
    // Rows [begin, end) of `group`, cut at page starts into pieces of about max_job_bytes_.
    void Cut(size_t group, const GroupPages& pages, uint64_t begin, uint64_t end,
             Slices& slices) const;

    const ParquetFileReader& reader_;
    FileHandle& file_;
    IoContext context_;
    const std::vector<size_t>& columns_;
    std::vector<TableFilter> filters_;
    const uint64_t max_job_bytes_;
    std::map<size_t, GroupPages> located_;
};

} // namespace sluice::parquet
