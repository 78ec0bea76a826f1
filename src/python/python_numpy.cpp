#include "python/python_numpy.hpp"

#include "common/exception.hpp"
#include "common/physical_dispatch.hpp"
#include "common/utf8.hpp"
#include "memory/huge_page_allocator.hpp"
#include "parallel/function_task.hpp"
#include "python/python_conversion.hpp"

#include <pybind11/numpy.h>

#include <condition_variable>
#include <cstring>
#include <functional>
#include <mutex>
#include <set>
#include <string_view>
#include <type_traits>

namespace sluice {

namespace {

constexpr int64_t kMicrosPerDay = 86400000000LL;

} // namespace

namespace {

using Chunks = std::vector<std::unique_ptr<DataChunk>>;
// A column's array once converted (with the GIL held).
using Finish = std::function<py::object()>;

// The numeric columns' fills: their numpy arrays are made first (with the GIL), then filled,
// on the scheduler's threads without the GIL while this thread makes the Python objects of the
// other columns, then finished (masked where a row is NULL).
struct ColumnFills {
    std::vector<std::function<void()>> fills;

    // Runs every fill: on the REGULAR pool when there is a scheduler (calling `meanwhile` on
    // this thread first), else here.
    void Run(TaskScheduler* scheduler, const std::function<void()>& meanwhile) {
        if (scheduler == nullptr || fills.empty()) {
            for (auto& fill : fills) {
                fill();
            }
            meanwhile();
            return;
        }
        struct Countdown {
            std::mutex mutex;
            std::condition_variable done;
            size_t pending;
            std::exception_ptr error;
        };
        auto countdown = std::make_shared<Countdown>();
        countdown->pending = fills.size();
        auto finished = [countdown](std::exception_ptr error) {
            std::lock_guard<std::mutex> guard(countdown->mutex);
            if (error && !countdown->error) {
                countdown->error = error;
            }
            if (--countdown->pending == 0) {
                countdown->done.notify_all();
            }
        };
        for (auto& fill : fills) {
            scheduler->Schedule(std::make_shared<FunctionTask>(
                TaskPool::Regular,
                [fill = &fill, finished] {
                    (*fill)();
                    finished(nullptr);
                },
                finished));
        }
        std::exception_ptr meanwhile_error;
        try {
            meanwhile();
        } catch (...) {
            meanwhile_error = std::current_exception(); // after the fills: they use the arrays
        }
        {
            py::gil_scoped_release release;
            std::unique_lock<std::mutex> lock(countdown->mutex);
            countdown->done.wait(lock, [&] { return countdown->pending == 0; });
        }
        if (meanwhile_error) {
            std::rethrow_exception(meanwhile_error);
        }
        if (countdown->error) {
            std::rethrow_exception(countdown->error);
        }
    }
};

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

// A numpy array of `rows` values of dtype `dtype`, the values of each chunk written by
// `write(vector, count, out)` in the fill; masked where NULL (a plain array when no row is: the
// mask is made when the first NULL is met).
template <typename T, typename Write>
Finish NumpyColumn(ColumnFills& fills, const Chunks& chunks, idx_t column, idx_t rows,
                   const char* dtype, Write write) {
    struct Column {
        std::unique_ptr<ArrayMemory> values;
        std::unique_ptr<ArrayMemory> nulls;
    };
    auto filled = std::make_shared<Column>();
    filled->values = std::make_unique<ArrayMemory>(std::max<idx_t>(rows, 1) * sizeof(T));
    fills.fills.push_back([&chunks, column, rows, filled, write] {
        auto* out = static_cast<T*>(filled->values->data());
        idx_t offset = 0;
        for (const auto& chunk : chunks) {
            const Vector& vector = chunk->column(column);
            idx_t count = chunk->size();
            write(vector, count, out + offset);
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
Finish FixedWidthColumn(ColumnFills& fills, const Chunks& chunks, idx_t column, idx_t rows,
                        const char* dtype) {
    return NumpyColumn<T>(fills, chunks, column, rows, dtype,
                          [](const Vector& vector, idx_t count, T* out) {
                              std::memcpy(out, vector.data<T>(), count * sizeof(T));
                          });
}

// DECIMAL (any storage width) and HUGEINT as float64, as DuckDB's fetchnumpy gives them.
Finish DoubleColumn(ColumnFills& fills, const Chunks& chunks, idx_t column, idx_t rows,
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
                if constexpr (std::is_integral_v<Stored> || std::is_same_v<Stored, hugeint_t>) {
                    const Stored* stored = vector.data<Stored>();
                    for (idx_t row = 0; row < count; row++) {
                        out[row] = static_cast<double>(stored[row]) / divisor;
                    }
                }
            });
        });
}

// Microseconds as nanoseconds, or an error naming the value pandas cannot hold.
int64_t MicrosToNanos(int64_t micros, const LogicalType& type) {
    int64_t nanos;
    if (__builtin_mul_overflow(micros, int64_t(1000), &nanos)) {
        throw Exception(ErrorKind::OutOfRange,
                        Value::Integer(LogicalTypeId::TIMESTAMP, micros).ToString() + " (a " +
                            type.ToString() +
                            ") is outside the range of datetime64[ns] (years 1677 to 2262)");
    }
    return nanos;
}

// DATE, TIMESTAMP and TIMESTAMP WITH TIME ZONE as datetime64 in `unit` (us or ns); dates at
// midnight.
Finish TimeColumn(ColumnFills& fills, const Chunks& chunks, idx_t column, idx_t rows,
                  const LogicalType& type, bool nanoseconds) {
    bool date = type.id() == LogicalTypeId::DATE;
    return NumpyColumn<int64_t>(
        fills, chunks, column, rows, nanoseconds ? "datetime64[ns]" : "datetime64[us]",
        [date, nanoseconds, type](const Vector& vector, idx_t count, int64_t* out) {
            for (idx_t row = 0; row < count; row++) {
                int64_t micros = date ? vector.data<int32_t>()[row] * kMicrosPerDay
                                      : vector.data<int64_t>()[row];
                out[row] = nanoseconds && vector.validity().RowIsValid(row)
                               ? MicrosToNanos(micros, type)
                               : micros;
            }
        });
}

// INTERVAL as timedelta64[us], a month counted as 30 days (as its Python form).
Finish IntervalColumn(ColumnFills& fills, const Chunks& chunks, idx_t column, idx_t rows) {
    return NumpyColumn<int64_t>(fills, chunks, column, rows, "timedelta64[us]",
                                [](const Vector& vector, idx_t count, int64_t* out) {
                                    const auto* intervals = vector.data<interval_t>();
                                    for (idx_t row = 0; row < count; row++) {
                                        const interval_t& interval = intervals[row];
                                        int64_t days =
                                            int64_t(interval.months) * 30 + interval.days;
                                        out[row] = days * kMicrosPerDay + interval.micros;
                                    }
                                });
}

// A Python str of UTF-8 `text`; ASCII (most text) is copied straight into a new str.
PyObject* NewString(std::string_view text) {
    if (!IsAscii(text)) {
        return PyUnicode_DecodeUTF8(text.data(), static_cast<py::ssize_t>(text.size()), "replace");
    }
    PyObject* object = PyUnicode_New(static_cast<py::ssize_t>(text.size()), 127);
    if (object != nullptr && !text.empty()) {
        std::memcpy(PyUnicode_DATA(object), text.data(), text.size());
    }
    return object;
}

// Calls visit(row, value) for the rows of a VARCHAR column in order, `value` null where the row
// is NULL, while visit returns true; false when it stopped early.
template <class Visit>
bool ForEachString(const Chunks& chunks, idx_t column, Visit visit) {
    idx_t offset = 0;
    for (const auto& chunk : chunks) {
        const Vector& vector = chunk->column(column);
        const string_t* strings = vector.data<string_t>();
        bool all_valid = vector.validity().AllValid();
        for (idx_t row = 0; row < chunk->size(); row++, offset++) {
            bool valid = all_valid || vector.RowIsValid(row);
            if (!visit(offset, valid ? &strings[row] : nullptr)) {
                return false;
            }
        }
    }
    return true;
}

// A VARCHAR column as indexes into its distinct values, found on a REGULAR thread (no Python
// objects, so no GIL) while this thread makes other columns' objects: a column of few distinct
// values (flags, codes, names) then needs one str per distinct value and a reference per row,
// as pandas would hold it. Gives up past kMaxValues distinct values (the column's rows each get
// a str of their own).
struct StringDictionary {
    static constexpr size_t kMaxValues = 4096;
    static constexpr uint16_t kNull = UINT16_MAX;

    bool encoded = false;
    std::vector<string_t> values;  // distinct, in order of first appearance
    std::vector<uint16_t> indexes; // per row; kNull for NULL

    void Encode(const Chunks& chunks, idx_t column, idx_t rows) {
        // An open-addressed table of the values' indexes, at most half full.
        constexpr size_t kSlots = 2 * kMaxValues;
        std::vector<uint16_t> slots(kSlots, kNull);
        indexes.resize(rows);
        encoded = ForEachString(chunks, column, [&](idx_t row, const string_t* value) {
            if (value == nullptr) {
                indexes[row] = kNull;
                return true;
            }
            size_t slot = Hash(*value) & (kSlots - 1);
            while (slots[slot] != kNull && !(values[slots[slot]] == *value)) {
                slot = (slot + 1) & (kSlots - 1);
            }
            if (slots[slot] == kNull) {
                if (values.size() == kMaxValues) {
                    return false; // too many to share
                }
                slots[slot] = static_cast<uint16_t>(values.size());
                values.push_back(*value);
            }
            indexes[row] = slots[slot];
            return true;
        });
        if (!encoded) {
            values.clear();
            indexes = {};
        }
    }

private:
    static uint64_t Hash(const string_t& value) {
        uint64_t head, tail;
        value.InlinedWords(head, tail);
        if (!value.IsInlined()) {
            // The last eight bytes (a long value's middle bytes are its pointer here).
            std::memcpy(&tail, value.data() + value.size() - 8, 8);
        }
        uint64_t hash = (head ^ (tail * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL;
        return hash ^ (hash >> 29);
    }
};

// Strings as Python str objects (None for NULL): through the column's dictionary if it has one.
py::object StringColumn(const Chunks& chunks, idx_t column, idx_t rows,
                        const StringDictionary& dictionary) {
    auto memory = std::make_unique<ArrayMemory>(std::max<idx_t>(rows, 1) * sizeof(PyObject*));
    auto** out = static_cast<PyObject**>(memory->data());
    if (dictionary.encoded) {
        std::vector<py::object> objects;
        for (const string_t& value : dictionary.values) {
            objects.push_back(py::reinterpret_steal<py::object>(NewString(value.view())));
            if (!objects.back()) {
                throw py::error_already_set();
            }
        }
        for (idx_t row = 0; row < rows; row++) {
            uint16_t index = dictionary.indexes[row];
            PyObject* object = index == StringDictionary::kNull ? Py_None : objects[index].ptr();
            Py_INCREF(object);
            out[row] = object;
        }
        memory->HoldObjects(rows);
        return ArrayMemory::Wrap(std::move(memory), py::dtype("O"), rows);
    }
    ForEachString(chunks, column, [&](idx_t row, const string_t* value) {
        PyObject* object = Py_None;
        if (value == nullptr) {
            Py_INCREF(object);
        } else {
            object = NewString(value->view());
            if (object == nullptr) {
                memory->HoldObjects(row);
                throw py::error_already_set();
            }
        }
        out[row] = object;
        return true;
    });
    memory->HoldObjects(rows);
    return ArrayMemory::Wrap(std::move(memory), py::dtype("O"), rows);
}

// The dictionaries of a result's VARCHAR columns, encoded by fills while this thread takes each
// as it is ready.
class StringDictionaries {
public:
    explicit StringDictionaries(size_t count) : dictionaries_(count), done_(count, false) {}

    void Encode(size_t index, const Chunks& chunks, idx_t column, idx_t rows) {
        struct Done {
            StringDictionaries& owner;
            size_t index;
            ~Done() {
                std::lock_guard<std::mutex> guard(owner.mutex_);
                owner.done_[index] = true;
                owner.changed_.notify_all();
            }
        } done{*this, index};
        dictionaries_[index].Encode(chunks, column, rows);
    }

    // The index of a dictionary done and not taken before (the GIL released while waiting).
    size_t TakeNext() {
        py::gil_scoped_release release;
        std::unique_lock<std::mutex> lock(mutex_);
        while (true) {
            for (size_t i = 0; i < done_.size(); i++) {
                if (done_[i] && !taken_.count(i)) {
                    taken_.insert(i);
                    return i;
                }
            }
            changed_.wait(lock);
        }
    }

    const StringDictionary& operator[](size_t index) const { return dictionaries_[index]; }

private:
    std::vector<StringDictionary> dictionaries_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<bool> done_; // under mutex_
    std::set<size_t> taken_; // by the converting thread only
};

// Values a numpy array cannot hold natively, as Python objects (None for NULL).
py::object ObjectColumn(const std::vector<std::unique_ptr<DataChunk>>& chunks, idx_t column,
                        idx_t rows) {
    py::array values(py::dtype("O"), std::vector<py::ssize_t>{static_cast<py::ssize_t>(rows)});
    auto** out = static_cast<PyObject**>(values.mutable_data());
    idx_t offset = 0;
    for (const auto& chunk : chunks) {
        for (idx_t row = 0; row < chunk->size(); row++) {
            py::object object = ToPython(chunk->GetValue(column, row));
            Py_XDECREF(out[offset]);
            out[offset++] = object.release().ptr();
        }
    }
    return values;
}

} // namespace

py::dict ToNumpy(QueryResult& result, bool nanoseconds, TaskScheduler* scheduler) {
    std::vector<std::unique_ptr<DataChunk>> chunks;
    idx_t rows = 0;
    while (auto chunk = result.Fetch()) {
        chunk->Flatten();
        rows += chunk->size();
        chunks.push_back(std::move(chunk));
    }
    ColumnFills fills;
    // The VARCHAR columns' dictionaries are encoded first (this thread waits for them).
    std::vector<idx_t> strings;
    for (idx_t c = 0; c < result.ColumnCount(); c++) {
        if (result.types()[c].id() == LogicalTypeId::VARCHAR) {
            strings.push_back(c);
        }
    }
    auto dictionaries = std::make_shared<StringDictionaries>(strings.size());
    for (size_t i = 0; i < strings.size(); i++) {
        fills.fills.push_back([&chunks, dictionaries, i, column = strings[i], rows] {
            dictionaries->Encode(i, chunks, column, rows);
        });
    }
    std::vector<Finish> numeric(result.ColumnCount());
    std::vector<idx_t> objects; // columns of other Python objects, made while the others fill
    for (idx_t c = 0; c < result.ColumnCount(); c++) {
        const LogicalType& type = result.types()[c];
        Finish& array = numeric[c];
        switch (type.id()) {
        case LogicalTypeId::BOOLEAN:
            array = FixedWidthColumn<bool>(fills, chunks, c, rows, "bool");
            break;
        case LogicalTypeId::TINYINT:
            array = FixedWidthColumn<int8_t>(fills, chunks, c, rows, "int8");
            break;
        case LogicalTypeId::SMALLINT:
            array = FixedWidthColumn<int16_t>(fills, chunks, c, rows, "int16");
            break;
        case LogicalTypeId::INTEGER:
            array = FixedWidthColumn<int32_t>(fills, chunks, c, rows, "int32");
            break;
        case LogicalTypeId::BIGINT:
            array = FixedWidthColumn<int64_t>(fills, chunks, c, rows, "int64");
            break;
        case LogicalTypeId::UTINYINT:
            array = FixedWidthColumn<uint8_t>(fills, chunks, c, rows, "uint8");
            break;
        case LogicalTypeId::USMALLINT:
            array = FixedWidthColumn<uint16_t>(fills, chunks, c, rows, "uint16");
            break;
        case LogicalTypeId::UINTEGER:
            array = FixedWidthColumn<uint32_t>(fills, chunks, c, rows, "uint32");
            break;
        case LogicalTypeId::UBIGINT:
            array = FixedWidthColumn<uint64_t>(fills, chunks, c, rows, "uint64");
            break;
        case LogicalTypeId::FLOAT:
            array = FixedWidthColumn<float>(fills, chunks, c, rows, "float32");
            break;
        case LogicalTypeId::DOUBLE:
            array = FixedWidthColumn<double>(fills, chunks, c, rows, "float64");
            break;
        case LogicalTypeId::DATE:
        case LogicalTypeId::TIMESTAMP:
        case LogicalTypeId::TIMESTAMP_TZ: // UTC instants; df() marks them UTC
            array = TimeColumn(fills, chunks, c, rows, type, nanoseconds);
            break;
        case LogicalTypeId::TIMESTAMP_NS:
            array = FixedWidthColumn<int64_t>(fills, chunks, c, rows, "datetime64[ns]");
            break;
        case LogicalTypeId::INTERVAL:
            array = IntervalColumn(fills, chunks, c, rows);
            break;
        case LogicalTypeId::DECIMAL:
        case LogicalTypeId::HUGEINT:
            array = DoubleColumn(fills, chunks, c, rows, type);
            break;
        case LogicalTypeId::VARCHAR:
            break;
        default:
            objects.push_back(c);
            break;
        }
    }
    std::vector<py::object> arrays(result.ColumnCount());
    fills.Run(scheduler, [&] {
        for (idx_t c : objects) {
            arrays[c] = ObjectColumn(chunks, c, rows);
        }
        // Each string column as its dictionary is ready: a column of distinct values gives up
        // early, and its strs are made while the fills encode the others.
        for (size_t taken = 0; taken < strings.size(); taken++) {
            size_t i = dictionaries->TakeNext();
            arrays[strings[i]] = StringColumn(chunks, strings[i], rows, (*dictionaries)[i]);
        }
    });
    py::dict columns;
    for (idx_t c = 0; c < result.ColumnCount(); c++) {
        columns[py::str(result.names()[c])] = numeric[c] ? numeric[c]() : arrays[c];
    }
    return columns;
}

} // namespace sluice
