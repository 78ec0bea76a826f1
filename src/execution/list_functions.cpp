#include "execution/list_functions.hpp"

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "common/utf8.hpp"
#include "execution/aggregate_function.hpp"
#include "execution/conditional_functions.hpp"
#include "execution/value_aggregates.hpp"

#include <algorithm>

namespace sluice {

namespace {

using Arguments = std::vector<const Vector*>;

// A body computing each row's result from its arguments' values (NULL if any is NULL, unless
// `nulls_in`): the list functions that rearrange elements.
template <class Compute>
ScalarFunctionBody ValueBody(Compute compute, bool nulls_in = false) {
    return [compute, nulls_in](const Arguments& args, idx_t count, Vector& result) {
        std::vector<Value> values(args.size());
        for (idx_t row = 0; row < count; row++) {
            bool any_null = false;
            for (size_t i = 0; i < args.size(); i++) {
                values[i] = args[i]->GetValue(row);
                any_null = any_null || values[i].IsNull();
            }
            if (any_null && !nulls_in) {
                result.SetNull(row);
                continue;
            }
            result.SetValue(row, compute(values, result.type()));
        }
    };
}

// list_sort's order: ascending or not, NULLs first or not.
struct ListOrder {
    bool descending = false;
    bool nulls_first = false;
};

ListOrder ParseListOrder(const std::vector<std::string>& options, bool reverse) {
    ListOrder order;
    order.descending = reverse;
    if (!options.empty()) {
        std::string direction = Upper(options[0]);
        if (direction != "ASC" && direction != "DESC") {
            throw Exception(ErrorKind::InvalidInput, "list_sort: unrecognized value \"" +
                                                         options[0] +
                                                         "\" for the sort order (ASC or DESC)");
        }
        order.descending = (direction == "DESC") != reverse;
    }
    if (options.size() > 1) {
        std::string nulls = Upper(options[1]);
        if (nulls != "NULLS FIRST" && nulls != "NULLS LAST") {
            throw Exception(ErrorKind::InvalidInput,
                            "list_sort: unrecognized value \"" + options[1] +
                                "\" for the NULL order (NULLS FIRST or NULLS LAST)");
        }
        order.nulls_first = nulls == "NULLS FIRST";
    }
    return order;
}

Value Sorted(std::vector<Value> elements, const LogicalType& type, ListOrder order) {
    std::stable_sort(elements.begin(), elements.end(), [order](const Value& a, const Value& b) {
        if (a.IsNull() || b.IsNull()) {
            return !a.IsNull() ? !order.nulls_first : !b.IsNull() && order.nulls_first;
        }
        int compared = a.Compare(b);
        return order.descending ? compared > 0 : compared < 0;
    });
    return Value::Nested(type, std::move(elements));
}

// The non-NULL elements without repeats, in the order they first appear.
std::vector<Value> Distinct(const std::vector<Value>& elements) {
    std::vector<Value> kept;
    for (const Value& element : elements) {
        if (element.IsNull()) {
            continue;
        }
        bool seen = std::any_of(kept.begin(), kept.end(),
                                [&](const Value& other) { return other.Compare(element) == 0; });
        if (!seen) {
            kept.push_back(element);
        }
    }
    return kept;
}

// list_<aggregate>: the aggregate over each row's elements, run as the aggregate runs over a
// group.
ScalarFunctionBody ListAggregateBody(AggregateFunction aggregate) {
    return [aggregate](const Arguments& args, idx_t count, Vector& result) {
        const Vector& list = *args[0];
        std::vector<uint8_t> state(std::max<idx_t>(aggregate.state_size, 1));
        uint8_t* states[kVectorSize];
        std::fill(states, states + kVectorSize, state.data());
        Vector slice(list.list_child().type());
        idx_t rows[kVectorSize];
        StringHeap heap;
        for (idx_t row = 0; row < count; row++) {
            if (!list.RowIsValid(row)) {
                result.SetNull(row);
                continue;
            }
            list_entry_t entry = list.ListEntry(row);
            aggregate.initialize(state.data());
            for (idx_t done = 0; done < entry.length; done += kVectorSize) {
                idx_t take = std::min(kVectorSize, entry.length - done);
                for (idx_t i = 0; i < take; i++) {
                    rows[i] = entry.offset + done + i;
                }
                slice.Reset();
                slice.Gather(list.list_child(), rows, take);
                aggregate.update({&slice}, take, states, 0, heap);
            }
            aggregate.finalize(state.data(), result, row);
            if (aggregate.destroy) {
                aggregate.destroy(state.data());
            }
        }
    };
}

std::optional<BoundFunction> BindListAggregate(const std::string& aggregate_name,
                                               const LogicalType& list) {
    std::vector<LogicalType> element = {list.element()};
    std::optional<AggregateFunction> aggregate = BindAggregateFunction(aggregate_name, element);
    if (!aggregate) {
        aggregate = BindValueAggregate(aggregate_name, element);
    }
    if (!aggregate || aggregate->argument_types.size() != 1) {
        return std::nullopt;
    }
    LogicalType input = LogicalType::List(aggregate->argument_types[0]);
    LogicalType result = aggregate->return_type;
    return BoundFunction{{input}, result, ListAggregateBody(std::move(*aggregate))};
}

// string_split(text, separator): the pieces between separators; an empty separator splits
// into characters.
Value Split(const std::vector<Value>& args, const LogicalType& type) {
    if (args[0].IsNull()) {
        return Value::Null(type);
    }
    const std::string& text = args[0].GetString();
    if (args[1].IsNull()) {
        return Value::Nested(type, {args[0]}); // no separator: the text whole, as in DuckDB
    }
    const std::string& separator = args[1].GetString();
    std::vector<Value> pieces;
    if (separator.empty()) {
        if (text.empty()) {
            return Value::Nested(type, {Value::Varchar("")});
        }
        for (size_t at = 0; at < text.size();) {
            size_t length = Utf8SequenceLength(static_cast<uint8_t>(text[at]));
            pieces.push_back(Value::Varchar(text.substr(at, length)));
            at += length;
        }
        return Value::Nested(type, std::move(pieces));
    }
    size_t start = 0;
    while (true) {
        size_t found = text.find(separator, start);
        pieces.push_back(Value::Varchar(text.substr(start, found - start)));
        if (found == std::string::npos) {
            break;
        }
        start = found + separator.size();
    }
    return Value::Nested(type, std::move(pieces));
}

bool Named(const std::string& name, std::initializer_list<const char*> names) {
    return std::any_of(names.begin(), names.end(), [&](const char* n) { return name == n; });
}

} // namespace

namespace {

// range(stop), range(start, stop[, step]): BIGINTs from start (0) up to stop, excluded; and
// generate_series, which includes stop. A step of 0 gives the empty list, as in DuckDB.
ScalarFunctionBody RangeBody(bool inclusive) {
    // Lists past this many elements (2 GiB of BIGINTs) are refused rather than allocated.
    constexpr __int128 kMaxElements = __int128(1) << 28;
    return [inclusive](const Arguments& args, idx_t count, Vector& result) {
        auto* entries = result.data<list_entry_t>();
        for (idx_t row = 0; row < count; row++) {
            bool any_null = false;
            int64_t bounds[3] = {0, 0, 1};
            for (size_t i = 0; i < args.size(); i++) {
                any_null = any_null || !args[i]->RowIsValid(row);
                if (!any_null) {
                    bounds[args.size() == 1 ? 1 : i] =
                        static_cast<int64_t>(args[i]->data<int64_t>()[args[i]->RowIndex(row)]);
                }
            }
            if (any_null) {
                result.SetNull(row);
                continue;
            }
            __int128 start = bounds[0], stop = bounds[1], step = bounds[2];
            __int128 length = 0;
            if (step != 0 && (step > 0 ? start <= stop : start >= stop)) {
                __int128 span = step > 0 ? stop - start : start - stop;
                __int128 stride = step > 0 ? step : -step;
                length = inclusive ? span / stride + 1 : (span + stride - 1) / stride;
            }
            if (length > kMaxElements) {
                throw Exception(ErrorKind::InvalidInput,
                                std::string(inclusive ? "generate_series" : "range") +
                                    ": lists larger than 2^28 elements are not supported");
            }
            idx_t at = result.ReserveElements(static_cast<idx_t>(length));
            auto* values = result.list_child().data<int64_t>();
            for (idx_t i = 0; i < static_cast<idx_t>(length); i++) {
                values[at + i] = static_cast<int64_t>(start + step * static_cast<__int128>(i));
            }
            entries[row] = list_entry_t{at, static_cast<uint64_t>(length)};
        }
    };
}

} // namespace

std::optional<BoundFunction> BindListFunction(const std::string& name,
                                              const std::vector<LogicalType>& types,
                                              const std::vector<std::string>& options) {
    if ((name == "range" || name == "generate_series") && !types.empty() && types.size() <= 3) {
        std::string shown;
        for (const LogicalType& type : types) {
            if (!type.IsInteger() && type.id() != LogicalTypeId::SQLNULL) {
                for (const LogicalType& each : types) {
                    shown += (shown.empty() ? "" : ", ") + each.ToString();
                }
                throw Exception(ErrorKind::Binder,
                                "No function matches the given name and argument types '" + name +
                                    "(" + shown + ")'. You might need to add explicit type casts.");
            }
        }
        std::vector<LogicalType> bigints(types.size(), LogicalTypeId::BIGINT);
        return BoundFunction{bigints, LogicalType::List(LogicalTypeId::BIGINT),
                             RangeBody(name == "generate_series")};
    }
    if (Named(name, {"string_split", "str_split", "string_to_array", "split"}) &&
        types.size() == 2) {
        LogicalType varchar = LogicalTypeId::VARCHAR;
        return BoundFunction{
            {varchar, varchar}, LogicalType::List(varchar), ValueBody(Split, true)};
    }
    // || on lists is list_concat, but NULL when either side is.
    bool concat = Named(name, {"list_concat", "array_concat", "list_cat", "array_cat", "||"});
    if (concat && types.size() == 2 && types[0].id() == LogicalTypeId::SQLNULL) {
        if (types[1].id() == LogicalTypeId::SQLNULL) {
            // list_concat(NULL, NULL): NULL, as in DuckDB
            auto null = [](const std::vector<Value>&, const LogicalType&) { return Value(); };
            return BoundFunction{types, LogicalTypeId::SQLNULL, ValueBody(null)};
        }
        return BindListFunction(name, {types[1], types[0]}, options);
    }
    if (types.empty() || types[0].id() != LogicalTypeId::LIST) {
        return std::nullopt;
    }
    const LogicalType& list = types[0];
    const LogicalType& element = list.element();
    if (Named(name, {"list_sort", "array_sort", "list_reverse_sort", "array_reverse_sort"}) &&
        types.size() == 1 + options.size() && options.size() <= 2) {
        ListOrder order = ParseListOrder(options, name.find("reverse") != std::string::npos);
        std::vector<LogicalType> arguments = {list};
        for (size_t i = 0; i < options.size(); i++) {
            arguments.push_back(LogicalTypeId::VARCHAR);
        }
        auto sort = [order](const std::vector<Value>& args, const LogicalType& type) {
            return Sorted(args[0].children(), type, order);
        };
        return BoundFunction{arguments, list, ValueBody(sort)};
    }
    if (types.size() == 1) {
        if (Named(name, {"list_distinct", "array_distinct"})) {
            auto distinct = [](const std::vector<Value>& args, const LogicalType& type) {
                return Value::Nested(type, Distinct(args[0].children()));
            };
            return BoundFunction{{list}, list, ValueBody(distinct)};
        }
        if (Named(name, {"list_unique", "array_unique"})) {
            auto unique = [](const std::vector<Value>& args, const LogicalType&) {
                return Value::Integer(LogicalTypeId::UBIGINT, Distinct(args[0].children()).size());
            };
            return BoundFunction{{list}, LogicalTypeId::UBIGINT, ValueBody(unique)};
        }
        if (Named(name, {"list_reverse", "array_reverse"})) {
            auto reverse = [](const std::vector<Value>& args, const LogicalType& type) {
                std::vector<Value> elements = args[0].children();
                std::reverse(elements.begin(), elements.end());
                return Value::Nested(type, std::move(elements));
            };
            return BoundFunction{{list}, list, ValueBody(reverse)};
        }
        if (name == "flatten" && element.id() == LogicalTypeId::LIST) {
            auto flatten = [](const std::vector<Value>& args, const LogicalType& type) {
                std::vector<Value> elements;
                for (const Value& inner : args[0].children()) {
                    elements.insert(elements.end(), inner.children().begin(),
                                    inner.children().end());
                }
                return Value::Nested(type, std::move(elements));
            };
            return BoundFunction{{list}, element, ValueBody(flatten)};
        }
        std::string prefix = name.rfind("list_", 0) == 0    ? "list_"
                             : name.rfind("array_", 0) == 0 ? "array_"
                                                            : "";
        if (!prefix.empty()) {
            return BindListAggregate(name.substr(prefix.size()), list);
        }
        return std::nullopt;
    }
    if (types.size() != 2) {
        return std::nullopt;
    }
    if (concat &&
        (types[1].id() == LogicalTypeId::LIST || types[1].id() == LogicalTypeId::SQLNULL)) {
        // A NULL side counts as an empty list.
        auto concat = [](const std::vector<Value>& args, const LogicalType& type) {
            std::vector<Value> elements;
            for (const Value& side : args) {
                elements.insert(elements.end(), side.children().begin(), side.children().end());
            }
            return Value::Nested(type, std::move(elements));
        };
        // Both sides as lists of their elements' common type ([1] and [2.5]: DECIMAL).
        LogicalType both = list;
        if (types[1].id() == LogicalTypeId::LIST) {
            auto common = CommonSuperType(list, types[1]);
            if (!common) {
                return std::nullopt;
            }
            both = *common;
        }
        return BoundFunction{{both, both}, both, ValueBody(concat, name != "||")};
    }
    if (Named(name, {"list_position", "list_indexof", "array_position", "array_indexof"})) {
        // NULL finds a NULL element here, unlike list_contains.
        auto position = [](const std::vector<Value>& args, const LogicalType&) {
            if (args[0].IsNull()) {
                return Value::Null(LogicalTypeId::INTEGER);
            }
            const std::vector<Value>& elements = args[0].children();
            for (size_t i = 0; i < elements.size(); i++) {
                bool both_null = elements[i].IsNull() && args[1].IsNull();
                bool equal =
                    !elements[i].IsNull() && !args[1].IsNull() && elements[i].Compare(args[1]) == 0;
                if (both_null || equal) {
                    return Value::Integer(LogicalTypeId::INTEGER, static_cast<hugeint_t>(i + 1));
                }
            }
            return Value::Null(LogicalTypeId::INTEGER);
        };
        return BoundFunction{{list, element}, LogicalTypeId::INTEGER, ValueBody(position, true)};
    }
    if (Named(name, {"array_to_string", "list_to_string"})) {
        // A NULL list gives NULL; a NULL separator is a comma, as in DuckDB.
        auto join = [](const std::vector<Value>& args, const LogicalType&) {
            if (args[0].IsNull()) {
                return Value::Null(LogicalTypeId::VARCHAR);
            }
            std::string separator = args[1].IsNull() ? "," : args[1].GetString();
            std::string text;
            bool first = true;
            for (const Value& element : args[0].children()) {
                if (!element.IsNull()) {
                    text += (first ? "" : separator) + element.ToString();
                    first = false;
                }
            }
            return Value::Varchar(std::move(text));
        };
        return BoundFunction{
            {list, LogicalTypeId::VARCHAR}, LogicalTypeId::VARCHAR, ValueBody(join, true)};
    }
    return std::nullopt;
}

} // namespace sluice
