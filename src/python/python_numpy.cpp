#include "python/python_numpy.hpp"

#include "common/exception.hpp"
#include "common/physical_dispatch.hpp"
#include "memory/huge_page_allocator.hpp"
#include "parallel/function_task.hpp"
#include "parallel/run_concurrently.hpp"
#include "python/python_conversion.hpp"

#include <pybind11/numpy.h>

#include <emmintrin.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>

namespace sluice {

namespace {

constexpr int64_t kMicrosPerDay = 86400000000LL;

using Chunks = std::vector<std::unique_ptr<DataChunk>>;
// A column's array once converted (with the GIL held).
using ArrayMaker = std::function<py::object()>;

// Work that fills arrays (or adds chunks) without the GIL.
using Fills = std::vector<std::function<void()>>;

// Runs every fill: on the scheduler's REGULAR threads while this one waits without the GIL, or
// here when there is no scheduler.
void RunFills(TaskScheduler* scheduler, const Fills& fills) {
    if (scheduler == nullptr) {
        for (const auto& fill : fills) {
            fill();
        }
        return;
    }
    py::gil_scoped_release release;
    RunConcurrently(*scheduler, TaskPool::Regular, fills.size(), [&](size_t i) { fills[i](); });
}

// Memory for a numpy array's items from the huge-page mappings the engine keeps for reuse:
// freed with the last array that views it, so that a frame made again (the usual notebook
// loop) finds its memory already backed instead of the kernel faulting in and zeroing every
// page of hundreds of megabytes.
class ArrayMemory {
public:
    explicit ArrayMemory(size_t bytes) : data_(AllocateForRandomAccess(bytes)), bytes_(bytes) {}
    ~ArrayMemory() {
        auto** objects = static_cast<PyObject**>(data_);
        for (size_t i = 0; i < objects_; i++) {
            Py_DECREF(objects[i]);
        }
        if (data_ != nullptr) {
            FreeForRandomAccess(data_, bytes_);
        }
    }
    ArrayMemory(const ArrayMemory&) = delete;
    ArrayMemory& operator=(const ArrayMemory&) = delete;

    void* data() const { return data_; }
    // Items [0, count) are Python objects this memory holds a reference to (an array of dtype
    // object over memory it does not own leaves its items to the owner; the GIL is held when
    // the owner goes).
    void HoldObjects(size_t count) { objects_ = count; }

    // A 1-dimensional numpy array of `dtype` over this memory, which it then owns.
    static py::array Wrap(std::unique_ptr<ArrayMemory> memory, const py::dtype& dtype, idx_t rows) {
        void* data = memory->data();
        py::capsule owner(memory.release(),
                          [](void* memory) { delete static_cast<ArrayMemory*>(memory); });
        return py::array(dtype, std::vector<py::ssize_t>{static_cast<py::ssize_t>(rows)}, {}, data,
                         owner);
    }

private:
    void* data_;
    size_t bytes_;
    size_t objects_ = 0;
};

bool HasNull(const Vector& vector, idx_t count) {
    for (idx_t row = 0; row < count; row++) {
        if (!vector.RowIsValid(row)) {
            return true;
        }
    }
    return false;
}

// Copies `bytes` to `to` with non-temporal stores: an array filled once and read later (by pandas,
// by the user) need not be read into the cache first to be written, as ordinary stores do,
// which halves the memory traffic of a fill (the fills are bound by it). The caller ends its
// fill with StreamedStoresDone.
void StreamBytes(void* to, const void* from, size_t bytes) {
    auto* out = static_cast<char*>(to);
    const auto* in = static_cast<const char*>(from);
    size_t head = std::min(bytes, (16 - reinterpret_cast<uintptr_t>(out) % 16) % 16);
    std::memcpy(out, in, head);
    size_t i = head;
    for (; i + 16 <= bytes; i += 16) {
        _mm_stream_si128(reinterpret_cast<__m128i*>(out + i),
                         _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i)));
    }
    std::memcpy(out + i, in + i, bytes - i);
}

// Orders the streamed stores before whatever signals that the fill is done.
void StreamedStoresDone() {
    _mm_sfence();
}

// A numpy array of `rows` values of dtype `dtype`, the values of each chunk given by
// `write(vector, count, buffer)` in the fill (in `buffer`, or where they are if stored alike);
// masked where NULL (a plain array when no row is: the mask is made when the first NULL is met).
template <typename T, typename Write>
ArrayMaker NumpyColumn(Fills& fills, const Chunks& chunks, idx_t column, idx_t rows,
                       const char* dtype, Write write) {
    struct Column {
        std::unique_ptr<ArrayMemory> values;
        std::unique_ptr<ArrayMemory> nulls;
    };
    auto filled = std::make_shared<Column>();
    filled->values = std::make_unique<ArrayMemory>(std::max<idx_t>(rows, 1) * sizeof(T));
    fills.push_back([&chunks, column, rows, filled, write] {
        auto* out = static_cast<T*>(filled->values->data());
        idx_t offset = 0;
        T converted[kVectorSize]; // a chunk's values, streamed to `out` from the cache
        for (size_t i = 0; i < chunks.size(); i++) {
            if (i + 1 < chunks.size()) {
                // A touch on each page of the next chunk's values: the chunks lie apart, and the
                // hardware prefetcher stops at page boundaries (the fills take 8% less time).
                const auto* next = chunks[i + 1]->column(column).data<char>();
                for (size_t page = 0; page < kVectorSize * sizeof(T); page += 4096) {
                    __builtin_prefetch(next + page);
                }
            }
            const auto& chunk = chunks[i];
            const Vector& vector = chunk->column(column);
            idx_t count = chunk->size();
            const T* values = write(vector, count, converted);
            StreamBytes(out + offset, values, count * sizeof(T));
            if (!vector.validity().AllValid() && (filled->nulls || HasNull(vector, count))) {
                if (!filled->nulls) {
                    filled->nulls = std::make_unique<ArrayMemory>(rows);
                    std::memset(filled->nulls->data(), 0, rows);
                }
                bool* nulls = static_cast<bool*>(filled->nulls->data());
                for (idx_t row = 0; row < count; row++) {
                    nulls[offset + row] = !vector.RowIsValid(row);
                }
            }
            offset += count;
        }
        StreamedStoresDone();
    });
    return [filled, dtype, rows]() -> py::object {
        py::array values = ArrayMemory::Wrap(std::move(filled->values), py::dtype(dtype), rows);
        if (!filled->nulls) {
            return values;
        }
        py::array mask = ArrayMemory::Wrap(std::move(filled->nulls), py::dtype("bool"), rows);
        return py::module_::import("numpy").attr("ma").attr("masked_array")(values, mask);
    };
}

// Values stored as numpy stores them: copied as they are.
template <typename T>
ArrayMaker FixedWidthColumn(Fills& fills, const Chunks& chunks, idx_t column, idx_t rows,
                            const char* dtype) {
    return NumpyColumn<T>(
        fills, chunks, column, rows, dtype,
        [](const Vector& vector, idx_t /*count*/, T* /*buffer*/) { return vector.data<T>(); });
}

// The loops of the numeric fills, made for AVX-512 too where the processor has it (picked when the
// module loads): 64-bit integers convert to doubles and multiply eight at a time there, one at a
// time in x86-64's base instruction set.
[[gnu::target_clones("arch=x86-64-v4", "default")]] void
DivideToDoubles(const int64_t* values, idx_t count, double divisor, double* out) {
    for (idx_t row = 0; row < count; row++) {
        out[row] = static_cast<double>(values[row]) / divisor;
    }
}

// out = values * scale (wrapping: the caller checks the extremes, smallest and largest). The
// extremes are kept in locals: through the references, which `out` might alias for all the
// compiler knows, each row would store and reload them, a chain of 3 ns a row.
template <class T>
void MultiplyTimesLoop(const T* values, idx_t count, int64_t scale, int64_t* out, int64_t& smallest,
                       int64_t& largest) {
    int64_t low = std::numeric_limits<int64_t>::max();
    int64_t high = std::numeric_limits<int64_t>::min();
    for (idx_t row = 0; row < count; row++) {
        int64_t value = values[row];
        low = std::min(low, value);
        high = std::max(high, value);
        out[row] =
            static_cast<int64_t>(static_cast<uint64_t>(value) * static_cast<uint64_t>(scale));
    }
    smallest = low;
    largest = high;
}
[[gnu::target_clones("arch=x86-64-v4", "default")]] void
MultiplyTimes(const int32_t* days, idx_t count, int64_t scale, int64_t* out, int64_t& smallest,
              int64_t& largest) {
    MultiplyTimesLoop(days, count, scale, out, smallest, largest);
}
[[gnu::target_clones("arch=x86-64-v4", "default")]] void
MultiplyTimes(const int64_t* micros, idx_t count, int64_t scale, int64_t* out, int64_t& smallest,
              int64_t& largest) {
    MultiplyTimesLoop(micros, count, scale, out, smallest, largest);
}

// DECIMAL (any storage width) and HUGEINT as float64, as DuckDB's fetchnumpy gives them.
ArrayMaker DoubleColumn(Fills& fills, const Chunks& chunks, idx_t column, idx_t rows,
                        const LogicalType& type) {
    double divisor = 1;
    for (int i = 0; i < type.scale(); i++) {
        divisor *= 10;
    }
    return NumpyColumn<double>(
        fills, chunks, column, rows, "float64",
        [divisor, physical = type.physical()](const Vector& vector, idx_t count, double* out) {
            DispatchPhysical(physical, [&](auto tag) {
                using Stored = decltype(tag);
                if constexpr (std::is_same_v<Stored, int64_t>) {
                    DivideToDoubles(vector.data<int64_t>(), count, divisor, out);
                } else if constexpr (std::is_integral_v<Stored> ||
                                     std::is_same_v<Stored, hugeint_t>) {
                    const Stored* stored = vector.data<Stored>();
                    for (idx_t row = 0; row < count; row++) {
                        out[row] = static_cast<double>(stored[row]) / divisor;
                    }
                }
            });
            return out;
        });
}

// Counts of days (DATE) or microseconds as counts of the array's unit, `scale` of them each: the
// products made without a branch a row, then an error naming the first value whose product
// int64 cannot hold, if the chunk's extremes say there is one.
template <class T>
void ScaleTimes(const Vector& vector, idx_t count, int64_t scale, const LogicalType& type,
                const char* dtype, int64_t* out) {
    const T* values = vector.data<T>();
    int64_t smallest;
    int64_t largest;
    MultiplyTimes(values, count, scale, out, smallest, largest);
    int64_t lowest = std::numeric_limits<int64_t>::min() / scale;
    int64_t highest = std::numeric_limits<int64_t>::max() / scale;
    if (smallest >= lowest && largest <= highest) {
        return;
    }
    for (idx_t row = 0; row < count; row++) {
        int64_t value = values[row];
        if ((value < lowest || value > highest) && vector.validity().RowIsValid(row)) {
            LogicalTypeId shown =
                std::is_same_v<T, int32_t> ? LogicalTypeId::DATE : LogicalTypeId::TIMESTAMP;
            std::string years =
                std::string(dtype) == "datetime64[ns]" ? " (years 1677 to 2262)" : "";
            throw Exception(ErrorKind::OutOfRange,
                            Value::Integer(shown, value).ToString() + " (a " + type.ToString() +
                                ") is outside the range of " + dtype + years);
        }
    }
}

// DATE, TIMESTAMP and TIMESTAMP WITH TIME ZONE as datetime64 in `unit` (us or ns); dates at
// midnight.
ArrayMaker TimeColumn(Fills& fills, const Chunks& chunks, idx_t column, idx_t rows,
                      const LogicalType& type, bool nanoseconds) {
    bool date = type.id() == LogicalTypeId::DATE;
    const char* dtype = nanoseconds ? "datetime64[ns]" : "datetime64[us]";
    int64_t scale = (date ? kMicrosPerDay : 1) * (nanoseconds ? 1000 : 1);
    return NumpyColumn<int64_t>(fills, chunks, column, rows, dtype,
                                [date, scale, type, dtype](const Vector& vector, idx_t count,
                                                           int64_t* out) -> const int64_t* {
                                    if (date) {
                                        ScaleTimes<int32_t>(vector, count, scale, type, dtype, out);
                                    } else if (scale == 1) {
                                        return vector.data<int64_t>(); // microseconds already
                                    } else {
                                        ScaleTimes<int64_t>(vector, count, scale, type, dtype, out);
                                    }
                                    return out;
                                });
}

// INTERVAL as timedelta64[us], a month counted as 30 days (as its Python form).
ArrayMaker IntervalColumn(Fills& fills, const Chunks& chunks, idx_t column, idx_t rows) {
    return NumpyColumn<int64_t>(fills, chunks, column, rows, "timedelta64[us]",
                                [](const Vector& vector, idx_t count, int64_t* out) {
                                    const auto* intervals = vector.data<interval_t>();
                                    for (idx_t row = 0; row < count; row++) {
                                        const interval_t& interval = intervals[row];
                                        int64_t days =
                                            int64_t(interval.months) * 30 + interval.days;
                                        out[row] = days * kMicrosPerDay + interval.micros;
                                    }
                                    return out;
                                });
}

// Copies `size` bytes and says whether they are all ASCII, in one pass of 8-byte words (the last
// one overlapping the one before rather than a loop over the rest byte by byte).
bool CopyIfAscii(char* out, const char* in, size_t size) {
    uint64_t high = 0;
    auto copy = [&](size_t at, auto word) {
        std::memcpy(&word, in + at, sizeof(word));
        high |= word;
        std::memcpy(out + at, &word, sizeof(word));
    };
    if (size >= 8) {
        for (size_t at = 0; at + 8 < size; at += 8) {
            copy(at, uint64_t());
        }
        copy(size - 8, uint64_t());
    } else if (size >= 4) {
        copy(0, uint32_t());
        copy(size - 4, uint32_t());
    } else {
        for (size_t at = 0; at < size; at++) {
            copy(at, uint8_t());
        }
    }
    return (high & 0x8080808080808080ULL) == 0;
}

// A Python str of UTF-8 `text`; ASCII (most text) is copied straight into a new str.
PyObject* NewString(std::string_view text) {
    PyObject* object = PyUnicode_New(static_cast<py::ssize_t>(text.size()), 127);
    if (object == nullptr ||
        CopyIfAscii(static_cast<char*>(PyUnicode_DATA(object)), text.data(), text.size())) {
        return object;
    }
    Py_DECREF(object);
    return PyUnicode_DecodeUTF8(text.data(), static_cast<py::ssize_t>(text.size()), "replace");
}

// The values of one text column of a chunk as indexes into its distinct values, when they
// repeat (no more than half of a chunk's rows bring a new one): a column of few distinct values
// (flags, codes, names) then needs a str per distinct value and a reference per row, as pandas
// would hold it. Found on the thread that adds the chunk, while its data is in cache (no Python
// objects, so no GIL).
struct RepeatedStrings {
    static constexpr uint16_t kNull = UINT16_MAX;
    // Rows looked at before giving up on a chunk where most values so far are new.
    static constexpr idx_t kProbe = 128;

    std::vector<string_t> values;  // distinct, in order of first appearance
    std::vector<uint32_t> uses;    // the rows of each
    std::vector<uint16_t> indexes; // per row (kNull for NULL); empty if the values do not repeat
    uint32_t nulls = 0;

    bool repeated() const { return !indexes.empty(); }

    void Find(const Vector& vector, idx_t count) {
        // A small chunk's values are shared whatever they are: it costs next to nothing.
        idx_t most = std::max<idx_t>(count / 2, std::min<idx_t>(count, 64));
        size_t slots = 16; // an open-addressed table at most half full
        while (slots < 2 * count) {
            slots *= 2;
        }
        uint16_t table[2 * kVectorSize];
        std::fill_n(table, slots, kNull);
        // The loop works on locals and arrays on the stack (left uninitialised past `found`):
        // through the members, the compiler would reload them after every store.
        uint16_t first_rows[kVectorSize]; // of each distinct value
        uint32_t counts[kVectorSize];
        indexes.resize(count);
        uint16_t* out = indexes.data();
        uint16_t found = 0;
        uint32_t null_rows = 0;
        const string_t* strings = vector.data<string_t>();
        bool all_valid = vector.validity().AllValid();
        for (idx_t row = 0; row < count; row++) {
            if (row == kProbe && found > kProbe / 2) {
                indexes = {}; // most of the first rows differ: distinct text, as a rule
                return;
            }
            if (!all_valid && !vector.RowIsValid(row)) {
                out[row] = kNull;
                null_rows++;
                continue;
            }
            const string_t& value = strings[row];
            size_t slot = Hash(value) & (slots - 1);
            while (table[slot] != kNull && !Same(strings[first_rows[table[slot]]], value)) {
                slot = (slot + 1) & (slots - 1);
            }
            uint16_t index = table[slot];
            if (index == kNull) {
                if (found == most) {
                    indexes = {}; // too many to share
                    return;
                }
                index = table[slot] = found;
                first_rows[found] = static_cast<uint16_t>(row);
                counts[found++] = 0;
            }
            out[row] = index;
            counts[index]++;
        }
        for (uint16_t i = 0; i < found; i++) {
            values.push_back(strings[first_rows[i]]);
        }
        uses.assign(counts, counts + found);
        nulls = null_rows;
    }

private:
    // As ==, without reading the bytes of long strings that point at the same place (a column
    // decoded from a Parquet dictionary points each value's rows at one copy).
    static bool Same(const string_t& a, const string_t& b) {
        uint64_t a_head, a_tail, b_head, b_tail;
        a.InlinedWords(a_head, a_tail);
        b.InlinedWords(b_head, b_tail);
        if (a_head != b_head) {
            return false; // the lengths or the first bytes differ
        }
        if (a_tail == b_tail) {
            return true; // the same inlined bytes, or the same pointer
        }
        return !a.IsInlined() && std::memcmp(a.data(), b.data(), a.size()) == 0;
    }

    // Long strings hash by their length and first four bytes only, which are in the string_t:
    // reading their bytes would cost a load from the heap a row.
    static uint64_t Hash(const string_t& value) {
        uint64_t head, tail;
        value.InlinedWords(head, tail);
        if (!value.IsInlined()) {
            tail = 0;
        }
        uint64_t hash = (head ^ (tail * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL;
        return hash ^ (hash >> 29);
    }
};

// The Python objects of one column of a chunk, owned (released with the GIL held) until they
// are copied into the column's array: an object per row, or for text that repeats, one per
// distinct value holding a reference for each row that shows it.
class ObjectPiece {
public:
    // Room for `rows` objects pushed one by one.
    explicit ObjectPiece(idx_t rows) : items_(new PyObject*[std::max<idx_t>(rows, 1)]) {}
    // The rows of `repeated`: `distinct` has the str of each of its values, a reference each,
    // which this takes and makes one a row (None for NULL likewise).
    ObjectPiece(const RepeatedStrings& repeated, std::vector<py::object> distinct)
        : repeated_(&repeated) {
        for (size_t i = 0; i < distinct.size(); i++) {
            PyObject* object = distinct[i].release().ptr();
            Py_SET_REFCNT(object, Py_REFCNT(object) + repeated.uses[i] - 1);
            distinct_.push_back(object);
        }
        Py_SET_REFCNT(Py_None, Py_REFCNT(Py_None) + repeated.nulls);
        owned_ = true;
    }
    ~ObjectPiece() { Release(); }
    ObjectPiece(const ObjectPiece&) = delete;
    ObjectPiece& operator=(const ObjectPiece&) = delete;

    void Push(PyObject* object) { items_[count_++] = object; }
    idx_t rows() const { return repeated_ ? repeated_->indexes.size() : count_; }
    // Writes the rows' objects to `out` (no GIL needed: no count changes).
    void CopyTo(PyObject** out) const {
        if (!repeated_) {
            std::memcpy(out, items_.get(), count_ * sizeof(PyObject*));
            return;
        }
        const uint16_t* indexes = repeated_->indexes.data();
        for (size_t row = 0; row < repeated_->indexes.size(); row++) {
            uint16_t index = indexes[row];
            out[row] = index == RepeatedStrings::kNull ? Py_None : distinct_[index];
        }
    }
    // The references went to where CopyTo wrote them (an array that holds them now).
    void Disown() {
        count_ = 0;
        owned_ = false;
    }

private:
    void Release() {
        for (idx_t i = 0; i < count_; i++) {
            Py_DECREF(items_[i]);
        }
        if (!owned_) {
            return;
        }
        for (size_t i = 0; i < distinct_.size(); i++) {
            for (uint32_t use = 0; use < repeated_->uses[i]; use++) {
                Py_DECREF(distinct_[i]);
            }
        }
        Py_SET_REFCNT(Py_None, Py_REFCNT(Py_None) - repeated_->nulls);
    }

    std::unique_ptr<PyObject*[]> items_;
    idx_t count_ = 0;
    const RepeatedStrings* repeated_ = nullptr; // of the same piece, which outlives this
    std::vector<PyObject*> distinct_;
    bool owned_ = false; // distinct_'s references
};

// Values a numpy array holds natively (numbers, times), as opposed to Python objects.
bool IsNumpyNative(const LogicalType& type) {
    switch (type.id()) {
    case LogicalTypeId::BOOLEAN:
    case LogicalTypeId::TINYINT:
    case LogicalTypeId::SMALLINT:
    case LogicalTypeId::INTEGER:
    case LogicalTypeId::BIGINT:
    case LogicalTypeId::UTINYINT:
    case LogicalTypeId::USMALLINT:
    case LogicalTypeId::UINTEGER:
    case LogicalTypeId::UBIGINT:
    case LogicalTypeId::FLOAT:
    case LogicalTypeId::DOUBLE:
    case LogicalTypeId::DATE:
    case LogicalTypeId::TIMESTAMP:
    case LogicalTypeId::TIMESTAMP_TZ:
    case LogicalTypeId::TIMESTAMP_NS:
    case LogicalTypeId::INTERVAL:
    case LogicalTypeId::DECIMAL:
    case LogicalTypeId::HUGEINT:
        return true;
    default:
        return false;
    }
}

// The array of a column numpy holds natively, filled by `fills` from `chunks`.
ArrayMaker NativeColumn(Fills& fills, const Chunks& chunks, idx_t c, idx_t rows,
                        const LogicalType& type, bool nanoseconds) {
    switch (type.id()) {
    case LogicalTypeId::BOOLEAN:
        return FixedWidthColumn<bool>(fills, chunks, c, rows, "bool");
    case LogicalTypeId::TINYINT:
        return FixedWidthColumn<int8_t>(fills, chunks, c, rows, "int8");
    case LogicalTypeId::SMALLINT:
        return FixedWidthColumn<int16_t>(fills, chunks, c, rows, "int16");
    case LogicalTypeId::INTEGER:
        return FixedWidthColumn<int32_t>(fills, chunks, c, rows, "int32");
    case LogicalTypeId::BIGINT:
        return FixedWidthColumn<int64_t>(fills, chunks, c, rows, "int64");
    case LogicalTypeId::UTINYINT:
        return FixedWidthColumn<uint8_t>(fills, chunks, c, rows, "uint8");
    case LogicalTypeId::USMALLINT:
        return FixedWidthColumn<uint16_t>(fills, chunks, c, rows, "uint16");
    case LogicalTypeId::UINTEGER:
        return FixedWidthColumn<uint32_t>(fills, chunks, c, rows, "uint32");
    case LogicalTypeId::UBIGINT:
        return FixedWidthColumn<uint64_t>(fills, chunks, c, rows, "uint64");
    case LogicalTypeId::FLOAT:
        return FixedWidthColumn<float>(fills, chunks, c, rows, "float32");
    case LogicalTypeId::DOUBLE:
        return FixedWidthColumn<double>(fills, chunks, c, rows, "float64");
    case LogicalTypeId::DATE:
    case LogicalTypeId::TIMESTAMP:
    case LogicalTypeId::TIMESTAMP_TZ: // UTC instants; df() marks them UTC
        return TimeColumn(fills, chunks, c, rows, type, nanoseconds);
    case LogicalTypeId::TIMESTAMP_NS:
        return FixedWidthColumn<int64_t>(fills, chunks, c, rows, "datetime64[ns]");
    case LogicalTypeId::INTERVAL:
        return IntervalColumn(fills, chunks, c, rows);
    case LogicalTypeId::DECIMAL:
    case LogicalTypeId::HUGEINT:
        return DoubleColumn(fills, chunks, c, rows, type);
    default:
        throw Exception(ErrorKind::Internal, "no numpy type for " + type.ToString());
    }
}

} // namespace

struct NumpyConversion::Piece {
    idx_t batch_index;
    idx_t arrival;
    std::unique_ptr<DataChunk> chunk;
    std::vector<RepeatedStrings> strings;              // per object column (text columns only)
    std::vector<std::unique_ptr<ObjectPiece>> objects; // per object column, once made
};

// Per text column, the strs of values that repeat, made once and shared by all their rows (up
// to kMost a column: past that, each chunk makes its own).
struct NumpyConversion::SharedStrings {
    static constexpr size_t kMost = 4096;

    std::vector<std::unordered_map<std::string, PyObject*>> columns; // per object column

    explicit SharedStrings(size_t count) : columns(count) {}
    ~SharedStrings() {
        for (auto& strs : columns) {
            for (auto& [text, object] : strs) {
                Py_DECREF(object);
            }
        }
    }

    // The str of `value` in object column `column` (a new reference).
    py::object Get(size_t column, const string_t& value) {
        auto& strs = columns[column];
        std::string text(value.view());
        auto found = strs.find(text);
        if (found != strs.end()) {
            return py::reinterpret_borrow<py::object>(found->second);
        }
        auto object = py::reinterpret_steal<py::object>(NewString(value.view()));
        if (!object) {
            throw py::error_already_set();
        }
        if (strs.size() < kMost) {
            strs.emplace(std::move(text), py::object(object).release().ptr());
        }
        return object;
    }
};

NumpyConversion::NumpyConversion(std::vector<std::string> names, std::vector<LogicalType> types,
                                 bool nanoseconds)
    : names_(std::move(names)), types_(std::move(types)), nanoseconds_(nanoseconds) {
    for (idx_t c = 0; c < types_.size(); c++) {
        if (!IsNumpyNative(types_[c])) {
            object_columns_.push_back(c);
        }
    }
    shared_ = std::make_unique<SharedStrings>(object_columns_.size());
}

NumpyConversion::~NumpyConversion() = default;

void NumpyConversion::Add(std::unique_ptr<DataChunk> chunk, idx_t batch_index) {
    chunk->Flatten();
    auto piece = std::make_unique<Piece>();
    piece->batch_index = batch_index;
    piece->strings.resize(object_columns_.size());
    for (size_t k = 0; k < object_columns_.size(); k++) {
        idx_t c = object_columns_[k];
        if (types_[c].id() == LogicalTypeId::VARCHAR) {
            piece->strings[k].Find(chunk->column(c), chunk->size());
        }
    }
    piece->chunk = std::move(chunk);
    std::lock_guard<std::mutex> guard(mutex_);
    piece->arrival = pieces_.size();
    pieces_.push_back(std::move(piece));
}

void NumpyConversion::ConvertAdded() {
    while (true) {
        Piece* piece;
        {
            std::lock_guard<std::mutex> guard(mutex_);
            if (converted_ == pieces_.size()) {
                return;
            }
            piece = pieces_[converted_].get();
        }
        const DataChunk& chunk = *piece->chunk;
        idx_t count = chunk.size();
        for (size_t k = 0; k < object_columns_.size(); k++) {
            const Vector& vector = chunk.column(object_columns_[k]);
            const RepeatedStrings& repeated = piece->strings[k];
            if (repeated.repeated()) {
                std::vector<py::object> distinct;
                for (const string_t& value : repeated.values) {
                    distinct.push_back(shared_->Get(k, value));
                }
                piece->objects.push_back(
                    std::make_unique<ObjectPiece>(repeated, std::move(distinct)));
                continue;
            }
            auto run = std::make_unique<ObjectPiece>(count);
            if (vector.type().id() == LogicalTypeId::VARCHAR) {
                const string_t* strings = vector.data<string_t>();
                bool all_valid = vector.validity().AllValid();
                for (idx_t row = 0; row < count; row++) {
                    if (row + 8 < count) {
                        __builtin_prefetch(strings[row + 8].data()); // hides the heap's latency
                    }
                    PyObject* object = Py_None;
                    if (all_valid || vector.RowIsValid(row)) {
                        object = NewString(strings[row].view());
                        if (object == nullptr) {
                            throw py::error_already_set();
                        }
                    } else {
                        Py_INCREF(object);
                    }
                    run->Push(object);
                }
            } else {
                for (py::object& value : ToPython(vector, 0, count)) {
                    run->Push(value.release().ptr());
                }
            }
            piece->objects.push_back(std::move(run));
        }
        converted_++;
    }
}

py::dict NumpyConversion::Finish(TaskScheduler* scheduler) {
    ConvertAdded();
    // The pieces in the result's order; their chunks for the numeric columns' fills.
    std::sort(pieces_.begin(), pieces_.end(), [](const auto& a, const auto& b) {
        return a->batch_index != b->batch_index ? a->batch_index < b->batch_index
                                                : a->arrival < b->arrival;
    });
    Chunks chunks;
    idx_t rows = 0;
    for (auto& piece : pieces_) {
        rows += piece->chunk->size();
        chunks.push_back(std::move(piece->chunk));
    }
    Fills fills;
    std::vector<ArrayMaker> native(types_.size());
    for (idx_t c = 0; c < types_.size(); c++) {
        if (IsNumpyNative(types_[c])) {
            native[c] = NativeColumn(fills, chunks, c, rows, types_[c], nanoseconds_);
        }
    }
    // Each object column's references copied into one array, then held by it.
    std::vector<std::unique_ptr<ArrayMemory>> objects;
    for (size_t k = 0; k < object_columns_.size(); k++) {
        objects.push_back(
            std::make_unique<ArrayMemory>(std::max<idx_t>(rows, 1) * sizeof(PyObject*)));
        fills.push_back([this, k, array = static_cast<PyObject**>(objects[k]->data())] {
            PyObject** out = array;
            PyObject* copied[kVectorSize]; // a piece's objects, streamed to `out` from the cache
            for (const auto& piece : pieces_) {
                const ObjectPiece& objects = *piece->objects[k];
                objects.CopyTo(copied);
                StreamBytes(out, copied, objects.rows() * sizeof(PyObject*));
                out += objects.rows();
            }
            StreamedStoresDone();
        });
    }
    RunFills(scheduler, fills);
    for (size_t k = 0; k < object_columns_.size(); k++) {
        objects[k]->HoldObjects(rows);
        for (auto& piece : pieces_) {
            piece->objects[k]->Disown();
        }
    }
    // Freed on a REGULAR thread while this one makes the frame: a gigabyte of chunks, in the
    // allocator's time (no Python objects are left in them).
    auto garbage = std::make_shared<std::pair<Chunks, std::vector<std::unique_ptr<Piece>>>>(
        std::move(chunks), std::move(pieces_));
    pieces_.clear();
    converted_ = 0;
    if (scheduler != nullptr) {
        scheduler->Schedule(std::make_shared<FunctionTask>(
            TaskPool::Regular,
            [garbage] {
                garbage->first.clear();
                garbage->second.clear();
            },
            [](std::exception_ptr) {}));
    }
    py::dict columns;
    size_t next_object = 0;
    for (idx_t c = 0; c < types_.size(); c++) {
        columns[py::str(names_[c])] =
            native[c] ? native[c]()
                      : ArrayMemory::Wrap(std::move(objects[next_object++]), py::dtype("O"), rows);
    }
    return columns;
}

py::dict ToNumpy(QueryResult& result, bool nanoseconds, TaskScheduler* scheduler) {
    NumpyConversion conversion(result.names(), result.types(), nanoseconds);
    Chunks chunks;
    while (auto chunk = result.Fetch()) {
        chunks.push_back(std::move(chunk));
    }
    // Added on the scheduler's threads: finding the text values that repeat reads them all.
    Fills adds;
    size_t tasks = std::min<size_t>(chunks.size(), 16);
    for (size_t task = 0; task < tasks; task++) {
        adds.push_back([&chunks, &conversion, task, tasks] {
            for (size_t i = task; i < chunks.size(); i += tasks) {
                conversion.Add(std::move(chunks[i]), i);
            }
        });
    }
    RunFills(scheduler, adds);
    return conversion.Finish(scheduler);
}

} // namespace sluice
