#include "python/python_numpy_arrays.hpp"

#include "common/cpu_dispatch.hpp"
#include "common/date_time.hpp"
#include "common/exception.hpp"
#include "common/physical_dispatch.hpp"
#include "memory/huge_page_allocator.hpp"
#include "parallel/run_concurrently.hpp"

#include <emmintrin.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

namespace sluice {

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

ArrayMemory::ArrayMemory(size_t bytes) : data_(AllocateForRandomAccess(bytes)), bytes_(bytes) {
}

ArrayMemory::~ArrayMemory() {
    auto** objects = static_cast<PyObject**>(data_);
    for (size_t i = 0; i < objects_; i++) {
        Py_DECREF(objects[i]);
    }
    if (data_ != nullptr) {
        FreeForRandomAccess(data_, bytes_);
    }
}

py::array ArrayMemory::Wrap(std::unique_ptr<ArrayMemory> memory, const py::dtype& dtype,
                            idx_t rows) {
    void* data = memory->data();
    py::capsule owner(memory.release(),
                      [](void* memory) { delete static_cast<ArrayMemory*>(memory); });
    return py::array(dtype, std::vector<py::ssize_t>{static_cast<py::ssize_t>(rows)}, {}, data,
                     owner);
}

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

void StreamedStoresDone() {
    _mm_sfence();
}

namespace {


bool HasNull(const Vector& vector, idx_t count) {
    for (idx_t row = 0; row < count; row++) {
        if (!vector.RowIsValid(row)) {
            return true;
        }
    }
    return false;
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
SLUICE_TARGET_CLONES void DivideToDoubles(const int64_t* values, idx_t count, double divisor,
                                          double* out) {
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
SLUICE_TARGET_CLONES void MultiplyTimes(const int32_t* days, idx_t count, int64_t scale,
                                        int64_t* out, int64_t& smallest, int64_t& largest) {
    MultiplyTimesLoop(days, count, scale, out, smallest, largest);
}
SLUICE_TARGET_CLONES void MultiplyTimes(const int64_t* micros, idx_t count, int64_t scale,
                                        int64_t* out, int64_t& smallest, int64_t& largest) {
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
    int64_t scale = (date ? dtime::kMicrosPerDay : 1) * (nanoseconds ? 1000 : 1);
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
                                        out[row] = days * dtime::kMicrosPerDay + interval.micros;
                                    }
                                    return out;
                                });
}

} // namespace

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

} // namespace sluice
