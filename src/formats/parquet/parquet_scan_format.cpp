#include "formats/parquet/parquet_scan_format.hpp"

#include "common/exception.hpp"

#include "formats/parquet/bloom_filter.hpp"
#include "formats/parquet/page_index.hpp"
#include "formats/parquet/parquet_footer_cache.hpp"
#include "formats/parquet/parquet_statistics.hpp"

#include <algorithm>
#include <optional>

namespace sluice {

namespace {

class ParquetJobDecoder : public ScanJobDecoder {
public:
    ParquetJobDecoder(std::shared_ptr<const parquet::ParquetFileReader> reader,
                      const FileProjection& projection, const parquet::RowGroupSlice& slice,
                      std::vector<ByteBuffer> buffers)
        : decoder_(std::move(reader), slice, projection.columns, std::move(buffers),
                   projection.filters),
          positions_(projection.positions) {}

    bool Next(DataChunk& out) override { return decoder_.Next(out, positions_); }
    const uint64_t* RowsInJob() const override { return decoder_.RowsInSlice(); }
    uint64_t RowsFiltered() const override { return decoder_.RowsFiltered(); }

private:
    parquet::RowGroupDecoder decoder_;
    const std::vector<idx_t>& positions_;
};

} // namespace

ParquetScanFile::ParquetScanFile(std::shared_ptr<FileHandle> handle,
                                 std::shared_ptr<const parquet::ParquetFileReader> reader)
    : handle_(std::move(handle)), reader_(std::move(reader)) {
    for (const parquet::ParquetColumn& column : reader_->columns()) {
        columns_.push_back({column.name, column.type, column.unsupported});
    }
}

double ParquetScanFile::EstimatedRows() const {
    return static_cast<double>(reader_->metadata().num_rows);
}

double ParquetScanFile::DistinctEstimate(size_t column_index) const {
    // Integers, dates and times hold at most max - min + 1 values (nation keys: 25), whatever
    // the row count; other types are not bounded by their statistics.
    const parquet::ParquetColumn& column = reader_->columns()[column_index];
    switch (column.type.id()) {
    case LogicalTypeId::TINYINT:
    case LogicalTypeId::SMALLINT:
    case LogicalTypeId::INTEGER:
    case LogicalTypeId::BIGINT:
    case LogicalTypeId::UTINYINT:
    case LogicalTypeId::USMALLINT:
    case LogicalTypeId::UINTEGER:
    case LogicalTypeId::DATE:
        break;
    default:
        return -1;
    }
    std::optional<int64_t> low, high;
    for (const parquet::RowGroup& group : reader_->metadata().row_groups) {
        ColumnStatistics statistics =
            parquet::ReadColumnStatistics(column, group.columns[column.leaf_index], group.num_rows);
        if (group.num_rows == 0) {
            continue;
        }
        if (!statistics.min || !statistics.max || statistics.min->IsNull() ||
            statistics.max->IsNull()) {
            return -1;
        }
        auto min = static_cast<int64_t>(statistics.min->GetInteger());
        auto max = static_cast<int64_t>(statistics.max->GetInteger());
        low = low ? std::min(*low, min) : min;
        high = high ? std::max(*high, max) : max;
    }
    if (!low) {
        return -1;
    }
    double range = static_cast<double>(*high) - static_cast<double>(*low) + 1;
    return std::min(range, EstimatedRows());
}

bool ParquetScanFile::RowGroupMayMatch(size_t row_group,
                                       const std::vector<TableFilter>& filters) const {
    const parquet::RowGroup& group = reader_->metadata().row_groups[row_group];
    for (const TableFilter& filter : filters) {
        const parquet::ParquetColumn& column = reader_->columns()[filter.column];
        ColumnStatistics statistics =
            parquet::ReadColumnStatistics(column, group.columns[column.leaf_index], group.num_rows);
        if (!MayMatch(filter, statistics)) {
            return false;
        }
    }
    return true;
}

bool ParquetScanFile::BloomFiltersMayMatch(size_t row_group,
                                           const std::vector<TableFilter>& filters) const {
    const parquet::RowGroup& group = reader_->metadata().row_groups[row_group];
    for (const TableFilter& filter : filters) {
        if (filter.op != TableFilter::Op::Equal && filter.op != TableFilter::Op::In) {
            continue;
        }
        const parquet::ParquetColumn& column = reader_->columns()[filter.column];
        const auto& meta = group.columns[column.leaf_index].meta_data;
        if (!meta || !meta->bloom_filter_offset || !meta->bloom_filter_length) {
            continue;
        }
        std::vector<Value> values =
            filter.op == TableFilter::Op::In ? filter.values : std::vector<Value>{filter.constant};
        std::vector<uint64_t> hashes;
        for (const Value& value : values) {
            std::optional<uint64_t> hash =
                value.type() == column.type ? parquet::BloomHash(column, value) : std::nullopt;
            if (!hash) {
                hashes.clear();
                break; // a value the filter cannot rule out
            }
            hashes.push_back(*hash);
        }
        if (hashes.empty() && !values.empty()) {
            continue;
        }
        int64_t offset = *meta->bloom_filter_offset;
        int32_t length = *meta->bloom_filter_length;
        std::string context = reader_->Context(row_group, column.name);
        if (offset < 4 || length <= 0 ||
            uint64_t(offset) + uint64_t(length) > reader_->file_size()) {
            throw Exception(ErrorKind::InvalidInput,
                            context + ": bloom filter at offset " + std::to_string(offset) +
                                " of " + std::to_string(length) + " bytes lies outside the file");
        }
        std::vector<uint8_t> bytes(static_cast<size_t>(length));
        handle_->Read(bytes.data(), bytes.size(), uint64_t(offset));
        std::optional<parquet::BloomFilter> bloom;
        try {
            bloom = parquet::BloomFilter::Parse(bytes.data(), bytes.size());
        } catch (const std::exception& error) {
            throw Exception(ErrorKind::InvalidInput,
                            context + ": corrupt bloom filter: " + error.what());
        }
        if (!bloom) {
            continue;
        }
        bool any = false;
        for (uint64_t hash : hashes) {
            any = any || bloom->MayContainHash(hash);
        }
        if (!any) {
            return false;
        }
    }
    return true;
}

namespace {

using RowRanges = std::vector<std::pair<uint64_t, uint64_t>>;

// The rows both `a` and `b` hold (each ascending and disjoint).
RowRanges Intersect(const RowRanges& a, const RowRanges& b) {
    RowRanges both;
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        uint64_t begin = std::max(a[i].first, b[j].first);
        uint64_t end = std::min(a[i].second, b[j].second);
        if (begin < end) {
            both.emplace_back(begin, end);
        }
        (a[i].second < b[j].second ? i : j)++;
    }
    return both;
}

// Index bytes apart by less than this are read in one request.
constexpr uint64_t kIndexReadGap = 256 * 1024;

} // namespace

std::optional<parquet::OffsetIndex> ParquetScanFile::WalkPageHeaders(size_t group,
                                                                     size_t column) const {
    ByteRange chunk = reader_->PlanRowGroup(group, {column})[0];
    auto rows = static_cast<uint64_t>(reader_->RowGroupRows(group));
    uint64_t end = chunk.offset + chunk.length;
    parquet::OffsetIndex index;
    uint64_t row = 0;
    std::vector<uint8_t> window;
    for (uint64_t at = chunk.offset; at < end && row < rows;) {
        parquet::PageHeader header;
        size_t header_size = 0;
        bool decoded = false;
        // Headers are small; one with long statistics may need the larger window.
        for (uint64_t size : {uint64_t(1) << 10, uint64_t(1) << 16}) {
            window.resize(std::min(size, end - at));
            handle_->Read(window.data(), window.size(), at);
            try {
                header = parquet::DecodePageHeader(window.data(), window.size(), header_size);
                decoded = true;
                break;
            } catch (const std::runtime_error&) {
                if (window.size() < size) {
                    break; // the chunk ends: more bytes would not help
                }
            }
        }
        if (!decoded || header.compressed_page_size < 0 ||
            uint64_t(header.compressed_page_size) > end - at - header_size) {
            return std::nullopt;
        }
        uint64_t page_size = header_size + uint64_t(header.compressed_page_size);
        int64_t page_rows = -1;
        if (header.type == parquet::PageType::DATA_PAGE && header.data_page_header) {
            page_rows = header.data_page_header->num_values; // a flat column: one per row
        } else if (header.type == parquet::PageType::DATA_PAGE_V2 && header.data_page_header_v2) {
            page_rows = header.data_page_header_v2->num_rows;
        }
        if (page_rows > 0) {
            index.page_locations.push_back({int64_t(at), int32_t(page_size), int64_t(row)});
            row += uint64_t(page_rows);
        } else if (page_rows == 0 || header.type == parquet::PageType::DATA_PAGE ||
                   header.type == parquet::PageType::DATA_PAGE_V2) {
            return std::nullopt; // a data page without rows or without its header
        }
        at += page_size;
    }
    if (row != rows || index.page_locations.empty()) {
        return std::nullopt;
    }
    return index;
}

std::vector<ParquetScanFile::PageIndexes>
ParquetScanFile::ReadPageIndexes(const std::vector<size_t>& groups,
                                 std::vector<bool>& usable) const {
    // What to decode, from where: (range, group, column, whether a column index, filter or -1).
    struct Wanted {
        ByteRange range;
        size_t group, column;
        bool bounds;
        long filter;
    };
    std::vector<Wanted> wanted;
    std::vector<PageIndexes> indexes(groups.size());
    usable.assign(groups.size(), true);
    for (size_t g = 0; g < groups.size(); g++) {
        indexes[g].offsets.resize(projection_.columns.size());
        for (size_t i = 0; i < projection_.columns.size(); i++) {
            size_t id = projection_.columns[i];
            if (auto range = reader_->OffsetIndexRange(groups[g], id)) {
                wanted.push_back({*range, g, id, false, -1});
            } else if (auto walked = WalkPageHeaders(groups[g], id)) {
                indexes[g].offsets[i] = std::move(*walked);
            } else {
                usable[g] = false;
            }
        }
        for (size_t f = 0; f < projection_.filters.size(); f++) {
            size_t id = projection_.filters[f].column;
            auto offsets = reader_->OffsetIndexRange(groups[g], id);
            auto bounds = reader_->ColumnIndexRange(groups[g], id);
            if (offsets && bounds) {
                wanted.push_back({*offsets, g, id, false, long(f)});
                wanted.push_back({*bounds, g, id, true, long(f)});
            }
        }
    }
    for (PageIndexes& index : indexes) {
        index.filter_offsets.resize(projection_.filters.size());
        index.filter_bounds.resize(projection_.filters.size());
    }
    std::vector<size_t> order(wanted.size());
    for (size_t i = 0; i < order.size(); i++) {
        order[i] = i;
    }
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return wanted[a].range.offset < wanted[b].range.offset; });
    // Offset indexes first (column indexes are decoded against their page count).
    std::vector<std::pair<size_t, std::vector<uint8_t>>> column_indexes;
    for (size_t at = 0; at < order.size();) {
        uint64_t begin = wanted[order[at]].range.offset;
        uint64_t end = begin;
        size_t last = at;
        while (last < order.size() && wanted[order[last]].range.offset <= end + kIndexReadGap) {
            const ByteRange& range = wanted[order[last]].range;
            end = std::max(end, range.offset + range.length);
            last++;
        }
        std::vector<uint8_t> bytes(end - begin);
        handle_->Read(bytes.data(), bytes.size(), begin);
        for (; at < last; at++) {
            const Wanted& item = wanted[order[at]];
            const uint8_t* data = bytes.data() + (item.range.offset - begin);
            size_t group = groups[item.group];
            if (item.bounds) {
                column_indexes.emplace_back(order[at],
                                            std::vector<uint8_t>(data, data + item.range.length));
                continue;
            }
            ByteRange chunk = reader_->PlanRowGroup(group, {item.column})[0];
            parquet::OffsetIndex index;
            try {
                index = parquet::DecodeOffsetIndex(data, item.range.length, chunk.offset,
                                                   chunk.offset + chunk.length,
                                                   reader_->RowGroupRows(group));
            } catch (const std::runtime_error& error) {
                throw Exception(ErrorKind::InvalidInput,
                                reader_->Context(group, reader_->columns()[item.column].name) +
                                    ": corrupt offset index: " + error.what());
            }
            PageIndexes& target = indexes[item.group];
            if (item.filter >= 0) {
                target.filter_offsets[size_t(item.filter)] = std::move(index);
                continue;
            }
            auto position =
                std::find(projection_.columns.begin(), projection_.columns.end(), item.column) -
                projection_.columns.begin();
            target.offsets[size_t(position)] = std::move(index);
        }
    }
    for (const auto& [which, bytes] : column_indexes) {
        const Wanted& item = wanted[which];
        PageIndexes& target = indexes[item.group];
        size_t pages = target.filter_offsets[size_t(item.filter)]->page_locations.size();
        try {
            target.filter_bounds[size_t(item.filter)] =
                parquet::DecodeColumnIndex(bytes.data(), bytes.size(), pages);
        } catch (const std::runtime_error& error) {
            throw Exception(
                ErrorKind::InvalidInput,
                reader_->Context(groups[item.group], reader_->columns()[item.column].name) +
                    ": corrupt column index: " + error.what());
        }
    }
    return indexes;
}

RowRanges ParquetScanFile::RowsThatMayMatch(size_t group, const PageIndexes& indexes) const {
    auto rows = static_cast<uint64_t>(reader_->RowGroupRows(group));
    RowRanges may_match{{0, rows}};
    for (size_t f = 0; f < projection_.filters.size(); f++) {
        if (!indexes.filter_bounds[f]) {
            continue;
        }
        const TableFilter& filter = projection_.filters[f];
        const parquet::ParquetColumn& column = reader_->columns()[filter.column];
        const auto& pages = indexes.filter_offsets[f]->page_locations;
        const parquet::ColumnIndex& bounds = *indexes.filter_bounds[f];
        auto page_rows = [&](size_t p) {
            uint64_t end = p + 1 < pages.size() ? uint64_t(pages[p + 1].first_row_index) : rows;
            return static_cast<int64_t>(end - uint64_t(pages[p].first_row_index));
        };
        // Some writers fill the index with placeholders (every page "null", null counts of -1):
        // an index whose null counts contradict it is not used.
        bool consistent = true;
        for (size_t p = 0; p < pages.size() && !bounds.null_counts.empty(); p++) {
            int64_t nulls = bounds.null_counts[p];
            consistent = consistent && nulls >= 0 && nulls <= page_rows(p) &&
                         (nulls == page_rows(p)) == bounds.null_pages[p];
        }
        if (!consistent) {
            continue;
        }
        RowRanges pages_that_may_match;
        for (size_t p = 0; p < pages.size(); p++) {
            auto begin = static_cast<uint64_t>(pages[p].first_row_index);
            uint64_t end = begin + uint64_t(page_rows(p));
            ColumnStatistics statistics = parquet::PageStatistics(column, bounds, p, page_rows(p));
            if (!MayMatch(filter, statistics)) {
                continue;
            }
            if (!pages_that_may_match.empty() && pages_that_may_match.back().second == begin) {
                pages_that_may_match.back().second = end;
            } else {
                pages_that_may_match.emplace_back(begin, end);
            }
        }
        may_match = Intersect(may_match, pages_that_may_match);
    }
    return may_match;
}

void ParquetScanFile::CutIntoJobs(size_t group, const PageIndexes& indexes, uint64_t begin,
                                  uint64_t end, int64_t group_first_row, FileJobs& planned) {
    std::vector<uint64_t> cuts{begin};
    parquet::RowGroupSlice whole =
        reader_->SliceRowGroup(group, projection_.columns, indexes.offsets, begin, end - begin);
    uint64_t bytes = 0;
    for (const ByteRange& range : whole.ranges) {
        bytes += range.length;
    }
    uint64_t limit = projection_.max_job_bytes;
    if (limit > 0 && bytes > limit) {
        // Cut at page starts of the column with the most bytes, so that its pages (most of what
        // is fetched) belong to one job each; other columns' pages at a cut are read by both.
        size_t anchor = 0;
        uint64_t anchor_bytes = 0;
        for (size_t i = 0, range = 0; i < projection_.columns.size(); i++) {
            uint64_t column_bytes = 0;
            for (size_t k = 0; k < whole.range_counts[i]; k++, range++) {
                column_bytes += whole.ranges[range].length;
            }
            if (column_bytes > anchor_bytes) {
                anchor = i;
                anchor_bytes = column_bytes;
            }
        }
        uint64_t pieces = (bytes + limit - 1) / limit;
        const auto& pages = indexes.offsets[anchor].page_locations;
        for (uint64_t k = 1; k < pieces; k++) {
            uint64_t target = begin + (end - begin) * k / pieces;
            // The page start nearest the target, after the previous cut and before the end.
            uint64_t best = 0;
            for (const parquet::PageLocation& page : pages) {
                auto start = static_cast<uint64_t>(page.first_row_index);
                if (start <= cuts.back() || start >= end) {
                    continue;
                }
                auto distance = [&](uint64_t row) {
                    return row > target ? row - target : target - row;
                };
                if (best == 0 || distance(start) < distance(best)) {
                    best = start;
                }
            }
            if (best != 0) {
                cuts.push_back(best);
            }
        }
    }
    cuts.push_back(end);
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    planned.units_cut += cuts.size() > 2 ? 1 : 0;
    for (size_t c = 0; c + 1 < cuts.size(); c++) {
        slices_.push_back(reader_->SliceRowGroup(group, projection_.columns, indexes.offsets,
                                                 cuts[c], cuts[c + 1] - cuts[c]));
        ScanJobPlan job;
        job.index_in_file = slices_.size() - 1;
        job.ranges = slices_.back().ranges;
        job.rows = static_cast<int64_t>(cuts[c + 1] - cuts[c]);
        job.first_row = group_first_row + static_cast<int64_t>(cuts[c]);
        planned.jobs.push_back(std::move(job));
    }
}

FileJobs ParquetScanFile::PlanJobs(const FileProjection& projection) {
    projection_ = projection;
    FileJobs planned;
    // The row groups to read, and which of them are worth their page index: those too large for
    // one job, and those with page bounds on a filtered column.
    std::vector<size_t> groups, indexed;
    for (size_t g = 0; g < reader_->RowGroupCount(); g++) {
        // Empty row groups have nothing to fetch (and writers leave their offsets at 0).
        if (reader_->RowGroupRows(g) == 0) {
            continue;
        }
        bool may_match = RowGroupMayMatch(g, projection.filters);
        bool bloom_pruned = may_match && !BloomFiltersMayMatch(g, projection.filters);
        if (!may_match || bloom_pruned) {
            planned.jobs_pruned++;
            planned.jobs_pruned_by_bloom += bloom_pruned ? 1 : 0;
            continue;
        }
        groups.push_back(g);
        bool has_offsets = true;
        uint64_t bytes = 0;
        for (size_t id : projection.columns) {
            has_offsets = has_offsets && reader_->OffsetIndexRange(g, id).has_value();
        }
        for (const ByteRange& range : reader_->PlanRowGroup(g, projection.columns)) {
            bytes += range.length;
        }
        bool has_bounds = false;
        for (const TableFilter& filter : projection.filters) {
            has_bounds = has_bounds || reader_->ColumnIndexRange(g, filter.column).has_value();
        }
        bool too_large = projection.max_job_bytes > 0 && bytes > projection.max_job_bytes;
        // Without an offset index, a large group's pages are found from their headers when
        // that costs only local reads.
        bool locatable = has_offsets || (too_large && !handle_->IsRemote());
        if (locatable && !projection.columns.empty() && (too_large || has_bounds)) {
            indexed.push_back(g);
        }
    }
    std::vector<bool> usable;
    std::vector<PageIndexes> indexes = ReadPageIndexes(indexed, usable);
    std::vector<int64_t> first_rows(reader_->RowGroupCount() + 1, 0);
    for (size_t g = 0; g < reader_->RowGroupCount(); g++) {
        first_rows[g + 1] = first_rows[g] + reader_->RowGroupRows(g);
    }
    size_t next_indexed = 0;
    for (size_t g : groups) {
        bool is_indexed = next_indexed < indexed.size() && indexed[next_indexed] == g;
        size_t which = next_indexed;
        next_indexed += is_indexed ? 1 : 0;
        if (is_indexed && usable[which]) {
            const PageIndexes& index = indexes[which];
            RowRanges may_match = RowsThatMayMatch(g, index);
            uint64_t kept = 0;
            for (const auto& [begin, end] : may_match) {
                CutIntoJobs(g, index, begin, end, first_rows[g], planned);
                kept += end - begin;
            }
            planned.rows_pruned_by_page_index += uint64_t(reader_->RowGroupRows(g)) - kept;
            planned.jobs_pruned += may_match.empty() ? 1 : 0;
            continue;
        }
        slices_.push_back(reader_->WholeRowGroup(g, projection.columns));
        ScanJobPlan job;
        job.index_in_file = slices_.size() - 1;
        job.ranges = slices_.back().ranges;
        job.rows = reader_->RowGroupRows(g);
        job.first_row = first_rows[g];
        planned.jobs.push_back(std::move(job));
    }
    return planned;
}

std::unique_ptr<ScanJobDecoder> ParquetScanFile::Decode(const ScanJobPlan& job,
                                                        std::vector<ByteBuffer> buffers) {
    return std::make_unique<ParquetJobDecoder>(reader_, projection_, slices_.at(job.index_in_file),
                                               std::move(buffers));
}

std::shared_ptr<ParquetScanFile> OpenParquetFile(FileSystem& file_system, const std::string& path) {
    std::shared_ptr<FileHandle> handle = file_system.Open(path);
    auto reader = parquet::ParquetFooterCache::Instance().Get(*handle);
    return std::make_shared<ParquetScanFile>(std::move(handle), std::move(reader));
}

std::shared_ptr<ScanFile> ParquetScanFormat::Open(FileSystem& file_system,
                                                  const std::string& path) {
    return OpenParquetFile(file_system, path);
}

} // namespace sluice
