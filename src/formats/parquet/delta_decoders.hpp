#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace sluice::parquet {

// DELTA_BINARY_PACKED: blocks of miniblocks of bit-packed deltas from a running value. Decodes
// `count` values (wrapping 64-bit arithmetic, as the specification requires) and reports the
// bytes consumed, since DELTA_LENGTH_BYTE_ARRAY data follows the lengths directly.
std::vector<int64_t> DecodeDeltaBinaryPacked(const uint8_t* data, size_t size, size_t count,
                                             size_t& consumed);

// DELTA_LENGTH_BYTE_ARRAY: lengths (delta-packed), then the concatenated bytes.
std::vector<std::string_view> DecodeDeltaLengthByteArray(const uint8_t* data, size_t size,
                                                         size_t count);

// DELTA_BYTE_ARRAY: prefix lengths and suffixes (incremental encoding). The values are rebuilt
// into `storage`, which the returned views point into.
std::vector<std::string_view> DecodeDeltaByteArray(const uint8_t* data, size_t size, size_t count,
                                                   std::vector<std::unique_ptr<char[]>>& storage);

} // namespace sluice::parquet
