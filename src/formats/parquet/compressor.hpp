#pragma once

#include "formats/parquet/parquet_metadata.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sluice::parquet {

// Compresses one page with `codec` (UNCOMPRESSED copies). Throws an Internal Exception when a codec
// library fails, NotImplemented for a codec Sluice does not write.
void Compress(Codec codec, const uint8_t* input, size_t size, std::vector<uint8_t>& output);

} // namespace sluice::parquet
