#include "common/chunk_serializer.hpp"

#include "common/exception.hpp"

#include <cstring>
#include <vector>

namespace sluice {

namespace {

template <class T>
void Put(std::string& out, T value) {
    out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

class ByteReader {
public:
    ByteReader(const uint8_t* data, size_t size) : data_(data), end_(data + size) {}

    const uint8_t* Take(size_t size) {
        if (static_cast<size_t>(end_ - data_) < size) {
            throw Exception(ErrorKind::Internal, "spilled chunk ends early");
        }
        const uint8_t* at = data_;
        data_ += size;
        return at;
    }
    template <class T>
    T Get() {
        T value;
        std::memcpy(&value, Take(sizeof(T)), sizeof(T));
        return value;
    }

private:
    const uint8_t* data_;
    const uint8_t* end_;
};

// A row of `vector` (CONSTANT vectors hold every row at 0).
idx_t Source(const Vector& vector, idx_t row) {
    return vector.vector_type() == VectorType::CONSTANT ? 0 : row;
}

void SerializeVector(const Vector& vector, idx_t rows, std::string& out);
void DeserializeVector(ByteReader& reader, Vector& vector, idx_t rows);

// A list's lengths, then its elements in row order as one vector.
void SerializeLists(const Vector& vector, idx_t rows, std::string& out) {
    const auto* entries = vector.data<list_entry_t>();
    std::vector<idx_t> element_rows;
    for (idx_t row = 0; row < rows; row++) {
        list_entry_t entry =
            vector.RowIsValid(row) ? entries[Source(vector, row)] : list_entry_t{0, 0};
        Put<uint64_t>(out, entry.length);
        for (idx_t i = 0; i < entry.length; i++) {
            element_rows.push_back(entry.offset + i);
        }
    }
    Vector elements(vector.list_child().type(), element_rows.size());
    elements.Gather(vector.list_child(), element_rows.data(), element_rows.size());
    SerializeVector(elements, element_rows.size(), out);
}

void DeserializeLists(ByteReader& reader, Vector& vector, idx_t rows) {
    auto* entries = vector.data<list_entry_t>();
    idx_t total = 0;
    for (idx_t row = 0; row < rows; row++) {
        auto length = reader.Get<uint64_t>();
        entries[row] = list_entry_t{total, length};
        total += length;
    }
    if (total > (uint64_t(1) << 40)) {
        throw Exception(ErrorKind::Internal,
                        "spilled chunk holds a list of " + std::to_string(total) + " elements");
    }
    idx_t start = vector.ReserveElements(total);
    for (idx_t row = 0; row < rows; row++) {
        entries[row].offset += start;
    }
    if (start != 0) {
        throw Exception(ErrorKind::Internal, "spilled lists read into a used vector");
    }
    DeserializeVector(reader, vector.list_child(), total);
}

void SerializeVector(const Vector& vector, idx_t rows, std::string& out) {
    bool all_valid = true;
    for (idx_t row = 0; row < rows && all_valid; row++) {
        all_valid = vector.RowIsValid(row);
    }
    Put<uint8_t>(out, all_valid ? 1 : 0);
    if (!all_valid) {
        std::string bits((rows + 7) / 8, '\0');
        for (idx_t row = 0; row < rows; row++) {
            if (vector.RowIsValid(row)) {
                bits[row / 8] = static_cast<char>(bits[row / 8] | (1 << (row % 8)));
            }
        }
        out += bits;
    }
    PhysicalType physical = vector.type().physical();
    if (physical == PhysicalType::LIST) {
        SerializeLists(vector, rows, out);
        return;
    }
    if (physical == PhysicalType::STRUCT) {
        for (idx_t field = 0; field < vector.type().fields().size(); field++) {
            SerializeVector(vector.struct_child(field), rows, out);
        }
        return;
    }
    if (physical != PhysicalType::VARCHAR) {
        idx_t width = PhysicalTypeSize(physical);
        const char* data = vector.data<char>();
        if (vector.vector_type() == VectorType::CONSTANT) {
            for (idx_t row = 0; row < rows; row++) {
                out.append(data, width);
            }
        } else {
            out.append(data, rows * width);
        }
        return;
    }
    const string_t* strings = vector.data<string_t>();
    for (idx_t row = 0; row < rows; row++) {
        bool valid = vector.RowIsValid(row);
        Put<uint32_t>(out, valid ? strings[Source(vector, row)].size() : 0);
    }
    for (idx_t row = 0; row < rows; row++) {
        if (vector.RowIsValid(row)) {
            out += strings[Source(vector, row)].view();
        }
    }
}

void DeserializeVector(ByteReader& reader, Vector& vector, idx_t rows) {
    bool all_valid = reader.Get<uint8_t>() != 0;
    if (!all_valid) {
        const uint8_t* bits = reader.Take((rows + 7) / 8);
        for (idx_t row = 0; row < rows; row++) {
            if (((bits[row / 8] >> (row % 8)) & 1) == 0) {
                vector.SetNull(row);
            }
        }
    }
    PhysicalType physical = vector.type().physical();
    if (physical == PhysicalType::LIST) {
        DeserializeLists(reader, vector, rows);
        return;
    }
    if (physical == PhysicalType::STRUCT) {
        for (idx_t field = 0; field < vector.type().fields().size(); field++) {
            DeserializeVector(reader, vector.struct_child(field), rows);
        }
        return;
    }
    if (physical != PhysicalType::VARCHAR) {
        idx_t bytes = rows * PhysicalTypeSize(physical);
        std::memcpy(vector.data<uint8_t>(), reader.Take(bytes), bytes);
        return;
    }
    const uint8_t* lengths = reader.Take(rows * sizeof(uint32_t));
    size_t heap_bytes = 0;
    for (idx_t row = 0; row < rows; row++) {
        uint32_t length;
        std::memcpy(&length, lengths + row * sizeof(uint32_t), sizeof(length));
        if (vector.RowIsValid(row) && length > string_t::kInlineLength) {
            heap_bytes += length;
        }
    }
    if (heap_bytes > 0) {
        vector.string_heap().Reserve(heap_bytes);
    }
    string_t* strings = vector.data<string_t>();
    for (idx_t row = 0; row < rows; row++) {
        uint32_t length;
        std::memcpy(&length, lengths + row * sizeof(uint32_t), sizeof(length));
        if (!vector.RowIsValid(row)) {
            strings[row] = string_t();
            continue;
        }
        const char* text = reinterpret_cast<const char*>(reader.Take(length));
        strings[row] = vector.AddString(std::string_view(text, length));
    }
}

} // namespace

void SerializeChunk(const DataChunk& chunk, std::string& out) {
    idx_t rows = chunk.size();
    Put<uint32_t>(out, static_cast<uint32_t>(rows));
    for (idx_t column = 0; column < chunk.ColumnCount(); column++) {
        SerializeVector(chunk.column(column), rows, out);
    }
}

void DeserializeChunk(const uint8_t* data, size_t size, DataChunk& out) {
    ByteReader reader(data, size);
    out.Reset();
    auto rows = reader.Get<uint32_t>();
    if (rows > kVectorSize) {
        throw Exception(ErrorKind::Internal, "spilled chunk has " + std::to_string(rows) + " rows");
    }
    for (idx_t column = 0; column < out.ColumnCount(); column++) {
        DeserializeVector(reader, out.column(column), rows);
    }
    out.SetSize(rows);
}

} // namespace sluice
