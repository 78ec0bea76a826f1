// ColumnReader's pages: finding them in the chunk's segments, decompressing them, and decoding
// their levels and values (by encoding) into the page-wide arrays the row reading draws from.
#include "common/exception.hpp"
#include "common/utf8.hpp"
#include "formats/parquet/column_reader.hpp"
#include "formats/parquet/corrupt_data.hpp"
#include "formats/parquet/decompressor.hpp"
#include "formats/parquet/delta_decoders.hpp"
#include "formats/parquet/rle_bit_packed_decoder.hpp"

#include <algorithm>
#include <cstring>

namespace sluice::parquet {

namespace {

// The longest string or blob value read, DuckDB's limit: longer ones are errors rather than
// gigabytes copied through every operator.
constexpr uint32_t kMaxValueBytes = 0x1fffffe8;

} // namespace

bool ColumnReader::EnterSegment(size_t segment) {
    segment_ = segment;
    if (segment >= segments_.size()) {
        data_ = nullptr;
        size_ = 0;
        return false;
    }
    data_ = segments_[segment].bytes.get();
    size_ = segments_[segment].bytes.size;
    file_offset_ = segments_[segment].file_offset;
    pos_ = 0;
    return true;
}

void ColumnReader::Fail(const std::string& what, ErrorKind kind) const {
    std::string where = context_;
    if (page_number_ >= 0) {
        where += ", page " + std::to_string(page_number_) + " at file offset " +
                 std::to_string(file_offset_ + page_offset_);
    }
    throw Exception(kind, where + ": " + what);
}

void ColumnReader::ReservePagesWith(MemoryManager* memory) {
    page_memory_ =
        memory ? std::make_unique<MemoryReservation>(memory, "Parquet page buffers") : nullptr;
}

const uint8_t* ColumnReader::Decompressed(const uint8_t* data, size_t compressed,
                                          size_t uncompressed, std::shared_ptr<const void>& owner) {
    if (codec_ == Codec::UNCOMPRESSED) {
        if (compressed != uncompressed) {
            Fail("uncompressed page of " + std::to_string(compressed) + " bytes claims " +
                 std::to_string(uncompressed) + " bytes");
        }
        owner = segments_[segment_].bytes.data;
        return data;
    }
    if (uncompressed == 0) {
        // Nothing to produce, and some writers store nothing to decompress: a version 2 page of
        // NULLs only has zero bytes of values, which no codec's decoder accepts as a stream.
        owner = segments_[segment_].bytes.data;
        return data;
    }
    // Reuse the last buffer when nothing points into it any more (only `scratch_` and, possibly,
    // `owner` itself hold it): fresh allocations of page-sized buffers cost page faults.
    long holders = scratch_.data.use_count() - (owner == scratch_.data ? 1 : 0);
    if (!scratch_.data || holders > 1 || scratch_.size < uncompressed) {
        size_t size = std::max<size_t>(uncompressed, scratch_.size);
        // Pages of usual sizes are what a scan needs to progress at all: counted (so that
        // joins and sorts spill sooner) but never refused. Larger ones must fit the limit.
        constexpr size_t kAlwaysGranted = 16 << 20;
        if (page_memory_ && size > page_memory_->size() && size <= kAlwaysGranted) {
            page_memory_->ForceResize(size);
        } else if (page_memory_ && size > page_memory_->size()) {
            try {
                page_memory_->Resize(size);
            } catch (const Exception& error) {
                Fail(error.RawMessage(), error.Kind());
            }
        }
        scratch_ = ByteBuffer::Allocate(size);
    }
    try {
        Decompress(codec_, data, compressed, scratch_.get(), uncompressed);
    } catch (const CorruptData& error) {
        Fail(error.what());
    }
    owner = scratch_.data;
    return scratch_.get();
}

bool ColumnReader::LoadPage() {
    while (pos_ < size_ || (segment_ < segments_.size() && EnterSegment(segment_ + 1))) {
        if (pos_ >= size_) {
            continue; // an empty segment
        }
        page_number_++;
        page_offset_ = pos_;
        size_t header_size = 0;
        PageHeader header;
        try {
            header = DecodePageHeader(data_ + pos_, size_ - pos_, header_size);
        } catch (const CorruptData& error) {
            Fail(std::string("corrupt page header: ") + error.what());
        }
        pos_ += header_size;
        auto compressed = static_cast<size_t>(header.compressed_page_size);
        auto uncompressed = static_cast<size_t>(header.uncompressed_page_size);
        if (compressed > size_ - pos_) {
            Fail("page of " + std::to_string(compressed) + " bytes runs past the column chunk (" +
                 std::to_string(size_ - pos_) + " bytes left)");
        }
        const uint8_t* body = data_ + pos_;
        pos_ += compressed;
        switch (header.type) {
        case PageType::DICTIONARY_PAGE: {
            if (!header.dictionary_page_header) {
                Fail("dictionary page without a dictionary page header");
            }
            const uint8_t* page = Decompressed(body, compressed, uncompressed, dictionary_owner_);
            DecodeDictionaryPage(page, uncompressed, header.dictionary_page_header->num_values);
            continue;
        }
        case PageType::DATA_PAGE:
        case PageType::DATA_PAGE_V2: {
            if (header.type == PageType::DATA_PAGE ? !header.data_page_header
                                                   : !header.data_page_header_v2) {
                Fail("data page without its data page header");
            }
            int32_t values = header.type == PageType::DATA_PAGE
                                 ? header.data_page_header->num_values
                                 : header.data_page_header_v2->num_values;
            if (values < 0) {
                Fail("data page declares " + std::to_string(values) + " values");
            }
            if (entries_left_) {
                if (uint64_t(values) > *entries_left_) {
                    Fail("data page declares " + std::to_string(values) +
                         " values, more than the " + std::to_string(*entries_left_) +
                         " its column chunk has left");
                }
                *entries_left_ -= uint64_t(values);
            }
            // Decompressed and decoded only when one of its rows is wanted (DecodePendingPage):
            // pages whose rows are all filtered out or skipped cost nothing more.
            pending_header_ = std::move(header);
            pending_body_ = body;
            page_pending_ = true;
            page_rows_ = static_cast<size_t>(values);
            page_row_ = 0;
            page_value_ = 0;
            return true;
        }
        case PageType::INDEX_PAGE:
            continue;
        }
    }
    return false;
}

void ColumnReader::DecodePendingPage() {
    page_pending_ = false;
    size_t resume = page_row_;
    const PageHeader& header = pending_header_;
    const uint8_t* body = pending_body_;
    auto compressed = static_cast<size_t>(header.compressed_page_size);
    auto uncompressed = static_cast<size_t>(header.uncompressed_page_size);
    switch (header.type) {
    case PageType::DATA_PAGE: {
        const DataPageHeader& info = *header.data_page_header;
        const uint8_t* page = Decompressed(body, compressed, uncompressed, page_owner_);
        DecodeDataPage(page, uncompressed, info.num_values, info.encoding, page, uncompressed, true,
                       info.repetition_level_encoding, info.definition_level_encoding, 0);
        break;
    }
    default: {
        const DataPageHeaderV2& info = *header.data_page_header_v2;
        if (info.repetition_levels_byte_length < 0 || info.definition_levels_byte_length < 0) {
            Fail("negative level lengths");
        }
        size_t levels = static_cast<size_t>(info.repetition_levels_byte_length) +
                        static_cast<size_t>(info.definition_levels_byte_length);
        if (levels > compressed || levels > uncompressed) {
            Fail("level lengths exceed the page size");
        }
        const uint8_t* values = body + levels;
        size_t values_size = uncompressed - levels;
        page_owner_ = segments_[segment_].bytes.data;
        if (info.is_compressed) {
            values = Decompressed(body + levels, compressed - levels, values_size, page_owner_);
        } else if (compressed != uncompressed) {
            Fail("uncompressed v2 page sizes disagree");
        }
        DecodeDataPage(values, values_size, info.num_values, info.encoding, body, levels, false,
                       Encoding::RLE, Encoding::RLE,
                       static_cast<size_t>(info.repetition_levels_byte_length));
    }
    }
    SkipEntries(resume); // the rows of the page stepped over before it was needed
}

void ColumnReader::DecodeDictionaryPage(const uint8_t* page, size_t size, int32_t num_values) {
    if (num_values < 0) {
        Fail("dictionary page declares " + std::to_string(num_values) + " values");
    }
    dictionary_ = PhysicalValues();
    DecodeValues(Encoding::PLAIN, page, size, static_cast<size_t>(num_values), dictionary_);
    if (column_.conversion == Conversion::Varchar) {
        for (std::string_view value : dictionary_.binary) {
            if (!IsValidUtf8(value)) {
                Fail("invalid UTF-8 in a dictionary string");
            }
        }
    }
    // The dictionary converted once into Sluice's layout: dictionary-coded rows then gather
    // fixed-size values (strings as string_t pointing into the dictionary page).
    dictionary_vector_ =
        std::make_unique<Vector>(column_.type, std::max<size_t>(dictionary_.count, 1));
    if (dictionary_.count > 0) {
        std::vector<uint32_t> all(dictionary_.count);
        std::vector<idx_t> positions(dictionary_.count);
        for (size_t i = 0; i < dictionary_.count; i++) {
            all[i] = static_cast<uint32_t>(i);
            positions[i] = i;
        }
        Emit(dictionary_, all.data(), positions.data(), dictionary_.count, false,
             *dictionary_vector_);
    }
    has_dictionary_ = true;
    dictionary_verdicts_.reset();
}

size_t ColumnReader::SetUpRepetition(const uint8_t* levels, size_t size, bool prefixed,
                                     Encoding encoding, size_t count) {
    repetition_decoder_.reset();
    legacy_repetition_ = nullptr;
    repetition_.clear();
    repetition_start_ = 0;
    uint32_t bit_width = BitWidthOf(column_.max_repetition_level);
    try {
        if (prefixed && encoding == Encoding::BIT_PACKED) {
            size_t bytes = (count * bit_width + 7) / 8;
            if (bytes > size) {
                Fail("BIT_PACKED repetition levels are cut off");
            }
            legacy_repetition_ = levels;
            legacy_repetition_size_ = bytes;
            return bytes;
        }
        size_t used = size;
        if (prefixed) {
            if (size < 4) {
                Fail("repetition levels are cut off");
            }
            uint32_t length = LoadLittleEndian<uint32_t>(levels);
            if (length > size - 4) {
                Fail("repetition levels claim " + std::to_string(length) + " bytes");
            }
            levels += 4;
            size = length;
            used = 4 + size_t(length);
        }
        repetition_decoder_ = std::make_unique<RleBitPackedDecoder>(levels, size, bit_width);
        return used;
    } catch (const CorruptData& error) {
        Fail(std::string("repetition levels: ") + error.what());
    }
}

void ColumnReader::DecodeDataPage(const uint8_t* page, size_t size, int32_t num_values,
                                  Encoding encoding, const uint8_t* levels, size_t levels_size,
                                  bool levels_prefixed, Encoding repetition_encoding,
                                  Encoding level_encoding, size_t repetition_size) {
    if (num_values < 0) {
        Fail("data page declares " + std::to_string(num_values) + " values");
    }
    auto count = static_cast<size_t>(num_values);
    // Every value needs at least one bit of the page, except NULLs run-length encoded in the
    // levels; cap the level buffer by what the levels could possibly describe.
    size_t non_null = count;
    size_t values_start = 0; // offset of the values within `page` (v1: after the levels)
    if (column_.max_repetition_level > 0) {
        size_t used = SetUpRepetition(levels, levels_prefixed ? levels_size : repetition_size,
                                      levels_prefixed, repetition_encoding, count);
        levels += used;
        levels_size -= used;
        if (levels_prefixed) {
            values_start = used;
        }
    } else if (!levels_prefixed) {
        levels += repetition_size; // a flat column's (empty) repetition levels
        levels_size -= repetition_size;
    }
    has_levels_ = column_.max_definition_level > 0;
    level_decoder_.reset();
    legacy_levels_ = nullptr;
    if (has_levels_) {
        uint32_t bit_width = BitWidthOf(column_.max_definition_level);
        const uint8_t* rle = levels;
        size_t rle_size = levels_size;
        try {
            if (levels_prefixed && level_encoding == Encoding::BIT_PACKED) {
                size_t bytes = (count * bit_width + 7) / 8;
                if (bytes > levels_size) {
                    Fail("BIT_PACKED definition levels are cut off");
                }
                legacy_levels_ = levels;
                legacy_levels_size_ = bytes;
                values_start += bytes;
                non_null = 0;
                uint32_t batch[kVectorSize];
                for (size_t first = 0; first < count; first += kVectorSize) {
                    size_t take = std::min<size_t>(kVectorSize, count - first);
                    DecodeLegacyBitPacked(levels, bytes, bit_width, first, batch, take);
                    for (size_t i = 0; i < take; i++) {
                        non_null += batch[i] == column_.max_definition_level;
                    }
                }
            } else {
                if (levels_prefixed) {
                    if (levels_size < 4) {
                        Fail("definition levels are cut off");
                    }
                    uint32_t length = LoadLittleEndian<uint32_t>(levels);
                    if (length > levels_size - 4) {
                        Fail("definition levels claim " + std::to_string(length) + " bytes");
                    }
                    rle = levels + 4;
                    rle_size = length;
                    values_start += 4 + size_t(length);
                }
                RleBitPackedDecoder counter(rle, rle_size, bit_width);
                non_null = counter.CountEqual(count, column_.max_definition_level);
                level_decoder_ = std::make_unique<RleBitPackedDecoder>(rle, rle_size, bit_width);
            }
        } catch (const CorruptData& error) {
            Fail(std::string("definition levels: ") + error.what());
        }
    }
    const uint8_t* values = page + values_start;
    size_t values_size = size - values_start;
    page_uses_dictionary_ =
        encoding == Encoding::PLAIN_DICTIONARY || encoding == Encoding::RLE_DICTIONARY;
    if (page_uses_dictionary_) {
        if (!has_dictionary_) {
            Fail(std::string(EncodingName(encoding)) + " page without a dictionary page");
        }
        index_decoder_.reset();
        if (non_null > 0) {
            if (values_size < 1) {
                Fail("dictionary indices are missing");
            }
            try {
                index_decoder_ =
                    std::make_unique<RleBitPackedDecoder>(values + 1, values_size - 1, values[0]);
            } catch (const CorruptData& error) {
                Fail(std::string("dictionary indices: ") + error.what());
            }
        }
    } else {
        values_ = PhysicalValues();
        DecodeValues(encoding, values, values_size, non_null, values_);
        if (column_.conversion == Conversion::Varchar) {
            for (std::string_view value : values_.binary) {
                if (!IsValidUtf8(value)) {
                    Fail("invalid UTF-8 in a string value");
                }
            }
        }
    }
    page_rows_ = count;
    page_row_ = 0;
    page_value_ = 0;
}

void ColumnReader::DecodeValues(Encoding encoding, const uint8_t* data, size_t size, size_t count,
                                PhysicalValues& values) {
    values.count = count;
    size_t width = FixedWidth(column_);
    values.width = width;
    Type physical = column_.physical;
    auto need = [&](size_t bytes, const char* what) {
        if (bytes > size) {
            Fail(std::string(what) + " needs " + std::to_string(bytes) + " bytes, the page has " +
                 std::to_string(size));
        }
    };
    try {
        switch (encoding) {
        case Encoding::PLAIN:
        case Encoding::PLAIN_DICTIONARY: // dictionary pages of old writers say PLAIN_DICTIONARY
            if (physical == Type::BOOLEAN) {
                need((count + 7) / 8, "PLAIN BOOLEAN data");
                uint8_t* bits = values.Own(count);
                for (size_t i = 0; i < count; i++) {
                    bits[i] = (data[i / 8] >> (i % 8)) & 1;
                }
            } else if (physical == Type::BYTE_ARRAY) {
                values.binary.reserve(count < size / 4 + 1 ? count : size / 4 + 1);
                size_t pos = 0;
                for (size_t i = 0; i < count; i++) {
                    if (size - pos < 4) {
                        Fail("PLAIN BYTE_ARRAY value " + std::to_string(i) + " is cut off");
                    }
                    uint32_t length = LoadLittleEndian<uint32_t>(data + pos);
                    pos += 4;
                    if (length > size - pos) {
                        Fail("PLAIN BYTE_ARRAY value " + std::to_string(i) + " of " +
                             std::to_string(length) + " bytes runs past the page");
                    }
                    if (length > kMaxValueBytes) {
                        Fail("PLAIN BYTE_ARRAY value " + std::to_string(i) + " of " +
                             std::to_string(length) + " bytes is longer than a value may be (" +
                             std::to_string(kMaxValueBytes) + " bytes, as in DuckDB)");
                    }
                    values.binary.emplace_back(reinterpret_cast<const char*>(data + pos), length);
                    pos += length;
                }
            } else {
                if (count > size / width) {
                    need(count * width, "PLAIN data");
                }
                values.fixed_data = data; // the page outlives the values: no copy
            }
            return;
        case Encoding::RLE: {
            if (physical != Type::BOOLEAN) {
                break;
            }
            need(4, "RLE BOOLEAN data");
            uint32_t length = LoadLittleEndian<uint32_t>(data);
            need(4 + size_t(length), "RLE BOOLEAN data");
            std::vector<uint32_t> bits(count);
            RleBitPackedDecoder decoder(data + 4, length, 1);
            decoder.GetBatch(bits.data(), count);
            uint8_t* owned = values.Own(count);
            for (size_t i = 0; i < count; i++) {
                owned[i] = static_cast<uint8_t>(bits[i]);
            }
            return;
        }
        case Encoding::DELTA_BINARY_PACKED: {
            if (physical != Type::INT32 && physical != Type::INT64) {
                break;
            }
            size_t consumed = 0;
            std::vector<int64_t> decoded = DecodeDeltaBinaryPacked(data, size, count, consumed);
            uint8_t* owned = values.Own(count * width);
            for (size_t i = 0; i < count; i++) {
                if (physical == Type::INT32) {
                    auto narrow = static_cast<int32_t>(decoded[i]);
                    std::memcpy(owned + 4 * i, &narrow, 4);
                } else {
                    std::memcpy(owned + 8 * i, &decoded[i], 8);
                }
            }
            return;
        }
        case Encoding::DELTA_LENGTH_BYTE_ARRAY:
            if (physical != Type::BYTE_ARRAY) {
                break;
            }
            values.binary = DecodeDeltaLengthByteArray(data, size, count);
            return;
        case Encoding::DELTA_BYTE_ARRAY: {
            if (physical != Type::BYTE_ARRAY && physical != Type::FIXED_LEN_BYTE_ARRAY) {
                break;
            }
            auto storage = std::make_shared<std::vector<std::unique_ptr<char[]>>>();
            std::vector<std::string_view> decoded =
                DecodeDeltaByteArray(data, size, count, *storage);
            if (physical == Type::BYTE_ARRAY) {
                values.binary = std::move(decoded);
                page_owner_ = storage; // the rebuilt values live here, not in the page
                return;
            }
            uint8_t* owned = values.Own(count * width);
            for (size_t i = 0; i < count; i++) {
                if (decoded[i].size() != width) {
                    Fail("DELTA_BYTE_ARRAY value of " + std::to_string(decoded[i].size()) +
                         " bytes in a FIXED_LEN_BYTE_ARRAY(" + std::to_string(width) + ") column");
                }
                std::memcpy(owned + i * width, decoded[i].data(), width);
            }
            return;
        }
        case Encoding::BYTE_STREAM_SPLIT: {
            if (width == 0 || physical == Type::BOOLEAN || physical == Type::INT96) {
                break;
            }
            if (count > size / width) {
                need(count * width, "BYTE_STREAM_SPLIT data");
            }
            uint8_t* owned = values.Own(count * width);
            for (size_t b = 0; b < width; b++) {
                const uint8_t* stream = data + b * count;
                for (size_t i = 0; i < count; i++) {
                    owned[i * width + b] = stream[i];
                }
            }
            return;
        }
        default:
            break;
        }
    } catch (const CorruptData& error) {
        Fail(std::string(EncodingName(encoding)) + " data: " + error.what());
    }
    throw Exception(ErrorKind::NotImplemented,
                    context_ + ": not supported: " + EncodingName(encoding) + " encoding of " +
                        TypeName(physical) + " values");
}

} // namespace sluice::parquet
