#include "execution/value_aggregates.hpp"

#include "common/exception.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

namespace sluice {

namespace {

// A state is a pointer to a `T` on the heap, made by initialize and freed by destroy.
template <class T>
T*& Owned(uint8_t* state) {
    return *reinterpret_cast<T**>(state);
}
template <class T>
const T& Owned(const uint8_t* state) {
    return **reinterpret_cast<T* const*>(state);
}

template <class T>
AggregateFunction OwningState(std::string name, std::vector<LogicalType> arguments,
                              LogicalType result) {
    AggregateFunction function;
    function.name = std::move(name);
    function.argument_types = std::move(arguments);
    function.return_type = std::move(result);
    function.state_size = sizeof(T*);
    function.spillable = false;
    function.initialize = [](uint8_t* state) { Owned<T>(state) = new T(); };
    function.destroy = [](uint8_t* state) {
        delete Owned<T>(state);
        Owned<T>(state) = nullptr;
    };
    return function;
}

// The bytes a Value holds, for the table's memory count.
size_t BytesOf(const Value& value) {
    size_t bytes = sizeof(Value) + value.GetString().size();
    for (const Value& child : value.children()) {
        bytes += BytesOf(child);
    }
    return bytes;
}

// first, last and any_value: one row's value. arg_min and arg_max: the first argument of the row
// whose second is least or greatest (rows with a NULL in either are skipped; ties keep the first).
struct Picked {
    bool has = false;
    Value value;
    Value key;
};

enum class Pick : uint8_t { First, Last, AnyValue, ArgMin, ArgMax };

AggregateFunction PickFunction(const std::string& name, Pick pick,
                               const std::vector<LogicalType>& arguments) {
    bool keyed = pick == Pick::ArgMin || pick == Pick::ArgMax;
    auto function = OwningState<Picked>(name, arguments, arguments[0]);
    // Whether `candidate` replaces what the state holds.
    auto replaces = [pick](const Picked& state, const Value& key) {
        switch (pick) {
        case Pick::First:
        case Pick::AnyValue:
            return !state.has;
        case Pick::Last:
            return true;
        case Pick::ArgMin:
            return !state.has || key.Compare(state.key) < 0;
        case Pick::ArgMax:
            return !state.has || key.Compare(state.key) > 0;
        }
        return false;
    };
    function.update = [pick, keyed, replaces](const std::vector<const Vector*>& args, idx_t count,
                                              uint8_t** states, idx_t offset, StringHeap& heap) {
        for (idx_t row = 0; row < count; row++) {
            bool skip = (pick != Pick::First && pick != Pick::Last && !args[0]->RowIsValid(row)) ||
                        (keyed && !args[1]->RowIsValid(row));
            if (skip) {
                continue;
            }
            Picked& state = *Owned<Picked>(states[row] + offset);
            Value key = keyed ? args[1]->GetValue(args[1]->RowIndex(row)) : Value();
            if (!replaces(state, key)) {
                continue;
            }
            if (!state.has) {
                heap.CountExternal(2 * sizeof(Value));
            }
            state.value = args[0]->GetValue(args[0]->RowIndex(row));
            heap.CountExternal(state.value.GetString().size());
            state.key = std::move(key);
            state.has = true;
        }
    };
    function.combine = [replaces](const uint8_t* source, uint8_t* target, StringHeap& /*heap*/) {
        const Picked& from = Owned<Picked>(source);
        Picked& to = *Owned<Picked>(target);
        if (from.has && replaces(to, from.key)) {
            to = from;
        }
    };
    function.finalize = [](const uint8_t* state, Vector& result, idx_t row) {
        const Picked& picked = Owned<Picked>(state);
        if (!picked.has || picked.value.IsNull()) {
            result.SetNull(row);
            return;
        }
        result.SetValue(row, picked.value);
    };
    return function;
}

// string_agg(text [, separator]): the non-NULL texts joined by the separator (',' by default).
struct Joined {
    bool has = false;
    std::string text;
    std::string separator; // the last one seen, to join partial results with
};

AggregateFunction StringAggFunction(const std::string& name, size_t argument_count) {
    std::vector<LogicalType> arguments = {LogicalTypeId::VARCHAR};
    if (argument_count == 2) {
        arguments.push_back(LogicalTypeId::VARCHAR);
    }
    auto function = OwningState<Joined>(name, arguments, LogicalTypeId::VARCHAR);
    function.update = [](const std::vector<const Vector*>& args, idx_t count, uint8_t** states,
                         idx_t offset, StringHeap& heap) {
        const string_t* texts = args[0]->data<string_t>();
        for (idx_t row = 0; row < count; row++) {
            if (!args[0]->RowIsValid(row) || (args.size() > 1 && !args[1]->RowIsValid(row))) {
                continue;
            }
            Joined& state = *Owned<Joined>(states[row] + offset);
            size_t before = state.text.capacity();
            if (args.size() > 1) {
                state.separator = args[1]->data<string_t>()[args[1]->RowIndex(row)].str();
            } else {
                state.separator = ",";
            }
            if (state.has) {
                state.text += state.separator;
            }
            state.text += texts[args[0]->RowIndex(row)].view();
            state.has = true;
            heap.CountExternal(state.text.capacity() - before);
        }
    };
    function.combine = [](const uint8_t* source, uint8_t* target, StringHeap& /*heap*/) {
        const Joined& from = Owned<Joined>(source);
        Joined& to = *Owned<Joined>(target);
        if (!from.has) {
            return;
        }
        if (to.has) {
            to.text += from.separator;
        }
        to.text += from.text;
        to.separator = from.separator;
        to.has = true;
    };
    function.finalize = [](const uint8_t* state, Vector& result, idx_t row) {
        const Joined& joined = Owned<Joined>(state);
        if (!joined.has) {
            result.SetNull(row);
            return;
        }
        result.data<string_t>()[row] = result.AddString(joined.text);
    };
    return function;
}

// quantile_cont, quantile_disc and median: every non-NULL value of the group, sorted at the end.
struct Collected {
    std::vector<Value> values;
    double fraction = 0.5;
};

double FractionOf(const std::vector<const Vector*>& args, idx_t row) {
    if (args.size() < 2) {
        return 0.5; // median
    }
    const Vector& fraction = *args[1];
    if (!fraction.RowIsValid(row)) {
        throw Exception(ErrorKind::InvalidInput, "QUANTILE argument must not be NULL");
    }
    double value = fraction.data<double>()[fraction.RowIndex(row)];
    if (!(value >= 0 && value <= 1)) {
        throw Exception(ErrorKind::InvalidInput,
                        "QUANTILE can only take parameters in the range [0, 1], not " +
                            Value::Double(value).ToString());
    }
    return value;
}

AggregateFunction QuantileFunction(const std::string& name, bool continuous,
                                   std::vector<LogicalType> arguments) {
    LogicalType result = arguments[0];
    auto function = OwningState<Collected>(name, std::move(arguments), result);
    function.update = [](const std::vector<const Vector*>& args, idx_t count, uint8_t** states,
                         idx_t offset, StringHeap& heap) {
        for (idx_t row = 0; row < count; row++) {
            double fraction = FractionOf(args, row);
            if (!args[0]->RowIsValid(row)) {
                continue;
            }
            Collected& state = *Owned<Collected>(states[row] + offset);
            state.values.push_back(args[0]->GetValue(args[0]->RowIndex(row)));
            state.fraction = fraction;
            heap.CountExternal(BytesOf(state.values.back()));
        }
    };
    function.combine = [](const uint8_t* source, uint8_t* target, StringHeap& /*heap*/) {
        const Collected& from = Owned<Collected>(source);
        Collected& to = *Owned<Collected>(target);
        to.values.insert(to.values.end(), from.values.begin(), from.values.end());
        if (!from.values.empty()) {
            to.fraction = from.fraction;
        }
    };
    function.finalize = [continuous](const uint8_t* state, Vector& result, idx_t row) {
        const Collected& collected = Owned<Collected>(state);
        std::vector<Value> values = collected.values;
        if (values.empty()) {
            result.SetNull(row);
            return;
        }
        auto less = [](const Value& a, const Value& b) { return a.Compare(b) < 0; };
        size_t n = values.size();
        if (!continuous) {
            // DuckDB's discrete quantile: the value at rank ceil(n * q), counting from 1.
            auto rank = static_cast<size_t>(std::ceil(static_cast<double>(n) * collected.fraction));
            size_t at = std::max<size_t>(rank, 1) - 1;
            std::nth_element(values.begin(), values.begin() + at, values.end(), less);
            result.SetValue(row, values[at]);
            return;
        }
        // Continuous: interpolated between the values at floor and ceil of (n - 1) * q.
        double position = static_cast<double>(n - 1) * collected.fraction;
        auto low_at = static_cast<size_t>(std::floor(position));
        size_t high_at = std::min(n - 1, low_at + 1);
        std::nth_element(values.begin(), values.begin() + low_at, values.end(), less);
        Value low = values[low_at];
        Value high = low;
        if (high_at != low_at) {
            high = *std::min_element(values.begin() + low_at + 1, values.end(), less);
        }
        double delta = position - static_cast<double>(low_at);
        const LogicalType& type = result.type();
        if (type.id() == LogicalTypeId::DECIMAL) {
            // In the decimal's own units, truncated, as DuckDB computes it.
            double difference = static_cast<double>(high.GetInteger() - low.GetInteger());
            auto unscaled = low.GetInteger() + static_cast<hugeint_t>(difference * delta);
            result.SetValue(row, Value::Decimal(type.width(), type.scale(), unscaled));
            return;
        }
        double value = low.GetDouble() + (high.GetDouble() - low.GetDouble()) * delta;
        result.data<double>()[row] = value;
    };
    return function;
}

const std::vector<std::pair<std::string, Pick>>& PickNames() {
    static const std::vector<std::pair<std::string, Pick>> names = {
        {"first", Pick::First},        {"arbitrary", Pick::First}, {"last", Pick::Last},
        {"any_value", Pick::AnyValue}, {"arg_min", Pick::ArgMin},  {"argmin", Pick::ArgMin},
        {"min_by", Pick::ArgMin},      {"arg_max", Pick::ArgMax},  {"argmax", Pick::ArgMax},
        {"max_by", Pick::ArgMax},
    };
    return names;
}

bool IsStringAggName(const std::string& name) {
    return name == "string_agg" || name == "group_concat" || name == "listagg";
}

bool IsQuantileName(const std::string& name) {
    return name == "median" || name == "quantile_cont" || name == "quantile_disc" ||
           name == "quantile";
}

// list and array_agg of nested values: every value of the group, NULLs included, in the order
// they arrive, kept in a vector of their own (strings copied into its heap).
struct Listed {
    std::unique_ptr<Vector> values;
    idx_t size = 0;

    void Append(const Vector& source, idx_t row, StringHeap& heap) {
        if (!values) {
            values = std::make_unique<Vector>(source.type(), 4);
        }
        if (size == values->capacity()) {
            values->Grow(2 * size);
            heap.CountExternal(size * PhysicalTypeSize(source.type().physical()));
        }
        values->CopyRow(source, row, size++);
        if (source.type().physical() == PhysicalType::VARCHAR && values->RowIsValid(size - 1)) {
            const string_t& text = values->data<string_t>()[size - 1];
            heap.CountExternal(text.IsInlined() ? 0 : text.size());
        }
    }
};

AggregateFunction NestedListFunction(const std::string& name, const LogicalType& argument) {
    auto function = OwningState<Listed>(name, {argument}, LogicalType::List(argument));
    function.update = [](const std::vector<const Vector*>& args, idx_t count, uint8_t** states,
                         idx_t offset, StringHeap& heap) {
        for (idx_t row = 0; row < count; row++) {
            Owned<Listed>(states[row] + offset)->Append(*args[0], row, heap);
        }
    };
    function.combine = [](const uint8_t* source, uint8_t* target, StringHeap& /*heap*/) {
        const Listed& from = Owned<Listed>(source);
        Listed& to = *Owned<Listed>(target);
        StringHeap uncounted; // the source counted these bytes already
        for (idx_t row = 0; row < from.size; row++) {
            to.Append(*from.values, row, uncounted);
        }
    };
    function.finalize = [](const uint8_t* state, Vector& result, idx_t row) {
        const Listed& listed = Owned<Listed>(state);
        if (listed.size == 0) {
            result.SetNull(row);
            return;
        }
        result.data<list_entry_t>()[row] = result.AppendElements(*listed.values, 0, listed.size);
    };
    return function;
}

// list and array_agg of flat values (fixed-width, or strings): the state is a chain of segments
// allocated in the table's heap, so that a million small groups cost no malloc of their own and
// nothing to free. A segment holds a validity byte and the value bytes of each element; long
// strings are copied into the heap once, when the value arrives.
struct ListSegment {
    ListSegment* next;
    uint32_t size;
    uint32_t capacity;

    static constexpr uint32_t kFirstCapacity = 4;
    static constexpr uint32_t kMaxCapacity = 1024;

    uint8_t* validity() { return reinterpret_cast<uint8_t*>(this + 1); }
    const uint8_t* validity() const { return reinterpret_cast<const uint8_t*>(this + 1); }
    // Values start 16-byte aligned after the validity bytes.
    static size_t ValuesOffset(uint32_t capacity) {
        return (sizeof(ListSegment) + capacity + 15) / 16 * 16;
    }
    uint8_t* values() { return reinterpret_cast<uint8_t*>(this) + ValuesOffset(capacity); }
    const uint8_t* values() const {
        return reinterpret_cast<const uint8_t*>(this) + ValuesOffset(capacity);
    }
};

struct ListSegments {
    ListSegment* first;
    ListSegment* last;
    uint64_t count;
};

// A fresh segment after `segments.last` (or the first one), for values of `width` bytes.
ListSegment* AddSegment(ListSegments& segments, idx_t width, StringHeap& heap) {
    uint32_t capacity = segments.last == nullptr
                            ? ListSegment::kFirstCapacity
                            : std::min(2 * segments.last->capacity, ListSegment::kMaxCapacity);
    size_t bytes = ListSegment::ValuesOffset(capacity) + capacity * width;
    char* memory = heap.Allocate(bytes + 15);
    auto* segment =
        reinterpret_cast<ListSegment*>((reinterpret_cast<uintptr_t>(memory) + 15) / 16 * 16);
    segment->next = nullptr;
    segment->size = 0;
    segment->capacity = capacity;
    if (segments.last == nullptr) {
        segments.first = segment;
    } else {
        segments.last->next = segment;
    }
    segments.last = segment;
    return segment;
}

// Room for one more value at the end of the chain: its validity byte and value bytes.
inline uint8_t* AppendSlot(ListSegments& segments, idx_t width, StringHeap& heap,
                           uint8_t*& validity) {
    ListSegment* segment = segments.last;
    if (segment == nullptr || segment->size == segment->capacity) {
        segment = AddSegment(segments, width, heap);
    }
    validity = segment->validity() + segment->size;
    uint8_t* slot = segment->values() + segment->size * width;
    segment->size++;
    segments.count++;
    return slot;
}

template <idx_t kWidth, bool kStrings>
void ListUpdate(const std::vector<const Vector*>& args, idx_t count, uint8_t** states, idx_t offset,
                StringHeap& heap) {
    const Vector& input = *args[0];
    const uint8_t* data = input.data<uint8_t>();
    for (idx_t row = 0; row < count; row++) {
        auto& segments = *reinterpret_cast<ListSegments*>(states[row] + offset);
        idx_t index = input.RowIndex(row);
        uint8_t* validity;
        uint8_t* slot = AppendSlot(segments, kWidth, heap, validity);
        bool valid = input.validity().RowIsValid(index);
        *validity = valid;
        if (!valid) {
            std::memset(slot, 0, kWidth);
            continue;
        }
        if constexpr (kStrings) {
            string_t text = reinterpret_cast<const string_t*>(data)[index];
            if (!text.IsInlined()) {
                text = heap.AddString(std::string_view(text.data(), text.size()));
            }
            std::memcpy(slot, &text, kWidth);
        } else {
            std::memcpy(slot, data + index * kWidth, kWidth);
        }
    }
}

decltype(AggregateFunction::update) ListUpdateFor(PhysicalType type) {
    switch (PhysicalTypeSize(type)) {
    case 1:
        return ListUpdate<1, false>;
    case 2:
        return ListUpdate<2, false>;
    case 4:
        return ListUpdate<4, false>;
    case 8:
        return ListUpdate<8, false>;
    default:
        return type == PhysicalType::VARCHAR ? ListUpdate<16, true> : ListUpdate<16, false>;
    }
}

AggregateFunction FlatListFunction(const std::string& name, const LogicalType& argument) {
    AggregateFunction function;
    function.name = name;
    function.argument_types = {argument};
    function.return_type = LogicalType::List(argument);
    function.state_size = sizeof(ListSegments);
    function.spillable = false;
    function.initialize = [](uint8_t* state) {
        *reinterpret_cast<ListSegments*>(state) = ListSegments{nullptr, nullptr, 0};
    };
    idx_t width = PhysicalTypeSize(argument.physical());
    function.update = ListUpdateFor(argument.physical());
    // The source's segments may be combined into other targets too (a window's segment tree):
    // copied, not linked. Strings stay where the source's heap keeps them.
    function.combine = [width](const uint8_t* source, uint8_t* target, StringHeap& heap) {
        const auto& from = *reinterpret_cast<const ListSegments*>(source);
        auto& to = *reinterpret_cast<ListSegments*>(target);
        for (const ListSegment* segment = from.first; segment != nullptr; segment = segment->next) {
            for (uint32_t i = 0; i < segment->size; i++) {
                uint8_t* validity;
                uint8_t* slot = AppendSlot(to, width, heap, validity);
                *validity = segment->validity()[i];
                std::memcpy(slot, segment->values() + i * width, width);
            }
        }
    };
    // A merged table's source outlives the merge: its chain is linked in, not copied.
    function.absorb = [](uint8_t* source, uint8_t* target) {
        auto& from = *reinterpret_cast<ListSegments*>(source);
        auto& to = *reinterpret_cast<ListSegments*>(target);
        if (from.count == 0) {
            return;
        }
        if (to.last == nullptr) {
            to.first = from.first;
        } else {
            to.last->next = from.first;
        }
        to.last = from.last;
        to.count += from.count;
        from = ListSegments{nullptr, nullptr, 0};
    };
    bool strings = argument.physical() == PhysicalType::VARCHAR;
    function.finalize = [width, strings](const uint8_t* state, Vector& result, idx_t row) {
        const auto& segments = *reinterpret_cast<const ListSegments*>(state);
        if (segments.count == 0) {
            result.SetNull(row);
            return;
        }
        idx_t start = result.ReserveElements(segments.count);
        Vector& elements = result.list_child();
        uint8_t* out = elements.data<uint8_t>();
        idx_t position = start;
        for (const ListSegment* segment = segments.first; segment != nullptr;
             segment = segment->next) {
            std::memcpy(out + position * width, segment->values(), segment->size * width);
            for (uint32_t i = 0; i < segment->size; i++, position++) {
                if (!segment->validity()[i]) {
                    elements.SetNull(position);
                    continue;
                }
                elements.validity().SetValid(position);
                if (strings) {
                    // The result must not point into the table, which may go first.
                    auto& text = reinterpret_cast<string_t*>(out)[position];
                    if (!text.IsInlined()) {
                        text = elements.AddString(std::string_view(text.data(), text.size()));
                    }
                }
            }
        }
        result.data<list_entry_t>()[row] = list_entry_t{start, segments.count};
    };
    return function;
}

AggregateFunction ListFunction(const std::string& name, const LogicalType& argument) {
    PhysicalType physical = argument.physical();
    if (physical == PhysicalType::LIST || physical == PhysicalType::STRUCT) {
        return NestedListFunction(name, argument);
    }
    return FlatListFunction(name, argument);
}

// Values that order as SQL orders them (Value::Compare), nested types aside.
bool Orderable(const LogicalType& type) {
    return type.id() != LogicalTypeId::SQLNULL && type.id() != LogicalTypeId::INTERVAL;
}

} // namespace

bool IsValueAggregateName(const std::string& name) {
    for (const auto& [pick_name, pick] : PickNames()) {
        if (name == pick_name) {
            return true;
        }
    }
    return IsStringAggName(name) || IsQuantileName(name) || name == "list" || name == "array_agg";
}

AggregateFunction NestedMinMax(const std::string& name, const LogicalType& type) {
    // arg_min(x, x) is min(x): the value keyed by itself.
    AggregateFunction pick =
        PickFunction(name, name == "min" ? Pick::ArgMin : Pick::ArgMax, {type, type});
    auto update = pick.update;
    pick.update = [update](const std::vector<const Vector*>& args, idx_t count, uint8_t** states,
                           idx_t offset, StringHeap& heap) {
        update({args[0], args[0]}, count, states, offset, heap);
    };
    pick.argument_types = {type};
    return pick;
}

std::optional<AggregateFunction> BindValueAggregate(const std::string& name,
                                                    const std::vector<LogicalType>& arguments) {
    for (const auto& [pick_name, pick] : PickNames()) {
        if (name != pick_name) {
            continue;
        }
        bool keyed = pick == Pick::ArgMin || pick == Pick::ArgMax;
        if (arguments.size() != (keyed ? 2u : 1u) || (keyed && !Orderable(arguments[1]))) {
            return std::nullopt;
        }
        std::vector<LogicalType> types = arguments;
        for (auto& type : types) {
            if (type.id() == LogicalTypeId::SQLNULL) {
                type = LogicalTypeId::INTEGER;
            }
        }
        return PickFunction(name, pick, types);
    }
    if (name == "list" || name == "array_agg") {
        if (arguments.size() != 1) {
            return std::nullopt;
        }
        return ListFunction(name, arguments[0]);
    }
    if (IsStringAggName(name)) {
        if (arguments.empty() || arguments.size() > 2) {
            return std::nullopt;
        }
        return StringAggFunction(name, arguments.size());
    }
    if (!IsQuantileName(name) || arguments.size() != (name == "median" ? 1u : 2u)) {
        return std::nullopt;
    }
    const LogicalType& argument = arguments[0];
    std::vector<LogicalType> types = arguments;
    if (arguments.size() == 2) {
        types[1] = LogicalTypeId::DOUBLE;
    }
    if (name == "quantile_disc" || name == "quantile") {
        if (!Orderable(argument)) {
            return std::nullopt;
        }
        return QuantileFunction(name, false, types);
    }
    if (argument.id() == LogicalTypeId::DECIMAL) {
        return QuantileFunction(name, true, types);
    }
    if (name == "median" &&
        (argument.physical() == PhysicalType::VARCHAR || argument.id() == LogicalTypeId::BOOLEAN)) {
        return QuantileFunction(name, false, types); // no midpoint between texts: the lower one
    }
    if (!argument.IsNumeric() && argument.id() != LogicalTypeId::SQLNULL) {
        return std::nullopt; // DuckDB interpolates dates and times too; not here yet
    }
    types[0] = LogicalTypeId::DOUBLE;
    return QuantileFunction(name, true, types);
}

} // namespace sluice
