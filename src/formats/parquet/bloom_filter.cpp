#include "formats/parquet/bloom_filter.hpp"

#include "formats/parquet/corrupt_data.hpp"
#include "formats/parquet/thrift_compact_reader.hpp"

#include <cstring>
#include <stdexcept>
#include <xxhash.h>

namespace sluice::parquet {

namespace {

constexpr uint32_t kSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                               0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};
constexpr size_t kBlockBytes = 32;

// Reads a Thrift union holding one empty struct and returns its field id (0: none).
int16_t ReadUnionChoice(ThriftCompactReader& reader) {
    int16_t choice = 0;
    reader.BeginStruct();
    ThriftCompactReader::Field field;
    while (reader.NextField(field)) {
        if (choice == 0 && field.type == ThriftCompactReader::kStruct) {
            choice = field.id;
        }
        reader.Skip(field.type);
    }
    reader.EndStruct();
    return choice;
}

} // namespace

std::optional<BloomFilter> BloomFilter::Parse(const uint8_t* data, size_t size) {
    ThriftCompactReader reader(data, size);
    int32_t num_bytes = -1;
    int16_t algorithm = 0, hash = 0, compression = 0;
    reader.BeginStruct();
    ThriftCompactReader::Field field;
    while (reader.NextField(field)) {
        switch (field.id) {
        case 1:
            num_bytes = reader.ReadI32();
            break;
        case 2:
            algorithm = ReadUnionChoice(reader);
            break;
        case 3:
            hash = ReadUnionChoice(reader);
            break;
        case 4:
            compression = ReadUnionChoice(reader);
            break;
        default:
            reader.Skip(field.type);
        }
    }
    reader.EndStruct();
    // BLOCK, XXHASH and UNCOMPRESSED are each their union's field 1.
    if (algorithm != 1 || hash != 1 || compression != 1) {
        return std::nullopt;
    }
    if (num_bytes < int32_t(kBlockBytes) || num_bytes % kBlockBytes != 0) {
        throw CorruptData("bloom filter of " + std::to_string(num_bytes) + " bytes");
    }
    size_t header = reader.position();
    if (size_t(num_bytes) > size - header) {
        throw CorruptData("bloom filter bitset of " + std::to_string(num_bytes) +
                          " bytes is cut off");
    }
    BloomFilter filter;
    filter.words_.resize(size_t(num_bytes) / 4);
    for (size_t i = 0; i < filter.words_.size(); i++) {
        const uint8_t* word = data + header + 4 * i;
        filter.words_[i] = uint32_t(word[0]) | uint32_t(word[1]) << 8 | uint32_t(word[2]) << 16 |
                           uint32_t(word[3]) << 24;
    }
    return filter;
}

bool BloomFilter::MayContainHash(uint64_t hash) const {
    uint64_t blocks = words_.size() / 8;
    const uint32_t* block = words_.data() + 8 * (((hash >> 32) * blocks) >> 32);
    auto key = static_cast<uint32_t>(hash);
    for (size_t i = 0; i < 8; i++) {
        uint32_t bit = uint32_t(1) << ((key * kSalt[i]) >> 27);
        if ((block[i] & bit) == 0) {
            return false;
        }
    }
    return true;
}

std::optional<uint64_t> BloomHash(const ParquetColumn& column, const Value& value) {
    if (value.IsNull()) {
        return std::nullopt;
    }
    auto hash_of = [](const void* bytes, size_t size) { return XXH64(bytes, size, 0); };
    switch (column.conversion) {
    case Conversion::Int32:
    case Conversion::Int32ToInt8:
    case Conversion::Int32ToInt16:
    case Conversion::UInt8:
    case Conversion::UInt16:
    case Conversion::UInt32:
    case Conversion::DecimalFromInt32: {
        // The stored INT32 bits (unsigned values keep their bit pattern).
        auto stored = static_cast<uint32_t>(static_cast<uint64_t>(value.GetInteger()));
        return hash_of(&stored, 4);
    }
    case Conversion::Int64:
    case Conversion::UInt64:
    case Conversion::DecimalFromInt64:
    case Conversion::TimestampMicros:
    case Conversion::TimeMicros: {
        auto stored = static_cast<uint64_t>(value.GetInteger());
        return hash_of(&stored, 8);
    }
    case Conversion::Varchar:
    case Conversion::Blob:
        if (column.physical != Type::BYTE_ARRAY) {
            return std::nullopt;
        }
        return hash_of(value.GetString().data(), value.GetString().size());
    default:
        return std::nullopt;
    }
}

} // namespace sluice::parquet
