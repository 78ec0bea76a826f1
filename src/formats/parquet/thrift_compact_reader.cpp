#include "formats/parquet/thrift_compact_reader.hpp"

#include "formats/parquet/corrupt_data.hpp"

#include <cstring>
#include <stdexcept>

namespace sluice {

namespace {

int64_t ZigZag(uint64_t value) {
    return static_cast<int64_t>(value >> 1) ^ -static_cast<int64_t>(value & 1);
}

} // namespace

void ThriftCompactReader::Fail(const std::string& reason) const {
    throw parquet::CorruptData(reason + " at byte " + std::to_string(pos_) + " of " +
                               std::to_string(size_));
}

void ThriftCompactReader::Need(size_t bytes) const {
    if (bytes > size_ - pos_) {
        Fail("Thrift data ends unexpectedly");
    }
}

uint8_t ThriftCompactReader::ReadRawByte() {
    Need(1);
    return data_[pos_++];
}

uint64_t ThriftCompactReader::ReadVarint() {
    uint64_t result = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        uint8_t byte = ReadRawByte();
        if (shift == 63 && (byte & 0x7E) != 0) {
            Fail("Thrift varint overflows 64 bits");
        }
        result |= static_cast<uint64_t>(byte & 0x7F) << shift;
        if ((byte & 0x80) == 0) {
            return result;
        }
    }
    Fail("Thrift varint is too long");
}

void ThriftCompactReader::BeginStruct() {
    if (last_field_ids_.size() >= kMaxDepth) {
        Fail("Thrift structures nested too deeply");
    }
    last_field_ids_.push_back(0);
}

void ThriftCompactReader::EndStruct() {
    last_field_ids_.pop_back();
}

bool ThriftCompactReader::NextField(Field& field) {
    uint8_t header = ReadRawByte();
    field.type = header & 0x0F;
    if (field.type == kStop) {
        return false;
    }
    if (field.type > kStruct) {
        Fail("unknown Thrift field type " + std::to_string(field.type));
    }
    uint8_t delta = header >> 4;
    if (delta == 0) {
        field.id = static_cast<int16_t>(ZigZag(ReadVarint()));
    } else {
        field.id = static_cast<int16_t>(last_field_ids_.back() + delta);
    }
    last_field_ids_.back() = field.id;
    return true;
}

bool ThriftCompactReader::ReadListBool() {
    return ReadRawByte() == kBoolTrue;
}

int8_t ThriftCompactReader::ReadByte() {
    return static_cast<int8_t>(ReadRawByte());
}

int16_t ThriftCompactReader::ReadI16() {
    int64_t value = ZigZag(ReadVarint());
    if (value < INT16_MIN || value > INT16_MAX) {
        Fail("Thrift i16 out of range");
    }
    return static_cast<int16_t>(value);
}

int32_t ThriftCompactReader::ReadI32() {
    int64_t value = ZigZag(ReadVarint());
    if (value < INT32_MIN || value > INT32_MAX) {
        Fail("Thrift i32 out of range");
    }
    return static_cast<int32_t>(value);
}

int64_t ThriftCompactReader::ReadI64() {
    return ZigZag(ReadVarint());
}

double ThriftCompactReader::ReadDouble() {
    Need(8);
    double value;
    std::memcpy(&value, data_ + pos_, 8);
    pos_ += 8;
    return value;
}

std::string ThriftCompactReader::ReadBinary() {
    uint64_t length = ReadVarint();
    Need(length);
    std::string value(reinterpret_cast<const char*>(data_ + pos_), length);
    pos_ += length;
    return value;
}

uint32_t ThriftCompactReader::BeginList(uint8_t& element_type) {
    uint8_t header = ReadRawByte();
    element_type = header & 0x0F;
    uint64_t count = header >> 4;
    if (count == 15) {
        count = ReadVarint();
    }
    // Every element takes at least one byte, so a count beyond the remaining bytes is a lie.
    if (count > size_ - pos_) {
        Fail("Thrift list claims " + std::to_string(count) + " elements");
    }
    return static_cast<uint32_t>(count);
}

void ThriftCompactReader::Skip(uint8_t type) {
    switch (type) {
    case kBoolTrue:
    case kBoolFalse:
        return;
    case kByte:
        ReadRawByte();
        return;
    case kI16:
    case kI32:
    case kI64:
        ReadVarint();
        return;
    case kDouble:
        Need(8);
        pos_ += 8;
        return;
    case kBinary: {
        uint64_t length = ReadVarint();
        Need(length);
        pos_ += length;
        return;
    }
    case kList:
    case kSet: {
        uint8_t element_type;
        uint32_t count = BeginList(element_type);
        if (last_field_ids_.size() >= kMaxDepth) {
            Fail("Thrift structures nested too deeply");
        }
        last_field_ids_.push_back(0); // depth accounting only
        for (uint32_t i = 0; i < count; i++) {
            if (element_type == kBoolTrue || element_type == kBoolFalse) {
                ReadRawByte();
            } else {
                Skip(element_type);
            }
        }
        last_field_ids_.pop_back();
        return;
    }
    case kMap: {
        uint64_t count = ReadVarint();
        if (count == 0) {
            return;
        }
        uint8_t types = ReadRawByte();
        if (count > size_ - pos_) {
            Fail("Thrift map claims " + std::to_string(count) + " entries");
        }
        if (last_field_ids_.size() >= kMaxDepth) {
            Fail("Thrift structures nested too deeply");
        }
        last_field_ids_.push_back(0); // depth accounting only: maps of maps recurse too
        auto skip_element = [&](uint8_t element_type) {
            if (element_type == kBoolTrue || element_type == kBoolFalse) {
                ReadRawByte(); // inside containers booleans take a byte
            } else {
                Skip(element_type);
            }
        };
        for (uint64_t i = 0; i < count; i++) {
            skip_element(types >> 4);
            skip_element(types & 0x0F);
        }
        last_field_ids_.pop_back();
        return;
    }
    case kStruct: {
        BeginStruct();
        Field field;
        while (NextField(field)) {
            Skip(field.type);
        }
        EndStruct();
        return;
    }
    default:
        Fail("unknown Thrift type " + std::to_string(type));
    }
}

} // namespace sluice
