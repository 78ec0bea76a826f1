#include "formats/parquet/rle_bit_packed_decoder.hpp"

#include "formats/parquet/corrupt_data.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

namespace sluice::parquet {

uint32_t BitWidthOf(uint64_t max_value) {
    uint32_t width = 0;
    while (max_value > 0) {
        width++;
        max_value >>= 1;
    }
    return width;
}

uint64_t ReadPackedValue(const uint8_t* data, size_t size, uint64_t index, uint32_t bit_width) {
    if (bit_width == 0) {
        return 0;
    }
    uint64_t bit = index * bit_width;
    uint64_t byte = bit / 8;
    uint32_t shift = bit % 8;
    // Up to 64 bits plus a 7-bit shift span 9 bytes; read what exists.
    uint8_t window[16] = {0};
    size_t available = byte < size ? size - byte : 0;
    std::memcpy(window, data + byte, available < 9 ? available : 9);
    uint64_t low;
    std::memcpy(&low, window, 8);
    uint64_t value = low >> shift;
    if (shift + bit_width > 64) {
        value |= static_cast<uint64_t>(window[8]) << (64 - shift);
    }
    return bit_width == 64 ? value : value & ((uint64_t(1) << bit_width) - 1);
}

namespace {

// Groups of 8 values of W bits (W bytes) with every shift a compile-time constant, which the
// compiler unrolls; each value is read through an 8-byte window, so the caller guarantees 8
// readable bytes past the group's last value's first byte.
template <uint32_t W>
void UnpackGroups(const uint8_t* data, uint32_t* out, size_t groups) {
    constexpr uint64_t kMask = (uint64_t(1) << W) - 1;
    for (size_t g = 0; g < groups; g++, data += W, out += 8) {
        for (uint32_t j = 0; j < 8; j++) {
            uint64_t word;
            std::memcpy(&word, data + (j * W) / 8, 8);
            out[j] = static_cast<uint32_t>((word >> ((j * W) % 8)) & kMask);
        }
    }
}

using GroupUnpacker = void (*)(const uint8_t*, uint32_t*, size_t);

template <uint32_t... Widths>
constexpr std::array<GroupUnpacker, sizeof...(Widths) + 1>
MakeUnpackers(std::integer_sequence<uint32_t, Widths...>) {
    return {nullptr, &UnpackGroups<Widths + 1>...};
}

// Bit widths 1..25: a value's 8-byte window (shift <= 7) holds it.
constexpr auto kGroupUnpackers = MakeUnpackers(std::make_integer_sequence<uint32_t, 25>());

} // namespace

void UnpackBits(const uint8_t* data, size_t size, uint32_t bit_width, uint64_t first, uint32_t* out,
                size_t count) {
    if (bit_width == 0) {
        std::fill(out, out + count, 0u);
        return;
    }
    const uint64_t mask = (uint64_t(1) << bit_width) - 1;
    // Values whose 8-byte window lies inside the buffer need no bounds test.
    uint64_t safe_end = size >= 8 ? ((size - 8) * 8) / bit_width + 1 : 0;
    size_t fast =
        safe_end > first ? static_cast<size_t>(std::min<uint64_t>(count, safe_end - first)) : 0;
    uint64_t bit = first * bit_width;
    size_t i = 0;
    auto one = [&] {
        uint64_t word;
        std::memcpy(&word, data + (bit >> 3), 8); // shift (<= 7) + width (<= 32) fits in 64 bits
        out[i] = static_cast<uint32_t>((word >> (bit & 7)) & mask);
        i++;
        bit += bit_width;
    };
    if (bit_width < kGroupUnpackers.size()) {
        // Values up to a multiple of 8 one by one, then whole groups of 8 (byte-aligned).
        while (i < fast && (first + i) % 8 != 0) {
            one();
        }
        size_t groups = (fast - i) / 8;
        kGroupUnpackers[bit_width](data + (bit >> 3), out + i, groups);
        i += groups * 8;
        bit += groups * 8 * bit_width;
    }
    while (i < fast) {
        one();
    }
    for (size_t i = fast; i < count; i++) {
        out[i] = static_cast<uint32_t>(ReadPackedValue(data, size, first + i, bit_width));
    }
}

RleBitPackedDecoder::RleBitPackedDecoder(const uint8_t* data, size_t size, uint32_t bit_width)
    : data_(data), size_(size), bit_width_(bit_width), byte_width_((bit_width + 7) / 8) {
    if (bit_width > 32) {
        throw CorruptData("RLE bit width " + std::to_string(bit_width) + " exceeds 32");
    }
}

bool RleBitPackedDecoder::NextRun() {
    uint64_t header = 0;
    for (int shift = 0;; shift += 7) {
        if (pos_ >= size_) {
            return false;
        }
        if (shift > 63) {
            throw CorruptData("RLE run header is too long");
        }
        uint8_t byte = data_[pos_++];
        header |= static_cast<uint64_t>(byte & 0x7F) << shift;
        if ((byte & 0x80) == 0) {
            break;
        }
    }
    if (header & 1) {
        uint64_t groups = header >> 1;
        uint64_t bytes = groups * bit_width_;
        // A final bit-packed run may be cut short by the writer: accept what is there.
        size_t available = size_ - pos_;
        packed_ = true;
        packed_data_ = data_ + pos_;
        packed_index_ = 0;
        remaining_ = groups * 8;
        if (bytes > available) {
            remaining_ = bit_width_ == 0 ? remaining_ : available * 8 / bit_width_;
            pos_ = size_;
        } else {
            pos_ += bytes;
        }
    } else {
        packed_ = false;
        remaining_ = header >> 1;
        if (byte_width_ > size_ - pos_) {
            throw CorruptData("RLE run value is cut off");
        }
        repeated_value_ = 0;
        std::memcpy(&repeated_value_, data_ + pos_, byte_width_);
        pos_ += byte_width_;
    }
    return true;
}

template <class OnRun>
void RleBitPackedDecoder::Consume(size_t count, OnRun on_run) {
    size_t done = 0;
    while (done < count) {
        if (remaining_ == 0) {
            if (!NextRun()) {
                throw CorruptData("RLE data ends after " + std::to_string(done) + " of " +
                                  std::to_string(count) + " values");
            }
            continue;
        }
        size_t take = remaining_ < count - done ? remaining_ : count - done;
        on_run(done, take);
        if (packed_) {
            packed_index_ += take;
        }
        remaining_ -= take;
        done += take;
    }
}

void RleBitPackedDecoder::GetBatch(uint32_t* out, size_t count) {
    Consume(count, [&](size_t done, size_t take) {
        if (packed_) {
            // Bounded by the whole buffer, not the run: values near the run's end then still
            // take the fast 8-byte reads (the bytes after the run are read, never used).
            size_t readable = static_cast<size_t>(data_ + size_ - packed_data_);
            UnpackBits(packed_data_, readable, bit_width_, packed_index_, out + done, take);
        } else {
            std::fill(out + done, out + done + take, repeated_value_);
        }
    });
}

size_t RleBitPackedDecoder::CountEqual(size_t count, uint32_t value) {
    size_t equal = 0;
    Consume(count, [&](size_t, size_t take) {
        if (packed_) {
            size_t packed_size = static_cast<size_t>(data_ + pos_ - packed_data_);
            for (size_t i = 0; i < take; i++) {
                equal += ReadPackedValue(packed_data_, packed_size, packed_index_ + i,
                                         bit_width_) == value;
            }
        } else if (repeated_value_ == value) {
            equal += take; // a whole run-length run in one step
        }
    });
    return equal;
}

void DecodeLegacyBitPacked(const uint8_t* data, size_t size, uint32_t bit_width, uint64_t first,
                           uint32_t* out, size_t count) {
    if (((first + count) * bit_width + 7) / 8 > size) {
        throw CorruptData("BIT_PACKED levels are cut off");
    }
    for (size_t i = 0; i < count; i++) {
        uint32_t value = 0;
        for (uint32_t b = 0; b < bit_width; b++) {
            uint64_t bit = (first + i) * bit_width + b;
            value = (value << 1) | ((data[bit / 8] >> (7 - bit % 8)) & 1);
        }
        out[i] = value;
    }
}

} // namespace sluice::parquet
