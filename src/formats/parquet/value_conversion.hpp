#pragma once

#include "common/vector.hpp"
#include "formats/parquet/parquet_schema.hpp"

#include <cstring>
#include <string_view>
#include <vector>

namespace sluice::parquet {

// Decoded physical values of one page or dictionary: fixed-width values as little-endian bytes
// (`width` each; BOOLEAN one byte per value), BYTE_ARRAY values as views.
struct PhysicalValues {
    size_t width = 0;
    size_t count = 0;
    // Fixed-width values: `fixed_data` points into the page itself for PLAIN data, else into
    // `owned` (booleans, delta and byte-stream-split decoding).
    const uint8_t* fixed_data = nullptr;
    std::vector<uint8_t> owned;
    std::vector<std::string_view> binary;

    // Makes `owned` the storage of `bytes` fixed-width values.
    uint8_t* Own(size_t bytes) {
        owned.resize(bytes);
        fixed_data = owned.data();
        return owned.data();
    }
};

template <class T>
T LoadLittleEndian(const uint8_t* data) {
    T value;
    std::memcpy(&value, data, sizeof(T));
    return value;
}

// Bytes per PLAIN value of the column's physical type (0 for BYTE_ARRAY).
size_t FixedWidth(const ParquetColumn& column);
// Whether the column's physical values are already in Sluice's layout (bulk copies suffice).
bool SameLayout(const ParquetColumn& column);

// Writes source values index[i] to rows[i] of `out`, converted as the column says. With `bulk`
// (consecutive runs of a SameLayout column) it is one copy. Strings are not copied: `out` must
// keep `source`'s memory alive. Throws CorruptData for values Sluice cannot hold.
void ConvertValues(const ParquetColumn& column, const PhysicalValues& source, const uint32_t* index,
                   const idx_t* rows, size_t count, bool bulk, Vector& out);

} // namespace sluice::parquet
