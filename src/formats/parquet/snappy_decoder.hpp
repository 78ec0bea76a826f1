#pragma once

#include <cstddef>
#include <cstdint>

namespace sluice::parquet {

// Decodes a raw snappy block (the format of google/snappy's format_description.txt, as Parquet
// stores SNAPPY pages) into exactly `output_size` bytes. Written here because Debian's libsnappy
// 1.1.9 spends most of a Parquet scan's decompression time calling memcpy for short literals:
// this decoder copies short literals and matches in wide unaligned moves (bench/snappy_decode
// compares both). Never reads outside the input or writes outside the output; throws
// CorruptData for a corrupt block or a length that is not `output_size`.
void SnappyDecode(const uint8_t* input, size_t input_size, uint8_t* output, size_t output_size);

} // namespace sluice::parquet
