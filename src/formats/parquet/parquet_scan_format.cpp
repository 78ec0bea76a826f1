#include "formats/parquet/parquet_scan_format.hpp"

#include "common/exception.hpp"
#include "formats/parquet/corrupt_data.hpp"

#include "formats/parquet/bloom_filter.hpp"
#include "formats/parquet/page_slicer.hpp"
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
                   projection.filters, projection.memory),
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

const parquet::ParquetColumn* ParquetScanFile::FilteredChunk(const TableFilter& filter) const {
    const parquet::ParquetColumn& column = reader_->columns()[filter.column];
    if (filter.fields.empty()) {
        return column.nested ? nullptr : &column;
    }
    if (!column.nested) {
        return nullptr;
    }
    const parquet::NestedNode* node = column.nested.get();
    for (idx_t field : filter.fields) {
        if (node->kind != parquet::NestedNode::Kind::Struct || field >= node->children.size()) {
            return nullptr;
        }
        node = &node->children[field];
    }
    if (node->kind != parquet::NestedNode::Kind::Leaf) {
        return nullptr;
    }
    const parquet::ParquetColumn& leaf = column.leaves[node->first_leaf];
    // Inside a list, a row has any number of values: chunk statistics do not bound the row's.
    return leaf.max_repetition_level == 0 && leaf.unsupported.empty() ? &leaf : nullptr;
}

bool ParquetScanFile::RowGroupMayMatch(size_t row_group,
                                       const std::vector<TableFilter>& filters) const {
    const parquet::RowGroup& group = reader_->metadata().row_groups[row_group];
    for (const TableFilter& filter : filters) {
        const parquet::ParquetColumn* column = FilteredChunk(filter);
        if (!column) {
            continue;
        }
        ColumnStatistics statistics = parquet::ReadColumnStatistics(
            *column, group.columns[column->leaf_index], group.num_rows);
        if (!MayMatch(filter, statistics)) {
            return false;
        }
    }
    return true;
}

bool ParquetScanFile::BloomFiltersMayMatch(size_t row_group,
                                           const std::vector<TableFilter>& filters,
                                           const IoContext& io) const {
    const parquet::RowGroup& group = reader_->metadata().row_groups[row_group];
    for (const TableFilter& filter : filters) {
        if (filter.op != TableFilter::Op::Equal && filter.op != TableFilter::Op::In) {
            continue;
        }
        const parquet::ParquetColumn* chunk = FilteredChunk(filter);
        if (!chunk) {
            continue;
        }
        const parquet::ParquetColumn& column = *chunk;
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
        handle_->Read(bytes.data(), bytes.size(), uint64_t(offset), io);
        std::optional<parquet::BloomFilter> bloom;
        try {
            bloom = parquet::BloomFilter::Parse(bytes.data(), bytes.size());
        } catch (const parquet::CorruptData& error) {
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

FileJobs ParquetScanFile::PlanJobs(const FileProjection& projection, const IoContext& context) {
    projection_ = projection;
    first_rows_.assign(reader_->RowGroupCount() + 1, 0);
    // Empty row groups have nothing to fetch (and writers leave their offsets at 0).
    std::vector<size_t> groups;
    for (size_t g = 0; g < reader_->RowGroupCount(); g++) {
        first_rows_[g + 1] = first_rows_[g] + reader_->RowGroupRows(g);
        if (reader_->RowGroupRows(g) > 0) {
            groups.push_back(g);
        }
    }
    if (!handle_->IsRemote()) {
        return PlanGroups(groups, context, false);
    }
    // The groups up to the first one its statistics leave in, now; the others later.
    size_t now = 0;
    while (now < groups.size() && !RowGroupMayMatch(groups[now], projection_.filters)) {
        now++;
    }
    now = std::min(now + 1, groups.size());
    remaining_.assign(groups.begin() + static_cast<std::ptrdiff_t>(now), groups.end());
    FileJobs planned = PlanGroups(
        {groups.begin(), groups.begin() + static_cast<std::ptrdiff_t>(now)}, context, true);
    planned.more = !remaining_.empty();
    return planned;
}

FileJobs ParquetScanFile::PlanRemainingJobs(const IoContext& context) {
    std::vector<size_t> groups = std::move(remaining_);
    remaining_.clear();
    return PlanGroups(groups, context, false);
}

FileJobs ParquetScanFile::PlanGroups(const std::vector<size_t>& candidates,
                                     const IoContext& context, bool first_fast) {
    FileJobs planned;
    parquet::PageSlicer slicer(*reader_, *handle_, context, projection_.columns,
                               projection_.filters, projection_.max_job_bytes);
    // The row groups to read, and which of them are worth their page index.
    std::vector<size_t> groups, paged;
    for (size_t g : candidates) {
        bool may_match = RowGroupMayMatch(g, projection_.filters);
        bool bloom_pruned =
            may_match && !first_fast && !BloomFiltersMayMatch(g, projection_.filters, context);
        if (!may_match || bloom_pruned) {
            planned.jobs_pruned++;
            planned.jobs_pruned_by_bloom += bloom_pruned ? 1 : 0;
            continue;
        }
        groups.push_back(g);
        if (slicer.WantsPages(g, !first_fast)) {
            paged.push_back(g);
        }
    }
    slicer.LocatePages(paged);
    std::lock_guard<std::mutex> guard(slices_mutex_);
    for (size_t g : groups) {
        std::vector<parquet::RowGroupSlice> slices;
        if (std::optional<parquet::PageSlicer::Slices> sliced = slicer.Slice(g)) {
            planned.rows_pruned_by_page_index += sliced->rows_skipped;
            planned.units_cut += sliced->cut ? 1 : 0;
            planned.jobs_pruned += sliced->slices.empty() ? 1 : 0;
            slices = std::move(sliced->slices);
        } else {
            slices.push_back(
                reader_->WholeRowGroup(g, projection_.columns, projection_.leaf_masks));
        }
        for (parquet::RowGroupSlice& slice : slices) {
            ScanJobPlan job;
            job.index_in_file = slices_.size();
            job.ranges = slice.ranges;
            job.rows = static_cast<int64_t>(slice.rows);
            job.first_row = first_rows_[g] + static_cast<int64_t>(slice.first_row);
            planned.jobs.push_back(std::move(job));
            slices_.push_back(std::move(slice));
        }
    }
    return planned;
}

std::unique_ptr<ScanJobDecoder> ParquetScanFile::Decode(const ScanJobPlan& job,
                                                        std::vector<ByteBuffer> buffers,
                                                        const IoContext& /*context*/) {
    parquet::RowGroupSlice slice;
    {
        std::lock_guard<std::mutex> guard(slices_mutex_);
        slice = slices_.at(job.index_in_file);
    }
    return std::make_unique<ParquetJobDecoder>(reader_, projection_, slice, std::move(buffers));
}

std::shared_ptr<ParquetScanFile> OpenParquetFile(FileSystem& file_system, const std::string& path,
                                                 const IoContext& context) {
    std::shared_ptr<FileHandle> handle = file_system.Open(path, context);
    auto reader = parquet::ParquetFooterCache::Instance().Get(*handle, context);
    return std::make_shared<ParquetScanFile>(std::move(handle), std::move(reader));
}

std::shared_ptr<ScanFile> ParquetScanFormat::Open(FileSystem& file_system, const std::string& path,
                                                  const IoContext& context) {
    return OpenParquetFile(file_system, path, context);
}

} // namespace sluice
