// libFuzzer target: arbitrary bytes as Thrift compact metadata. The first byte picks what they
// are decoded as: a Parquet footer, a page header, an offset index, a column index, a bloom
// filter header, or any struct walked field by field. The decoders' contract is an exception
// with a reason on malformed input (the scan adds the file and offset): anything else, or a
// decoded page header longer than its input, is a bug.
#include "formats/parquet/bloom_filter.hpp"
#include "formats/parquet/corrupt_data.hpp"
#include "formats/parquet/page_index.hpp"
#include "formats/parquet/parquet_metadata.hpp"
#include "formats/parquet/thrift_compact_reader.hpp"

#include <cstdlib>
#include <stdexcept>

using namespace sluice;
using namespace sluice::parquet;

namespace {

// Every field of every struct, skipped by type: the reader's own walk of unknown fields.
void WalkStruct(ThriftCompactReader& reader) {
    reader.BeginStruct();
    ThriftCompactReader::Field field;
    while (reader.NextField(field)) {
        reader.Skip(field.type);
    }
    reader.EndStruct();
}

void Decode(uint8_t choice, const uint8_t* data, size_t size) {
    switch (choice % 6) {
    case 0:
        DecodeFileMetaData(data, size);
        return;
    case 1: {
        size_t header_size = 0;
        DecodePageHeader(data, size, header_size);
        if (header_size > size) {
            abort(); // a header cannot take more bytes than it was given
        }
        return;
    }
    case 2: {
        OffsetIndex index = DecodeOffsetIndex(data, size, 4, 1 << 20, 1 << 16);
        for (size_t i = 1; i < index.page_locations.size(); i++) {
            if (index.page_locations[i].offset <= index.page_locations[i - 1].offset) {
                abort(); // the decoder promises ascending offsets
            }
        }
        return;
    }
    case 3:
        DecodeColumnIndex(data, size, size % 7);
        return;
    case 4:
        if (auto filter = BloomFilter::Parse(data, size)) {
            filter->MayContainHash(size * 0x9e3779b97f4a7c15ULL);
        }
        return;
    default: {
        ThriftCompactReader reader(data, size);
        WalkStruct(reader);
        if (reader.position() > size) {
            abort();
        }
        return;
    }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) {
        return 0;
    }
    try {
        Decode(data[0], data + 1, size - 1);
    } catch (const CorruptData&) {
        // the documented outcome for malformed metadata
    }
    return 0;
}
