#include "formats/parquet/thrift_compact_writer.hpp"

#include "formats/parquet/thrift_compact_reader.hpp"

namespace sluice {

void ThriftCompactWriter::Varint(uint64_t value) {
    while (value >= 0x80) {
        out_.push_back(static_cast<uint8_t>(value | 0x80));
        value >>= 7;
    }
    out_.push_back(static_cast<uint8_t>(value));
}

void ThriftCompactWriter::ZigZag(int64_t value) {
    Varint((static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63));
}

void ThriftCompactWriter::BeginStruct() {
    last_ids_.push_back(0);
}

void ThriftCompactWriter::EndStruct() {
    out_.push_back(ThriftCompactReader::kStop);
    last_ids_.pop_back();
}

void ThriftCompactWriter::FieldHeader(int16_t id, uint8_t type) {
    int delta = id - last_ids_.back();
    if (delta > 0 && delta <= 15) {
        out_.push_back(static_cast<uint8_t>((delta << 4) | type));
    } else {
        out_.push_back(type);
        ZigZag(id);
    }
    last_ids_.back() = id;
}

void ThriftCompactWriter::WriteI32Field(int16_t id, int32_t value) {
    FieldHeader(id, ThriftCompactReader::kI32);
    ZigZag(value);
}

void ThriftCompactWriter::WriteI64Field(int16_t id, int64_t value) {
    FieldHeader(id, ThriftCompactReader::kI64);
    ZigZag(value);
}

void ThriftCompactWriter::WriteBoolField(int16_t id, bool value) {
    FieldHeader(id, value ? ThriftCompactReader::kBoolTrue : ThriftCompactReader::kBoolFalse);
}

void ThriftCompactWriter::WriteByteField(int16_t id, int8_t value) {
    FieldHeader(id, ThriftCompactReader::kByte);
    out_.push_back(static_cast<uint8_t>(value));
}

void ThriftCompactWriter::WriteBinaryField(int16_t id, std::string_view value) {
    FieldHeader(id, ThriftCompactReader::kBinary);
    WriteBinary(value);
}

void ThriftCompactWriter::BeginStructField(int16_t id) {
    FieldHeader(id, ThriftCompactReader::kStruct);
    BeginStruct();
}

void ThriftCompactWriter::BeginListField(int16_t id, uint8_t element_type, uint32_t count) {
    FieldHeader(id, ThriftCompactReader::kList);
    if (count < 15) {
        out_.push_back(static_cast<uint8_t>((count << 4) | element_type));
    } else {
        out_.push_back(static_cast<uint8_t>(0xF0 | element_type));
        Varint(count);
    }
}

void ThriftCompactWriter::WriteI32(int32_t value) {
    ZigZag(value);
}

void ThriftCompactWriter::WriteI64(int64_t value) {
    ZigZag(value);
}

void ThriftCompactWriter::WriteBool(bool value) {
    out_.push_back(value ? ThriftCompactReader::kBoolTrue : ThriftCompactReader::kBoolFalse);
}

void ThriftCompactWriter::WriteBinary(std::string_view value) {
    Varint(value.size());
    out_.insert(out_.end(), value.begin(), value.end());
}

} // namespace sluice
