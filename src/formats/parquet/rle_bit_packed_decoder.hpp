#pragma once

#include <cstddef>
#include <cstdint>

namespace sluice::parquet {

// Decodes Parquet's RLE / bit-packing hybrid (definition levels, dictionary indices, RLE
// booleans): a sequence of runs, each either one value repeated or groups of 8 values packed
// LSB-first at `bit_width` bits. Throws CorruptData when the data runs out.
class RleBitPackedDecoder {
public:
    RleBitPackedDecoder(const uint8_t* data, size_t size, uint32_t bit_width);

    void GetBatch(uint32_t* out, size_t count);
    // Consumes `count` values and returns how many equal `value`, without materialising them
    // (run-length encoded runs are counted in one step).
    size_t CountEqual(size_t count, uint32_t value);

private:
    bool NextRun();
    // Walks `count` values run by run, calling on_run(values done, values in this run).
    template <class OnRun>
    void Consume(size_t count, OnRun on_run);

    const uint8_t* data_;
    size_t size_;
    size_t pos_ = 0;
    uint32_t bit_width_;
    uint32_t byte_width_;
    // current run
    bool packed_ = false;
    uint64_t remaining_ = 0;
    uint32_t repeated_value_ = 0;
    const uint8_t* packed_data_ = nullptr;
    uint64_t packed_index_ = 0;
};

// Decodes values [first, first + count) packed MSB-first (the deprecated BIT_PACKED encoding of
// levels).
void DecodeLegacyBitPacked(const uint8_t* data, size_t size, uint32_t bit_width, uint64_t first,
                           uint32_t* out, size_t count);

// Reads `bit_width`-bit value number `index` from an LSB-first packed buffer of `size` bytes.
uint64_t ReadPackedValue(const uint8_t* data, size_t size, uint64_t index, uint32_t bit_width);

// Unpacks values [first, first + count) of width `bit_width` (<= 32) from an LSB-first packed
// buffer of `size` bytes.
void UnpackBits(const uint8_t* data, size_t size, uint32_t bit_width, uint64_t first, uint32_t* out,
                size_t count);

uint32_t BitWidthOf(uint64_t max_value);

} // namespace sluice::parquet
