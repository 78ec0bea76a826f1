#include "formats/parquet/delta_decoders.hpp"

#include "formats/parquet/corrupt_data.hpp"
#include "formats/parquet/rle_bit_packed_decoder.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

namespace sluice::parquet {

namespace {

class ByteReader {
public:
    ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

    uint64_t Varint() {
        uint64_t value = 0;
        for (int shift = 0;; shift += 7) {
            if (pos_ >= size_) {
                throw CorruptData("DELTA_BINARY_PACKED header is cut off");
            }
            if (shift > 63) {
                throw CorruptData("DELTA_BINARY_PACKED varint is too long");
            }
            uint8_t byte = data_[pos_++];
            value |= static_cast<uint64_t>(byte & 0x7F) << shift;
            if ((byte & 0x80) == 0) {
                return value;
            }
        }
    }
    int64_t ZigZag() {
        uint64_t value = Varint();
        return static_cast<int64_t>(value >> 1) ^ -static_cast<int64_t>(value & 1);
    }
    uint8_t Byte() {
        if (pos_ >= size_) {
            throw CorruptData("DELTA_BINARY_PACKED block header is cut off");
        }
        return data_[pos_++];
    }
    const uint8_t* Here() const { return data_ + pos_; }
    size_t Remaining() const { return size_ - pos_; }
    void Advance(size_t bytes) { pos_ += bytes < Remaining() ? bytes : Remaining(); }
    size_t position() const { return pos_; }

private:
    const uint8_t* data_;
    size_t size_;
    size_t pos_ = 0;
};

} // namespace

std::vector<int64_t> DecodeDeltaBinaryPacked(const uint8_t* data, size_t size, size_t count,
                                             size_t& consumed) {
    ByteReader reader(data, size);
    uint64_t block_size = reader.Varint();
    uint64_t miniblocks = reader.Varint();
    uint64_t total = reader.Varint();
    uint64_t value = static_cast<uint64_t>(reader.ZigZag());
    if (block_size == 0 || block_size % 128 != 0 || miniblocks == 0 ||
        block_size % miniblocks != 0 || (block_size / miniblocks) % 32 != 0 ||
        block_size > (1u << 20)) {
        throw CorruptData("invalid DELTA_BINARY_PACKED block layout");
    }
    // The stream holds exactly the page's values; a larger count would let a hostile header
    // spin over zero-width miniblocks.
    if (total != count) {
        throw CorruptData("DELTA_BINARY_PACKED holds " + std::to_string(total) +
                          " values, the page needs " + std::to_string(count));
    }
    uint64_t per_miniblock = block_size / miniblocks;
    std::vector<int64_t> values;
    values.reserve(count);
    if (total > 0) {
        values.push_back(static_cast<int64_t>(value));
    }
    uint64_t produced = total > 0 ? 1 : 0;
    std::vector<uint8_t> widths(miniblocks);
    while (produced < total) {
        uint64_t min_delta = static_cast<uint64_t>(reader.ZigZag());
        for (auto& width : widths) {
            width = reader.Byte();
            if (width > 64) {
                throw CorruptData("DELTA_BINARY_PACKED bit width " + std::to_string(width) +
                                  " exceeds 64");
            }
        }
        for (uint64_t m = 0; m < miniblocks && produced < total; m++) {
            size_t bytes = per_miniblock * widths[m] / 8;
            if (bytes > reader.Remaining()) {
                throw CorruptData("DELTA_BINARY_PACKED miniblock is cut off");
            }
            for (uint64_t i = 0; i < per_miniblock && produced < total; i++) {
                uint64_t delta = ReadPackedValue(reader.Here(), bytes, i, widths[m]);
                value += min_delta + delta;
                values.push_back(static_cast<int64_t>(value));
                produced++;
            }
            reader.Advance(bytes);
        }
    }
    consumed = reader.position();
    return values;
}

std::vector<std::string_view> DecodeDeltaLengthByteArray(const uint8_t* data, size_t size,
                                                         size_t count) {
    size_t consumed = 0;
    std::vector<int64_t> lengths = DecodeDeltaBinaryPacked(data, size, count, consumed);
    std::vector<std::string_view> values;
    values.reserve(count);
    size_t pos = consumed;
    for (size_t i = 0; i < count; i++) {
        int64_t length = lengths[i];
        if (length < 0 || static_cast<uint64_t>(length) > size - pos) {
            throw CorruptData("DELTA_LENGTH_BYTE_ARRAY value " + std::to_string(i) +
                              " runs past the page");
        }
        values.emplace_back(reinterpret_cast<const char*>(data + pos), static_cast<size_t>(length));
        pos += static_cast<size_t>(length);
    }
    return values;
}

std::vector<std::string_view> DecodeDeltaByteArray(const uint8_t* data, size_t size, size_t count,
                                                   std::vector<std::unique_ptr<char[]>>& storage) {
    size_t consumed = 0;
    std::vector<int64_t> prefixes = DecodeDeltaBinaryPacked(data, size, count, consumed);
    std::vector<std::string_view> suffixes =
        DecodeDeltaLengthByteArray(data + consumed, size - consumed, count);
    // First pass: sizes, so that one allocation holds every value.
    size_t total = 0;
    size_t previous = 0;
    std::vector<size_t> lengths(count);
    for (size_t i = 0; i < count; i++) {
        if (prefixes[i] < 0 || static_cast<uint64_t>(prefixes[i]) > previous) {
            throw CorruptData("DELTA_BYTE_ARRAY prefix length " + std::to_string(prefixes[i]) +
                              " exceeds the previous value");
        }
        lengths[i] = static_cast<size_t>(prefixes[i]) + suffixes[i].size();
        total += lengths[i];
        previous = lengths[i];
    }
    storage.push_back(std::make_unique<char[]>(total == 0 ? 1 : total));
    char* buffer = storage.back().get();
    std::vector<std::string_view> values;
    values.reserve(count);
    size_t pos = 0;
    for (size_t i = 0; i < count; i++) {
        size_t prefix = static_cast<size_t>(prefixes[i]);
        if (prefix > 0) {
            std::memcpy(buffer + pos, values.back().data(), prefix);
        }
        std::memcpy(buffer + pos + prefix, suffixes[i].data(), suffixes[i].size());
        values.emplace_back(buffer + pos, lengths[i]);
        pos += lengths[i];
    }
    return values;
}

} // namespace sluice::parquet
