#pragma once

#include "common/byte_buffer.hpp"
#include "common/exception.hpp"
#include "common/table_filter.hpp"
#include "common/vector.hpp"
#include "formats/parquet/parquet_schema.hpp"
#include "formats/parquet/rle_bit_packed_decoder.hpp"
#include "formats/parquet/value_conversion.hpp"
#include "memory/memory_manager.hpp"

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

// The entries of a nested column's leaf for some rows: each entry's repetition and definition
// level, and its value (NULL where the definition level is below the leaf's maximum).
struct LeafEntries {
    std::vector<uint8_t> repetition;
    std::vector<uint8_t> definition;
    std::unique_ptr<Vector> values;
};

// Streams the rows of one column chunk (a flat column, or a leaf of a nested one), already in
// memory, page by page. The chunk may be given whole or as segments of whole pages (its dictionary
// page, then a run of data pages, as a page-level job fetches them). Never reads outside the
// segments' bytes; every size in the data is checked before use.
class ColumnReader {
public:
    // `context` names file, row group and column for error messages.
    ColumnReader(const ParquetColumn& column, Codec codec, std::vector<ChunkSegment> segments,
                 std::string context);
    ColumnReader(const ParquetColumn& column, Codec codec, ByteBuffer chunk, uint64_t file_offset,
                 std::string context);

    // The chunk holds `count` entries in all, as its metadata declares: a data page declaring
    // more than are left is an error. (Nested leaves: their pages' entries are not bounded by
    // the row count.)
    void LimitEntries(uint64_t count) { entries_left_ = count; }

    // Reserves decompression buffers with `memory` (under `memory_limit`): a page may declare
    // gigabytes that a few kilobytes of brotli or zstd expand to, and then it is an Out of
    // Memory error naming the page rather than an allocation nothing accounts for.
    void ReservePagesWith(MemoryManager* memory);

    // Steps over the next `count` rows without converting their values.
    void Skip(uint64_t count);

    // A nested column's leaf: the entries of the next `rows` rows (a row is its entries up to
    // the next one of repetition level 0).
    void ReadNested(idx_t rows, LeafEntries& entries);

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
    // Read and ReadSelected: every row when `selection` is null. Without a selection, rows go
    // to rows `base...` of `out`, and their definition levels to `definitions` if given.
    void ReadRows(idx_t count, const uint32_t* selection, size_t selected, Vector& out,
                  idx_t base = 0, uint8_t* definitions = nullptr);
    // Steps over `count` entries of the current page and those after it.
    void SkipEntries(uint64_t count);
    // The repetition level of entry `entry` of the current page; entries are asked for in
    // ascending order from the first not yet read.
    uint8_t PeekRepetition(size_t entry);
    // Finds a v1 page's repetition levels at `levels` (their encoding `encoding`, `count` of
    // them); returns how many bytes they take.
    size_t SetUpRepetition(const uint8_t* levels, size_t size, bool prefixed, Encoding encoding,
                           size_t count);
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
    // `levels` start with the repetition levels (v2: `repetition_size` bytes of them).
    void DecodeDataPage(const uint8_t* page, size_t size, int32_t num_values, Encoding encoding,
                        const uint8_t* levels, size_t levels_size, bool levels_prefixed,
                        Encoding repetition_encoding, Encoding level_encoding,
                        size_t repetition_size);
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
    [[noreturn]] void Fail(const std::string& what, ErrorKind kind = ErrorKind::InvalidInput) const;

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
    std::unique_ptr<MemoryReservation> page_memory_; // scratch_'s, when ReservePagesWith
    // Definition levels are decoded a batch at a time: a page of millions of NULLs costs a few
    // bytes in the file and must not cost gigabytes here.
    bool has_levels_ = false;
    std::unique_ptr<RleBitPackedDecoder> level_decoder_; // RLE levels
    const uint8_t* legacy_levels_ = nullptr;             // BIT_PACKED levels
    size_t legacy_levels_size_ = 0;
    // Repetition levels (nested leaves), decoded a batch at a time into `repetition_`, which holds
    // those of the page's entries from `repetition_start_`.
    std::unique_ptr<RleBitPackedDecoder> repetition_decoder_;
    const uint8_t* legacy_repetition_ = nullptr;
    size_t legacy_repetition_size_ = 0;
    std::vector<uint8_t> repetition_;
    size_t repetition_start_ = 0;
    std::unique_ptr<LeafEntries> skipped_entries_; // Skip's destination for nested leaves
    std::optional<uint64_t> entries_left_;
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
