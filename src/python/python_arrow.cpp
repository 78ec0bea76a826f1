#include "python/python_arrow.hpp"

#include "common/exception.hpp"
#include "main/arrow_result_stream.hpp"

namespace sluice {

namespace {

// A capsule owning a heap-allocated C struct: the struct is released (unless a consumer took
// it, leaving its release callback null) and freed with the capsule.
template <class Struct>
py::object OwningCapsule(Struct* value, const char* name) {
    auto destructor = [](PyObject* capsule) {
        const char* capsule_name = PyCapsule_GetName(capsule);
        auto* owned = static_cast<Struct*>(PyCapsule_GetPointer(capsule, capsule_name));
        if (owned == nullptr) {
            PyErr_Clear();
            return;
        }
        if (owned->release != nullptr) {
            owned->release(owned);
        }
        delete owned;
    };
    PyObject* capsule = PyCapsule_New(value, name, destructor);
    if (capsule == nullptr) {
        if (value->release != nullptr) {
            value->release(value);
        }
        delete value;
        throw py::error_already_set();
    }
    return py::reinterpret_steal<py::object>(capsule);
}

} // namespace

PythonArrowStream::PythonArrowStream(std::vector<std::string> names, std::vector<LogicalType> types,
                                     std::unique_ptr<ArrowArrayStream> stream)
    : names_(std::move(names)), types_(std::move(types)), stream_(std::move(stream)) {
}

PythonArrowStream::~PythonArrowStream() {
    if (stream_ && stream_->release != nullptr) {
        stream_->release(stream_.get());
    }
}

py::object PythonArrowStream::ArrowCStream(const py::object& /*requested_schema*/) {
    if (!stream_) {
        throw Exception(ErrorKind::InvalidInput,
                        "this Arrow stream was already consumed: its rows can be read once");
    }
    return OwningCapsule(stream_.release(), "arrow_array_stream");
}

std::shared_ptr<PythonArrowStream> ResultArrowStream(std::unique_ptr<QueryResult> result,
                                                     std::shared_ptr<TaskScheduler> scheduler) {
    std::vector<std::string> names = result->names();
    std::vector<LogicalType> types = result->types();
    auto stream = std::make_unique<ArrowArrayStream>();
    ExportResultStream(std::move(result), stream.get(), std::move(scheduler));
    return std::make_shared<PythonArrowStream>(std::move(names), std::move(types),
                                               std::move(stream));
}

py::object PythonArrowStream::ArrowCSchema() const {
    auto* schema = new ArrowSchema();
    try {
        ExportSchema(names_, types_, schema);
    } catch (...) {
        delete schema;
        throw;
    }
    return OwningCapsule(schema, "arrow_schema");
}

void RegisterArrowStream(py::module_& module) {
    py::class_<PythonArrowStream, std::shared_ptr<PythonArrowStream>>(module, "ArrowStream")
        .def("__arrow_c_stream__", &PythonArrowStream::ArrowCStream,
             py::arg("requested_schema") = py::none(),
             "The rows as an ArrowArrayStream in a PyCapsule (once)")
        .def("__arrow_c_schema__", &PythonArrowStream::ArrowCSchema,
             "The rows' schema as an ArrowSchema in a PyCapsule");
}

py::object ToArrow(std::shared_ptr<PythonArrowStream> arrow_stream) {
    py::object stream = py::cast(std::move(arrow_stream));
    py::module_ pyarrow;
    try {
        pyarrow = py::module_::import("pyarrow");
    } catch (py::error_already_set& error) {
        if (!error.matches(PyExc_ImportError)) {
            throw;
        }
        return stream;
    }
    return pyarrow.attr("table")(stream);
}

} // namespace sluice
