#include "formats/parquet/page_slicer.hpp"

#include "common/exception.hpp"
#include "formats/parquet/corrupt_data.hpp"

#include <algorithm>
#include <stdexcept>

namespace sluice::parquet {

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

PageSlicer::PageSlicer(const ParquetFileReader& reader, FileHandle& file, const IoContext& context,
                       const std::vector<size_t>& columns, const std::vector<TableFilter>& filters,
                       uint64_t max_job_bytes)
    : reader_(reader), file_(file), context_(context), columns_(columns),
      max_job_bytes_(max_job_bytes) {
    // A join's keys are worth reading page indexes for only once they are there.
    std::copy_if(filters.begin(), filters.end(), std::back_inserter(filters_),
                 [](const TableFilter& filter) {
                     bool keys_pending = filter.op == TableFilter::Op::JoinKeys &&
                                         (!filter.join_keys || !filter.join_keys->ready());
                     return filter.fields.empty() && !keys_pending;
                 });
}

bool PageSlicer::WantsPages(size_t group, bool for_bounds) const {
    if (columns_.empty()) {
        return false;
    }
    bool has_offsets = true;
    uint64_t bytes = 0;
    for (size_t id : columns_) {
        if (reader_.columns()[id].nested) {
            return false; // nested columns are read by whole chunks
        }
    }
    for (size_t id : columns_) {
        has_offsets = has_offsets && reader_.OffsetIndexRange(group, id).has_value();
    }
    for (const ByteRange& range : reader_.PlanRowGroup(group, columns_)) {
        bytes += range.length;
    }
    bool has_bounds = false;
    for (const TableFilter& filter : filters_) {
        has_bounds = has_bounds || reader_.ColumnIndexRange(group, filter.column).has_value();
    }
    bool too_large = max_job_bytes_ > 0 && bytes > max_job_bytes_;
    // Without an offset index, a large group's pages are found from their headers when that
    // costs only local reads (remotely, a round trip per page).
    bool locatable = has_offsets || (too_large && !file_.IsRemote());
    return locatable && (too_large || (for_bounds && has_bounds));
}

std::optional<PageSlicer::Slices> PageSlicer::Slice(size_t group) const {
    auto found = located_.find(group);
    if (found == located_.end()) {
        return std::nullopt;
    }
    Slices slices;
    uint64_t kept = 0;
    for (const auto& [begin, end] : RowsThatMayMatch(group, found->second)) {
        Cut(group, found->second, begin, end, slices);
        kept += end - begin;
    }
    slices.rows_skipped = uint64_t(reader_.RowGroupRows(group)) - kept;
    return slices;
}

std::optional<OffsetIndex> PageSlicer::WalkPageHeaders(size_t group, size_t column) const {
    ByteRange chunk = reader_.PlanRowGroup(group, {column})[0];
    auto rows = static_cast<uint64_t>(reader_.RowGroupRows(group));
    uint64_t end = chunk.offset + chunk.length;
    OffsetIndex index;
    uint64_t row = 0;
    std::vector<uint8_t> window;
    for (uint64_t at = chunk.offset; at < end && row < rows;) {
        PageHeader header;
        size_t header_size = 0;
        bool decoded = false;
        // Headers are small; one with long statistics may need the larger window.
        for (uint64_t size : {uint64_t(1) << 10, uint64_t(1) << 16}) {
            window.resize(std::min(size, end - at));
            file_.Read(window.data(), window.size(), at, context_);
            try {
                header = DecodePageHeader(window.data(), window.size(), header_size);
                decoded = true;
                break;
            } catch (const CorruptData&) {
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
        if (header.type == PageType::DATA_PAGE && header.data_page_header) {
            page_rows = header.data_page_header->num_values; // a flat column: one per row
        } else if (header.type == PageType::DATA_PAGE_V2 && header.data_page_header_v2) {
            page_rows = header.data_page_header_v2->num_rows;
        }
        if (page_rows > 0) {
            index.page_locations.push_back({int64_t(at), int32_t(page_size), int64_t(row)});
            row += uint64_t(page_rows);
        } else if (page_rows == 0 || header.type == PageType::DATA_PAGE ||
                   header.type == PageType::DATA_PAGE_V2) {
            return std::nullopt; // a data page without rows or without its header
        }
        at += page_size;
    }
    if (row != rows || index.page_locations.empty()) {
        return std::nullopt;
    }
    return index;
}

void PageSlicer::LocatePages(const std::vector<size_t>& groups) {
    // What to decode, from where: (range, group, column, whether a column index, filter or -1).
    struct Wanted {
        ByteRange range;
        size_t group, column;
        bool bounds;
        long filter;
    };
    std::vector<Wanted> wanted;
    std::vector<GroupPages> indexes(groups.size());
    std::vector<bool> usable(groups.size(), true);
    for (size_t g = 0; g < groups.size(); g++) {
        indexes[g].offsets.resize(columns_.size());
        for (size_t i = 0; i < columns_.size(); i++) {
            size_t id = columns_[i];
            if (auto range = reader_.OffsetIndexRange(groups[g], id)) {
                wanted.push_back({*range, g, id, false, -1});
            } else if (auto walked = WalkPageHeaders(groups[g], id)) {
                indexes[g].offsets[i] = std::move(*walked);
            } else {
                usable[g] = false;
            }
        }
        for (size_t f = 0; f < filters_.size(); f++) {
            size_t id = filters_[f].column;
            auto offsets = reader_.OffsetIndexRange(groups[g], id);
            auto bounds = reader_.ColumnIndexRange(groups[g], id);
            if (offsets && bounds) {
                wanted.push_back({*offsets, g, id, false, long(f)});
                wanted.push_back({*bounds, g, id, true, long(f)});
            }
        }
    }
    for (GroupPages& index : indexes) {
        index.filter_offsets.resize(filters_.size());
        index.filter_bounds.resize(filters_.size());
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
        file_.Read(bytes.data(), bytes.size(), begin, context_);
        for (; at < last; at++) {
            const Wanted& item = wanted[order[at]];
            const uint8_t* data = bytes.data() + (item.range.offset - begin);
            size_t group = groups[item.group];
            if (item.bounds) {
                column_indexes.emplace_back(order[at],
                                            std::vector<uint8_t>(data, data + item.range.length));
                continue;
            }
            ByteRange chunk = reader_.PlanRowGroup(group, {item.column})[0];
            OffsetIndex index;
            try {
                index = DecodeOffsetIndex(data, item.range.length, chunk.offset,
                                          chunk.offset + chunk.length, reader_.RowGroupRows(group));
            } catch (const CorruptData& error) {
                throw Exception(ErrorKind::InvalidInput,
                                reader_.Context(group, reader_.columns()[item.column].name) +
                                    ": corrupt offset index: " + error.what());
            }
            GroupPages& target = indexes[item.group];
            if (item.filter >= 0) {
                target.filter_offsets[size_t(item.filter)] = std::move(index);
                continue;
            }
            auto position =
                std::find(columns_.begin(), columns_.end(), item.column) - columns_.begin();
            target.offsets[size_t(position)] = std::move(index);
        }
    }
    for (const auto& [which, bytes] : column_indexes) {
        const Wanted& item = wanted[which];
        GroupPages& target = indexes[item.group];
        size_t pages = target.filter_offsets[size_t(item.filter)]->page_locations.size();
        try {
            target.filter_bounds[size_t(item.filter)] =
                DecodeColumnIndex(bytes.data(), bytes.size(), pages);
        } catch (const CorruptData& error) {
            throw Exception(
                ErrorKind::InvalidInput,
                reader_.Context(groups[item.group], reader_.columns()[item.column].name) +
                    ": corrupt column index: " + error.what());
        }
    }
    for (size_t g = 0; g < groups.size(); g++) {
        if (usable[g]) {
            located_[groups[g]] = std::move(indexes[g]);
        }
    }
}

PageSlicer::RowRanges PageSlicer::RowsThatMayMatch(size_t group, const GroupPages& indexes) const {
    auto rows = static_cast<uint64_t>(reader_.RowGroupRows(group));
    RowRanges may_match{{0, rows}};
    for (size_t f = 0; f < filters_.size(); f++) {
        if (!indexes.filter_bounds[f]) {
            continue;
        }
        const TableFilter& filter = filters_[f];
        const ParquetColumn& column = reader_.columns()[filter.column];
        const auto& pages = indexes.filter_offsets[f]->page_locations;
        const ColumnIndex& bounds = *indexes.filter_bounds[f];
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
            ColumnStatistics statistics = PageStatistics(column, bounds, p, page_rows(p));
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

void PageSlicer::Cut(size_t group, const GroupPages& indexes, uint64_t begin, uint64_t end,
                     Slices& slices) const {
    std::vector<uint64_t> cuts{begin};
    RowGroupSlice whole =
        reader_.SliceRowGroup(group, columns_, indexes.offsets, begin, end - begin);
    uint64_t bytes = 0;
    for (const ByteRange& range : whole.ranges) {
        bytes += range.length;
    }
    uint64_t limit = max_job_bytes_;
    if (limit > 0 && bytes > limit) {
        // Cut at page starts of the column with the most bytes, so that its pages (most of what
        // is fetched) belong to one job each; other columns' pages at a cut are read by both.
        size_t anchor = 0;
        uint64_t anchor_bytes = 0;
        for (size_t i = 0, range = 0; i < columns_.size(); i++) {
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
            for (const PageLocation& page : pages) {
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
    slices.cut = slices.cut || cuts.size() > 2;
    for (size_t c = 0; c + 1 < cuts.size(); c++) {
        slices.slices.push_back(reader_.SliceRowGroup(group, columns_, indexes.offsets, cuts[c],
                                                      cuts[c + 1] - cuts[c]));
    }
}

} // namespace sluice::parquet
