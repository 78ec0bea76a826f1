#include "formats/parquet/column_chunk_encoder.hpp"

#include "formats/parquet/compressor.hpp"
#include "formats/parquet/rle_bit_packed_decoder.hpp"
#include "formats/parquet/rle_bit_packed_encoder.hpp"
#include "formats/parquet/thrift_compact_writer.hpp"

#include <algorithm>
#include <cstring>

namespace sluice::parquet {

ColumnChunkEncoder::ColumnChunkEncoder(const LogicalType& type, const ColumnEncodeOptions& options,
                                       uint32_t max_definition, uint32_t max_repetition)
    : layout_(LayoutOf(type)), options_(options), max_definition_(max_definition),
      max_repetition_(max_repetition),
      result_(SpillBuffer(options.spill_directory, options.memory_limit)),
      dictionary_(layout_.width) {
    if (layout_.type == Type::BOOLEAN) {
        mode_ = Mode::Plain;
    }
}

namespace {

constexpr size_t kDictionarySample = 2048;

// Whether `vector`'s values are stored exactly as the layout's PLAIN values (4- or 8-byte
// little-endian integers), so they can be copied without conversion.
bool StoredAsPlain(const Vector& vector, const Layout& layout) {
    if (vector.vector_type() != VectorType::FLAT || layout.is_unsigned) {
        return false;
    }
    PhysicalType physical = vector.type().physical();
    return (layout.type == Type::INT32 && physical == PhysicalType::INT32) ||
           (layout.type == Type::INT64 && physical == PhysicalType::INT64);
}

// Min and max of fixed-width signed integers, as PLAIN bytes.
template <class T>
MinMax IntegerRange(const ColumnValues& values) {
    MinMax range;
    if (values.count == 0) {
        return range;
    }
    const auto* data = reinterpret_cast<const T*>(values.fixed.data());
    T min = data[0], max = data[0];
    for (size_t i = 1; i < values.count; i++) {
        min = std::min(min, data[i]);
        max = std::max(max, data[i]);
    }
    range.present = true;
    range.min.assign(reinterpret_cast<const char*>(&min), sizeof(T));
    range.max.assign(reinterpret_cast<const char*>(&max), sizeof(T));
    return range;
}

} // namespace

void ColumnChunkEncoder::AppendStored(const Vector& vector, idx_t offset, idx_t count) {
    const auto width = static_cast<size_t>(layout_.width);
    const auto* data = reinterpret_cast<const uint8_t*>(vector.data<uint8_t>());
    idx_t row = offset, end = offset + count;
    while (row < end) {
        // Up to the next page boundary at once.
        auto room = static_cast<idx_t>((options_.page_size - page_bytes_ + width - 1) / width);
        idx_t stop = std::min<idx_t>(end, row + std::max<idx_t>(room, 1));
        for (; row < stop; row++) {
            bool valid = vector.RowIsValid(row);
            page_.defined.push_back(valid ? 1 : 0);
            if (valid) {
                page_.fixed.insert(page_.fixed.end(), data + row * width, data + (row + 1) * width);
                page_.count++;
                page_bytes_ += width;
            }
        }
        if (page_bytes_ >= options_.page_size) {
            CutPage();
        }
    }
}

void ColumnChunkEncoder::Append(const Vector& vector, idx_t offset, idx_t count) {
    if (StoredAsPlain(vector, layout_)) {
        AppendStored(vector, offset, count);
        return;
    }
    bool constant = vector.vector_type() == VectorType::CONSTANT;
    for (idx_t row = offset; row < offset + count; row++) {
        bool valid = vector.RowIsValid(row);
        page_.defined.push_back(valid ? 1 : 0);
        if (valid) {
            AppendValue(vector, constant ? 0 : row, layout_, page_);
            page_.count++;
            page_bytes_ +=
                layout_.width == 0 ? 4 + page_.Value(page_.count - 1, 0).size() : layout_.width;
        }
        if (page_bytes_ >= options_.page_size) {
            CutPage();
        }
    }
}

void ColumnChunkEncoder::AppendEntry(uint32_t repetition, uint32_t definition, const Vector* values,
                                     idx_t index) {
    if (repetition == 0) {
        if (page_bytes_ >= options_.page_size) {
            CutPage();
        }
        page_rows_++;
    }
    repetitions_.push_back(repetition);
    page_.defined.push_back(definition);
    if (definition == max_definition_) {
        AppendValue(*values, index, layout_, page_);
        page_.count++;
        page_bytes_ +=
            layout_.width == 0 ? 4 + page_.Value(page_.count - 1, 0).size() : layout_.width;
    } else {
        page_bytes_++; // an empty list or a NULL costs little, but a page of them must end too
    }
}

bool ColumnChunkEncoder::IndexPage(std::vector<uint32_t>& indices) {
    size_t entries_before = dictionary_.size();
    indices.resize(page_.count);
    for (size_t i = 0; i < page_.count; i++) {
        indices[i] = dictionary_.Insert(page_.Value(i, layout_.width));
        // Undecided strings: a sample of mostly distinct ones (comments, names) already says a
        // dictionary will not pay. (Numbers are not sampled: dates or keys with a few thousand
        // values look distinct in a sample but repeat over a row group.)
        if (mode_ == Mode::Undecided && layout_.width == 0 && i + 1 == kDictionarySample &&
            dictionary_.size() * 2 > kDictionarySample) {
            dictionary_.Clear();
            return false;
        }
    }
    if (dictionary_.size() > options_.max_dictionary_values ||
        dictionary_.plain_bytes() > options_.max_dictionary_bytes) {
        dictionary_.Truncate(entries_before); // this page goes out PLAIN
        return false;
    }
    return true;
}

void ColumnChunkEncoder::CutPage() {
    size_t entries = page_.defined.size();
    uint64_t rows = max_repetition_ > 0 ? page_rows_ : entries;
    MinMax page_range;
    if (layout_.type == Type::INT32 && !layout_.is_unsigned) {
        page_range = IntegerRange<int32_t>(page_);
    } else if (layout_.type == Type::INT64 && !layout_.is_unsigned) {
        page_range = IntegerRange<int64_t>(page_);
    } else {
        for (size_t i = 0; i < page_.count; i++) {
            page_range.Add(page_.Value(i, layout_.width), layout_);
        }
    }
    result_.range.Merge(page_range, layout_);
    auto nulls = static_cast<int64_t>(entries - page_.count);
    result_.nulls += nulls;
    result_.values += entries;

    std::vector<uint32_t> indices;
    bool dictionary = false;
    if (mode_ != Mode::Plain && page_.count > 0) {
        dictionary = IndexPage(indices);
        if (!dictionary) {
            mode_ = Mode::Plain; // the dictionary is full: the rest of the chunk is PLAIN
        } else if (mode_ == Mode::Undecided) {
            // Decided on the first page: a dictionary nearly as large as the data does not pay.
            dictionary = dictionary && dictionary_.size() * 2 <= page_.count + 1;
            mode_ = dictionary ? Mode::Dictionary : Mode::Plain;
            if (!dictionary) {
                dictionary_.Clear();
            }
        }
    }
    // Data page v1: repetition levels (nested leaves only), then definition levels, each RLE
    // behind its 4-byte length.
    body_.clear();
    auto append_levels = [&](const std::vector<uint32_t>& levels, uint32_t max_level) {
        size_t start = body_.size();
        body_.resize(start + 4);
        EncodeRleBitPacked(levels.data(), levels.size(), BitWidthOf(max_level), body_);
        auto length = static_cast<uint32_t>(body_.size() - start - 4);
        std::memcpy(body_.data() + start, &length, 4);
    };
    if (max_repetition_ > 0) {
        append_levels(repetitions_, max_repetition_);
    }
    append_levels(page_.defined, max_definition_);
    if (dictionary) {
        uint32_t width = std::max<uint32_t>(1, BitWidthOf(dictionary_.size() - 1));
        body_.push_back(static_cast<uint8_t>(width));
        EncodeRleBitPacked(indices.data(), indices.size(), width, body_);
        dictionary_pages_ = true;
    } else {
        AppendPlain(page_, 0, page_.count, layout_, body_);
        plain_pages_ = true;
    }
    EmitPage(body_, false, static_cast<uint32_t>(entries), rows, nulls,
             dictionary ? Encoding::RLE_DICTIONARY : Encoding::PLAIN, &page_range);
    page_.Clear();
    repetitions_.clear();
    page_bytes_ = 0;
    page_rows_ = 0;
    rows_ += rows;
}

void ColumnChunkEncoder::EmitPage(const std::vector<uint8_t>& body, bool dictionary_page,
                                  uint32_t values, uint64_t rows, int64_t nulls, Encoding encoding,
                                  const MinMax* range) {
    Compress(options_.codec, body.data(), body.size(), compressed_);
    header_.clear();
    ThriftCompactWriter writer(header_);
    writer.BeginStruct();
    writer.WriteI32Field(
        1, static_cast<int32_t>(dictionary_page ? PageType::DICTIONARY_PAGE : PageType::DATA_PAGE));
    writer.WriteI32Field(2, static_cast<int32_t>(body.size()));
    writer.WriteI32Field(3, static_cast<int32_t>(compressed_.size()));
    if (dictionary_page) {
        writer.BeginStructField(7);
        writer.WriteI32Field(1, static_cast<int32_t>(values));
        writer.WriteI32Field(2, static_cast<int32_t>(Encoding::PLAIN));
        writer.EndStruct();
    } else {
        writer.BeginStructField(5);
        writer.WriteI32Field(1, static_cast<int32_t>(values));
        writer.WriteI32Field(2, static_cast<int32_t>(encoding));
        writer.WriteI32Field(3, static_cast<int32_t>(Encoding::RLE));
        writer.WriteI32Field(4, static_cast<int32_t>(Encoding::RLE));
        WriteStatistics(writer, 5, nulls, *range);
        writer.EndStruct();
    }
    writer.EndStruct();
    result_.uncompressed += header_.size() + body.size();
    if (dictionary_page) {
        auto& page = result_.dictionary_page;
        page.insert(page.end(), header_.begin(), header_.end());
        page.insert(page.end(), compressed_.begin(), compressed_.end());
    } else {
        EncodedPage page{result_.data_pages.size(),
                         static_cast<uint32_t>(header_.size() + compressed_.size()),
                         rows_,
                         rows,
                         values,
                         nulls,
                         *range};
        result_.pages.push_back(std::move(page));
        result_.data_pages.Append(header_.data(), header_.size());
        result_.data_pages.Append(compressed_.data(), compressed_.size());
    }
}

EncodedColumnChunk ColumnChunkEncoder::Finish() {
    if (!page_.defined.empty() || result_.values == 0) {
        CutPage(); // the last page; an empty chunk still gets one (empty) page
    }
    result_.encodings = {Encoding::RLE};
    if (dictionary_pages_) {
        body_.clear();
        AppendPlain(dictionary_.entries(), 0, dictionary_.size(), layout_, body_);
        EmitPage(body_, true, static_cast<uint32_t>(dictionary_.size()), 0, 0, Encoding::PLAIN,
                 nullptr);
        result_.encodings.push_back(Encoding::RLE_DICTIONARY);
    }
    if (plain_pages_ || dictionary_pages_) {
        result_.encodings.push_back(Encoding::PLAIN); // the dictionary page is PLAIN
    }
    return std::move(result_);
}

} // namespace sluice::parquet
