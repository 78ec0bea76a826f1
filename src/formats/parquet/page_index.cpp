#include "formats/parquet/page_index.hpp"

#include "formats/parquet/corrupt_data.hpp"
#include "formats/parquet/parquet_statistics.hpp"
#include "formats/parquet/thrift_compact_reader.hpp"
#include "formats/parquet/thrift_compact_writer.hpp"

#include <stdexcept>

namespace sluice::parquet {

namespace {

using Field = ThriftCompactReader::Field;
using TType = ThriftCompactReader::Type;

[[noreturn]] void Malformed(const std::string& what) {
    throw CorruptData(what);
}

// Reads a list field whose elements must be of `expected` type, `read` called for each.
template <class Read>
void ReadTypedList(ThriftCompactReader& reader, const Field& field, uint8_t expected,
                   const char* name, Read read) {
    if (field.type != TType::kList) {
        Malformed(std::string(name) + " is not a list");
    }
    uint8_t element_type;
    uint32_t count = reader.BeginList(element_type);
    bool booleans = expected == TType::kBoolTrue;
    if (booleans ? (element_type != TType::kBoolTrue && element_type != TType::kBoolFalse)
                 : element_type != expected) {
        Malformed(std::string(name) + " holds elements of the wrong type");
    }
    for (uint32_t i = 0; i < count; i++) {
        read();
    }
}

} // namespace

OffsetIndex DecodeOffsetIndex(const uint8_t* data, size_t size, uint64_t chunk_begin,
                              uint64_t chunk_end, int64_t rows) {
    ThriftCompactReader reader(data, size);
    OffsetIndex index;
    bool has_locations = false;
    reader.BeginStruct();
    Field field;
    while (reader.NextField(field)) {
        if (field.id != 1) {
            reader.Skip(field.type);
            continue;
        }
        has_locations = true;
        ReadTypedList(reader, field, TType::kStruct, "page_locations", [&] {
            PageLocation location;
            bool seen[3] = {false, false, false};
            reader.BeginStruct();
            Field inner;
            while (reader.NextField(inner)) {
                if (inner.id >= 1 && inner.id <= 3 &&
                    inner.type != (inner.id == 2 ? TType::kI32 : TType::kI64)) {
                    Malformed("a page location field has the wrong type");
                }
                switch (inner.id) {
                case 1:
                    location.offset = reader.ReadI64();
                    break;
                case 2:
                    location.compressed_page_size = reader.ReadI32();
                    break;
                case 3:
                    location.first_row_index = reader.ReadI64();
                    break;
                default:
                    reader.Skip(inner.type);
                    continue;
                }
                seen[inner.id - 1] = true;
            }
            reader.EndStruct();
            if (!seen[0] || !seen[1] || !seen[2]) {
                Malformed("a page location lacks a required field");
            }
            index.page_locations.push_back(location);
        });
    }
    reader.EndStruct();
    if (!has_locations || index.page_locations.empty()) {
        Malformed("no page locations");
    }
    uint64_t next_offset = chunk_begin;
    for (size_t i = 0; i < index.page_locations.size(); i++) {
        const PageLocation& page = index.page_locations[i];
        std::string which = "page " + std::to_string(i);
        if (page.offset < 0 || uint64_t(page.offset) < next_offset ||
            page.compressed_page_size <= 0 ||
            uint64_t(page.offset) + uint64_t(page.compressed_page_size) > chunk_end) {
            Malformed(which + " at offset " + std::to_string(page.offset) + " of " +
                      std::to_string(page.compressed_page_size) +
                      " bytes is out of order or outside its column chunk");
        }
        bool first = i == 0;
        if (first ? page.first_row_index != 0
                  : (page.first_row_index <= index.page_locations[i - 1].first_row_index ||
                     page.first_row_index >= rows)) {
            Malformed(which + " starts at row " + std::to_string(page.first_row_index) +
                      ", out of order or past the row group's " + std::to_string(rows) + " rows");
        }
        next_offset = uint64_t(page.offset) + uint64_t(page.compressed_page_size);
    }
    return index;
}

ColumnIndex DecodeColumnIndex(const uint8_t* data, size_t size, size_t page_count) {
    ThriftCompactReader reader(data, size);
    ColumnIndex index;
    reader.BeginStruct();
    Field field;
    while (reader.NextField(field)) {
        switch (field.id) {
        case 1:
            ReadTypedList(reader, field, TType::kBoolTrue, "null_pages",
                          [&] { index.null_pages.push_back(reader.ReadListBool()); });
            break;
        case 2:
            ReadTypedList(reader, field, TType::kBinary, "min_values",
                          [&] { index.min_values.push_back(reader.ReadBinary()); });
            break;
        case 3:
            ReadTypedList(reader, field, TType::kBinary, "max_values",
                          [&] { index.max_values.push_back(reader.ReadBinary()); });
            break;
        case 5:
            ReadTypedList(reader, field, TType::kI64, "null_counts",
                          [&] { index.null_counts.push_back(reader.ReadI64()); });
            break;
        default:
            reader.Skip(field.type);
        }
    }
    reader.EndStruct();
    if (index.null_pages.size() != page_count || index.min_values.size() != page_count ||
        index.max_values.size() != page_count ||
        (!index.null_counts.empty() && index.null_counts.size() != page_count)) {
        Malformed("the column index does not describe the offset index's " +
                  std::to_string(page_count) + " pages");
    }
    return index;
}

void EncodeOffsetIndex(const OffsetIndex& index, std::vector<uint8_t>& out) {
    ThriftCompactWriter writer(out);
    writer.BeginStruct();
    writer.BeginListField(1, TType::kStruct, static_cast<uint32_t>(index.page_locations.size()));
    for (const PageLocation& page : index.page_locations) {
        writer.BeginStruct();
        writer.WriteI64Field(1, page.offset);
        writer.WriteI32Field(2, page.compressed_page_size);
        writer.WriteI64Field(3, page.first_row_index);
        writer.EndStruct();
    }
    writer.EndStruct();
}

void EncodeColumnIndex(const ColumnIndex& index, std::vector<uint8_t>& out) {
    ThriftCompactWriter writer(out);
    auto pages = static_cast<uint32_t>(index.null_pages.size());
    writer.BeginStruct();
    writer.BeginListField(1, TType::kBoolTrue, pages);
    for (bool null_page : index.null_pages) {
        writer.WriteBool(null_page);
    }
    writer.BeginListField(2, TType::kBinary, pages);
    for (const std::string& min : index.min_values) {
        writer.WriteBinary(min);
    }
    writer.BeginListField(3, TType::kBinary, pages);
    for (const std::string& max : index.max_values) {
        writer.WriteBinary(max);
    }
    writer.WriteI32Field(4, 0); // boundary_order UNORDERED: readers then test every page
    if (!index.null_counts.empty()) {
        writer.BeginListField(5, TType::kI64, pages);
        for (int64_t count : index.null_counts) {
            writer.WriteI64(count);
        }
    }
    writer.EndStruct();
}

ColumnStatistics PageStatistics(const ParquetColumn& column, const ColumnIndex& index, size_t page,
                                int64_t rows) {
    std::optional<int64_t> nulls;
    if (!index.null_counts.empty()) {
        nulls = index.null_counts[page];
    }
    if (index.null_pages[page]) {
        return StatisticsFromBounds(column, nullptr, nullptr, rows, rows);
    }
    return StatisticsFromBounds(column, &index.min_values[page], &index.max_values[page], nulls,
                                rows);
}

} // namespace sluice::parquet
