// The `sluice` Python module (its compiled part, sluice._sluice): connect(), connections and
// results, and Sluice's errors as Python exceptions named as DuckDB's.
#include "common/exception.hpp"
#include "python/python_arenas.hpp"
#include "python/python_arrow.hpp"
#include "python/python_connection.hpp"

#include <pybind11/stl.h>

#include <map>

namespace py = pybind11;
using namespace sluice;

namespace {

// DB-API's hierarchy (PEP 249) with DuckDB's exception names under it.
struct ExceptionClasses {
    std::map<ErrorKind, py::object> by_kind;
};

py::object NewException(py::module_& module, const char* name, py::handle base) {
    std::string qualified = std::string("sluice.") + name;
    py::object type = py::reinterpret_steal<py::object>(
        PyErr_NewException(qualified.c_str(), base.ptr(), nullptr));
    module.attr(name) = type;
    return type;
}

ExceptionClasses& Exceptions() {
    static auto* classes = new ExceptionClasses(); // lives as long as the interpreter
    return *classes;
}

void RegisterExceptions(py::module_& module) {
    py::object error = NewException(module, "Error", PyExc_Exception);
    py::object warning = NewException(module, "Warning", PyExc_Exception);
    (void)warning;
    py::object database = NewException(module, "DatabaseError", error);
    py::object programming = NewException(module, "ProgrammingError", database);
    py::object data = NewException(module, "DataError", database);
    py::object operational = NewException(module, "OperationalError", database);
    py::object internal = NewException(module, "InternalError", database);
    py::object not_supported = NewException(module, "NotSupportedError", database);
    NewException(module, "InterfaceError", error);
    NewException(module, "IntegrityError", database);
    auto& by_kind = Exceptions().by_kind;
    by_kind[ErrorKind::Parser] = NewException(module, "ParserException", programming);
    by_kind[ErrorKind::Binder] = NewException(module, "BinderException", programming);
    by_kind[ErrorKind::Catalog] = NewException(module, "CatalogException", programming);
    by_kind[ErrorKind::InvalidInput] = NewException(module, "InvalidInputException", programming);
    by_kind[ErrorKind::Conversion] = NewException(module, "ConversionException", data);
    by_kind[ErrorKind::OutOfRange] = NewException(module, "OutOfRangeException", data);
    by_kind[ErrorKind::IO] = NewException(module, "IOException", operational);
    by_kind[ErrorKind::OutOfMemory] = NewException(module, "OutOfMemoryException", operational);
    by_kind[ErrorKind::Interrupted] = NewException(module, "InterruptException", database);
    by_kind[ErrorKind::NotImplemented] =
        NewException(module, "NotImplementedException", not_supported);
    by_kind[ErrorKind::Internal] = NewException(module, "InternalException", internal);
    py::register_exception_translator([](std::exception_ptr pointer) {
        try {
            if (pointer) {
                std::rethrow_exception(pointer);
            }
        } catch (const Exception& caught) {
            const py::object& type = Exceptions().by_kind.at(caught.Kind());
            PyErr_SetString(type.ptr(), caught.what());
        }
    });
}

} // namespace

PYBIND11_MODULE(_sluice, module) {
    module.doc() = "Sluice: an analytical SQL engine for data on object storage";
    module.attr("__version__") = SLUICE_VERSION;
    RegisterExceptions(module);
    RegisterArrowStream(module);
    KeepFreedObjectArenas(size_t(1) << 30);

    py::class_<PythonResult, std::shared_ptr<PythonResult>>(module, "Result")
        .def("fetchone", &PythonResult::FetchOne, "The next row as a tuple, or None at the end")
        .def("fetchmany", &PythonResult::FetchMany, py::arg("size") = 1,
             "Up to `size` more rows as a list of tuples")
        .def("fetchall", &PythonResult::FetchAll, "The rows not yet fetched, as tuples")
        .def("fetchnumpy", &PythonResult::FetchNumpy,
             "The rows not yet fetched as a dict of numpy arrays, one per column")
        .def("df", &PythonResult::DataFrame, "The rows not yet fetched as a pandas DataFrame")
        .def("fetchdf", &PythonResult::DataFrame)
        .def("arrow", &PythonResult::Arrow,
             "The rows not yet fetched as a pyarrow.Table (or, without pyarrow, a "
             "sluice.ArrowStream that Arrow libraries import)")
        .def("fetch_arrow_table", &PythonResult::Arrow)
        .def("fetch_record_batch", &PythonResult::ArrowStream,
             "The rows not yet fetched as a sluice.ArrowStream, one record batch per chunk")
        .def(
            "__arrow_c_stream__",
            [](PythonResult& result, const py::object& requested_schema) {
                return result.ArrowStream().cast<PythonArrowStream&>().ArrowCStream(
                    requested_schema);
            },
            py::arg("requested_schema") = py::none())
        .def_property_readonly("description", &PythonResult::Description)
        .def_property_readonly("columns", &PythonResult::ColumnNames)
        .def_property_readonly("types", &PythonResult::ColumnTypes);

    py::class_<PythonConnection>(module, "Connection")
        .def(
            "execute",
            [](PythonConnection& connection, const std::string& query,
               const py::object& parameters) -> PythonConnection& {
                connection.Execute(query, parameters);
                return connection;
            },
            py::arg("query"), py::arg("parameters") = py::none(),
            py::return_value_policy::reference_internal,
            "Runs a statement ($1 or ? parameters from `parameters`); fetch from the connection")
        .def("sql", &PythonConnection::Sql, py::arg("query"), py::arg("params") = py::none(),
             "Runs a statement and returns its result")
        .def("query", &PythonConnection::Sql, py::arg("query"), py::arg("params") = py::none())
        .def("fetchone", [](PythonConnection& c) { return c.Result().FetchOne(); })
        .def(
            "fetchmany", [](PythonConnection& c, idx_t size) { return c.Result().FetchMany(size); },
            py::arg("size") = 1)
        .def("fetchall", [](PythonConnection& c) { return c.Result().FetchAll(); })
        .def("fetchnumpy", [](PythonConnection& c) { return c.Result().FetchNumpy(); })
        .def("df", [](PythonConnection& c) { return c.Result().DataFrame(); })
        .def("fetchdf", [](PythonConnection& c) { return c.Result().DataFrame(); })
        .def("arrow", [](PythonConnection& c) { return c.Result().Arrow(); })
        .def("fetch_arrow_table", [](PythonConnection& c) { return c.Result().Arrow(); })
        .def("fetch_record_batch", [](PythonConnection& c) { return c.Result().ArrowStream(); })
        .def_property_readonly("description",
                               [](PythonConnection& c) { return c.Result().Description(); })
        .def("close", &PythonConnection::Close)
        .def(
            "__enter__", [](PythonConnection& c) -> PythonConnection& { return c; },
            py::return_value_policy::reference_internal)
        .def("__exit__", [](PythonConnection& c, const py::args&) { c.Close(); });

    module.def(
        "connect",
        [](const std::string& database, const py::object& config) {
            return std::make_unique<PythonConnection>(
                database, config.is_none() ? py::dict() : py::dict(config));
        },
        py::arg("database") = ":memory:", py::arg("config") = py::none(),
        "A new in-memory database and a connection on it; `config` holds settings to SET");
}
