#include "formats/arrow/arrow_ipc_writer.hpp"

#include "common/exception.hpp"

#include <flatbuffers/flatbuffers.h>

#include <cerrno>
#include <cstring>
#include <string_view>

namespace sluice::arrow {

namespace {

using flatbuffers::FieldIndexToOffset;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

// Values from the format's FlatBuffers schemas.
constexpr int16_t kMetadataV5 = 4;
enum MessageHeader : uint8_t { kSchemaHeader = 1, kRecordBatchHeader = 3 };
enum TypeId : uint8_t {
    kNull = 1,
    kInt = 2,
    kFloatingPoint = 3,
    kBinary = 4,
    kUtf8 = 5,
    kBool = 6,
    kDecimal = 7,
    kDate = 8,
    kTime = 9,
    kTimestamp = 10,
    kInterval = 11,
    kList = 12,
    kStruct = 13,
    kMap = 17,
};
enum TimeUnit : int16_t { kMicrosecond = 2, kNanosecond = 3 };
constexpr int16_t kDateDay = 0;
constexpr int16_t kIntervalMonthDayNano = 2;

// Message.fbs's FieldNode and Buffer structs.
struct FieldNode {
    int64_t length;
    int64_t null_count;
};
struct BufferSpan {
    int64_t offset;
    int64_t length;
};

constexpr uint32_t kContinuation = 0xFFFFFFFF;
constexpr char kMagic[8] = {'A', 'R', 'R', 'O', 'W', '1', 0, 0};

size_t PaddedTo8(size_t size) {
    return (size + 7) / 8 * 8;
}

// A table with only scalar fields `fields` (index, value) written when they differ from 0.
template <class T>
Offset<void> ScalarTable(FlatBufferBuilder& builder,
                         std::initializer_list<std::pair<int, T>> fields) {
    auto start = builder.StartTable();
    for (const auto& [index, value] : fields) {
        builder.AddElement<T>(FieldIndexToOffset(static_cast<flatbuffers::voffset_t>(index)), value,
                              0);
    }
    return Offset<void>(builder.EndTable(start));
}

Offset<void> EmptyTable(FlatBufferBuilder& builder) {
    return Offset<void>(builder.EndTable(builder.StartTable()));
}

// Schema.fbs's Type union member for a C Data format string, and its table.
Offset<void> TypeTable(FlatBufferBuilder& builder, std::string_view format, uint8_t& type) {
    auto integer = [&](int32_t bits, bool is_signed) {
        type = kInt;
        auto start = builder.StartTable();
        builder.AddElement<int32_t>(FieldIndexToOffset(0), bits, 0);
        builder.AddElement<uint8_t>(FieldIndexToOffset(1), is_signed ? 1 : 0, 0);
        return Offset<void>(builder.EndTable(start));
    };
    if (format.size() == 1) {
        switch (format[0]) {
        case 'n':
            type = kNull;
            return EmptyTable(builder);
        case 'b':
            type = kBool;
            return EmptyTable(builder);
        case 'c':
            return integer(8, true);
        case 'C':
            return integer(8, false);
        case 's':
            return integer(16, true);
        case 'S':
            return integer(16, false);
        case 'i':
            return integer(32, true);
        case 'I':
            return integer(32, false);
        case 'l':
            return integer(64, true);
        case 'L':
            return integer(64, false);
        case 'f':
            type = kFloatingPoint;
            return ScalarTable<int16_t>(builder, {{0, 1}}); // SINGLE
        case 'g':
            type = kFloatingPoint;
            return ScalarTable<int16_t>(builder, {{0, 2}}); // DOUBLE
        case 'u':
            type = kUtf8;
            return EmptyTable(builder);
        case 'z':
            type = kBinary;
            return EmptyTable(builder);
        default:
            break;
        }
    }
    if (format.rfind("d:", 0) == 0) {
        int precision = 0;
        int scale = 0;
        std::sscanf(std::string(format.substr(2)).c_str(), "%d,%d", &precision, &scale);
        type = kDecimal;
        auto start = builder.StartTable();
        builder.AddElement<int32_t>(FieldIndexToOffset(0), precision, 0);
        builder.AddElement<int32_t>(FieldIndexToOffset(1), scale, 0);
        builder.AddElement<int32_t>(FieldIndexToOffset(2), 128, 128);
        return Offset<void>(builder.EndTable(start));
    }
    if (format == "tdD") {
        type = kDate;
        auto start = builder.StartTable();
        builder.AddElement<int16_t>(FieldIndexToOffset(0), kDateDay, 1);
        return Offset<void>(builder.EndTable(start));
    }
    if (format == "ttu") {
        type = kTime;
        auto start = builder.StartTable();
        builder.AddElement<int16_t>(FieldIndexToOffset(0), kMicrosecond, 1);
        builder.AddElement<int32_t>(FieldIndexToOffset(1), 64, 32);
        return Offset<void>(builder.EndTable(start));
    }
    if (format.rfind("tsu:", 0) == 0 || format.rfind("tsn:", 0) == 0) {
        std::string_view zone = format.substr(4);
        Offset<flatbuffers::String> timezone;
        if (!zone.empty()) {
            timezone = builder.CreateString(zone.data(), zone.size());
        }
        type = kTimestamp;
        auto start = builder.StartTable();
        builder.AddElement<int16_t>(FieldIndexToOffset(0),
                                    format[2] == 'u' ? kMicrosecond : kNanosecond, 0);
        if (!zone.empty()) {
            builder.AddOffset(FieldIndexToOffset(1), timezone);
        }
        return Offset<void>(builder.EndTable(start));
    }
    if (format == "tin") {
        type = kInterval;
        return ScalarTable<int16_t>(builder, {{0, kIntervalMonthDayNano}});
    }
    if (format == "+l") {
        type = kList;
        return EmptyTable(builder);
    }
    if (format == "+s") {
        type = kStruct;
        return EmptyTable(builder);
    }
    if (format == "+m") {
        type = kMap;
        return ScalarTable<uint8_t>(builder, {{0, 0}}); // keysSorted: false
    }
    throw Exception(ErrorKind::NotImplemented,
                    "Arrow IPC: no writer for format \"" + std::string(format) + "\"");
}

Offset<void> FieldTable(FlatBufferBuilder& builder, const ArrowSchema& schema) {
    auto name = builder.CreateString(schema.name ? schema.name : "");
    uint8_t type_id = 0;
    Offset<void> type = TypeTable(builder, schema.format, type_id);
    std::vector<Offset<void>> children;
    for (int64_t i = 0; i < schema.n_children; i++) {
        children.push_back(FieldTable(builder, *schema.children[i]));
    }
    auto child_vector = builder.CreateVector(children);
    auto start = builder.StartTable();
    builder.AddOffset(FieldIndexToOffset(0), name);
    builder.AddElement<uint8_t>(FieldIndexToOffset(1),
                                (schema.flags & ARROW_FLAG_NULLABLE) != 0 ? 1 : 0, 0);
    builder.AddElement<uint8_t>(FieldIndexToOffset(2), type_id, 0);
    builder.AddOffset(FieldIndexToOffset(3), type);
    builder.AddOffset(FieldIndexToOffset(5), child_vector);
    return Offset<void>(builder.EndTable(start));
}

// Schema.fbs's Schema table: the columns (the children of the exported top-level struct).
Offset<void> SchemaTable(FlatBufferBuilder& builder, const ArrowSchema& schema) {
    std::vector<Offset<void>> fields;
    for (int64_t i = 0; i < schema.n_children; i++) {
        fields.push_back(FieldTable(builder, *schema.children[i]));
    }
    auto field_vector = builder.CreateVector(fields);
    auto start = builder.StartTable();
    builder.AddOffset(FieldIndexToOffset(1), field_vector); // endianness 0: little
    return Offset<void>(builder.EndTable(start));
}

// Message.fbs's Message table around a header, finished.
void FinishMessage(FlatBufferBuilder& builder, MessageHeader header_type, Offset<void> header,
                   int64_t body_length) {
    auto start = builder.StartTable();
    builder.AddElement<int16_t>(FieldIndexToOffset(0), kMetadataV5, 0);
    builder.AddElement<uint8_t>(FieldIndexToOffset(1), header_type, 0);
    builder.AddOffset(FieldIndexToOffset(2), header);
    builder.AddElement<int64_t>(FieldIndexToOffset(3), body_length, 0);
    builder.Finish(Offset<void>(builder.EndTable(start)));
}

// The body of a record batch: its field nodes in depth-first order and its buffers, each at an
// offset padded to 8 bytes.
struct Body {
    std::vector<FieldNode> nodes;
    std::vector<BufferSpan> buffers;
    std::vector<std::pair<const void*, size_t>> pieces;
    int64_t size = 0;

    void Add(const void* data, size_t length) {
        buffers.push_back({size, static_cast<int64_t>(length)});
        pieces.emplace_back(data, length);
        size += static_cast<int64_t>(PaddedTo8(length));
    }
};

size_t FixedWidth(std::string_view format) {
    switch (format[0]) {
    case 'c':
    case 'C':
        return 1;
    case 's':
    case 'S':
        return 2;
    case 'i':
    case 'I':
    case 'f':
        return 4;
    case 'd':
        return 16;
    case 't':
        return format == "tdD" ? 4 : format == "tin" ? 16 : 8;
    default:
        return 8; // l, L, g
    }
}

void AddArray(const ArrowSchema& schema, const ArrowArray& array, Body& body) {
    if (array.offset != 0) {
        throw Exception(ErrorKind::Internal, "Arrow IPC: arrays with an offset are not written");
    }
    auto length = static_cast<size_t>(array.length);
    body.nodes.push_back({array.length, array.null_count});
    std::string_view format = schema.format;
    if (format == "n") {
        return; // the null type has no buffers
    }
    bool has_validity = array.null_count > 0 && array.buffers[0] != nullptr;
    body.Add(has_validity ? array.buffers[0] : nullptr, has_validity ? (length + 7) / 8 : 0);
    if (format == "+s") {
        for (int64_t i = 0; i < array.n_children; i++) {
            AddArray(*schema.children[i], *array.children[i], body);
        }
        return;
    }
    if (format == "+l" || format == "+m") {
        body.Add(array.buffers[1], (length + 1) * sizeof(int32_t));
        AddArray(*schema.children[0], *array.children[0], body);
        return;
    }
    if (format == "u" || format == "z") {
        const auto* offsets = static_cast<const int32_t*>(array.buffers[1]);
        body.Add(offsets, (length + 1) * sizeof(int32_t));
        body.Add(array.buffers[2], static_cast<size_t>(offsets[length]));
        return;
    }
    if (format == "b") {
        body.Add(array.buffers[1], (length + 7) / 8);
        return;
    }
    body.Add(array.buffers[1], length * FixedWidth(format));
}

// Releases an exported array when it goes out of scope.
struct ArrayGuard {
    ArrowArray array{};
    ~ArrayGuard() {
        if (array.release != nullptr) {
            array.release(&array);
        }
    }
};

} // namespace

ArrowIpcWriter::ArrowIpcWriter(std::string path, const std::vector<std::string>& names,
                               const std::vector<LogicalType>& types, IpcForm form)
    : path_(std::move(path)), form_(form) {
    ExportSchema(names, types, &schema_);
    file_ = std::fopen(path_.c_str(), "wb");
    if (!file_) {
        schema_.release(&schema_);
        throw Exception(ErrorKind::IO, "cannot create \"" + path_ + "\": " + std::strerror(errno));
    }
    if (form_ == IpcForm::kFile) {
        WriteBytes(kMagic, sizeof(kMagic));
    }
    FlatBufferBuilder builder;
    FinishMessage(builder, kSchemaHeader, SchemaTable(builder, schema_), 0);
    WriteMessage(builder.GetBufferPointer(), builder.GetSize(), {});
}

ArrowIpcWriter::~ArrowIpcWriter() {
    if (schema_.release != nullptr) {
        schema_.release(&schema_);
    }
    if (file_) {
        std::fclose(file_);
        if (!finished_) {
            std::remove(path_.c_str());
        }
    }
}

void ArrowIpcWriter::Append(DataChunk& chunk) {
    if (chunk.size() == 0) {
        return;
    }
    // The chunk outlives the exported arrays, which are written and released here.
    ArrayGuard exported;
    ExportChunk(std::shared_ptr<DataChunk>(std::shared_ptr<DataChunk>(), &chunk), &exported.array);
    Body body;
    for (int64_t i = 0; i < exported.array.n_children; i++) {
        AddArray(*schema_.children[i], *exported.array.children[i], body);
    }
    FlatBufferBuilder builder;
    auto nodes = builder.CreateVectorOfStructs(body.nodes.data(), body.nodes.size());
    auto buffers = builder.CreateVectorOfStructs(body.buffers.data(), body.buffers.size());
    auto start = builder.StartTable();
    builder.AddElement<int64_t>(FieldIndexToOffset(0), exported.array.length, 0);
    builder.AddOffset(FieldIndexToOffset(1), nodes);
    builder.AddOffset(FieldIndexToOffset(2), buffers);
    FinishMessage(builder, kRecordBatchHeader, Offset<void>(builder.EndTable(start)), body.size);
    batches_.push_back(WriteMessage(builder.GetBufferPointer(), builder.GetSize(), body.pieces));
    rows_written_ += chunk.size();
}

void ArrowIpcWriter::Finish() {
    uint32_t end[2] = {kContinuation, 0};
    WriteBytes(end, sizeof(end));
    if (form_ == IpcForm::kFile) {
        // File.fbs's Footer: the schema again and where each record batch is.
        FlatBufferBuilder builder;
        auto schema = SchemaTable(builder, schema_);
        auto blocks = builder.CreateVectorOfStructs(batches_.data(), batches_.size());
        auto start = builder.StartTable();
        builder.AddElement<int16_t>(FieldIndexToOffset(0), kMetadataV5, 0);
        builder.AddOffset(FieldIndexToOffset(1), schema);
        builder.AddOffset(FieldIndexToOffset(3), blocks);
        builder.Finish(Offset<void>(builder.EndTable(start)));
        WriteBytes(builder.GetBufferPointer(), builder.GetSize());
        auto footer_size = static_cast<int32_t>(builder.GetSize());
        WriteBytes(&footer_size, sizeof(footer_size));
        WriteBytes(kMagic, 6);
    }
    if (std::fflush(file_) != 0) {
        throw Exception(ErrorKind::IO,
                        "could not write \"" + path_ + "\": " + std::strerror(errno));
    }
    finished_ = true;
}

ArrowIpcWriter::Block
ArrowIpcWriter::WriteMessage(const uint8_t* metadata, size_t metadata_size,
                             const std::vector<std::pair<const void*, size_t>>& body) {
    static const uint8_t kZeros[8] = {};
    Block block{};
    block.offset = static_cast<int64_t>(position_);
    auto padded = static_cast<int32_t>(PaddedTo8(8 + metadata_size) - 8);
    WriteBytes(&kContinuation, sizeof(kContinuation));
    WriteBytes(&padded, sizeof(padded));
    WriteBytes(metadata, metadata_size);
    WriteBytes(kZeros, static_cast<size_t>(padded) - metadata_size);
    block.metadata_length = 8 + padded;
    uint64_t body_start = position_;
    for (const auto& [data, size] : body) {
        WriteBytes(data, size);
        WriteBytes(kZeros, PaddedTo8(size) - size);
    }
    block.body_length = static_cast<int64_t>(position_ - body_start);
    return block;
}

void ArrowIpcWriter::WriteBytes(const void* data, size_t size) {
    if (size > 0 && std::fwrite(data, 1, size, file_) != size) {
        throw Exception(ErrorKind::IO,
                        "could not write \"" + path_ + "\": " + std::strerror(errno));
    }
    position_ += size;
}

} // namespace sluice::arrow
