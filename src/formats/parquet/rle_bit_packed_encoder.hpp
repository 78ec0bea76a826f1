#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sluice::parquet {

// Encodes values with the RLE / bit-packing hybrid: runs of 8 or more equal values become RLE
// runs, everything else bit-packed groups of 8 (only the final group is padded).
void EncodeRleBitPacked(const uint32_t* values, size_t count, uint32_t bit_width,
                        std::vector<uint8_t>& out);

} // namespace sluice::parquet
