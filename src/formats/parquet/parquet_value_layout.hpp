#pragma once

#include "common/data_chunk.hpp"
#include "formats/parquet/parquet_metadata.hpp"
#include "formats/parquet/thrift_compact_writer.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace sluice::parquet {

// How one Sluice type is stored in Parquet.
struct Layout {
    Type type;
    int32_t type_length = 0; // FIXED_LEN_BYTE_ARRAY only
    int32_t width = 0;       // bytes per PLAIN value (0: BYTE_ARRAY)
    ConvertedType converted = ConvertedType::NONE;
    int precision = 0;
    int scale = 0;
    bool is_unsigned = false; // statistics order the bits as unsigned numbers
};

// Throws NotImplemented for types Parquet cannot hold.
Layout LayoutOf(const LogicalType& type);

// Non-NULL values of a column in Parquet's PLAIN representation, with a definition level per row.
// The values are copies: they outlive the chunks they came from.
struct ColumnValues {
    std::vector<uint32_t> defined; // one per row: 1 valid, 0 NULL
    std::vector<uint8_t> fixed;    // width bytes per valid value, or the bytes of all strings
    std::vector<size_t> ends;      // strings only: where each one ends in `fixed`
    size_t count = 0;

    std::string_view Value(size_t index, int32_t width) const {
        const char* bytes = reinterpret_cast<const char*>(fixed.data());
        if (width == 0) {
            size_t begin = index == 0 ? 0 : ends[index - 1];
            return {bytes + begin, ends[index] - begin};
        }
        return {bytes + index * width, size_t(width)};
    }
    void AppendBinary(std::string_view value) {
        fixed.insert(fixed.end(), value.begin(), value.end());
        ends.push_back(fixed.size());
    }
    void Clear() {
        defined.clear();
        fixed.clear();
        ends.clear();
        count = 0;
    }
};

// Appends row `row` of `vector` (valid) to `values`.
void AppendValue(const Vector& vector, idx_t row, const Layout& layout, ColumnValues& values);

// Appends values [begin, end) PLAIN encoded.
void AppendPlain(const ColumnValues& values, size_t begin, size_t end, const Layout& layout,
                 std::vector<uint8_t>& out);

// Min and max of a range of values (NaN excluded), as PLAIN bytes, ordered as the column's
// statistics must be: signed for numbers, unsigned bytes for strings.
struct MinMax {
    bool present = false;
    std::string min, max;

    void Add(std::string_view value, const Layout& layout);
    void Merge(const MinMax& other, const Layout& layout);
    // String statistics longer than this are left out rather than truncated.
    bool Writable() const;
};

// A Statistics struct as field `field` of the enclosing struct.
void WriteStatistics(ThriftCompactWriter& writer, int16_t field, int64_t null_count,
                     const MinMax& range);

// The LogicalType annotation (field 10 of SchemaElement) of `type`, if it has one.
void WriteLogicalType(ThriftCompactWriter& writer, const LogicalType& type, const Layout& layout);

} // namespace sluice::parquet
