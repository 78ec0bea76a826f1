#pragma once

#include "formats/parquet/parquet_value_layout.hpp"
#include "formats/parquet/value_dictionary.hpp"
#include "io/spill_buffer.hpp"

#include <memory>
#include <string>
#include <vector>

namespace sluice::parquet {

struct ColumnEncodeOptions {
    Codec codec = Codec::SNAPPY;
    uint64_t page_size = 1 << 20; // target uncompressed bytes of values per data page
    // A column chunk is dictionary encoded while its dictionary stays within these bounds; past
    // them the remaining pages are PLAIN (a mixed chunk, as Parquet allows).
    uint32_t max_dictionary_values = 1 << 16;
    uint64_t max_dictionary_bytes = 1 << 20;
    // Encoded pages beyond this many bytes move to a temporary file in `spill_directory`.
    size_t memory_limit = 8 << 20;
    std::string spill_directory = ".";
};

// One data page of an encoded chunk, for the page index.
struct EncodedPage {
    uint64_t offset = 0; // in the chunk's data pages
    uint32_t size = 0;   // header included
    uint64_t first_row = 0;
    uint64_t rows = 0;
    uint64_t values = 0; // entries: rows for a flat column, NULLs and empty lists included
    int64_t nulls = 0;
    MinMax range;
};

// One column chunk, encoded and compressed, waiting to be placed in a file.
struct EncodedColumnChunk {
    explicit EncodedColumnChunk(SpillBuffer pages) : data_pages(std::move(pages)) {}

    std::vector<uint8_t> dictionary_page; // header + body; empty without a dictionary
    SpillBuffer data_pages;
    uint64_t values = 0; // entries: rows for a flat column, NULLs and empty lists included
    int64_t nulls = 0;
    uint64_t uncompressed = 0; // page headers included, dictionary page included
    MinMax range;
    std::vector<Encoding> encodings;
    std::vector<EncodedPage> pages;

    uint64_t compressed() const { return dictionary_page.size() + data_pages.size(); }
};

// Encodes one column chunk (one leaf of a nested column) as rows arrive: values are cut into data
// pages of about page_size bytes, each compressed as soon as it is full, so memory holds one page
// of values, the dictionary and, up to a limit, the compressed pages.
class ColumnChunkEncoder {
public:
    // A flat OPTIONAL column has definition levels 0 and 1 and no repetition levels.
    ColumnChunkEncoder(const LogicalType& type, const ColumnEncodeOptions& options,
                       uint32_t max_definition = 1, uint32_t max_repetition = 0);

    // Rows of a flat column.
    void Append(const Vector& vector, idx_t offset, idx_t count);
    // One entry of a nested leaf: its levels and, when `definition` is the maximum, its value,
    // at index `index` of `values`' data (nullptr otherwise). Pages end only where a row starts
    // (repetition 0).
    void AppendEntry(uint32_t repetition, uint32_t definition, const Vector* values, idx_t index);
    EncodedColumnChunk Finish();

private:
    enum class Mode : uint8_t { Undecided, Dictionary, Plain };

    // Append for values already in their PLAIN form (see StoredAsPlain).
    void AppendStored(const Vector& vector, idx_t offset, idx_t count);
    void CutPage();
    // Adds the page's values to the dictionary; false (dictionary unchanged) when it would grow
    // past its bounds.
    bool IndexPage(std::vector<uint32_t>& indices);
    void EmitPage(const std::vector<uint8_t>& body, bool dictionary_page, uint32_t values,
                  uint64_t rows, int64_t nulls, Encoding encoding, const MinMax* range);

    Layout layout_;
    ColumnEncodeOptions options_;
    uint32_t max_definition_;
    uint32_t max_repetition_;
    EncodedColumnChunk result_;
    Mode mode_ = Mode::Undecided;
    bool plain_pages_ = false;
    bool dictionary_pages_ = false;

    ColumnValues page_;
    std::vector<uint32_t> repetitions_; // the page's, for nested leaves
    uint64_t page_bytes_ = 0;
    uint64_t page_rows_ = 0; // nested leaves: rows that start in the page
    uint64_t rows_ = 0;      // rows in the pages emitted before

    ValueDictionary dictionary_;

    std::vector<uint8_t> body_, compressed_, header_;
};

} // namespace sluice::parquet
