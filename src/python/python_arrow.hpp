#pragma once

#include "formats/arrow/arrow_c_data.hpp"
#include "main/query_result.hpp"
#include "parallel/task_scheduler.hpp"

#include <pybind11/pybind11.h>

#include <memory>

namespace sluice {

namespace py = pybind11;

// Rows handed to Arrow consumers (pyarrow, polars, ...) through Arrow's PyCapsule interface:
// __arrow_c_stream__ gives a capsule named "arrow_array_stream" holding an ArrowArrayStream of
// the rows (one record batch per chunk, fixed-width columns shared rather than copied), once;
// __arrow_c_schema__ a capsule "arrow_schema" of their schema.
class PythonArrowStream {
public:
    // `stream` (its schema `names` and `types`) is handed to the first consumer.
    PythonArrowStream(std::vector<std::string> names, std::vector<LogicalType> types,
                      std::unique_ptr<ArrowArrayStream> stream);
    ~PythonArrowStream();
    PythonArrowStream(const PythonArrowStream&) = delete;
    PythonArrowStream& operator=(const PythonArrowStream&) = delete;

    // `requested_schema` is ignored: the rows come in the types DuckDB would give them.
    py::object ArrowCStream(const py::object& requested_schema);
    py::object ArrowCSchema() const;

private:
    std::vector<std::string> names_;
    std::vector<LogicalType> types_;
    std::unique_ptr<ArrowArrayStream> stream_; // null once handed to a consumer
};

// A result's rows as a stream (ExportResultStream: exported as the consumer reads, ahead on
// `scheduler`'s threads).
std::shared_ptr<PythonArrowStream> ResultArrowStream(std::unique_ptr<QueryResult> result,
                                                     std::shared_ptr<TaskScheduler> scheduler);

// The class sluice.ArrowStream.
void RegisterArrowStream(py::module_& module);

// The rows as a pyarrow.Table when pyarrow is installed, else as the sluice.ArrowStream that any
// Arrow library can import.
py::object ToArrow(std::shared_ptr<PythonArrowStream> stream);

} // namespace sluice
