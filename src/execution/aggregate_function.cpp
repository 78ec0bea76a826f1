#include "execution/aggregate_function.hpp"

#include "common/exception.hpp"
#include "common/number_format.hpp"
#include "common/physical_dispatch.hpp"
#include "execution/approx_count_distinct.hpp"
#include "execution/value_aggregates.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <unordered_set>

namespace sluice {

namespace {

template <class State>
State& As(uint8_t* state) {
    return *reinterpret_cast<State*>(state);
}
template <class State>
const State& As(const uint8_t* state) {
    return *reinterpret_cast<const State*>(state);
}

// Calls `body(row)` for the valid rows of `input`.
template <class Body>
void ForValidRows(const Vector& input, idx_t count, Body body) {
    const ValidityMask& validity = input.validity();
    bool constant = input.vector_type() == VectorType::CONSTANT;
    if (validity.AllValid() && !constant) {
        for (idx_t row = 0; row < count; row++) {
            body(row, row);
        }
        return;
    }
    for (idx_t row = 0; row < count; row++) {
        idx_t index = constant ? 0 : row;
        if (validity.RowIsValid(index)) {
            body(row, index);
        }
    }
}

// Calls `body(index)` for the valid ones of the rows `rows[0, count)` of `input`.
template <class Body>
void ForValidRowsOf(const Vector& input, const uint32_t* rows, idx_t count, Body body) {
    const ValidityMask& validity = input.validity();
    if (input.vector_type() == VectorType::CONSTANT) {
        if (validity.RowIsValid(0)) {
            for (idx_t i = 0; i < count; i++) {
                body(0);
            }
        }
        return;
    }
    if (validity.AllValid()) {
        for (idx_t i = 0; i < count; i++) {
            body(rows[i]);
        }
        return;
    }
    for (idx_t i = 0; i < count; i++) {
        if (validity.RowIsValid(rows[i])) {
            body(rows[i]);
        }
    }
}

struct CountState {
    int64_t count;
};

AggregateFunction CountFunction(bool star, const LogicalType& argument) {
    AggregateFunction function;
    function.name = star ? "count_star" : "count";
    if (!star) {
        function.argument_types = {argument};
    }
    function.return_type = LogicalTypeId::BIGINT;
    function.state_size = sizeof(CountState);
    function.initialize = [](uint8_t* state) { As<CountState>(state).count = 0; };
    if (star) {
        function.update = [](const std::vector<const Vector*>&, idx_t count, uint8_t** states,
                             idx_t offset, StringHeap&) {
            for (idx_t row = 0; row < count; row++) {
                As<CountState>(states[row] + offset).count++;
            }
        };
        function.update_one_state = [](const std::vector<const Vector*>&, const uint32_t*,
                                       idx_t count, uint8_t* state) {
            As<CountState>(state).count += static_cast<int64_t>(count);
        };
    } else {
        function.update = [](const std::vector<const Vector*>& args, idx_t count, uint8_t** states,
                             idx_t offset, StringHeap&) {
            ForValidRows(*args[0], count,
                         [&](idx_t row, idx_t) { As<CountState>(states[row] + offset).count++; });
        };
        function.update_one_state = [](const std::vector<const Vector*>& args, const uint32_t* rows,
                                       idx_t count, uint8_t* state) {
            int64_t valid = 0;
            ForValidRowsOf(*args[0], rows, count, [&](idx_t) { valid++; });
            As<CountState>(state).count += valid;
        };
    }
    function.combine = [](const uint8_t* source, uint8_t* target, StringHeap& /*heap*/) {
        As<CountState>(target).count += As<CountState>(source).count;
    };
    function.finalize = [](const uint8_t* state, Vector& result, idx_t row) {
        result.data<int64_t>()[row] = As<CountState>(state).count;
    };
    return function;
}

struct IntegerSumState {
    hugeint_t sum;
    int64_t count;
};

// count_if(condition): the TRUE rows, as DuckDB's HUGEINT; NULL when every row is NULL.
AggregateFunction CountIfFunction(const std::string& name) {
    AggregateFunction function;
    function.name = name;
    function.argument_types = {LogicalTypeId::BOOLEAN};
    function.return_type = LogicalTypeId::HUGEINT;
    function.state_size = sizeof(IntegerSumState);
    function.initialize = [](uint8_t* state) { As<IntegerSumState>(state) = {0, 0}; };
    function.update = [](const std::vector<const Vector*>& args, idx_t count, uint8_t** states,
                         idx_t offset, StringHeap&) {
        const bool* data = args[0]->data<bool>();
        ForValidRows(*args[0], count, [&](idx_t row, idx_t index) {
            auto& state = As<IntegerSumState>(states[row] + offset);
            state.sum += data[index] ? 1 : 0;
            state.count++;
        });
    };
    function.combine = [](const uint8_t* source, uint8_t* target, StringHeap& /*heap*/) {
        As<IntegerSumState>(target).sum += As<IntegerSumState>(source).sum;
        As<IntegerSumState>(target).count += As<IntegerSumState>(source).count;
    };
    function.finalize = [](const uint8_t* state, Vector& result, idx_t row) {
        const auto& s = As<IntegerSumState>(state);
        if (s.count == 0) {
            result.SetNull(row);
            return;
        }
        result.data<hugeint_t>()[row] = s.sum;
    };
    return function;
}

struct DoubleSumState {
    double sum;
    int64_t count;
};

[[noreturn]] __attribute__((noinline)) void ThrowSumOverflow(hugeint_t a, hugeint_t b) {
    throw Exception(ErrorKind::OutOfRange,
                    "Overflow in HUGEINT addition: " + FormatHugeint(a) + " + " + FormatHugeint(b));
}

// 128-bit sums of 128-bit inputs can overflow (64-bit inputs would need 2^64 rows).
inline hugeint_t AddChecked(hugeint_t a, hugeint_t b) {
    hugeint_t sum;
    if (__builtin_add_overflow(a, b, &sum)) [[unlikely]] {
        ThrowSumOverflow(a, b);
    }
    return sum;
}

// Sums and averages of exact numbers accumulate in 128 bits, like DuckDB's.
template <class T>
void AddIntegers(const Vector& input, idx_t count, uint8_t** states, idx_t offset) {
    const T* data = input.data<T>();
    ForValidRows(input, count, [&](idx_t row, idx_t index) {
        auto& state = As<IntegerSumState>(states[row] + offset);
        if constexpr (std::is_same_v<T, hugeint_t>) {
            state.sum = AddChecked(state.sum, data[index]);
        } else {
            state.sum += static_cast<hugeint_t>(data[index]);
        }
        state.count++;
    });
}

// The same sum into one state: a running total in registers, written once.
template <class T>
void AddIntegersToOne(const Vector& input, const uint32_t* rows, idx_t count, uint8_t* state) {
    const T* data = input.data<T>();
    hugeint_t sum = 0;
    int64_t added = 0;
    ForValidRowsOf(input, rows, count, [&](idx_t index) {
        if constexpr (std::is_same_v<T, hugeint_t>) {
            sum = AddChecked(sum, data[index]);
        } else {
            sum += static_cast<hugeint_t>(data[index]); // < 2^64 rows of 64 bits cannot overflow
        }
        added++;
    });
    auto& total = As<IntegerSumState>(state);
    total.sum = AddChecked(total.sum, sum);
    total.count += added;
}

// Calls `add.template operator()<T>()` with T the C++ type of an integer layout.
template <class Add>
void DispatchInteger(PhysicalType type, Add add) {
    switch (type) {
    case PhysicalType::INT8:
        return add.template operator()<int8_t>();
    case PhysicalType::INT16:
        return add.template operator()<int16_t>();
    case PhysicalType::INT32:
        return add.template operator()<int32_t>();
    case PhysicalType::INT64:
        return add.template operator()<int64_t>();
    case PhysicalType::INT128:
        return add.template operator()<hugeint_t>();
    case PhysicalType::UINT8:
        return add.template operator()<uint8_t>();
    case PhysicalType::UINT16:
        return add.template operator()<uint16_t>();
    case PhysicalType::UINT32:
        return add.template operator()<uint32_t>();
    case PhysicalType::UINT64:
        return add.template operator()<uint64_t>();
    default:
        throw Exception(ErrorKind::Internal, "sum over a non-integer layout");
    }
}

AggregateFunction SumOrAverage(bool average, const LogicalType& argument) {
    AggregateFunction function;
    function.name = average ? "avg" : "sum";
    function.argument_types = {argument};
    bool exact = argument.IsInteger() || argument.id() == LogicalTypeId::DECIMAL;
    if (!exact) {
        // FLOAT and DOUBLE sum in double.
        function.argument_types = {LogicalTypeId::DOUBLE};
        function.return_type = LogicalTypeId::DOUBLE;
        function.state_size = sizeof(DoubleSumState);
        function.initialize = [](uint8_t* state) { As<DoubleSumState>(state) = {0, 0}; };
        function.update = [](const std::vector<const Vector*>& args, idx_t count, uint8_t** states,
                             idx_t offset, StringHeap&) {
            const double* data = args[0]->data<double>();
            ForValidRows(*args[0], count, [&](idx_t row, idx_t index) {
                auto& state = As<DoubleSumState>(states[row] + offset);
                state.sum += data[index];
                state.count++;
            });
        };
        function.update_one_state = [](const std::vector<const Vector*>& args, const uint32_t* rows,
                                       idx_t count, uint8_t* state) {
            // In row order, as `update` adds them: the same rounding.
            auto& total = As<DoubleSumState>(state);
            const double* data = args[0]->data<double>();
            ForValidRowsOf(*args[0], rows, count, [&](idx_t index) {
                total.sum += data[index];
                total.count++;
            });
        };
        function.combine = [](const uint8_t* source, uint8_t* target, StringHeap& /*heap*/) {
            As<DoubleSumState>(target).sum += As<DoubleSumState>(source).sum;
            As<DoubleSumState>(target).count += As<DoubleSumState>(source).count;
        };
        function.finalize = [average](const uint8_t* state, Vector& result, idx_t row) {
            const auto& s = As<DoubleSumState>(state);
            if (s.count == 0) {
                result.SetNull(row);
                return;
            }
            result.data<double>()[row] = average ? s.sum / static_cast<double>(s.count) : s.sum;
        };
        return function;
    }
    uint8_t scale = argument.id() == LogicalTypeId::DECIMAL ? argument.scale() : 0;
    if (average) {
        function.return_type = LogicalTypeId::DOUBLE;
    } else if (argument.id() == LogicalTypeId::DECIMAL) {
        function.return_type = LogicalType::Decimal(kMaxDecimalWidth, scale);
    } else {
        function.return_type = LogicalTypeId::HUGEINT;
    }
    function.state_size = sizeof(IntegerSumState);
    function.initialize = [](uint8_t* state) { As<IntegerSumState>(state) = {0, 0}; };
    function.update = [](const std::vector<const Vector*>& args, idx_t count, uint8_t** states,
                         idx_t offset, StringHeap&) {
        DispatchInteger(args[0]->type().physical(),
                        [&]<class T>() { AddIntegers<T>(*args[0], count, states, offset); });
    };
    function.update_one_state = [](const std::vector<const Vector*>& args, const uint32_t* rows,
                                   idx_t count, uint8_t* state) {
        DispatchInteger(args[0]->type().physical(),
                        [&]<class T>() { AddIntegersToOne<T>(*args[0], rows, count, state); });
    };
    function.combine = [](const uint8_t* source, uint8_t* target, StringHeap& /*heap*/) {
        auto& t = As<IntegerSumState>(target);
        t.sum = AddChecked(t.sum, As<IntegerSumState>(source).sum);
        t.count += As<IntegerSumState>(source).count;
    };
    double divisor = std::pow(10.0, scale);
    function.finalize = [average, divisor](const uint8_t* state, Vector& result, idx_t row) {
        const auto& s = As<IntegerSumState>(state);
        if (s.count == 0) {
            result.SetNull(row);
            return;
        }
        if (average) {
            // Divide in long double so that the result is the correctly rounded quotient.
            long double quotient = static_cast<long double>(s.sum) / s.count / divisor;
            result.data<double>()[row] = static_cast<double>(quotient);
        } else {
            result.data<hugeint_t>()[row] = s.sum;
        }
    };
    return function;
}

template <class T>
struct MinMaxState {
    T value;
    bool has_value;
};

// Welford's running mean and sum of squared deviations, combined as Chan et al. do.
struct VarianceState {
    int64_t count;
    double mean;
    double squares; // sum of squared deviations from the mean
};

enum class Spread : uint8_t {
    SampleVariance,
    PopulationVariance,
    SampleDeviation,
    PopulationDeviation
};

AggregateFunction VarianceFunction(const std::string& name, Spread spread) {
    AggregateFunction function;
    function.name = name;
    function.argument_types = {LogicalTypeId::DOUBLE};
    function.return_type = LogicalTypeId::DOUBLE;
    function.state_size = sizeof(VarianceState);
    function.initialize = [](uint8_t* state) { As<VarianceState>(state) = {0, 0, 0}; };
    function.update = [](const std::vector<const Vector*>& args, idx_t count, uint8_t** states,
                         idx_t offset, StringHeap&) {
        const double* data = args[0]->data<double>();
        ForValidRows(*args[0], count, [&](idx_t row, idx_t index) {
            auto& state = As<VarianceState>(states[row] + offset);
            double value = data[index];
            state.count++;
            double delta = value - state.mean;
            state.mean += delta / static_cast<double>(state.count);
            state.squares += delta * (value - state.mean);
        });
    };
    function.combine = [](const uint8_t* source, uint8_t* target, StringHeap& /*heap*/) {
        const auto& s = As<VarianceState>(source);
        auto& t = As<VarianceState>(target);
        if (s.count == 0) {
            return;
        }
        if (t.count == 0) {
            t = s;
            return;
        }
        auto total = static_cast<double>(t.count + s.count);
        double delta = s.mean - t.mean;
        t.squares += s.squares + delta * delta * static_cast<double>(t.count) *
                                     static_cast<double>(s.count) / total;
        t.mean += delta * static_cast<double>(s.count) / total;
        t.count += s.count;
    };
    function.finalize = [spread](const uint8_t* state, Vector& result, idx_t row) {
        const auto& s = As<VarianceState>(state);
        bool sample = spread == Spread::SampleVariance || spread == Spread::SampleDeviation;
        if (s.count == 0 || (sample && s.count == 1)) {
            result.SetNull(row);
            return;
        }
        double variance = s.squares / static_cast<double>(sample ? s.count - 1 : s.count);
        bool deviation = spread == Spread::SampleDeviation || spread == Spread::PopulationDeviation;
        result.data<double>()[row] = deviation ? std::sqrt(variance) : variance;
    };
    return function;
}

// bool_and / bool_or: 0 no value yet, 1 false, 2 true.
AggregateFunction BoolFunction(bool all) {
    AggregateFunction function;
    function.name = all ? "bool_and" : "bool_or";
    function.argument_types = {LogicalTypeId::BOOLEAN};
    function.return_type = LogicalTypeId::BOOLEAN;
    function.state_size = sizeof(uint8_t);
    function.initialize = [](uint8_t* state) { *state = 0; };
    auto fold = [all](uint8_t state, bool value) -> uint8_t {
        uint8_t code = value ? 2 : 1;
        if (state == 0) {
            return code;
        }
        return all ? std::min(state, code) : std::max(state, code);
    };
    function.update = [fold](const std::vector<const Vector*>& args, idx_t count, uint8_t** states,
                             idx_t offset, StringHeap&) {
        const bool* data = args[0]->data<bool>();
        ForValidRows(*args[0], count, [&](idx_t row, idx_t index) {
            uint8_t& state = *(states[row] + offset);
            state = fold(state, data[index]);
        });
    };
    function.combine = [fold](const uint8_t* source, uint8_t* target, StringHeap& /*heap*/) {
        if (*source != 0) {
            *target = fold(*target, *source == 2);
        }
    };
    function.finalize = [](const uint8_t* state, Vector& result, idx_t row) {
        if (*state == 0) {
            result.SetNull(row);
        } else {
            result.data<bool>()[row] = *state == 2;
        }
    };
    return function;
}

template <class T>
AggregateFunction MinMaxTyped(bool is_max, const LogicalType& argument) {
    AggregateFunction function;
    function.name = is_max ? "max" : "min";
    function.argument_types = {argument};
    function.return_type = argument;
    function.state_size = sizeof(MinMaxState<T>);
    function.initialize = [](uint8_t* state) { std::memset(state, 0, sizeof(MinMaxState<T>)); };
    auto better = [is_max](const T& candidate, const T& current) {
        if constexpr (std::is_floating_point_v<T>) {
            // NaN is the largest value, as in DuckDB.
            if (std::isnan(candidate) || std::isnan(current)) {
                return is_max ? std::isnan(candidate) && !std::isnan(current)
                              : std::isnan(current) && !std::isnan(candidate);
            }
        }
        return is_max ? current < candidate : candidate < current;
    };
    function.update = [better](const std::vector<const Vector*>& args, idx_t count,
                               uint8_t** states, idx_t offset, StringHeap& heap) {
        const T* data = args[0]->data<T>();
        ForValidRows(*args[0], count, [&](idx_t row, idx_t index) {
            auto& state = As<MinMaxState<T>>(states[row] + offset);
            if (!state.has_value || better(data[index], state.value)) {
                if constexpr (std::is_same_v<T, string_t>) {
                    state.value = heap.AddString(data[index].view());
                } else {
                    state.value = data[index];
                }
                state.has_value = true;
            }
        });
    };
    function.combine = [better](const uint8_t* source, uint8_t* target, StringHeap& /*heap*/) {
        const auto& s = As<MinMaxState<T>>(source);
        auto& t = As<MinMaxState<T>>(target);
        if (s.has_value && (!t.has_value || better(s.value, t.value))) {
            t = s;
        }
    };
    function.finalize = [](const uint8_t* state, Vector& result, idx_t row) {
        const auto& s = As<MinMaxState<T>>(state);
        if (!s.has_value) {
            result.SetNull(row);
            return;
        }
        if constexpr (std::is_same_v<T, string_t>) {
            result.data<string_t>()[row] = result.AddString(s.value.view());
        } else {
            result.data<T>()[row] = s.value;
        }
    };
    if constexpr (std::is_same_v<T, string_t>) {
        // A string state points into its table's heap: spilled as a length and the bytes.
        function.serialize = [](const uint8_t* state, std::string& out) {
            const auto& s = As<MinMaxState<T>>(state);
            uint32_t length = s.has_value ? s.value.size() : UINT32_MAX;
            out.append(reinterpret_cast<const char*>(&length), sizeof(length));
            if (s.has_value) {
                out += s.value.view();
            }
        };
        function.deserialize = [](const uint8_t*& in, uint8_t* state, StringHeap& heap) {
            auto& s = As<MinMaxState<T>>(state);
            uint32_t length;
            std::memcpy(&length, in, sizeof(length));
            in += sizeof(length);
            s.has_value = length != UINT32_MAX;
            if (s.has_value) {
                s.value =
                    heap.AddString(std::string_view(reinterpret_cast<const char*>(in), length));
                in += length;
            }
        };
    }
    return function;
}

AggregateFunction MinMax(bool is_max, const LogicalType& argument) {
    return DispatchPhysical(argument.physical(),
                            [&](auto tag) { return MinMaxTyped<decltype(tag)>(is_max, argument); });
}

// The distinct values one group has seen; the state holds a pointer to it. Each value costs about
// a hash node and a Value, plus its text when long: counted in the table's heap, so that the
// aggregate's reservation covers the sets (they do not spill; an aggregate whose every
// aggregate is DISTINCT over one argument is planned as two spilling aggregations instead).
constexpr size_t kDistinctNodeBytes = 48 + sizeof(Value);
struct ValueHash {
    size_t operator()(const Value& value) const { return value.Hash(); }
};
struct ValueEqual {
    bool operator()(const Value& a, const Value& b) const { return a.Compare(b) == 0; }
};
struct DistinctValues {
    std::unordered_set<Value, ValueHash, ValueEqual> values;
    // NULL is a value of its own to aggregates that keep NULLs (list, first); the others skip it.
    bool has_null = false;
};

DistinctValues*& DistinctOf(uint8_t* state) {
    return *reinterpret_cast<DistinctValues**>(state);
}
DistinctValues* DistinctOf(const uint8_t* state) {
    return *reinterpret_cast<DistinctValues* const*>(state);
}

} // namespace

void AggregateValueRows(const AggregateFunction& aggregate,
                        const std::function<void(const ValueRowSink&)>& feed, Vector& result,
                        idx_t row) {
    std::vector<uint8_t> state(std::max<idx_t>(aggregate.state_size, 16));
    aggregate.initialize(state.data());
    StringHeap heap;
    std::vector<Vector> values;
    std::vector<const Vector*> arguments;
    values.reserve(aggregate.argument_types.size());
    for (const LogicalType& type : aggregate.argument_types) {
        values.emplace_back(type);
        arguments.push_back(&values.back());
    }
    uint8_t* states[kVectorSize];
    std::fill(states, states + kVectorSize, state.data());
    idx_t filled = 0;
    auto flush = [&] {
        aggregate.update(arguments, filled, states, 0, heap);
        for (Vector& vector : values) {
            vector.Reset();
        }
        filled = 0;
    };
    feed([&](const Value* row_values) {
        for (size_t i = 0; i < values.size(); i++) {
            values[i].SetValue(filled, row_values[i]);
        }
        if (++filled == kVectorSize) {
            flush();
        }
    });
    if (filled > 0) {
        flush();
    }
    aggregate.finalize(state.data(), result, row);
    if (aggregate.destroy) {
        aggregate.destroy(state.data());
    }
}

AggregateFunction MakeDistinct(AggregateFunction inner) {
    AggregateFunction function;
    function.name = inner.name;
    function.argument_types = inner.argument_types;
    function.return_type = inner.return_type;
    function.state_size = sizeof(DistinctValues*);
    function.spillable = false;
    function.initialize = [](uint8_t* state) { DistinctOf(state) = new DistinctValues(); };
    function.destroy = [](uint8_t* state) {
        delete DistinctOf(state);
        DistinctOf(state) = nullptr;
    };
    function.update = [](const std::vector<const Vector*>& args, idx_t count, uint8_t** states,
                         idx_t offset, StringHeap& heap) {
        const Vector& input = *args[0];
        for (idx_t row = 0; row < count; row++) {
            idx_t index = input.RowIndex(row);
            DistinctValues& distinct = *DistinctOf(states[row] + offset);
            if (!input.validity().RowIsValid(index)) {
                distinct.has_null = true;
                continue;
            }
            Value value = input.GetValue(index);
            size_t bytes = kDistinctNodeBytes + value.GetString().size();
            if (distinct.values.insert(std::move(value)).second) {
                heap.CountExternal(bytes);
            }
        }
    };
    function.combine = [](const uint8_t* source, uint8_t* target, StringHeap& /*heap*/) {
        const DistinctValues& from = *DistinctOf(source);
        DistinctOf(target)->values.insert(from.values.begin(), from.values.end());
        DistinctOf(target)->has_null |= from.has_null;
    };
    // The inner aggregate runs over the set at the end, in the values' order (the result of
    // list, string_agg or a floating-point sum must not depend on the hash): a count needs none.
    bool ordered = inner.name != "count";
    auto shared_inner = std::make_shared<AggregateFunction>(std::move(inner));
    function.finalize = [shared_inner, ordered](const uint8_t* state, Vector& result, idx_t row) {
        AggregateValueRows(
            *shared_inner,
            [state, shared_inner, ordered](const ValueRowSink& sink) {
                const auto& values = DistinctOf(state)->values;
                if (!ordered) {
                    for (const Value& value : values) {
                        sink(&value);
                    }
                } else {
                    std::vector<const Value*> sorted;
                    sorted.reserve(values.size());
                    for (const Value& value : values) {
                        sorted.push_back(&value);
                    }
                    std::sort(sorted.begin(), sorted.end(),
                              [](const Value* a, const Value* b) { return a->Compare(*b) < 0; });
                    for (const Value* value : sorted) {
                        sink(value);
                    }
                }
                if (DistinctOf(state)->has_null) {
                    Value null = Value::Null(shared_inner->argument_types[0]);
                    sink(&null);
                }
            },
            result, row);
    };
    return function;
}

namespace {

const std::map<std::string, Spread>& Spreads() {
    static const std::map<std::string, Spread> spreads = {
        {"var_samp", Spread::SampleVariance},    {"variance", Spread::SampleVariance},
        {"var_pop", Spread::PopulationVariance}, {"stddev_samp", Spread::SampleDeviation},
        {"stddev", Spread::SampleDeviation},     {"stddev_pop", Spread::PopulationDeviation},
    };
    return spreads;
}

} // namespace

bool IsAggregateFunctionName(const std::string& name) {
    return name == "sum" || name == "avg" || name == "mean" || name == "min" || name == "max" ||
           name == "count" || name == "count_star" || name == "count_if" || name == "countif" ||
           name == "bool_and" || name == "bool_or" || name == "approx_count_distinct" ||
           name == "grouping" || name == "grouping_id" || Spreads().count(name) > 0 ||
           IsValueAggregateName(name);
}

std::optional<AggregateFunction> BindAggregateFunction(const std::string& name,
                                                       const std::vector<LogicalType>& arguments) {
    if (name == "count_star" || (name == "count" && arguments.empty())) {
        return CountFunction(true, LogicalTypeId::SQLNULL);
    }
    if (IsValueAggregateName(name)) {
        return BindValueAggregate(name, arguments);
    }
    if (arguments.size() != 1) {
        return std::nullopt;
    }
    const LogicalType& argument = arguments[0];
    if ((name == "min" || name == "max") && argument.IsNested()) {
        return NestedMinMax(name, argument);
    }
    if (name == "count") {
        return CountFunction(false, argument);
    }
    if (name == "approx_count_distinct") {
        return ApproxCountDistinct(argument.id() == LogicalTypeId::SQLNULL
                                       ? LogicalType(LogicalTypeId::INTEGER)
                                       : argument);
    }
    if ((name == "count_if" || name == "countif") &&
        (argument.id() == LogicalTypeId::BOOLEAN || argument.id() == LogicalTypeId::SQLNULL)) {
        return CountIfFunction(name);
    }
    if (name == "min" || name == "max") {
        if (argument.id() == LogicalTypeId::SQLNULL) {
            return MinMax(name == "max", LogicalTypeId::INTEGER);
        }
        return MinMax(name == "max", argument);
    }
    if (name == "sum" || name == "avg" || name == "mean") {
        if (argument.id() == LogicalTypeId::SQLNULL) {
            return SumOrAverage(name != "sum", LogicalTypeId::INTEGER);
        }
        if (!argument.IsNumeric()) {
            return std::nullopt;
        }
        return SumOrAverage(name != "sum", argument);
    }
    if (auto spread = Spreads().find(name); spread != Spreads().end()) {
        if (argument.id() != LogicalTypeId::SQLNULL && !argument.IsNumeric()) {
            return std::nullopt;
        }
        return VarianceFunction(name, spread->second);
    }
    if ((name == "bool_and" || name == "bool_or") &&
        (argument.id() == LogicalTypeId::BOOLEAN || argument.id() == LogicalTypeId::SQLNULL)) {
        return BoolFunction(name == "bool_and");
    }
    return std::nullopt;
}

} // namespace sluice
