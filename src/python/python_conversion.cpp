#include "python/python_conversion.hpp"

#include "common/date_time.hpp"
#include "common/exception.hpp"
#include "common/number_format.hpp"
#include "common/physical_dispatch.hpp"

#include <cstring>
#include <string_view>
#include <type_traits>

namespace sluice {

namespace {

// 1970-01-01 as a proleptic Gregorian ordinal (datetime.date.toordinal()).
constexpr int64_t kEpochOrdinal = 719163;

// The Python classes values convert to, looked up once (converting millions of values, a
// module lookup per value would cost more than the conversion). Never freed: Python objects
// must not be released after the interpreter is gone.
struct PythonClasses {
    py::object decimal = py::module_::import("decimal").attr("Decimal");
    py::object uuid = py::module_::import("uuid").attr("UUID");
    py::object date_from_ordinal = py::module_::import("datetime").attr("date").attr("fromordinal");
    py::object time = py::module_::import("datetime").attr("time");
    py::object timedelta = py::module_::import("datetime").attr("timedelta");
};

const PythonClasses& Classes() {
    static const auto* classes = new PythonClasses();
    return *classes;
}

py::module_ Datetime() {
    return py::module_::import("datetime");
}

py::object Timestamp(int64_t micros, bool utc) {
    py::module_ datetime = Datetime();
    py::object epoch = utc ? datetime.attr("datetime")(1970, 1, 1, 0, 0, 0, 0,
                                                       datetime.attr("timezone").attr("utc"))
                           : datetime.attr("datetime")(1970, 1, 1);
    return epoch + datetime.attr("timedelta")(py::arg("microseconds") = micros);
}

py::object Integer(hugeint_t value) {
    if (value >= INT64_MIN && value <= INT64_MAX) {
        return py::int_(static_cast<int64_t>(value));
    }
    // Beyond 64 bits: through its decimal text.
    return py::reinterpret_steal<py::object>(
        PyLong_FromString(FormatHugeint(value).c_str(), nullptr, 10));
}

} // namespace

py::object ToPython(const Value& value) {
    if (value.IsNull()) {
        return py::none();
    }
    const LogicalType& type = value.type();
    switch (type.id()) {
    case LogicalTypeId::BOOLEAN:
        return py::bool_(value.GetBoolean());
    case LogicalTypeId::TINYINT:
    case LogicalTypeId::SMALLINT:
    case LogicalTypeId::INTEGER:
    case LogicalTypeId::BIGINT:
    case LogicalTypeId::HUGEINT:
    case LogicalTypeId::UTINYINT:
    case LogicalTypeId::USMALLINT:
    case LogicalTypeId::UINTEGER:
    case LogicalTypeId::UBIGINT:
        return Integer(value.GetInteger());
    case LogicalTypeId::FLOAT:
    case LogicalTypeId::DOUBLE:
        return py::float_(value.GetDouble());
    case LogicalTypeId::DECIMAL:
        return Classes().decimal(value.ToString());
    case LogicalTypeId::VARCHAR:
        return py::str(value.GetString());
    case LogicalTypeId::BLOB:
        return py::bytes(value.GetString());
    case LogicalTypeId::UUID:
        return Classes().uuid(value.ToString());
    case LogicalTypeId::DATE:
        return Classes().date_from_ordinal(static_cast<int64_t>(value.GetInteger()) +
                                           kEpochOrdinal);
    case LogicalTypeId::TIME: {
        auto micros = static_cast<int64_t>(value.GetInteger());
        return Classes().time(micros / 3600000000LL, micros / 60000000 % 60, micros / 1000000 % 60,
                              micros % 1000000);
    }
    case LogicalTypeId::TIMESTAMP:
        return Timestamp(static_cast<int64_t>(value.GetInteger()), false);
    case LogicalTypeId::TIMESTAMP_TZ:
        return Timestamp(static_cast<int64_t>(value.GetInteger()), true);
    case LogicalTypeId::TIMESTAMP_NS:
        // datetime holds microseconds: the nanoseconds are cut, as DuckDB's Python API does.
        return Timestamp(static_cast<int64_t>(value.GetInteger() / 1000), false);
    case LogicalTypeId::INTERVAL: {
        interval_t interval = value.GetInterval();
        return Classes().timedelta(py::arg("days") =
                                       static_cast<int64_t>(interval.months) * 30 + interval.days,
                                   py::arg("microseconds") = interval.micros);
    }
    case LogicalTypeId::LIST: {
        py::list list;
        for (const Value& child : value.children()) {
            list.append(ToPython(child));
        }
        return list;
    }
    case LogicalTypeId::STRUCT: {
        py::dict dict;
        for (size_t i = 0; i < value.children().size(); i++) {
            dict[py::str(type.fields()[i].name)] = ToPython(value.children()[i]);
        }
        return dict;
    }
    case LogicalTypeId::MAP: {
        py::dict dict;
        for (const Value& entry : value.children()) {
            dict[ToPython(entry.children()[0])] = ToPython(entry.children()[1]);
        }
        return dict;
    }
    case LogicalTypeId::SQLNULL:
        return py::none();
    }
    return py::str(value.ToString());
}

std::vector<py::object> ToPython(const Vector& vector, idx_t begin, idx_t end) {
    std::vector<py::object> objects;
    objects.reserve(end - begin);
    auto each = [&](auto make) {
        for (idx_t row = begin; row < end; row++) {
            objects.push_back(vector.RowIsValid(row) ? make(row) : py::none());
        }
    };
    switch (vector.type().id()) {
    case LogicalTypeId::BOOLEAN:
        each([&](idx_t row) -> py::object { return py::bool_(vector.data<bool>()[row]); });
        break;
    case LogicalTypeId::TINYINT:
    case LogicalTypeId::SMALLINT:
    case LogicalTypeId::INTEGER:
    case LogicalTypeId::BIGINT:
    case LogicalTypeId::UTINYINT:
    case LogicalTypeId::USMALLINT:
    case LogicalTypeId::UINTEGER:
        DispatchPhysical(vector.type().physical(), [&](auto tag) {
            using T = decltype(tag);
            if constexpr (std::is_integral_v<T>) {
                each([&](idx_t row) -> py::object {
                    return py::int_(static_cast<int64_t>(vector.data<T>()[row]));
                });
            }
        });
        break;
    case LogicalTypeId::DOUBLE:
        each([&](idx_t row) -> py::object { return py::float_(vector.data<double>()[row]); });
        break;
    case LogicalTypeId::FLOAT:
        each([&](idx_t row) -> py::object { return py::float_(vector.data<float>()[row]); });
        break;
    case LogicalTypeId::VARCHAR:
        each([&](idx_t row) -> py::object {
            std::string_view text = vector.data<string_t>()[row].view();
            return py::reinterpret_steal<py::object>(PyUnicode_DecodeUTF8(
                text.data(), static_cast<py::ssize_t>(text.size()), "replace"));
        });
        break;
    default:
        each([&](idx_t row) { return ToPython(vector.GetValue(row)); });
        break;
    }
    return objects;
}

Value FromPython(py::handle object) {
    if (object.is_none()) {
        return Value();
    }
    if (py::isinstance<py::bool_>(object)) {
        return Value::Boolean(object.cast<bool>());
    }
    if (py::isinstance<py::int_>(object)) {
        int overflow = 0;
        long long small = PyLong_AsLongLongAndOverflow(object.ptr(), &overflow);
        if (overflow == 0) {
            return Value::Integer(LogicalTypeId::BIGINT, small);
        }
        // Larger: a HUGEINT when it fits, else a DOUBLE (as DuckDB's Python API does).
        hugeint_t huge;
        if (TryParseHugeint(py::str(object).cast<std::string>(), huge)) {
            return Value::Integer(LogicalTypeId::HUGEINT, huge);
        }
        return Value::Double(py::float_(py::reinterpret_borrow<py::object>(object)).cast<double>());
    }
    if (py::isinstance<py::float_>(object)) {
        return Value::Double(object.cast<double>());
    }
    if (py::isinstance<py::str>(object)) {
        return Value::Varchar(object.cast<std::string>());
    }
    if (py::isinstance<py::bytes>(object)) {
        return Value::Blob(object.cast<std::string>());
    }
    py::module_ datetime = Datetime();
    if (py::isinstance(object, Classes().decimal)) {
        return Value::Double(py::float_(py::reinterpret_borrow<py::object>(object)).cast<double>());
    }
    if (py::isinstance(object, datetime.attr("datetime"))) {
        auto instant = py::reinterpret_borrow<py::object>(object);
        bool aware = !object.attr("tzinfo").is_none();
        if (aware) {
            instant = object.attr("astimezone")(datetime.attr("timezone").attr("utc"));
        }
        int64_t days = instant.attr("toordinal")().cast<int64_t>() - kEpochOrdinal;
        int64_t micros = days * dtime::kMicrosPerDay +
                         instant.attr("hour").cast<int64_t>() * 3600000000LL +
                         instant.attr("minute").cast<int64_t>() * 60000000LL +
                         instant.attr("second").cast<int64_t>() * 1000000LL +
                         instant.attr("microsecond").cast<int64_t>();
        return Value::Integer(aware ? LogicalTypeId::TIMESTAMP_TZ : LogicalTypeId::TIMESTAMP,
                              micros);
    }
    if (py::isinstance(object, datetime.attr("date"))) {
        return Value::Integer(LogicalTypeId::DATE,
                              object.attr("toordinal")().cast<int64_t>() - kEpochOrdinal);
    }
    if (py::isinstance(object, datetime.attr("time"))) {
        int64_t micros = object.attr("hour").cast<int64_t>() * 3600000000LL +
                         object.attr("minute").cast<int64_t>() * 60000000LL +
                         object.attr("second").cast<int64_t>() * 1000000LL +
                         object.attr("microsecond").cast<int64_t>();
        return Value::Integer(LogicalTypeId::TIME, micros);
    }
    if (py::isinstance(object, datetime.attr("timedelta"))) {
        interval_t interval{0, object.attr("days").cast<int32_t>(),
                            object.attr("seconds").cast<int64_t>() * 1000000LL +
                                object.attr("microseconds").cast<int64_t>()};
        return Value::Interval(interval);
    }
    throw Exception(ErrorKind::InvalidInput,
                    "cannot use a Python " +
                        py::str(py::type::of(object).attr("__name__")).cast<std::string>() +
                        " as a parameter value");
}

} // namespace sluice
