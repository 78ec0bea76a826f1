#pragma once

#include "formats/parquet/parquet_metadata.hpp"

#include <cstddef>
#include <cstdint>

namespace sluice::parquet {

// Decompresses one page into exactly `output_size` bytes: SNAPPY with the decoder written here
// (snappy_decoder.hpp), the other codecs with Debian's libraries.
// Throws CorruptData naming the codec when the data is corrupt or the size differs.
void Decompress(Codec codec, const uint8_t* input, size_t input_size, uint8_t* output,
                size_t output_size);

} // namespace sluice::parquet
