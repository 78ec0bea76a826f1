// libFuzzer target: arbitrary bytes as a whole Parquet file. Reads the footer, parses the bloom
// filters, then plans and decodes every row group's readable columns: even row groups in full,
// odd ones with filters inside the readers (the first column against its minimum, the second IS
// NOT NULL); where every chunk of a group has a valid offset index, also the slice of its middle
// rows (a page-level job), and the column indexes as page statistics. Anything but a
// sluice::Exception is a bug.
#include "expected_errors.hpp"
#include "formats/parquet/bloom_filter.hpp"
#include "formats/parquet/corrupt_data.hpp"
#include "formats/parquet/page_index.hpp"
#include "formats/parquet/parquet_reader.hpp"
#include "formats/parquet/parquet_statistics.hpp"
#include "memory_file.hpp"

#include <stdexcept>

using namespace sluice;
using namespace sluice::parquet;

namespace {

// Decompression buffers are reserved here as a scan reserves them under memory_limit: a few
// kilobytes of brotli declaring a page of a gigabyte are an Out of Memory error, not seconds of
// inflating (a timeout of the 10-minute campaign).
MemoryManager& PageMemory() {
    static MemoryManager memory(256 << 20);
    return memory;
}

// The middle third of `group`'s rows as a page-level job would decode them, when every chunk
// has an offset index that decodes; also each chunk's column index as page statistics.
void DecodeMiddleSlice(MemoryFileHandle& file, std::shared_ptr<const ParquetFileReader> reader,
                       size_t group, const std::vector<size_t>& column_ids,
                       const std::vector<LogicalType>& types) {
    std::vector<OffsetIndex> offsets;
    int64_t rows = reader->RowGroupRows(group);
    for (size_t id : column_ids) {
        std::optional<ByteRange> range = reader->OffsetIndexRange(group, id);
        if (!range || range->length > (1 << 20)) {
            return;
        }
        std::vector<uint8_t> bytes(range->length);
        file.Read(bytes.data(), bytes.size(), range->offset, {});
        ByteRange chunk = reader->PlanRowGroup(group, {id})[0];
        try {
            offsets.push_back(DecodeOffsetIndex(bytes.data(), bytes.size(), chunk.offset,
                                                chunk.offset + chunk.length, rows));
        } catch (const CorruptData&) {
            return; // the scan reports a corrupt index as an error
        }
        if (std::optional<ByteRange> bounds = reader->ColumnIndexRange(group, id)) {
            if (bounds->length > (1 << 20)) {
                continue;
            }
            bytes.resize(bounds->length);
            file.Read(bytes.data(), bytes.size(), bounds->offset, {});
            try {
                size_t pages = offsets.back().page_locations.size();
                ColumnIndex index = DecodeColumnIndex(bytes.data(), bytes.size(), pages);
                for (size_t p = 0; p < pages; p++) {
                    PageStatistics(reader->columns()[id], index, p, 1);
                }
            } catch (const CorruptData&) {
            }
        }
    }
    uint64_t first = uint64_t(rows) / 3;
    uint64_t count = std::max<uint64_t>(1, uint64_t(rows) / 3);
    RowGroupSlice slice = reader->SliceRowGroup(group, column_ids, offsets, first, count);
    std::vector<ByteBuffer> buffers;
    for (const ByteRange& range : slice.ranges) {
        buffers.push_back(ByteBuffer::Allocate(range.length));
        file.Read(buffers.back().get(), range.length, range.offset, {});
    }
    RowGroupDecoder decoder(reader, slice, column_ids, std::move(buffers), {}, &PageMemory());
    DataChunk chunk(types);
    for (int batches = 0; batches < 1000; batches++) {
        chunk.Reset();
        if (!decoder.Next(chunk)) {
            break;
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        MemoryFileHandle file(data, size);
        std::shared_ptr<const ParquetFileReader> reader = ParquetFileReader::Open(file);
        std::vector<size_t> column_ids;
        std::vector<LogicalType> types;
        for (size_t i = 0; i < reader->columns().size(); i++) {
            if (reader->columns()[i].unsupported.empty()) {
                column_ids.push_back(i);
                types.push_back(reader->columns()[i].type);
            }
        }
        for (size_t group = 0; group < reader->RowGroupCount() && group < 64; group++) {
            if (reader->RowGroupRows(group) == 0) {
                continue;
            }
            std::vector<ByteBuffer> buffers;
            for (const ByteRange& range : reader->PlanRowGroup(group, column_ids)) {
                buffers.push_back(ByteBuffer::Allocate(range.length));
                file.Read(buffers.back().get(), range.length, range.offset, {});
            }
            const RowGroup& row_group = reader->metadata().row_groups[group];
            for (const ColumnChunk& chunk : row_group.columns) {
                if (!chunk.meta_data || !chunk.meta_data->bloom_filter_offset ||
                    !chunk.meta_data->bloom_filter_length) {
                    continue;
                }
                auto offset = static_cast<uint64_t>(*chunk.meta_data->bloom_filter_offset);
                auto length = static_cast<uint64_t>(*chunk.meta_data->bloom_filter_length);
                if (offset > size || length > size - offset || length > (1 << 20)) {
                    continue;
                }
                try {
                    if (auto bloom = BloomFilter::Parse(data + offset, length)) {
                        bloom->MayContainHash(offset * 0x9e3779b97f4a7c15ULL);
                    }
                } catch (const CorruptData&) {
                    // corrupt bloom filters are reported as errors by the scan
                }
            }
            std::vector<TableFilter> filters;
            if (group % 2 == 1 && !column_ids.empty()) {
                const ParquetColumn& first = reader->columns()[column_ids[0]];
                ColumnStatistics statistics = ReadColumnStatistics(
                    first, row_group.columns[first.leaf_index], row_group.num_rows);
                if (statistics.min && statistics.min->type() == first.type) {
                    filters.push_back(
                        {column_ids[0], TableFilter::Op::GreaterEqual, *statistics.min, {}});
                }
                if (column_ids.size() > 1) {
                    filters.push_back({column_ids[1], TableFilter::Op::IsNotNull, Value(), {}});
                }
            }
            try {
                DecodeMiddleSlice(file, reader, group, column_ids, types);
            } catch (const Exception& error) {
                fuzz::ExpectUserError(error);
                // as below: a clear error; the whole group is still decoded
            }
            RowGroupDecoder decoder(reader, group, column_ids, std::move(buffers), filters,
                                    &PageMemory());
            DataChunk chunk(types);
            for (int batches = 0; batches < 1000; batches++) {
                chunk.Reset();
                if (!decoder.Next(chunk)) {
                    break;
                }
            }
        }
    } catch (const Exception& error) {
        fuzz::ExpectUserError(error);
        // A clear error is the expected outcome for most inputs.
    }
    return 0;
}
