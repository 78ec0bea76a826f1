#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sluice {

// Writes the Thrift compact protocol (Parquet's footer and page headers) into a byte buffer.
// Fields must be written in increasing id order within a struct, as the protocol's deltas need.
class ThriftCompactWriter {
public:
    explicit ThriftCompactWriter(std::vector<uint8_t>& out) : out_(out) {}

    void BeginStruct();
    void EndStruct(); // writes the STOP field

    void WriteI32Field(int16_t id, int32_t value);
    void WriteI64Field(int16_t id, int64_t value);
    void WriteBoolField(int16_t id, bool value);
    void WriteByteField(int16_t id, int8_t value);
    void WriteBinaryField(int16_t id, std::string_view value);
    // Opens a struct-typed field; close it with EndStruct.
    void BeginStructField(int16_t id);
    // Opens a list-typed field of `count` elements of `element_type` (a ThriftCompactReader type).
    void BeginListField(int16_t id, uint8_t element_type, uint32_t count);

    // List elements.
    void WriteI32(int32_t value);
    void WriteI64(int64_t value);
    void WriteBool(bool value);
    void WriteBinary(std::string_view value);

private:
    void FieldHeader(int16_t id, uint8_t type);
    void Varint(uint64_t value);
    void ZigZag(int64_t value);

    std::vector<uint8_t>& out_;
    std::vector<int16_t> last_ids_;
};

} // namespace sluice
