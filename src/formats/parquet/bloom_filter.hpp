#pragma once

#include "common/value.hpp"
#include "formats/parquet/parquet_schema.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace sluice::parquet {

// A column chunk's split-block bloom filter (Parquet's BloomFilter.md): 32-byte blocks of eight
// 32-bit words; a value's XXH64 hash (of its PLAIN bytes, seed 0) picks a block with its upper
// half and sets one bit per word with its lower half times eight salts. A false answer proves the
// value is absent from the chunk.
class BloomFilter {
public:
    // Parses the filter's header (Thrift BloomFilterHeader: split-block, XXH64, uncompressed) and
    // bitset from `data` (the bytes at bloom_filter_offset). Null when the layout is one Sluice
    // does not know, which only means no pruning; throws CorruptData when corrupt.
    static std::optional<BloomFilter> Parse(const uint8_t* data, size_t size);

    bool MayContainHash(uint64_t hash) const;

private:
    std::vector<uint32_t> words_; // 8 per block
};

// The hash a Parquet writer stored for `value` in a chunk of `column`: XXH64 of the value's
// PLAIN encoding (BYTE_ARRAY without its length). Null for columns whose stored form Sluice does
// not derive here (floating point, whose -0.0 and NaN bit patterns differ from SQL equality;
// INT96; big-endian decimals; timestamps stored in another unit than Sluice's).
std::optional<uint64_t> BloomHash(const ParquetColumn& column, const Value& value);

} // namespace sluice::parquet
