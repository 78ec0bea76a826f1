#include "execution/nested_functions.hpp"

#include "common/exception.hpp"
#include "common/physical_dispatch.hpp"
#include "execution/expression_executor.hpp"
#include "execution/list_functions.hpp"
#include "execution/row_operations.hpp"

#include <numeric>

namespace sluice {

namespace {

using Arguments = std::vector<const Vector*>;

// Rows 0, 1, 2 ...: the selection that copies a whole vector with Gather.
std::vector<idx_t> Identity(idx_t count) {
    std::vector<idx_t> rows(count);
    std::iota(rows.begin(), rows.end(), 0);
    return rows;
}

// The position an index of x[i] names in a list of `length` (1-based, negative from the end),
// or -1 when it names none.
int64_t ElementPosition(int64_t index, idx_t length) {
    auto size = static_cast<int64_t>(length);
    int64_t position = index > 0 ? index - 1 : size + index;
    return index == 0 || position < 0 || position >= size ? -1 : position;
}

ScalarFunctionBody ListExtractBody() {
    return [](const Arguments& args, idx_t count, Vector& result) {
        const Vector& list = *args[0];
        const Vector& index = *args[1];
        for (idx_t row = 0; row < count; row++) {
            if (!list.RowIsValid(row) || !index.RowIsValid(row)) {
                result.SetNull(row);
                continue;
            }
            list_entry_t entry = list.ListEntry(row);
            int64_t position =
                ElementPosition(index.data<int64_t>()[index.RowIndex(row)], entry.length);
            if (position < 0) {
                result.SetNull(row);
            } else {
                result.CopyRow(list.list_child(), entry.offset + position, row);
            }
        }
    };
}

ScalarFunctionBody ListSliceBody() {
    return [](const Arguments& args, idx_t count, Vector& result) {
        const Vector& list = *args[0];
        const Vector& begin = *args[1];
        const Vector& end = *args[2];
        auto* entries = result.data<list_entry_t>();
        for (idx_t row = 0; row < count; row++) {
            if (!list.RowIsValid(row) || !begin.RowIsValid(row) || !end.RowIsValid(row)) {
                result.SetNull(row); // a NULL bound makes the slice NULL, as in DuckDB
                continue;
            }
            list_entry_t entry = list.ListEntry(row);
            auto length = static_cast<int64_t>(entry.length);
            // Slices are 1-based and include both bounds; negative bounds count from the end (a
            // left-out one is parsed as 1 or the largest BIGINT: the list's edge).
            int64_t first = begin.data<int64_t>()[begin.RowIndex(row)];
            int64_t last = end.data<int64_t>()[end.RowIndex(row)];
            first = first < 0 ? length + first + 1 : first;
            last = last < 0 ? length + last + 1 : last;
            first = std::max<int64_t>(first, 1);
            last = std::min(last, length);
            idx_t taken = last >= first ? static_cast<idx_t>(last - first + 1) : 0;
            entries[row] =
                result.AppendElements(list.list_child(), entry.offset + first - 1, taken);
        }
    };
}

// The element of a map's entry list whose key equals `key` row `row`, or -1.
int64_t FindKey(const Vector& map, idx_t row, const Vector& key) {
    list_entry_t entry = map.ListEntry(row);
    const Vector& keys = map.list_child().struct_child(0);
    for (idx_t i = 0; i < entry.length; i++) {
        if (keys.RowIsValid(entry.offset + i) &&
            RowsEqual(keys, entry.offset + i, key, key.RowIndex(row))) {
            return static_cast<int64_t>(entry.offset + i);
        }
    }
    return -1;
}

// m[k]: the value under key k, NULL when there is none; map_extract returns it as a list.
ScalarFunctionBody MapExtractBody(bool as_list) {
    return [as_list](const Arguments& args, idx_t count, Vector& result) {
        const Vector& map = *args[0];
        const Vector& key = *args[1];
        const Vector& values = map.list_child().struct_child(1);
        for (idx_t row = 0; row < count; row++) {
            if (!map.RowIsValid(row)) {
                result.SetNull(row);
                continue;
            }
            int64_t found = key.RowIsValid(row) ? FindKey(map, row, key) : -1;
            if (as_list) {
                result.data<list_entry_t>()[row] =
                    result.AppendElements(values, found < 0 ? 0 : found, found < 0 ? 0 : 1);
            } else if (found < 0) {
                result.SetNull(row);
            } else {
                result.CopyRow(values, found, row);
            }
        }
    };
}

// map_keys and map_values: one field of every entry, as a list.
ScalarFunctionBody MapFieldBody(idx_t field) {
    return [field](const Arguments& args, idx_t count, Vector& result) {
        const Vector& map = *args[0];
        for (idx_t row = 0; row < count; row++) {
            if (!map.RowIsValid(row)) {
                result.SetNull(row);
                continue;
            }
            list_entry_t entry = map.ListEntry(row);
            result.data<list_entry_t>()[row] = result.AppendElements(
                map.list_child().struct_child(field), entry.offset, entry.length);
        }
    };
}

template <class T>
ScalarFunctionBody LengthBody() {
    return [](const Arguments& args, idx_t count, Vector& result) {
        const Vector& list = *args[0];
        for (idx_t row = 0; row < count; row++) {
            if (list.RowIsValid(row)) {
                result.data<T>()[row] = static_cast<T>(list.ListEntry(row).length);
            } else {
                result.SetNull(row);
            }
        }
    };
}

ScalarFunctionBody ListContainsBody() {
    return [](const Arguments& args, idx_t count, Vector& result) {
        const Vector& list = *args[0];
        const Vector& needle = *args[1];
        const Vector& elements = list.list_child();
        for (idx_t row = 0; row < count; row++) {
            if (!list.RowIsValid(row) || !needle.RowIsValid(row)) {
                result.SetNull(row);
                continue;
            }
            list_entry_t entry = list.ListEntry(row);
            bool found = false;
            for (idx_t i = 0; i < entry.length && !found; i++) {
                found = elements.RowIsValid(entry.offset + i) &&
                        RowsEqual(elements, entry.offset + i, needle, needle.RowIndex(row));
            }
            result.data<bool>()[row] = found;
        }
    };
}

} // namespace

namespace {

// The columns of the chunks a lambda's body runs on: its `parameters` (the element; for
// list_reduce the accumulator first), the element's index if it takes one, the captured values.
std::vector<LogicalType> LambdaColumns(std::vector<LogicalType> parameters, bool with_index,
                                       const std::vector<LogicalType>& captures) {
    if (with_index) {
        parameters.push_back(LogicalTypeId::BIGINT);
    }
    parameters.insert(parameters.end(), captures.begin(), captures.end());
    return parameters;
}

} // namespace

BoundFunction BindListLambda(const LogicalType& list, std::shared_ptr<const Expression> body,
                             bool filter, bool with_index,
                             const std::vector<LogicalType>& captures) {
    LogicalType result_type = filter ? list : LogicalType::List(body->type);
    std::vector<LogicalType> types = LambdaColumns({list.element()}, with_index, captures);
    ScalarFunctionBody function = [body, filter, with_index, types](const Arguments& args,
                                                                    idx_t count, Vector& result) {
        const Vector& input = *args[0];
        // The elements of the rows, a chunk at a time, with the row each came from.
        DataChunk elements(types);
        Vector values(body->type);
        ExpressionExecutor executor;
        idx_t rows[kVectorSize], element_rows[kVectorSize];
        int64_t positions[kVectorSize];
        auto* entries = result.data<list_entry_t>();
        for (idx_t row = 0; row < count; row++) {
            if (input.RowIsValid(row)) {
                entries[row] = list_entry_t{0, 0};
            } else {
                result.SetNull(row);
            }
        }
        idx_t first_capture = with_index ? 2 : 1;
        auto flush = [&](idx_t taken) {
            elements.Reset();
            elements.column(0).Gather(input.list_child(), element_rows, taken);
            if (with_index) {
                std::copy(positions, positions + taken, elements.column(1).data<int64_t>());
            }
            for (idx_t capture = 1; capture < args.size(); capture++) {
                elements.column(first_capture + capture - 1).Gather(*args[capture], rows, taken);
            }
            elements.SetSize(taken);
            values.Reset();
            executor.Execute(*body, elements, values);
            for (idx_t i = 0; i < taken; i++) {
                if (filter) {
                    bool keep = values.RowIsValid(i) && values.data<bool>()[values.RowIndex(i)];
                    if (!keep) {
                        continue;
                    }
                }
                idx_t at = result.ReserveElements(1);
                result.list_child().CopyRow(filter ? elements.column(0) : values, i, at);
                list_entry_t& entry = entries[rows[i]];
                entry.offset = entry.length == 0 ? at : entry.offset;
                entry.length++;
            }
        };
        idx_t taken = 0;
        for (idx_t row = 0; row < count; row++) {
            if (!input.RowIsValid(row)) {
                continue;
            }
            list_entry_t entry = input.ListEntry(row);
            for (idx_t e = 0; e < entry.length; e++) {
                rows[taken] = row;
                positions[taken] = static_cast<int64_t>(e + 1);
                element_rows[taken++] = entry.offset + e;
                if (taken == kVectorSize) {
                    flush(taken);
                    taken = 0;
                }
            }
        }
        flush(taken);
    };
    std::vector<LogicalType> arguments = {list};
    arguments.insert(arguments.end(), captures.begin(), captures.end());
    return {arguments, result_type, std::move(function)};
}

BoundFunction BindListReduce(const LogicalType& list, std::shared_ptr<const Expression> body,
                             bool with_initial, bool with_index,
                             const std::vector<LogicalType>& captures) {
    const LogicalType accumulator = body->type;
    std::vector<LogicalType> types =
        LambdaColumns({accumulator, list.element()}, with_index, captures);
    ScalarFunctionBody function = [body, with_initial, with_index,
                                   types](const Arguments& args, idx_t count, Vector& result) {
        // The accumulators are the result's rows; each step folds in the next element of every
        // row that has one, all rows at once.
        const Vector& input = *args[0];
        idx_t first_capture = with_initial ? 2 : 1;
        idx_t next[kVectorSize]; // per row: the element folded in next
        idx_t rows[kVectorSize], element_rows[kVectorSize];
        int64_t positions[kVectorSize];
        idx_t active = 0;
        for (idx_t row = 0; row < count; row++) {
            if (!input.RowIsValid(row)) {
                result.SetNull(row);
                continue;
            }
            list_entry_t entry = input.ListEntry(row);
            if (with_initial) {
                result.CopyRow(*args[1], args[1]->RowIndex(row), row);
                next[row] = 0;
            } else if (entry.length == 0) {
                throw Exception(ErrorKind::InvalidInput,
                                "Cannot perform list_reduce on an empty input list");
            } else {
                result.CopyRow(input.list_child(), entry.offset, row);
                next[row] = 1;
            }
            rows[active++] = row;
        }
        DataChunk chunk(types);
        Vector values(body->type);
        ExpressionExecutor executor;
        while (active > 0) {
            idx_t taken = 0;
            for (idx_t i = 0; i < active; i++) {
                idx_t row = rows[i];
                list_entry_t entry = input.ListEntry(row);
                if (next[row] < entry.length) {
                    rows[taken] = row;
                    element_rows[taken] = entry.offset + next[row];
                    positions[taken++] = static_cast<int64_t>(next[row] + 1);
                }
            }
            active = taken;
            if (active == 0) {
                break;
            }
            chunk.Reset();
            chunk.column(0).Gather(result, rows, active);
            chunk.column(1).Gather(input.list_child(), element_rows, active);
            if (with_index) {
                std::copy(positions, positions + active, chunk.column(2).data<int64_t>());
            }
            idx_t column = with_index ? 3 : 2;
            for (idx_t capture = first_capture; capture < args.size(); capture++) {
                chunk.column(column++).Gather(*args[capture], rows, active);
            }
            chunk.SetSize(active);
            values.Reset();
            executor.Execute(*body, chunk, values);
            for (idx_t i = 0; i < active; i++) {
                result.CopyRow(values, i, rows[i]);
                next[rows[i]]++;
            }
        }
    };
    std::vector<LogicalType> arguments = {list};
    if (with_initial) {
        arguments.push_back(accumulator);
    }
    arguments.insert(arguments.end(), captures.begin(), captures.end());
    return {arguments, accumulator, std::move(function)};
}

BoundFunction BindListValue(const LogicalType& element, size_t count) {
    std::vector<LogicalType> types;
    for (size_t i = 0; i < count; i++) {
        types.push_back(element);
    }
    ScalarFunctionBody body = [](const Arguments& args, idx_t rows, Vector& result) {
        auto* entries = result.data<list_entry_t>();
        idx_t width = args.size();
        idx_t start = result.ReserveElements(rows * width);
        for (idx_t row = 0; row < rows; row++) {
            entries[row] = list_entry_t{start + row * width, width};
        }
        Vector& elements = result.list_child();
        PhysicalType physical = elements.type().physical();
        if (physical == PhysicalType::LIST || physical == PhysicalType::STRUCT) {
            for (idx_t row = 0; row < rows; row++) {
                for (idx_t i = 0; i < width; i++) {
                    elements.CopyRow(*args[i], row, start + row * width + i);
                }
            }
            return;
        }
        // Fixed-width values (strings as string_t, their memory kept alive): argument i of
        // row r is element r * width + i.
        for (idx_t i = 0; i < width; i++) {
            const Vector& argument = *args[i];
            DispatchPhysical(physical, [&](auto tag) {
                using T = decltype(tag);
                const T* from = argument.data<T>();
                T* to = elements.data<T>() + start + i;
                for (idx_t row = 0; row < rows; row++) {
                    to[row * width] = from[argument.RowIndex(row)];
                }
            });
            if (!argument.validity().AllValid()) {
                for (idx_t row = 0; row < rows; row++) {
                    if (!argument.RowIsValid(row)) {
                        elements.SetNull(start + row * width + i);
                    }
                }
            }
            if (physical == PhysicalType::VARCHAR) {
                elements.KeepAliveOf(argument);
            }
        }
    };
    return {std::move(types), LogicalType::List(element), std::move(body)};
}

BoundFunction BindStructPack(const std::vector<StructField>& fields) {
    std::vector<LogicalType> types;
    for (const StructField& field : fields) {
        types.push_back(field.type);
    }
    ScalarFunctionBody body = [](const Arguments& args, idx_t count, Vector& result) {
        std::vector<idx_t> rows = Identity(count);
        for (idx_t field = 0; field < args.size(); field++) {
            result.struct_child(field).Gather(*args[field], rows.data(), count);
        }
    };
    return {std::move(types), LogicalType::Struct(fields), std::move(body)};
}

BoundFunction BindMap(const LogicalType& key, const LogicalType& value) {
    ScalarFunctionBody body = [](const Arguments& args, idx_t count, Vector& result) {
        const Vector& keys = *args[0];
        const Vector& values = *args[1];
        Vector& entries = result.list_child();
        for (idx_t row = 0; row < count; row++) {
            if (!keys.RowIsValid(row) || !values.RowIsValid(row)) {
                result.SetNull(row);
                continue;
            }
            list_entry_t key_entry = keys.ListEntry(row), value_entry = values.ListEntry(row);
            if (key_entry.length != value_entry.length) {
                throw Exception(ErrorKind::InvalidInput,
                                "The map key list does not align with the map value list.");
            }
            idx_t start = result.ReserveElements(key_entry.length);
            for (idx_t i = 0; i < key_entry.length; i++) {
                idx_t key_row = key_entry.offset + i;
                if (!keys.list_child().RowIsValid(key_row)) {
                    throw Exception(ErrorKind::InvalidInput, "Map keys can not be NULL.");
                }
                for (idx_t j = 0; j < i; j++) {
                    if (RowsEqual(keys.list_child(), key_entry.offset + j, keys.list_child(),
                                  key_row)) {
                        throw Exception(ErrorKind::InvalidInput, "Map keys must be unique.");
                    }
                }
                entries.validity().SetValid(start + i);
                entries.struct_child(0).CopyRow(keys.list_child(), key_row, start + i);
                entries.struct_child(1).CopyRow(values.list_child(), value_entry.offset + i,
                                                start + i);
            }
            result.data<list_entry_t>()[row] = list_entry_t{start, key_entry.length};
        }
    };
    return {{LogicalType::List(key), LogicalType::List(value)},
            LogicalType::Map(key, value),
            std::move(body)};
}

std::string StructExtractName(const LogicalType& type, idx_t index) {
    return "struct_extract('" + type.fields()[index].name + "')";
}

std::optional<idx_t> StructExtractField(const Expression& expression) {
    if (expression.kind != ExpressionKind::Function || expression.children.size() != 1 ||
        expression.children[0]->type.id() != LogicalTypeId::STRUCT) {
        return std::nullopt;
    }
    const std::vector<StructField>& fields = expression.children[0]->type.fields();
    for (idx_t i = 0; i < fields.size(); i++) {
        if (expression.function_name == StructExtractName(expression.children[0]->type, i)) {
            return i;
        }
    }
    return std::nullopt;
}

BoundFunction BindStructExtract(const LogicalType& type, idx_t index) {
    ScalarFunctionBody body = [index](const Arguments& args, idx_t count, Vector& result) {
        const Vector& input = *args[0];
        const Vector& field = input.struct_child(index);
        // A field of a flat type is shared, not copied: NULL structs only clear bits of the
        // result's own validity. A nested field's NULLs would reach into the shared children.
        if (!field.type().IsNested()) {
            result.Reference(field);
        } else {
            std::vector<idx_t> rows = Identity(count);
            result.Gather(field, rows.data(), count);
        }
        if (!input.validity().AllValid() || input.vector_type() == VectorType::CONSTANT) {
            for (idx_t row = 0; row < count; row++) {
                if (!input.RowIsValid(row)) {
                    result.SetNull(row);
                }
            }
        }
    };
    return {{type}, type.fields()[index].type, std::move(body)};
}

std::optional<BoundFunction> BindNestedFunction(const std::string& name,
                                                const std::vector<LogicalType>& types) {
    if (types.empty()) {
        return std::nullopt;
    }
    if (name == "range" || name == "generate_series") {
        return BindListFunction(name, types);
    }
    if (types[0].id() == LogicalTypeId::SQLNULL && types.size() == 2) {
        if (auto function = BindListFunction(name, types)) {
            return function; // list_concat(NULL, [1])
        }
        // list_contains(NULL, 1): a NULL list of the needle's type
        LogicalType element = types[1].id() == LogicalTypeId::SQLNULL
                                  ? LogicalType(LogicalTypeId::INTEGER)
                                  : types[1];
        return BindNestedFunction(name, {LogicalType::List(element), types[1]});
    }
    const LogicalType& first = types[0];
    bool list = first.id() == LogicalTypeId::LIST;
    bool map = first.id() == LogicalTypeId::MAP;
    auto unary = [&](LogicalType result, ScalarFunctionBody body) -> std::optional<BoundFunction> {
        if (types.size() != 1) {
            return std::nullopt;
        }
        return BoundFunction{{first}, std::move(result), std::move(body)};
    };
    if ((name == "array_extract" || name == "list_extract" || name == "list_element") &&
        types.size() == 2) {
        if (list) {
            return BoundFunction{
                {first, LogicalTypeId::BIGINT}, first.element(), ListExtractBody()};
        }
        if (map) {
            return BoundFunction{{first, first.key()}, first.value(), MapExtractBody(false)};
        }
        return std::nullopt;
    }
    if ((name == "array_slice" || name == "list_slice") && types.size() == 3 && list) {
        return BoundFunction{
            {first, LogicalTypeId::BIGINT, LogicalTypeId::BIGINT}, first, ListSliceBody()};
    }
    if ((name == "map_extract" || name == "element_at") && types.size() == 2 && map) {
        return BoundFunction{
            {first, first.key()}, LogicalType::List(first.value()), MapExtractBody(true)};
    }
    if ((name == "len" || name == "length" || name == "array_length") && list) {
        return unary(LogicalTypeId::BIGINT, LengthBody<int64_t>());
    }
    if (name == "cardinality" && map) {
        return unary(LogicalTypeId::UBIGINT, LengthBody<uint64_t>());
    }
    if (name == "map_keys" && map) {
        return unary(LogicalType::List(first.key()), MapFieldBody(0));
    }
    if (name == "map_values" && map) {
        return unary(LogicalType::List(first.value()), MapFieldBody(1));
    }
    if ((name == "list_contains" || name == "list_has" || name == "array_contains" ||
         name == "array_has") &&
        types.size() == 2 && list) {
        return BoundFunction{{first, first.element()}, LogicalTypeId::BOOLEAN, ListContainsBody()};
    }
    return BindListFunction(name, types);
}

} // namespace sluice
