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
    int64_t nulls = 0;
    MinMax range;
};

// One column chunk, encoded and compressed, waiting to be placed in a file.
struct EncodedColumnChunk {
    explicit EncodedColumnChunk(SpillBuffer pages) : data_pages(std::move(pages)) {}

    std::vector<uint8_t> dictionary_page; // header + body; empty without a dictionary
    SpillBuffer data_pages;
    uint64_t values = 0; // rows, NULLs included
    int64_t nulls = 0;
    uint64_t uncompressed = 0; // page headers included, dictionary page included
    MinMax range;
    std::vector<Encoding> encodings;
    std::vector<EncodedPage> pages;

    uint64_t compressed() const { return dictionary_page.size() + data_pages.size(); }
};

// Encodes one column chunk as rows arrive: values are cut into data pages of about page_size
// bytes, each compressed as soon as it is full, so memory holds one page of values, the
// dictionary and, up to a limit, the compressed pages.
class ColumnChunkEncoder {
public:
    ColumnChunkEncoder(const LogicalType& type, const ColumnEncodeOptions& options);

    void Append(const Vector& vector, idx_t offset, idx_t count);
    EncodedColumnChunk Finish();

private:
    enum class Mode : uint8_t { Undecided, Dictionary, Plain };

    // Append for values already in their PLAIN form (see StoredAsPlain).
    void AppendStored(const Vector& vector, idx_t offset, idx_t count);
    void CutPage();
    // Adds the page's values to the dictionary; false (dictionary unchanged) when it would grow
    // past its bounds.
    bool IndexPage(std::vector<uint32_t>& indices);
    void EmitPage(const std::vector<uint8_t>& body, bool dictionary_page, uint32_t rows,
                  int64_t nulls, Encoding encoding, const MinMax* range);

    Layout layout_;
    ColumnEncodeOptions options_;
    EncodedColumnChunk result_;
    Mode mode_ = Mode::Undecided;
    bool plain_pages_ = false;
    bool dictionary_pages_ = false;

    ColumnValues page_;
    uint64_t page_bytes_ = 0;

    ValueDictionary dictionary_;

    std::vector<uint8_t> body_, compressed_, header_;
};

} // namespace sluice::parquet
