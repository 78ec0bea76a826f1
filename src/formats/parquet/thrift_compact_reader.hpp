#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sluice {

// Reads the Thrift compact protocol, the encoding of Parquet's footer and page headers. Every
// read is bounds-checked against the buffer and nesting is limited, so corrupt or hostile
// metadata gives an exception (CorruptData with a short reason), never a crash or an
// allocation larger than the input.
class ThriftCompactReader {
public:
    enum Type : uint8_t {
        kStop = 0,
        kBoolTrue = 1,
        kBoolFalse = 2,
        kByte = 3,
        kI16 = 4,
        kI32 = 5,
        kI64 = 6,
        kDouble = 7,
        kBinary = 8,
        kList = 9,
        kSet = 10,
        kMap = 11,
        kStruct = 12,
    };

    struct Field {
        int16_t id = 0;
        uint8_t type = kStop;
    };

    ThriftCompactReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

    // Struct traversal: BeginStruct, then NextField until it returns false, then EndStruct.
    void BeginStruct();
    bool NextField(Field& field);
    void EndStruct();

    bool ReadBool(const Field& field) const { return field.type == kBoolTrue; }
    bool ReadListBool();
    int8_t ReadByte();
    int16_t ReadI16();
    int32_t ReadI32();
    int64_t ReadI64();
    double ReadDouble();
    std::string ReadBinary();
    // Returns the element count; the element type is stored in `element_type`.
    uint32_t BeginList(uint8_t& element_type);

    void Skip(uint8_t type);
    size_t position() const { return pos_; }

private:
    uint64_t ReadVarint();
    uint8_t ReadRawByte();
    void Need(size_t bytes) const;
    [[noreturn]] void Fail(const std::string& reason) const;

    static constexpr size_t kMaxDepth = 64;

    const uint8_t* data_;
    size_t size_;
    size_t pos_ = 0;
    std::vector<int16_t> last_field_ids_;
};

} // namespace sluice
