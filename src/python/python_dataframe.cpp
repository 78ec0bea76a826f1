#include "python/python_dataframe.hpp"

#include "common/exception.hpp"

#include <pybind11/numpy.h>

#include <cmath>
#include <cstring>

namespace sluice {

namespace {

// The Sluice type of a numpy array of dtype kind `kind` and item size `size`, if it maps
// directly (copied as it is).
std::optional<LogicalType> DirectType(char kind, py::ssize_t size) {
    switch (kind) {
    case 'b':
        return LogicalType(LogicalTypeId::BOOLEAN);
    case 'i':
        switch (size) {
        case 1:
            return LogicalType(LogicalTypeId::TINYINT);
        case 2:
            return LogicalType(LogicalTypeId::SMALLINT);
        case 4:
            return LogicalType(LogicalTypeId::INTEGER);
        case 8:
            return LogicalType(LogicalTypeId::BIGINT);
        }
        break;
    case 'u':
        switch (size) {
        case 1:
            return LogicalType(LogicalTypeId::UTINYINT);
        case 2:
            return LogicalType(LogicalTypeId::USMALLINT);
        case 4:
            return LogicalType(LogicalTypeId::UINTEGER);
        case 8:
            return LogicalType(LogicalTypeId::UBIGINT);
        }
        break;
    case 'f':
        if (size == 4) {
            return LogicalType(LogicalTypeId::FLOAT);
        }
        if (size == 8) {
            return LogicalType(LogicalTypeId::DOUBLE);
        }
        break;
    }
    return std::nullopt;
}

// A column of Python objects: the type its non-null values share.
LogicalType ObjectType(const std::string& column, const py::array& values, py::handle is_na) {
    std::optional<LogicalTypeId> found;
    auto* const* objects = static_cast<PyObject* const*>(values.data());
    for (py::ssize_t i = 0; i < values.size(); i++) {
        py::handle value(objects[i]);
        if (value.is_none() || is_na(value).cast<bool>()) {
            continue;
        }
        LogicalTypeId id;
        if (py::isinstance<py::bool_>(value)) {
            id = LogicalTypeId::BOOLEAN;
        } else if (py::isinstance<py::int_>(value)) {
            id = LogicalTypeId::BIGINT;
        } else if (py::isinstance<py::float_>(value)) {
            id = LogicalTypeId::DOUBLE;
        } else if (py::isinstance<py::str>(value)) {
            id = LogicalTypeId::VARCHAR;
        } else {
            throw Exception(ErrorKind::InvalidInput,
                            "DataFrame column \"" + column + "\" holds a Python " +
                                py::str(py::type::of(value).attr("__name__")).cast<std::string>() +
                                ", which Sluice cannot read");
        }
        if (found && *found != id) {
            bool numbers = (*found == LogicalTypeId::BIGINT && id == LogicalTypeId::DOUBLE) ||
                           (*found == LogicalTypeId::DOUBLE && id == LogicalTypeId::BIGINT);
            if (!numbers) {
                throw Exception(ErrorKind::InvalidInput, "DataFrame column \"" + column +
                                                             "\" mixes values of several types");
            }
            id = LogicalTypeId::DOUBLE;
        }
        found = id;
    }
    return LogicalType(found.value_or(LogicalTypeId::VARCHAR));
}

} // namespace

std::shared_ptr<const TableEntry> DataFrameTable(const std::string& name, py::handle frame) {
    auto table = std::make_shared<TableEntry>();
    table->name = name;
    py::module_ numpy = py::module_::import("numpy");
    py::object is_na = py::module_::import("pandas").attr("isna");
    py::object columns = frame.attr("columns");
    py::ssize_t count = py::len(columns);
    auto rows = static_cast<idx_t>(py::len(frame));
    std::vector<py::array> arrays;
    std::vector<bool> direct;
    for (py::ssize_t c = 0; c < count; c++) {
        std::string column = py::str(columns[py::int_(c)]).cast<std::string>();
        py::object series =
            frame.attr("iloc")[py::make_tuple(py::slice(py::none(), py::none(), py::none()), c)];
        auto array = py::array::ensure(series.attr("to_numpy")());
        char kind = array.dtype().kind();
        std::optional<LogicalType> type = DirectType(kind, array.dtype().itemsize());
        if (kind == 'M') {
            // Timestamps: microseconds since the epoch (NaT, the smallest int64, is NULL).
            array = py::array::ensure(array.attr("astype")("datetime64[us]"));
            type = LogicalType(LogicalTypeId::TIMESTAMP);
        } else if (kind == 'O') {
            type = ObjectType(column, array, is_na);
        } else if (!type) {
            throw Exception(ErrorKind::InvalidInput,
                            "DataFrame column \"" + column + "\" has numpy dtype " +
                                py::str(array.dtype()).cast<std::string>() +
                                ", which Sluice cannot read");
        }
        table->names.push_back(column);
        table->types.push_back(*type);
        direct.push_back(kind != 'O');
        arrays.push_back(py::array::ensure(numpy.attr("ascontiguousarray")(array)));
    }
    auto chunks = std::make_shared<ChunkList>();
    for (idx_t start = 0; start < rows; start += kVectorSize) {
        idx_t size = std::min(kVectorSize, rows - start);
        auto chunk = std::make_shared<DataChunk>(table->types);
        for (size_t c = 0; c < arrays.size(); c++) {
            Vector& vector = chunk->column(c);
            const py::array& array = arrays[c];
            if (direct[c]) {
                auto width = static_cast<idx_t>(array.dtype().itemsize());
                const char* from = static_cast<const char*>(array.data()) + start * width;
                std::memcpy(vector.data<char>(), from, size * width);
                // pandas marks missing numbers NaN: NULL, as DuckDB reads them.
                if (table->types[c].id() == LogicalTypeId::DOUBLE) {
                    const auto* numbers = reinterpret_cast<const double*>(from);
                    for (idx_t row = 0; row < size; row++) {
                        if (std::isnan(numbers[row])) {
                            vector.SetNull(row);
                        }
                    }
                }
                if (table->types[c].id() == LogicalTypeId::FLOAT) {
                    const auto* numbers = reinterpret_cast<const float*>(from);
                    for (idx_t row = 0; row < size; row++) {
                        if (std::isnan(numbers[row])) {
                            vector.SetNull(row);
                        }
                    }
                }
                if (table->types[c].id() == LogicalTypeId::TIMESTAMP) {
                    const auto* micros = reinterpret_cast<const int64_t*>(from);
                    for (idx_t row = 0; row < size; row++) {
                        if (micros[row] == INT64_MIN) {
                            vector.SetNull(row);
                        }
                    }
                }
                continue;
            }
            auto** objects = static_cast<PyObject**>(const_cast<void*>(array.data()));
            for (idx_t row = 0; row < size; row++) {
                py::handle value(objects[start + row]);
                if (value.is_none() || is_na(value).cast<bool>()) {
                    vector.SetNull(row);
                    continue;
                }
                switch (table->types[c].id()) {
                case LogicalTypeId::BOOLEAN:
                    vector.SetValue(row, Value::Boolean(value.cast<bool>()));
                    break;
                case LogicalTypeId::BIGINT:
                    vector.SetValue(row,
                                    Value::Integer(LogicalTypeId::BIGINT, value.cast<int64_t>()));
                    break;
                case LogicalTypeId::DOUBLE:
                    vector.SetValue(row, Value::Double(value.cast<double>()));
                    break;
                default:
                    vector.SetValue(row, Value::Varchar(value.cast<std::string>()));
                    break;
                }
            }
        }
        chunk->SetSize(size);
        chunks->push_back(std::move(chunk));
    }
    table->chunks = std::move(chunks);
    return table;
}

} // namespace sluice
