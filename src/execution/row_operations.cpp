#include "execution/row_operations.hpp"

#include "common/exception.hpp"
#include "common/physical_dispatch.hpp"
#include "common/total_order.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <string_view>
#include <type_traits>

namespace sluice {

namespace {

uint64_t Mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

constexpr uint64_t kNullHash = 0xbf58476d1ce4e5b9ULL;

template <class T>
uint64_t HashValue(const T& value) {
    if constexpr (std::is_same_v<T, string_t>) {
        if (value.IsInlined()) {
            // One mixing round over both words: the odd multiplier makes every bit of the tail
            // move the high bits before the two meet.
            uint64_t head, tail;
            value.InlinedWords(head, tail);
            return Mix(head ^ (tail * 0x9e3779b97f4a7c15ULL));
        }
        return std::hash<std::string_view>()(value.view());
    } else if constexpr (std::is_same_v<T, hugeint_t>) {
        return Mix(static_cast<uint64_t>(value) ^ Mix(static_cast<uint64_t>(value >> 64)));
    } else if constexpr (std::is_floating_point_v<T>) {
        // -0.0 equals 0.0, and every NaN equals every NaN.
        double d = value == 0 ? 0.0 : static_cast<double>(value);
        if (std::isnan(d)) {
            d = std::numeric_limits<double>::quiet_NaN();
        }
        uint64_t bits;
        std::memcpy(&bits, &d, sizeof(bits));
        return Mix(bits);
    } else {
        return Mix(static_cast<uint64_t>(value));
    }
}

template <class T>
void HashTyped(const Vector& vector, idx_t count, uint64_t* hashes, bool first) {
    const T* data = vector.data<T>();
    bool constant = vector.vector_type() == VectorType::CONSTANT;
    const ValidityMask& validity = vector.validity();
    // Later keys fold in by an odd multiple of the hash so far (a bijection, so rows that
    // differ in earlier keys stay apart) and a xor with the new key's mixed hash.
    auto fold = [&](idx_t row, uint64_t hash) {
        hashes[row] = first ? hash : (hashes[row] * 0xbf58476d1ce4e5b9ULL) ^ hash;
    };
    if (!constant && validity.AllValid()) {
        for (idx_t row = 0; row < count; row++) {
            fold(row, HashValue(data[row]));
        }
        return;
    }
    for (idx_t row = 0; row < count; row++) {
        idx_t index = constant ? 0 : row;
        fold(row, validity.RowIsValid(index) ? HashValue(data[index]) : kNullHash);
    }
}

template <class T>
int Compare(const T& a, const T& b) {
    if constexpr (std::is_floating_point_v<T>) {
        bool a_nan = std::isnan(a), b_nan = std::isnan(b);
        if (a_nan || b_nan) {
            return a_nan == b_nan ? 0 : (a_nan ? 1 : -1);
        }
    }
    return a < b ? -1 : (b < a ? 1 : 0);
}

// One row's hash, nested values element by element (equal rows hash alike, as RowsEqual sees
// them: NULL elements alike, -0 as 0, every NaN alike).
uint64_t HashRow(const Vector& vector, idx_t row) {
    idx_t index = vector.RowIndex(row);
    if (!vector.validity().RowIsValid(index)) {
        return kNullHash;
    }
    switch (vector.type().physical()) {
    case PhysicalType::LIST: {
        list_entry_t entry = vector.data<list_entry_t>()[index];
        uint64_t hash = Mix(entry.length + 1);
        for (idx_t i = 0; i < entry.length; i++) {
            hash = (hash * 0xbf58476d1ce4e5b9ULL) ^ HashRow(vector.list_child(), entry.offset + i);
        }
        return hash;
    }
    case PhysicalType::STRUCT: {
        uint64_t hash = Mix(vector.type().fields().size());
        for (idx_t field = 0; field < vector.type().fields().size(); field++) {
            hash = (hash * 0xbf58476d1ce4e5b9ULL) ^ HashRow(vector.struct_child(field), index);
        }
        return hash;
    }
    default:
        return DispatchPhysical(vector.type().physical(), [&](auto tag) {
            return HashValue(vector.data<decltype(tag)>()[index]);
        });
    }
}

} // namespace

void HashVector(const Vector& vector, idx_t count, uint64_t* hashes, bool first) {
    if (vector.type().IsNested()) {
        for (idx_t row = 0; row < count; row++) {
            uint64_t hash = HashRow(vector, row);
            hashes[row] = first ? hash : (hashes[row] * 0xbf58476d1ce4e5b9ULL) ^ hash;
        }
        return;
    }
    DispatchPhysical(vector.type().physical(),
                     [&](auto tag) { HashTyped<decltype(tag)>(vector, count, hashes, first); });
}

namespace {

template <class T>
bool RowsEqualTyped(const Vector& a, idx_t a_row, const Vector& b, idx_t b_row) {
    a_row = a.RowIndex(a_row);
    b_row = b.RowIndex(b_row);
    bool a_valid = a.validity().RowIsValid(a_row), b_valid = b.validity().RowIsValid(b_row);
    if (!a_valid || !b_valid) {
        return a_valid == b_valid;
    }
    return TotalOrderEqual<T>(a.data<T>()[a_row], b.data<T>()[b_row]);
}

// LIST, STRUCT and MAP rows are equal when their elements are, NULL equal to NULL.
bool NestedRowsEqual(const Vector& a, idx_t a_row, const Vector& b, idx_t b_row) {
    a_row = a.RowIndex(a_row);
    b_row = b.RowIndex(b_row);
    bool a_valid = a.validity().RowIsValid(a_row), b_valid = b.validity().RowIsValid(b_row);
    if (!a_valid || !b_valid) {
        return a_valid == b_valid;
    }
    if (a.type().physical() == PhysicalType::STRUCT) {
        for (idx_t field = 0; field < a.type().fields().size(); field++) {
            if (!RowsEqual(a.struct_child(field), a_row, b.struct_child(field), b_row)) {
                return false;
            }
        }
        return true;
    }
    list_entry_t x = a.data<list_entry_t>()[a_row], y = b.data<list_entry_t>()[b_row];
    if (x.length != y.length) {
        return false;
    }
    for (idx_t i = 0; i < x.length; i++) {
        if (!RowsEqual(a.list_child(), x.offset + i, b.list_child(), y.offset + i)) {
            return false;
        }
    }
    return true;
}

// Elements in order, a NULL element after any value, a shorter list before a longer one it
// begins (Value::Compare's order).
int CompareNested(const Vector& a, idx_t a_row, const Vector& b, idx_t b_row) {
    auto compare_elements = [](const Vector& x, idx_t i, const Vector& y, idx_t j) {
        bool x_valid = x.RowIsValid(i), y_valid = y.RowIsValid(j);
        if (!x_valid || !y_valid) {
            return x_valid == y_valid ? 0 : (x_valid ? -1 : 1);
        }
        return CompareRows(x, i, y, j);
    };
    if (a.type().physical() == PhysicalType::STRUCT) {
        for (idx_t field = 0; field < a.type().fields().size(); field++) {
            if (int order =
                    compare_elements(a.struct_child(field), a_row, b.struct_child(field), b_row)) {
                return order;
            }
        }
        return 0;
    }
    list_entry_t x = a.data<list_entry_t>()[a_row], y = b.data<list_entry_t>()[b_row];
    for (idx_t i = 0; i < std::min(x.length, y.length); i++) {
        if (int order =
                compare_elements(a.list_child(), x.offset + i, b.list_child(), y.offset + i)) {
            return order;
        }
    }
    return x.length < y.length ? -1 : (x.length > y.length ? 1 : 0);
}

} // namespace

RowsEqualFunction RowsEqualFor(PhysicalType type) {
    if (type == PhysicalType::LIST || type == PhysicalType::STRUCT) {
        return &NestedRowsEqual;
    }
    return DispatchPhysical(
        type, [](auto tag) -> RowsEqualFunction { return &RowsEqualTyped<decltype(tag)>; });
}

bool RowsEqual(const Vector& a, idx_t a_row, const Vector& b, idx_t b_row) {
    return RowsEqualFor(a.type().physical())(a, a_row, b, b_row);
}

int CompareRows(const Vector& a, idx_t a_row, const Vector& b, idx_t b_row) {
    a_row = a.RowIndex(a_row);
    b_row = b.RowIndex(b_row);
    if (a.type().IsNested()) {
        return CompareNested(a, a_row, b, b_row);
    }
    return DispatchPhysical(a.type().physical(), [&](auto tag) {
        using T = decltype(tag);
        return Compare<T>(a.data<T>()[a_row], b.data<T>()[b_row]);
    });
}

uint64_t OrderPrefix(const Vector& vector, idx_t row, bool descending, bool nulls_first) {
    row = vector.RowIndex(row);
    if (!vector.RowIsValid(row)) {
        return nulls_first ? 0 : ~uint64_t(0);
    }
    constexpr uint64_t kSign = uint64_t(1) << 63;
    if (vector.type().IsNested()) {
        // A list by its first element (the empty list first), a struct by its first field: a
        // NULL element orders after every value, as Value::Compare orders them.
        uint64_t prefix;
        if (vector.type().physical() == PhysicalType::LIST) {
            list_entry_t entry = vector.data<list_entry_t>()[row];
            prefix = entry.length == 0
                         ? 0
                         : OrderPrefix(vector.list_child(), entry.offset, false, false);
        } else {
            prefix = OrderPrefix(vector.struct_child(0), row, false, false);
        }
        return descending ? ~prefix : prefix;
    }
    uint64_t prefix = DispatchPhysical(vector.type().physical(), [&](auto tag) -> uint64_t {
        using T = decltype(tag);
        T value = vector.data<T>()[row];
        if constexpr (std::is_same_v<T, string_t>) {
            std::string_view text = value.view();
            uint64_t bytes = 0;
            for (size_t i = 0; i < 8; i++) {
                bytes = (bytes << 8) | (i < text.size() ? static_cast<uint8_t>(text[i]) : 0);
            }
            return bytes;
        } else if constexpr (std::is_floating_point_v<T>) {
            double number = static_cast<double>(value);
            if (std::isnan(number)) {
                return ~uint64_t(0); // NaN after every number, as Compare orders it
            }
            uint64_t bits;
            std::memcpy(&bits, &number, sizeof(bits));
            return (bits & kSign) ? ~bits : bits | kSign;
        } else if constexpr (std::is_same_v<T, hugeint_t>) {
            return static_cast<uint64_t>(static_cast<int64_t>(value >> 64)) ^ kSign;
        } else if constexpr (std::is_signed_v<T>) {
            return static_cast<uint64_t>(static_cast<int64_t>(value)) ^ kSign;
        } else {
            return static_cast<uint64_t>(value);
        }
    });
    return descending ? ~prefix : prefix;
}

namespace {

// The bytes of a chunk's strings too long to inline, wherever they live.
// Bytes of the strings too long to inline in rows [0, rows) of `vector`, children included.
idx_t LongStringBytes(const Vector& vector, idx_t rows) {
    if (vector.vector_type() == VectorType::CONSTANT) {
        rows = std::min<idx_t>(rows, 1);
    }
    switch (vector.type().physical()) {
    case PhysicalType::VARCHAR: {
        idx_t bytes = 0;
        const string_t* strings = vector.data<string_t>();
        for (idx_t row = 0; row < rows; row++) {
            if (vector.RowIsValid(row) && !strings[row].IsInlined()) {
                bytes += strings[row].size();
            }
        }
        return bytes;
    }
    case PhysicalType::LIST:
        return LongStringBytes(vector.list_child(), vector.list_size());
    case PhysicalType::STRUCT: {
        idx_t bytes = 0;
        for (idx_t field = 0; field < vector.type().fields().size(); field++) {
            bytes += LongStringBytes(vector.struct_child(field), rows);
        }
        return bytes;
    }
    default:
        return 0;
    }
}

idx_t LongStringBytes(const DataChunk& chunk) {
    idx_t bytes = 0;
    for (idx_t column = 0; column < chunk.ColumnCount(); column++) {
        bytes += LongStringBytes(chunk.column(column), chunk.size());
    }
    return bytes;
}

idx_t BufferBytes(const Vector& vector) {
    idx_t bytes = vector.capacity() * PhysicalTypeSize(vector.type().physical());
    if (vector.type().physical() == PhysicalType::LIST) {
        bytes += BufferBytes(vector.list_child());
    } else if (vector.type().physical() == PhysicalType::STRUCT) {
        for (idx_t field = 0; field < vector.type().fields().size(); field++) {
            bytes += BufferBytes(vector.struct_child(field));
        }
    }
    return bytes;
}

idx_t BufferBytes(const DataChunk& chunk) {
    idx_t bytes = 0;
    for (idx_t column = 0; column < chunk.ColumnCount(); column++) {
        bytes += BufferBytes(chunk.column(column));
    }
    return bytes;
}

} // namespace

idx_t ChunkMemory(const DataChunk& chunk) {
    return BufferBytes(chunk) + LongStringBytes(chunk);
}

idx_t AppendRowsCompactly(std::vector<std::unique_ptr<DataChunk>>& chunks, DataChunk*& filling,
                          const DataChunk& source) {
    if (source.size() >= kVectorSize / 2) {
        chunks.push_back(ReferenceChunk(source));
        return ChunkMemory(*chunks.back());
    }
    idx_t bytes = LongStringBytes(source);
    if (!filling || filling->size() + source.size() > kVectorSize) {
        chunks.push_back(std::make_unique<DataChunk>(source.Types(), kVectorSize));
        filling = chunks.back().get();
        bytes += BufferBytes(*filling);
    }
    idx_t rows[kVectorSize];
    for (idx_t row = 0; row < source.size(); row++) {
        rows[row] = row;
    }
    filling->AppendSelected(source, rows, source.size());
    return bytes;
}

std::unique_ptr<DataChunk> CopyChunk(const DataChunk& source) {
    auto chunk = std::make_unique<DataChunk>(source.Types(), std::max<idx_t>(source.size(), 1));
    idx_t rows[kVectorSize];
    for (idx_t row = 0; row < source.size(); row++) {
        rows[row] = row;
    }
    chunk->AppendSelected(source, rows, source.size());
    return chunk;
}

std::unique_ptr<DataChunk> KeepChunk(const DataChunk& source) {
    return source.size() >= kVectorSize / 2 ? ReferenceChunk(source) : CopyChunk(source);
}

std::unique_ptr<DataChunk> ReferenceChunk(const DataChunk& source) {
    auto chunk = std::make_unique<DataChunk>(source.Types(), 1);
    for (idx_t column = 0; column < source.ColumnCount(); column++) {
        chunk->column(column).Reference(source.column(column));
    }
    chunk->SetSize(source.size());
    return chunk;
}

void GatherRows(const std::vector<std::unique_ptr<DataChunk>>& chunks, idx_t column,
                const RowLocation* rows, idx_t count, Vector& target, idx_t offset,
                const std::shared_ptr<const void>& owner) {
    if (target.type().IsNested()) {
        // Nested rows are copied whole: their elements live in the sources' child vectors.
        for (idx_t i = 0; i < count; i++) {
            target.CopyRow(chunks[rows[i].chunk]->column(column), rows[i].row, offset + i);
        }
        return;
    }
    DispatchPhysical(target.type().physical(), [&](auto tag) {
        using T = decltype(tag);
        T* out = target.data<T>();
        for (idx_t i = 0; i < count; i++) {
            const Vector& source = chunks[rows[i].chunk]->column(column);
            idx_t index = source.RowIndex(rows[i].row);
            if (source.validity().RowIsValid(index)) {
                out[offset + i] = source.data<T>()[index];
                target.validity().SetValid(offset + i);
            } else {
                target.SetNull(offset + i);
            }
        }
    });
    if (target.type().physical() == PhysicalType::VARCHAR) {
        target.KeepAlive(owner);
    }
}

} // namespace sluice
