#include "formats/arrow/arrow_c_data.hpp"

#include "common/cpu_dispatch.hpp"
#include "common/date_time.hpp"
#include "common/exception.hpp"
#include "common/number_format.hpp"

#include <climits>
#include <cstring>
#include <mutex>

namespace sluice {

namespace {

// What an exported schema node owns: its strings and its children.
struct SchemaData {
    std::string format;
    std::string name;
    std::vector<ArrowSchema> children;
    std::vector<ArrowSchema*> child_pointers;
};

// The release callback of a node whose private data is a `Data`: the children a consumer has
// not moved out (a moved child's release is null) are released with it.
template <class Node, class Data>
void ReleaseNode(Node* node) {
    if (node->release == nullptr) {
        return;
    }
    for (int64_t i = 0; i < node->n_children; i++) {
        Node* child = node->children[i];
        if (child->release != nullptr) {
            child->release(child);
        }
    }
    delete static_cast<Data*>(node->private_data);
    node->release = nullptr;
}

void ReleaseSchema(ArrowSchema* schema) {
    ReleaseNode<ArrowSchema, SchemaData>(schema);
}

struct NamedType {
    std::string name;
    LogicalType type;
    bool nullable;
};

void FillSchema(const NamedType& field, ArrowSchema* out);

// A node of `format` named `name` with `children`.
void FillNode(std::string format, std::string name, bool nullable,
              const std::vector<NamedType>& children, ArrowSchema* out) {
    auto* data = new SchemaData();
    data->format = std::move(format);
    data->name = std::move(name);
    data->children.resize(children.size());
    for (size_t i = 0; i < children.size(); i++) {
        data->child_pointers.push_back(&data->children[i]);
    }
    *out = ArrowSchema{};
    out->format = data->format.c_str();
    out->name = data->name.c_str();
    out->metadata = nullptr;
    out->flags = nullable ? ARROW_FLAG_NULLABLE : 0;
    out->n_children = static_cast<int64_t>(children.size());
    out->children = data->child_pointers.empty() ? nullptr : data->child_pointers.data();
    out->dictionary = nullptr;
    out->release = ReleaseSchema;
    out->private_data = data;
    try {
        for (size_t i = 0; i < children.size(); i++) {
            FillSchema(children[i], &data->children[i]);
        }
    } catch (...) {
        ReleaseSchema(out); // with the children filled so far
        throw;
    }
}

void FillSchema(const NamedType& field, ArrowSchema* out) {
    const LogicalType& type = field.type;
    std::vector<NamedType> children;
    switch (type.id()) {
    case LogicalTypeId::LIST:
        children.push_back({"l", type.element(), true});
        break;
    case LogicalTypeId::STRUCT:
        for (const auto& child : type.fields()) {
            children.push_back({child.name, child.type, true});
        }
        break;
    case LogicalTypeId::MAP:
        // A map's entries are a non-nullable struct whose keys are never NULL.
        FillNode(ArrowFormat(type), field.name, field.nullable,
                 {{"entries", LogicalType::Struct({{"key", type.key()}, {"value", type.value()}}),
                   false}},
                 out);
        {
            ArrowSchema* entries = out->children[0];
            entries->children[0]->flags = 0;
        }
        return;
    default:
        break;
    }
    FillNode(ArrowFormat(type), field.name, field.nullable, children, out);
}

// Blocks of converted buffers freed by released batches, kept for the next batches' exports:
// a consumer that releases each batch before asking for more (the usual stream reader) then
// needs no new memory after the first few (malloc and free of the blocks were a sixth of an
// export's time). Bounded: blocks beyond the bound are freed.
class BlockPool {
public:
    static constexpr size_t kBlock = 256 << 10;
    static constexpr size_t kAlignment = 64;

    static BlockPool& Instance() {
        static auto* pool = new BlockPool(); // never destroyed: batches may be released late
        return *pool;
    }

    uint8_t* Take() {
        {
            std::lock_guard<std::mutex> guard(mutex_);
            if (!free_.empty()) {
                uint8_t* block = free_.back();
                free_.pop_back();
                return block;
            }
        }
        return static_cast<uint8_t*>(::operator new(kBlock, std::align_val_t(kAlignment)));
    }

    void Give(uint8_t* block) {
        {
            std::lock_guard<std::mutex> guard(mutex_);
            if (free_.size() < kKeptBlocks) {
                free_.push_back(block);
                return;
            }
        }
        ::operator delete(block, std::align_val_t(kAlignment));
    }

private:
    static constexpr size_t kKeptBlocks = 64; // 16 MiB

    std::mutex mutex_;
    std::vector<uint8_t*> free_;
};

// The buffers one batch converts (decimals widened, strings laid out, booleans packed), taken
// from pooled blocks by a bump pointer: a few blocks a batch instead of an allocation a buffer,
// given back when the batch's last array is released.
class BatchMemory {
public:
    BatchMemory() = default;
    BatchMemory(const BatchMemory&) = delete;
    BatchMemory& operator=(const BatchMemory&) = delete;
    ~BatchMemory() {
        for (uint8_t* block : pooled_) {
            BlockPool::Instance().Give(block);
        }
        for (uint8_t* block : large_) {
            ::operator delete(block, std::align_val_t(BlockPool::kAlignment));
        }
    }

    // Not zeroed: every byte a consumer may read is written (the values of NULL rows too).
    // 64-byte aligned, as the Arrow format recommends.
    uint8_t* Allocate(size_t bytes) {
        constexpr size_t kAlignment = BlockPool::kAlignment;
        bytes = (std::max<size_t>(bytes, 1) + kAlignment - 1) / kAlignment * kAlignment;
        if (bytes > BlockPool::kBlock) {
            large_.push_back(
                static_cast<uint8_t*>(::operator new(bytes, std::align_val_t(kAlignment))));
            return large_.back();
        }
        if (bytes > remaining_) {
            pooled_.push_back(BlockPool::Instance().Take());
            next_ = pooled_.back();
            remaining_ = BlockPool::kBlock;
        }
        uint8_t* buffer = next_;
        next_ += bytes;
        remaining_ -= bytes;
        return buffer;
    }

private:
    std::vector<uint8_t*> pooled_;
    std::vector<uint8_t*> large_;
    uint8_t* next_ = nullptr;
    size_t remaining_ = 0;
};

// What an exported array node owns or keeps alive: the vectors whose buffers it shows, the
// batch memory of the buffers converted for it, its children.
struct ArrayData {
    std::vector<std::shared_ptr<const void>> keep;
    std::shared_ptr<BatchMemory> memory;
    const void* buffers[3] = {nullptr, nullptr, nullptr};
    std::vector<ArrowArray> children;
    std::vector<ArrowArray*> child_pointers;

    uint8_t* Allocate(size_t bytes) { return memory->Allocate(bytes); }
};

void ReleaseArray(ArrowArray* array) {
    ReleaseNode<ArrowArray, ArrayData>(array);
}

ArrayData* StartArray(ArrowArray* out, idx_t length, int64_t n_buffers, size_t n_children) {
    auto* data = new ArrayData();
    data->children.resize(n_children);
    for (auto& child : data->children) {
        child.release = nullptr;
    }
    for (size_t i = 0; i < n_children; i++) {
        data->child_pointers.push_back(&data->children[i]);
    }
    *out = ArrowArray{};
    out->length = static_cast<int64_t>(length);
    out->null_count = 0;
    out->offset = 0;
    out->n_buffers = n_buffers;
    out->n_children = static_cast<int64_t>(n_children);
    out->buffers = data->buffers;
    out->children = data->child_pointers.empty() ? nullptr : data->child_pointers.data();
    out->dictionary = nullptr;
    out->release = ReleaseArray;
    out->private_data = data;
    return data;
}

void ExportVector(const Vector& vector, idx_t count, std::shared_ptr<const void> owner,
                  const std::shared_ptr<BatchMemory>& memory, ArrowArray* out);

// A bitmap of `count` bits from one byte per row (BOOLEAN values).
void PackBooleans(const bool* values, idx_t count, uint8_t* bits) {
    for (idx_t row = 0; row < count; row++) {
        bits[row / 8] |= static_cast<uint8_t>(values[row] ? 1 : 0) << (row % 8);
    }
}

// int32 offsets and the bytes of `count` strings: their lengths summed first, then the bytes
// copied, a string short enough to be inlined in its string_t as a fixed 12 bytes (the buffer
// keeps that much room past its end), which costs no call.
template <class TextOf>
void ExportStrings(const Vector& vector, idx_t count, ArrayData& data, TextOf text_of) {
    constexpr size_t kSlack = string_t::kInlineLength;
    auto* offsets = reinterpret_cast<int32_t*>(data.Allocate((count + 1) * sizeof(int32_t)));
    size_t total = 0;
    for (idx_t row = 0; row < count; row++) {
        if (vector.validity().RowIsValid(row)) {
            total += text_of(row).size();
        }
    }
    if (total > INT32_MAX) {
        throw Exception(ErrorKind::InvalidInput,
                        "cannot export more than 2 GiB of text in one Arrow batch");
    }
    uint8_t* bytes = data.Allocate(total + kSlack);
    size_t offset = 0;
    for (idx_t row = 0; row < count; row++) {
        offsets[row] = static_cast<int32_t>(offset);
        if (!vector.validity().RowIsValid(row)) {
            continue;
        }
        std::string_view text = text_of(row);
        std::memcpy(bytes + offset, text.data(), text.size() <= kSlack ? kSlack : text.size());
        offset += text.size();
    }
    offsets[count] = static_cast<int32_t>(offset);
    data.buffers[1] = offsets;
    data.buffers[2] = bytes;
}

// A LIST's (or MAP's) offsets and its elements. The elements are shown in place when the rows'
// entries follow one another from element 0, as scans and aggregates lay them out; otherwise
// they are gathered into a vector of their own first.
void ExportList(const Vector& vector, idx_t count, ArrayData& data,
                const std::shared_ptr<const void>& owner) {
    const auto* entries = vector.data<list_entry_t>();
    auto* offsets = reinterpret_cast<int32_t*>(data.Allocate((count + 1) * sizeof(int32_t)));
    bool in_place = true;
    uint64_t total = 0;
    for (idx_t row = 0; row < count; row++) {
        offsets[row] = static_cast<int32_t>(total);
        if (!vector.validity().RowIsValid(row)) {
            continue;
        }
        in_place = in_place && entries[row].offset == total;
        total += entries[row].length;
        if (total > INT32_MAX) {
            throw Exception(ErrorKind::InvalidInput,
                            "cannot export more than 2^31 list elements in one Arrow batch");
        }
    }
    offsets[count] = static_cast<int32_t>(total);
    data.buffers[1] = offsets;
    if (in_place && vector.list_child().vector_type() == VectorType::FLAT) {
        ExportVector(vector.list_child(), total, owner, data.memory, &data.children[0]);
        return;
    }
    std::vector<idx_t> rows;
    rows.reserve(total);
    for (idx_t row = 0; row < count; row++) {
        if (vector.validity().RowIsValid(row)) {
            for (uint64_t i = 0; i < entries[row].length; i++) {
                rows.push_back(entries[row].offset + i);
            }
        }
    }
    auto gathered = std::make_shared<Vector>(vector.list_child().type(), std::max<idx_t>(total, 1));
    gathered->Gather(vector.list_child(), rows.data(), total);
    ExportVector(*gathered, total, gathered, data.memory, &data.children[0]);
}

// Values of a narrow DECIMAL widened to Arrow's 128 bits, little-endian: each as its low word and
// the word of its sign. Written as 64-bit words, which the compiler vectorises (stores of
// __int128 it does not: a value at a time), and also built for AVX-512, picked at load.
template <class T>
void WidenDecimalsLoop(const T* values, idx_t count, int64_t* __restrict out) {
    for (idx_t row = 0; row < count; row++) {
        int64_t value = values[row];
        out[2 * row] = value;
        out[2 * row + 1] = value >> 63;
    }
}
SLUICE_TARGET_CLONES void WidenDecimals(const int16_t* values, idx_t count, int64_t* out) {
    WidenDecimalsLoop(values, count, out);
}
SLUICE_TARGET_CLONES void WidenDecimals(const int32_t* values, idx_t count, int64_t* out) {
    WidenDecimalsLoop(values, count, out);
}
SLUICE_TARGET_CLONES void WidenDecimals(const int64_t* values, idx_t count, int64_t* out) {
    WidenDecimalsLoop(values, count, out);
}

// `bytes` of a vector's buffer as an array shows them: the buffer itself, kept alive by `owner`,
// or without an owner (a chunk its producer reuses) a copy.
const void* Shared(ArrayData& data, const std::shared_ptr<const void>& owner, const void* buffer,
                   size_t bytes) {
    if (owner) {
        return buffer;
    }
    uint8_t* copy = data.Allocate(bytes);
    std::memcpy(copy, buffer, bytes);
    return copy;
}

void ExportVector(const Vector& vector, idx_t count, std::shared_ptr<const void> owner,
                  const std::shared_ptr<BatchMemory>& memory, ArrowArray* out) {
    const LogicalType& type = vector.type();
    if (vector.vector_type() != VectorType::FLAT) {
        throw Exception(ErrorKind::Internal, "Arrow export of a CONSTANT vector");
    }
    if (type.id() == LogicalTypeId::SQLNULL) {
        StartArray(out, count, 0, 0);
        out->null_count = static_cast<int64_t>(count);
        return;
    }
    size_t n_children = type.id() == LogicalTypeId::STRUCT ? type.fields().size()
                        : type.IsNested()                  ? 1
                                                           : 0;
    int64_t n_buffers = 2;
    switch (type.id()) {
    case LogicalTypeId::STRUCT:
        n_buffers = 1;
        break;
    case LogicalTypeId::VARCHAR:
    case LogicalTypeId::BLOB:
    case LogicalTypeId::UUID:
        n_buffers = 3;
        break;
    default:
        break;
    }
    ArrayData& data = *StartArray(out, count, n_buffers, n_children);
    data.memory = memory;
    try {
        data.keep.push_back(owner);
        out->null_count = static_cast<int64_t>(vector.validity().CountInvalid(count));
        data.buffers[0] = out->null_count > 0 ? Shared(data, owner, vector.validity().words(),
                                                       (count + 63) / 64 * 8)
                                              : nullptr;
        switch (type.id()) {
        case LogicalTypeId::BOOLEAN: {
            uint8_t* bits = data.Allocate((count + 7) / 8);
            std::memset(bits, 0, (count + 7) / 8);
            PackBooleans(vector.data<bool>(), count, bits);
            data.buffers[1] = bits;
            break;
        }
        case LogicalTypeId::DECIMAL: {
            if (type.physical() == PhysicalType::INT128) {
                data.buffers[1] =
                    Shared(data, owner, vector.data<uint8_t>(), count * sizeof(hugeint_t));
                break;
            }
            auto* wide = reinterpret_cast<int64_t*>(data.Allocate(count * sizeof(hugeint_t)));
            switch (type.physical()) {
            case PhysicalType::INT16:
                WidenDecimals(vector.data<int16_t>(), count, wide);
                break;
            case PhysicalType::INT32:
                WidenDecimals(vector.data<int32_t>(), count, wide);
                break;
            default:
                WidenDecimals(vector.data<int64_t>(), count, wide);
                break;
            }
            data.buffers[1] = wide;
            break;
        }
        case LogicalTypeId::INTERVAL: {
            // Arrow's month_day_nano: int32 months, int32 days, int64 nanoseconds.
            const auto* intervals = vector.data<interval_t>();
            auto* converted =
                reinterpret_cast<interval_t*>(data.Allocate(count * sizeof(interval_t)));
            for (idx_t row = 0; row < count; row++) {
                converted[row] = intervals[row];
                converted[row].micros = intervals[row].micros * 1000;
            }
            data.buffers[1] = converted;
            break;
        }
        case LogicalTypeId::VARCHAR:
        case LogicalTypeId::BLOB: {
            const auto* strings = vector.data<string_t>();
            // An inlined string's view points at its 12 inline bytes, all readable.
            ExportStrings(vector, count, data, [&](idx_t row) { return strings[row].view(); });
            break;
        }
        case LogicalTypeId::UUID: {
            std::string text;
            ExportStrings(vector, count, data, [&](idx_t row) -> std::string_view {
                text = FormatUuid(vector.data<hugeint_t>()[row]);
                return text;
            });
            break;
        }
        case LogicalTypeId::LIST:
        case LogicalTypeId::MAP:
            ExportList(vector, count, data, owner);
            break;
        case LogicalTypeId::STRUCT:
            for (size_t i = 0; i < n_children; i++) {
                ExportVector(vector.struct_child(i), count, owner, memory, &data.children[i]);
            }
            break;
        default:
            // Integers, floats, HUGEINT (decimal128), DATE, TIME and timestamps: the same bytes.
            data.buffers[1] = Shared(data, owner, vector.data<uint8_t>(),
                                     count * PhysicalTypeSize(type.physical()));
            break;
        }
    } catch (...) {
        ReleaseArray(out);
        throw;
    }
}

} // namespace

std::string ArrowFormat(const LogicalType& type) {
    switch (type.id()) {
    case LogicalTypeId::SQLNULL:
        return "n";
    case LogicalTypeId::BOOLEAN:
        return "b";
    case LogicalTypeId::TINYINT:
        return "c";
    case LogicalTypeId::SMALLINT:
        return "s";
    case LogicalTypeId::INTEGER:
        return "i";
    case LogicalTypeId::BIGINT:
        return "l";
    case LogicalTypeId::HUGEINT:
        return "d:38,0";
    case LogicalTypeId::UTINYINT:
        return "C";
    case LogicalTypeId::USMALLINT:
        return "S";
    case LogicalTypeId::UINTEGER:
        return "I";
    case LogicalTypeId::UBIGINT:
        return "L";
    case LogicalTypeId::FLOAT:
        return "f";
    case LogicalTypeId::DOUBLE:
        return "g";
    case LogicalTypeId::DECIMAL:
        return "d:" + std::to_string(type.width()) + "," + std::to_string(type.scale());
    case LogicalTypeId::DATE:
        return "tdD";
    case LogicalTypeId::TIME:
        return "ttu";
    case LogicalTypeId::TIMESTAMP:
        return "tsu:";
    case LogicalTypeId::TIMESTAMP_TZ:
        return "tsu:UTC";
    case LogicalTypeId::TIMESTAMP_NS:
        return "tsn:";
    case LogicalTypeId::VARCHAR:
    case LogicalTypeId::UUID:
        return "u";
    case LogicalTypeId::BLOB:
        return "z";
    case LogicalTypeId::INTERVAL:
        return "tin";
    case LogicalTypeId::LIST:
        return "+l";
    case LogicalTypeId::STRUCT:
        return "+s";
    case LogicalTypeId::MAP:
        return "+m";
    }
    throw Exception(ErrorKind::NotImplemented, "no Arrow type for " + type.ToString());
}

void ExportSchema(const std::vector<std::string>& names, const std::vector<LogicalType>& types,
                  ArrowSchema* out) {
    std::vector<NamedType> columns;
    for (size_t i = 0; i < names.size(); i++) {
        columns.push_back({names[i], types[i], true});
    }
    FillNode("+s", "", false, columns, out);
}

void ExportChunkCopy(const DataChunk& chunk, ArrowArray* out) {
    bool flat = true;
    for (idx_t column = 0; column < chunk.ColumnCount(); column++) {
        const Vector& vector = chunk.column(column);
        flat = flat && vector.vector_type() == VectorType::FLAT && !vector.type().IsNested();
    }
    if (!flat) {
        // Lists and structs show their children in place: a copy of the chunk keeps them.
        auto copy = std::make_shared<DataChunk>(chunk.Types(), std::max<idx_t>(chunk.size(), 1));
        std::vector<idx_t> rows(chunk.size());
        for (idx_t row = 0; row < chunk.size(); row++) {
            rows[row] = row;
        }
        copy->AppendSelected(chunk, rows.data(), chunk.size());
        ExportChunk(std::move(copy), out);
        return;
    }
    auto memory = std::make_shared<BatchMemory>();
    ArrayData& data = *StartArray(out, chunk.size(), 1, chunk.ColumnCount());
    try {
        for (idx_t column = 0; column < chunk.ColumnCount(); column++) {
            ExportVector(chunk.column(column), chunk.size(), nullptr, memory,
                         &data.children[column]);
        }
    } catch (...) {
        ReleaseArray(out);
        throw;
    }
}

void ExportChunk(std::shared_ptr<DataChunk> chunk, ArrowArray* out) {
    chunk->Flatten();
    auto memory = std::make_shared<BatchMemory>();
    ArrayData& data = *StartArray(out, chunk->size(), 1, chunk->ColumnCount());
    try {
        for (idx_t column = 0; column < chunk->ColumnCount(); column++) {
            ExportVector(chunk->column(column), chunk->size(), chunk, memory,
                         &data.children[column]);
        }
    } catch (...) {
        ReleaseArray(out);
        throw;
    }
}

} // namespace sluice
