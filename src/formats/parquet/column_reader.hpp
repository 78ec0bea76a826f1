#pragma once

#include "common/byte_buffer.hpp"
#include "common/table_filter.hpp"
#include "common/vector.hpp"
#include "formats/parquet/parquet_schema.hpp"
#include "formats/parquet/rle_bit_packed_decoder.hpp"
#include "formats/parquet/value_conversion.hpp"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sluice::parquet {

// Bytes of a column chunk in memory: whole pages, from `file_offset` in the file.
struct ChunkSegment {
    ByteBuffer bytes;
    uint64_t file_offset = 0;
};

// Streams the rows of one flat column chunk, already in memory, page by page. The chunk may be
// given whole or as segments of whole pages (its dictionary page, then a run of data pages, as
// a page-level job fetches them). Never reads outside the segments' bytes; every size in the
// data is checked before use.
class ColumnReader {
public:
    // `context` names file, row group and column for error messages.
    ColumnReader(const ParquetColumn& column, Codec codec, std::vector<ChunkSegment> segments,
                 std::string context);
    ColumnReader(const ParquetColumn& column, Codec codec, ByteBuffer chunk, uint64_t file_offset,
                 std::string context);

    // Steps over the next `count` rows without converting their values.
    void Skip(uint64_t count);

    // Decodes the next `count` rows into rows [0, count) of `out`.
    void Read(idx_t count, Vector& out);
    // Goes through the next `count` rows but decodes only rows `selection[0..selected)`
    // (ascending, below `count`), into rows [0, selected) of `out`. Skipped values are not
    // converted; with nothing selected the rows are only stepped over.
    void ReadSelected(idx_t count, const uint32_t* selection, size_t selected, Vector& out);
    // ReadSelected (every row when `selection` is null), then the positions in [0, selected) of
    // the rows that pass `filters` into `kept`; returns how many. Rows of dictionary-coded pages
    // are tested by their entry, the filters evaluated once per dictionary (pass the same
    // filters on every call).
    size_t ReadAndFilter(idx_t count, const uint32_t* selection, size_t selected,
                         const std::vector<TableFilter>& filters, uint32_t* kept, Vector& out);

private:
    // Read and ReadSelected: every row when `selection` is null.
    void ReadRows(idx_t count, const uint32_t* selection, size_t selected, Vector& out);
    // ReadSelected's piece of `take` rows of one page, all valid, starting at row `done` of the
    // batch: the rows `selection[0..selected)` go to rows `first_out...` of `out`.
    void ReadSelectedWithoutNulls(size_t take, idx_t done, const uint32_t* selection,
                                  size_t selected, idx_t first_out, Vector& out);
    // The next `count` dictionary indices of the page, checked against the dictionary's size.
    void DecodeIndices(uint32_t* indices, size_t count);
    // Moves to the next data page (its header read, its body left for DecodePendingPage); false
    // at the end of the chunk.
    bool LoadPage();
    // Decompresses and decodes the current page, then steps over the rows already passed.
    void DecodePendingPage();
    // Moves to segment `segment` (false past the last).
    bool EnterSegment(size_t segment);
    void DecodeDictionaryPage(const uint8_t* page, size_t size, int32_t num_values);
    void DecodeDataPage(const uint8_t* page, size_t size, int32_t num_values, Encoding encoding,
                        const uint8_t* levels, size_t levels_size, bool levels_prefixed,
                        Encoding level_encoding);
    void DecodeValues(Encoding encoding, const uint8_t* data, size_t size, size_t count,
                      PhysicalValues& values);
    // Writes source values source_index[i] to rows[i] of `out`. `contiguous` says both are
    // consecutive runs, which allows copying fixed-width values in bulk.
    void Emit(const PhysicalValues& source, const uint32_t* source_index, const idx_t* rows,
              size_t count, bool contiguous, Vector& out);
    // The page's bytes, decompressed when the codec needs it; `owner` keeps them alive.
    // Copies dictionary entries index[i] to rows[i] of `out`.
    void Gather(const Vector& dictionary, const uint32_t* index, const idx_t* rows, size_t count,
                Vector& out);
    const uint8_t* Decompressed(const uint8_t* data, size_t compressed, size_t uncompressed,
                                std::shared_ptr<const void>& owner);
    [[noreturn]] void Fail(const std::string& what) const;

    const ParquetColumn& column_;
    bool same_layout_ = false; // physical values are already in Sluice's layout
    Codec codec_;
    std::vector<ChunkSegment> segments_;
    size_t segment_ = 0;
    const uint8_t* data_ = nullptr; // the current segment's bytes
    size_t size_ = 0;
    uint64_t file_offset_ = 0;
    std::unique_ptr<Vector> skipped_; // Skip's destination: nothing is written to it
    std::string context_;
    size_t pos_ = 0;
    int page_number_ = -1;
    size_t page_offset_ = 0;

    bool has_dictionary_ = false;
    PhysicalValues dictionary_;
    std::shared_ptr<const void> dictionary_owner_; // memory the dictionary's strings point into

    std::shared_ptr<const void> page_owner_; // memory the current page's strings point into
    ByteBuffer scratch_; // decompression buffer, reused once no vector references it
    // Definition levels are decoded a batch at a time: a page of millions of NULLs costs a few
    // bytes in the file and must not cost gigabytes here.
    bool has_levels_ = false;
    std::unique_ptr<RleBitPackedDecoder> level_decoder_; // RLE levels
    const uint8_t* legacy_levels_ = nullptr;             // BIT_PACKED levels
    size_t legacy_levels_size_ = 0;
    bool page_uses_dictionary_ = false;
    PhysicalValues values_;
    std::unique_ptr<RleBitPackedDecoder> index_decoder_; // dictionary indices, a batch at a time
    std::unique_ptr<Vector> dictionary_vector_;          // the dictionary in Sluice's layout
    // ReadAndFilter: the dictionary entry of each output (recorded while `record_entries_`),
    // whether all outputs came from dictionary pages, and each entry's verdict.
    bool record_entries_ = false;
    bool outputs_from_dictionary_ = false;
    uint32_t output_entries_[kVectorSize];
    std::optional<std::vector<uint8_t>> dictionary_verdicts_;
    bool null_passes_ = false;
    // Scratch of Read(), kept to avoid allocating per batch.
    std::vector<uint32_t> source_index_;
    std::vector<idx_t> rows_;
    bool page_pending_ = false; // the current page is not decoded yet
    PageHeader pending_header_;
    const uint8_t* pending_body_ = nullptr;
    size_t page_rows_ = 0;
    size_t page_row_ = 0;
    size_t page_value_ = 0;
};

} // namespace sluice::parquet
