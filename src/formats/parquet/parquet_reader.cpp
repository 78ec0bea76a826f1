#include "formats/parquet/parquet_reader.hpp"

#include "common/exception.hpp"
#include "formats/parquet/corrupt_data.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace sluice::parquet {

namespace {

[[noreturn]] void Invalid(const std::string& path, const std::string& what) {
    throw Exception(ErrorKind::InvalidInput, "file '" + path + "': " + what);
}

// parquet-mr 1.2.8 and older left the dictionary page header out of a column chunk's
// total_compressed_size (PARQUET-816), so its chunks may extend a few bytes past the recorded
// size. True for such writers, including "parquet-mr" without a version.
bool HasUndersizedChunks(const std::optional<std::string>& created_by) {
    if (!created_by || created_by->rfind("parquet-mr", 0) != 0) {
        return false;
    }
    size_t at = created_by->find("version ");
    if (at == std::string::npos) {
        return true;
    }
    int major = 0, minor = 0, patch = 0;
    if (std::sscanf(created_by->c_str() + at + 8, "%d.%d.%d", &major, &minor, &patch) < 2) {
        return true;
    }
    return major < 1 || (major == 1 && (minor < 2 || (minor == 2 && patch <= 8)));
}

// Bytes read beyond such a chunk's recorded end: the dictionary page header is small.
constexpr uint64_t kUndersizedChunkPadding = 100;

} // namespace

std::shared_ptr<ParquetFileReader>
ParquetFileReader::Open(FileHandle& file, const IoContext& context, uint64_t tail_read) {
    auto reader = std::make_shared<ParquetFileReader>();
    reader->path_ = file.path();
    uint64_t size = file.Size();
    reader->file_size_ = size;
    if (size < 12) {
        Invalid(reader->path_,
                "too small to be a Parquet file (" + std::to_string(size) + " bytes)");
    }
    uint64_t tail = std::min(size, std::max<uint64_t>(tail_read, 8));
    std::vector<uint8_t> buffer(tail);
    file.Read(buffer.data(), tail, size - tail, context);
    const uint8_t* end = buffer.data() + tail;
    if (std::memcmp(end - 4, "PARE", 4) == 0) {
        throw Exception(ErrorKind::NotImplemented,
                        "file '" + reader->path_ + "': not supported: encrypted Parquet footer");
    }
    if (std::memcmp(end - 4, "PAR1", 4) != 0) {
        Invalid(reader->path_, "not a Parquet file: the magic bytes at the end are not PAR1");
    }
    uint32_t footer_length;
    std::memcpy(&footer_length, end - 8, 4);
    if (uint64_t(footer_length) + 12 > size) {
        Invalid(reader->path_, "the footer length " + std::to_string(footer_length) +
                                   " reaches past the start of the file (" + std::to_string(size) +
                                   " bytes)");
    }
    const uint8_t* footer;
    std::vector<uint8_t> large_footer;
    if (uint64_t(footer_length) + 8 <= tail) {
        footer = end - 8 - footer_length;
    } else {
        large_footer.resize(footer_length);
        file.Read(large_footer.data(), footer_length, size - 8 - footer_length, context);
        footer = large_footer.data();
    }
    reader->metadata_start_ = size - 8 - footer_length;
    try {
        reader->metadata_ = DecodeFileMetaData(footer, footer_length);
    } catch (const CorruptData& error) {
        Invalid(reader->path_, std::string("corrupt footer: ") + error.what());
    }
    try {
        reader->columns_ = BuildColumns(reader->metadata_);
    } catch (const CorruptData& error) {
        Invalid(reader->path_, std::string("invalid schema: ") + error.what());
    }
    for (const auto& group : reader->metadata_.row_groups) {
        if (group.num_rows < 0) {
            Invalid(reader->path_,
                    "a row group declares " + std::to_string(group.num_rows) + " rows");
        }
    }
    return reader;
}

std::string ParquetFileReader::Context(size_t row_group, const std::string& column) const {
    return "file '" + path_ + "', row group " + std::to_string(row_group) + ", column '" + column +
           "'";
}

ByteRange ParquetFileReader::ChunkRange(size_t row_group, const ParquetColumn& column) const {
    const RowGroup& group = metadata_.row_groups[row_group];
    const ColumnChunk& chunk = group.columns[column.leaf_index];
    std::string context = Context(row_group, column.name);
    if (chunk.encrypted) {
        throw Exception(ErrorKind::NotImplemented, context + ": not supported: encrypted column");
    }
    if (!chunk.meta_data) {
        throw Exception(ErrorKind::InvalidInput, context + ": column chunk without metadata");
    }
    const ColumnMetaData& meta = *chunk.meta_data;
    if (meta.type != column.physical) {
        throw Exception(ErrorKind::InvalidInput, context + ": chunk type " + TypeName(meta.type) +
                                                     " differs from the schema's " +
                                                     TypeName(column.physical));
    }
    // Some writers record dictionary_page_offset = 0 without a dictionary: ignore it then.
    int64_t start = meta.data_page_offset;
    if (meta.dictionary_page_offset && *meta.dictionary_page_offset > 0 &&
        *meta.dictionary_page_offset < start) {
        start = *meta.dictionary_page_offset;
    }
    int64_t length = meta.total_compressed_size;
    if (start < 4 || length < 0 || uint64_t(start) > metadata_start_ ||
        uint64_t(length) > metadata_start_ - uint64_t(start)) {
        throw Exception(ErrorKind::InvalidInput,
                        context + ": column chunk at offset " + std::to_string(start) + " of " +
                            std::to_string(length) + " bytes lies outside the data section (" +
                            std::to_string(metadata_start_) + " bytes)");
    }
    uint64_t end = uint64_t(start) + uint64_t(length);
    if (HasUndersizedChunks(metadata_.created_by)) {
        end = std::min(end + kUndersizedChunkPadding, metadata_start_);
    }
    return {uint64_t(start), end - uint64_t(start)};
}

LeafMask ParquetFileReader::MaskOf(const std::vector<size_t>& column_ids,
                                   const std::vector<LeafMask>& leaf_masks, size_t i) const {
    const ParquetColumn& column = columns_[column_ids[i]];
    bool fits = i < leaf_masks.size() && column.nested &&
                leaf_masks[i].size() == column.leaves.size() &&
                std::find(leaf_masks[i].begin(), leaf_masks[i].end(), true) != leaf_masks[i].end();
    return fits ? leaf_masks[i] : LeafMask{};
}

std::vector<ByteRange>
ParquetFileReader::PlanRowGroup(size_t row_group, const std::vector<size_t>& column_ids,
                                const std::vector<LeafMask>& leaf_masks) const {
    std::vector<ByteRange> ranges;
    for (size_t i = 0; i < column_ids.size(); i++) {
        const ParquetColumn& column = columns_[column_ids[i]];
        if (column.nested) {
            LeafMask mask = MaskOf(column_ids, leaf_masks, i);
            for (size_t leaf = 0; leaf < column.leaves.size(); leaf++) {
                if (mask.empty() || mask[leaf]) {
                    ranges.push_back(ChunkRange(row_group, column.leaves[leaf]));
                }
            }
        } else {
            ranges.push_back(ChunkRange(row_group, column));
        }
    }
    return ranges;
}

RowGroupSlice ParquetFileReader::WholeRowGroup(size_t row_group,
                                               const std::vector<size_t>& column_ids,
                                               const std::vector<LeafMask>& leaf_masks) const {
    RowGroupSlice slice;
    slice.row_group = row_group;
    slice.rows = static_cast<uint64_t>(RowGroupRows(row_group));
    slice.ranges = PlanRowGroup(row_group, column_ids, leaf_masks);
    for (size_t i = 0; i < column_ids.size(); i++) {
        const ParquetColumn& column = columns_[column_ids[i]];
        LeafMask mask = MaskOf(column_ids, leaf_masks, i);
        size_t read = mask.empty()
                          ? column.leaves.size()
                          : static_cast<size_t>(std::count(mask.begin(), mask.end(), true));
        slice.range_counts.push_back(column.nested ? read : 1);
        slice.leaf_masks.push_back(std::move(mask));
    }
    slice.ranges_start.assign(column_ids.size(), 0);
    return slice;
}

RowGroupSlice ParquetFileReader::SliceRowGroup(size_t row_group,
                                               const std::vector<size_t>& column_ids,
                                               const std::vector<OffsetIndex>& offset_indexes,
                                               uint64_t first_row, uint64_t rows) const {
    RowGroupSlice slice;
    slice.row_group = row_group;
    slice.first_row = first_row;
    slice.rows = rows;
    uint64_t last_row = first_row + rows - 1;
    for (size_t i = 0; i < column_ids.size(); i++) {
        const ParquetColumn& column = columns_[column_ids[i]];
        if (column.nested) {
            // Whole chunks, from the group's first row: offset indexes locate pages by row, and
            // a nested column's leaves each have their own.
            for (const ParquetColumn& leaf : column.leaves) {
                slice.ranges.push_back(ChunkRange(row_group, leaf));
            }
            slice.range_counts.push_back(column.leaves.size());
            slice.ranges_start.push_back(0);
            continue;
        }
        ByteRange chunk = ChunkRange(row_group, column);
        const std::vector<PageLocation>& pages = offset_indexes[i].page_locations;
        // The pages holding the first and the last row: the last ones starting at or before them.
        auto starts_after = [](uint64_t row, const PageLocation& page) {
            return int64_t(row) < page.first_row_index;
        };
        size_t first = std::upper_bound(pages.begin(), pages.end(), first_row, starts_after) -
                       pages.begin() - 1;
        size_t last = std::upper_bound(pages.begin(), pages.end(), last_row, starts_after) -
                      pages.begin() - 1;
        uint64_t end = uint64_t(pages[last].offset) + uint64_t(pages[last].compressed_page_size);
        uint64_t pages_start = uint64_t(pages[0].offset);
        uint64_t run_start = first == 0 ? chunk.offset : uint64_t(pages[first].offset);
        size_t count = 1;
        if (first > 0 && pages_start > chunk.offset) {
            // The dictionary page (and whatever else precedes the first data page) comes too.
            slice.ranges.push_back({chunk.offset, pages_start - chunk.offset});
            count = 2;
        }
        slice.ranges.push_back({run_start, end - run_start});
        slice.range_counts.push_back(count);
        slice.ranges_start.push_back(uint64_t(pages[first].first_row_index));
    }
    return slice;
}

std::optional<ByteRange> ParquetFileReader::OffsetIndexRange(size_t row_group,
                                                             size_t column_id) const {
    const ColumnChunk& chunk =
        metadata_.row_groups[row_group].columns[columns_[column_id].leaf_index];
    return IndexRange(chunk.offset_index_offset, chunk.offset_index_length);
}

std::optional<ByteRange> ParquetFileReader::ColumnIndexRange(size_t row_group,
                                                             size_t column_id) const {
    const ColumnChunk& chunk =
        metadata_.row_groups[row_group].columns[columns_[column_id].leaf_index];
    return IndexRange(chunk.column_index_offset, chunk.column_index_length);
}

std::optional<ByteRange> ParquetFileReader::IndexRange(std::optional<int64_t> offset,
                                                       std::optional<int32_t> length) const {
    if (!offset || !length || *offset < 4 || *length <= 0 ||
        uint64_t(*offset) + uint64_t(*length) > metadata_start_) {
        return std::nullopt;
    }
    return ByteRange{uint64_t(*offset), uint64_t(*length)};
}

void RowGroupDecoder::ColumnSource::Skip(uint64_t count) {
    if (flat) {
        flat->Skip(count);
    } else {
        nested->Skip(count);
    }
}

void RowGroupDecoder::ColumnSource::Read(idx_t count, Vector& out) {
    if (flat) {
        flat->Read(count, out);
    } else {
        nested->Read(count, out);
    }
}

void RowGroupDecoder::ColumnSource::ReadSelected(idx_t count, const uint32_t* selection,
                                                 size_t selected, Vector& out) {
    if (flat) {
        flat->ReadSelected(count, selection, selected, out);
    } else {
        nested->ReadSelected(count, selection, selected, out);
    }
}

namespace {

// The column of `out` that decoded column `reader` fills.
Vector& OutputColumn(DataChunk& out, const std::vector<idx_t>& positions, size_t reader) {
    return out.column(positions.empty() ? reader : positions[reader]);
}

} // namespace

RowGroupDecoder::RowGroupDecoder(std::shared_ptr<const ParquetFileReader> file, size_t row_group,
                                 const std::vector<size_t>& column_ids,
                                 std::vector<ByteBuffer> buffers,
                                 const std::vector<TableFilter>& filters, MemoryManager* memory)
    : RowGroupDecoder(file, file->WholeRowGroup(row_group, column_ids), column_ids,
                      std::move(buffers), filters, memory) {
}

RowGroupDecoder::RowGroupDecoder(std::shared_ptr<const ParquetFileReader> file,
                                 const RowGroupSlice& slice, const std::vector<size_t>& column_ids,
                                 std::vector<ByteBuffer> buffers,
                                 const std::vector<TableFilter>& filters, MemoryManager* memory)
    : file_(std::move(file)) {
    const RowGroup& group = file_->metadata().row_groups[slice.row_group];
    rows_left_ = slice.rows;
    if (buffers.size() != slice.ranges.size()) {
        throw Exception(ErrorKind::Internal, "a row group slice got the wrong number of buffers");
    }
    size_t range = 0;
    for (size_t i = 0; i < column_ids.size(); i++) {
        const ParquetColumn& column = file_->columns()[column_ids[i]];
        std::string context = file_->Context(slice.row_group, column.name);
        // A leaf's reader over the next `count` fetched ranges.
        auto leaf_reader = [&](const ParquetColumn& leaf, size_t count, std::string where) {
            const ColumnMetaData& meta = *group.columns[leaf.leaf_index].meta_data;
            if (leaf.max_repetition_level == 0 && meta.num_values != group.num_rows) {
                throw Exception(ErrorKind::InvalidInput,
                                where + ": the chunk holds " + std::to_string(meta.num_values) +
                                    " values, the row group " + std::to_string(group.num_rows) +
                                    " rows");
            }
            std::vector<ChunkSegment> segments;
            for (size_t k = 0; k < count; k++, range++) {
                if (buffers[range].size != slice.ranges[range].length) {
                    throw Exception(ErrorKind::Internal,
                                    where + ": fetched buffer has the wrong size");
                }
                segments.push_back({std::move(buffers[range]), slice.ranges[range].offset});
            }
            auto reader = std::make_unique<ColumnReader>(leaf, meta.codec, std::move(segments),
                                                         std::move(where));
            reader->ReservePagesWith(memory);
            if (leaf.max_repetition_level > 0) {
                reader->LimitEntries(meta.num_values < 0 ? 0 : uint64_t(meta.num_values));
            }
            return reader;
        };
        ColumnSource source;
        if (column.nested) {
            const LeafMask* mask = i < slice.leaf_masks.size() && !slice.leaf_masks[i].empty()
                                       ? &slice.leaf_masks[i]
                                       : nullptr;
            std::vector<std::unique_ptr<ColumnReader>> leaves;
            for (size_t k = 0; k < column.leaves.size(); k++) {
                const ParquetColumn& leaf = column.leaves[k];
                leaves.push_back(!mask || (*mask)[k]
                                     ? leaf_reader(leaf, 1, context + ", field '" + leaf.name + "'")
                                     : nullptr);
            }
            source.nested =
                std::make_unique<NestedColumnReader>(column, std::move(leaves), std::move(context));
        } else {
            source.flat = leaf_reader(column, slice.range_counts[i], std::move(context));
        }
        // A run of pages starts at or before the slice's first row.
        source.Skip(slice.first_row - slice.ranges_start[i]);
        readers_.push_back(std::move(source));
    }
    filtered_.assign(readers_.size(), false);
    for (const TableFilter& filter : filters) {
        auto found = std::find(column_ids.begin(), column_ids.end(), filter.column);
        if (found == column_ids.end()) {
            continue;
        }
        auto reader = static_cast<size_t>(found - column_ids.begin());
        if (!readers_[reader].flat || !filter.fields.empty()) {
            continue; // nested values are filtered above the scan
        }
        // Constants of another type than the column's are compared after a cast: that is left
        // to the filter above the scan.
        const LogicalType& type = file_->columns()[column_ids[reader]].type;
        bool other_type = !filter.constant.IsNull() && filter.constant.type() != type;
        for (const Value& value : filter.values) {
            other_type = other_type || value.type() != type;
        }
        // A join's keys not yet built (its build spilled), or found to let nearly every row
        // through, are not worth a pass.
        if (filter.op == TableFilter::Op::JoinKeys) {
            other_type = other_type || !filter.join_keys || !filter.join_keys->ready() ||
                         !filter.join_keys->worthwhile() || filter.join_keys->type() != type;
        }
        if (other_type) {
            continue;
        }
        auto same = std::find_if(filters_.begin(), filters_.end(),
                                 [&](const ColumnFilters& f) { return f.reader == reader; });
        if (same == filters_.end()) {
            filters_.push_back(ColumnFilters{reader, {}, 0, 0, {}});
            same = filters_.end() - 1;
        }
        same->filters.push_back(filter);
        filtered_[reader] = true;
    }
}

size_t RowGroupDecoder::DecodeFiltered(idx_t count, DataChunk& out,
                                       const std::vector<idx_t>& positions) {
    size_t selected = count;
    for (size_t i = 0; i < count; i++) {
        selection_[i] = static_cast<uint32_t>(i);
    }
    for (ColumnFilters& column : filters_) {
        Vector& vector = OutputColumn(out, positions, column.reader);
        // The vector's rows [0, selected) are the batch's rows selection_[0..selected).
        size_t kept = readers_[column.reader].flat->ReadAndFilter(
            count, selected == count ? nullptr : selection_, selected, column.filters, positions_,
            vector);
        vector.Compact(positions_, kept);
        for (size_t i = 0; i < kept; i++) {
            selection_[i] = selection_[positions_[i]];
        }
        column.rows_in += selected;
        column.rows_out += kept;
        column.rows.assign(selection_, selection_ + kept);
        selected = kept;
    }
    // Columns filtered early hold rows that later filters dropped: keep only the survivors.
    for (ColumnFilters& column : filters_) {
        if (column.rows.size() == selected) {
            continue;
        }
        Vector& vector = OutputColumn(out, positions, column.reader);
        size_t at = 0;
        for (size_t i = 0; i < selected; i++) {
            while (column.rows[at] < selection_[i]) {
                at++;
            }
            positions_[i] = static_cast<uint32_t>(at);
        }
        vector.Compact(positions_, selected);
    }
    // The next batch starts with the filters that discarded the largest share.
    std::stable_sort(
        filters_.begin(), filters_.end(), [](const ColumnFilters& a, const ColumnFilters& b) {
            return double(a.rows_out) * double(b.rows_in) < double(b.rows_out) * double(a.rows_in);
        });
    return selected;
}

bool RowGroupDecoder::Next(DataChunk& out, const std::vector<idx_t>& positions) {
    while (rows_left_ > 0) {
        idx_t count = std::min<uint64_t>(rows_left_, kVectorSize);
        if (filters_.empty()) {
            for (size_t i = 0; i < readers_.size(); i++) {
                readers_[i].Read(count, OutputColumn(out, positions, i));
            }
            out.SetSize(count);
            rows_left_ -= count;
            rows_done_ += count;
            return true;
        }
        size_t selected = DecodeFiltered(count, out, positions);
        for (size_t i = 0; i < readers_.size(); i++) {
            if (filtered_[i]) {
                continue;
            }
            Vector& vector = OutputColumn(out, positions, i);
            if (selected == count) {
                readers_[i].Read(count, vector);
            } else {
                readers_[i].ReadSelected(count, selection_, selected, vector);
            }
        }
        for (size_t i = 0; i < selected; i++) {
            rows_in_slice_[i] = rows_done_ + selection_[i];
        }
        rows_left_ -= count;
        rows_done_ += count;
        rows_filtered_ += count - selected;
        if (selected > 0) {
            out.SetSize(selected);
            return true;
        }
        // Nothing passed: decode the next batch into clean vectors.
        for (size_t i = 0; i < readers_.size(); i++) {
            OutputColumn(out, positions, i).Reset();
        }
    }
    return false;
}

} // namespace sluice::parquet
