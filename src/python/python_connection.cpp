#include "python/python_connection.hpp"

#include "common/exception.hpp"
#include "python/python_arrow.hpp"
#include "python/python_conversion.hpp"
#include "python/python_dataframe.hpp"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <limits>
#include <mutex>
#include <thread>

namespace sluice {

PythonResult::PythonResult(std::unique_ptr<QueryResult> result) : result_(std::move(result)) {
}

py::object PythonResult::FetchOne() {
    py::list rows = FetchMany(1);
    return rows.empty() ? py::none() : py::object(rows[0]);
}

py::list PythonResult::FetchMany(idx_t count) {
    py::list rows;
    idx_t columns = result_->ColumnCount();
    for (idx_t fetched = 0; fetched < count;) {
        if (!chunk_ || row_ == chunk_->size()) {
            chunk_ = result_->Fetch();
            row_ = 0;
            if (!chunk_) {
                break;
            }
            chunk_->Flatten();
            continue;
        }
        // The rows wanted from this chunk, converted a column at a time.
        idx_t end = row_ + std::min(count - fetched, chunk_->size() - row_);
        std::vector<std::vector<py::object>> values;
        for (idx_t column = 0; column < columns; column++) {
            values.push_back(ToPython(chunk_->column(column), row_, end));
        }
        for (idx_t i = 0; i < end - row_; i++) {
            py::tuple row(columns);
            for (idx_t column = 0; column < columns; column++) {
                row[column] = std::move(values[column][i]);
            }
            rows.append(std::move(row));
        }
        fetched += end - row_;
        row_ = end;
    }
    return rows;
}

py::list PythonResult::FetchAll() {
    return FetchMany(std::numeric_limits<idx_t>::max());
}

std::unique_ptr<QueryResult> PythonResult::Rest() {
    std::vector<std::unique_ptr<DataChunk>> chunks;
    if (chunk_ && row_ < chunk_->size()) {
        // The rest of the chunk being fetched row by row.
        auto rest = std::make_unique<DataChunk>(result_->types());
        std::vector<idx_t> rows;
        for (idx_t row = row_; row < chunk_->size(); row++) {
            rows.push_back(row);
        }
        rest->AppendSelected(*chunk_, rows.data(), rows.size());
        chunks.push_back(std::move(rest));
    }
    chunk_.reset();
    while (auto chunk = result_->Fetch()) {
        chunks.push_back(std::move(chunk));
    }
    return std::make_unique<QueryResult>(result_->names(), result_->types(), std::move(chunks));
}

py::dict PythonResult::FetchNumpy() {
    auto rest = Rest();
    return ToNumpy(*rest);
}

py::object PythonResult::Arrow() {
    return ToArrow(Rest());
}

py::object PythonResult::ArrowStream() {
    return py::cast(std::make_shared<PythonArrowStream>(Rest()));
}

py::object PythonResult::DataFrame() {
    py::dict columns = FetchNumpy();
    py::module_ numpy = py::module_::import("numpy");
    py::module_ pandas = py::module_::import("pandas");
    py::dict series;
    idx_t index = 0;
    for (auto [name, column] : columns) {
        bool utc = result_->types()[index++].id() == LogicalTypeId::TIMESTAMP_TZ;
        py::object array = py::reinterpret_borrow<py::object>(column);
        if (py::isinstance(array, numpy.attr("ma").attr("MaskedArray"))) {
            // NULLs as pandas marks them: NaN for numbers (integers become float64), NaT for
            // times, None among objects.
            char kind = array.attr("dtype").attr("kind").cast<std::string>()[0];
            if (kind == 'M' || kind == 'm') {
                array = array.attr("filled")(numpy.attr("datetime64")("NaT"));
            } else if (kind == 'b') {
                array = array.attr("astype")("O").attr("filled")(py::none());
            } else {
                array = array.attr("astype")("float64").attr("filled")(numpy.attr("nan"));
            }
        }
        // The dtype given: pandas does not scan object columns to infer dates from them.
        py::object values = pandas.attr("Series")(array, py::arg("dtype") = array.attr("dtype"),
                                                  py::arg("copy") = false);
        if (utc) {
            values = values.attr("dt").attr("tz_localize")("UTC");
        }
        series[name] = values;
    }
    return pandas.attr("DataFrame")(series, py::arg("copy") = false);
}

py::list PythonResult::Description() const {
    py::list description;
    for (idx_t i = 0; i < result_->ColumnCount(); i++) {
        description.append(py::make_tuple(result_->names()[i], result_->types()[i].ToString(),
                                          py::none(), py::none(), py::none(), py::none(),
                                          py::none()));
    }
    return description;
}

py::list PythonResult::ColumnNames() const {
    py::list names;
    for (const auto& name : result_->names()) {
        names.append(name);
    }
    return names;
}

py::list PythonResult::ColumnTypes() const {
    py::list types;
    for (const auto& type : result_->types()) {
        types.append(type.ToString());
    }
    return types;
}

PythonConnection::PythonConnection(const std::string& database, const py::dict& config) {
    if (database != ":memory:" && !database.empty()) {
        throw Exception(ErrorKind::InvalidInput,
                        "Sluice keeps its tables in memory: connect() takes ':memory:', not \"" +
                            database + "\"");
    }
    database_ = std::make_unique<Database>();
    connection_ = std::make_unique<Connection>(*database_);
    for (const auto& [key, value] : config) {
        connection_->Query("SET " + py::str(key).cast<std::string>() + " = ?", {FromPython(value)});
    }
}

Connection& PythonConnection::Open() {
    if (!connection_) {
        throw Exception(ErrorKind::InvalidInput, "the connection is closed");
    }
    return *connection_;
}

std::unique_ptr<QueryResult> PythonConnection::Run(const std::string& query,
                                                   const py::object& parameters) {
    Connection& connection = Open();
    std::vector<Value> values;
    bool with_parameters = !parameters.is_none();
    if (with_parameters) {
        for (py::handle parameter : parameters) {
            values.push_back(FromPython(parameter));
        }
    }
    // A name the catalog does not know may be a pandas DataFrame in the caller's scope: its
    // local variables, then its module's (taken now, while the caller's frame is current).
    py::dict locals = py::reinterpret_borrow<py::dict>(PyEval_GetLocals());
    py::dict globals = py::reinterpret_borrow<py::dict>(PyEval_GetGlobals());
    connection.SetReplacementScan(
        [&](const std::string& name) -> std::shared_ptr<const TableEntry> {
            py::gil_scoped_acquire acquire;
            py::object frame_type;
            try {
                frame_type = py::module_::import("pandas").attr("DataFrame");
            } catch (const py::error_already_set&) {
                return nullptr; // no pandas, no DataFrames
            }
            for (const py::dict& scope : {locals, globals}) {
                if (scope.contains(name) && py::isinstance(scope[name.c_str()], frame_type)) {
                    return DataFrameTable(name, scope[name.c_str()]);
                }
            }
            return nullptr;
        });
    struct Forget {
        Connection& connection;
        ~Forget() { connection.SetReplacementScan(nullptr); }
    } forget{connection};
    // The query runs on a thread of its own, the GIL released; this thread looks for Ctrl-C
    // every 100 ms (Python runs signal handlers only on the main thread, holding the GIL).
    std::mutex mutex;
    std::condition_variable done_signal;
    bool done = false;
    std::unique_ptr<QueryResult> result;
    std::exception_ptr error;
    std::thread worker([&] {
        try {
            result = with_parameters ? connection.Query(query, values) : connection.Query(query);
        } catch (...) {
            error = std::current_exception();
        }
        std::lock_guard<std::mutex> guard(mutex);
        done = true;
        done_signal.notify_all();
    });
    bool interrupted = false;
    {
        py::gil_scoped_release release;
        std::unique_lock<std::mutex> lock(mutex);
        while (!done) {
            done_signal.wait_for(lock, std::chrono::milliseconds(100));
            if (done || interrupted) {
                continue;
            }
            lock.unlock();
            {
                py::gil_scoped_acquire acquire;
                if (PyErr_CheckSignals() != 0) {
                    interrupted = true; // the KeyboardInterrupt stays set
                }
            }
            if (interrupted) {
                connection.Interrupt();
            }
            lock.lock();
        }
    }
    worker.join();
    if (interrupted) {
        throw py::error_already_set();
    }
    if (error) {
        std::rethrow_exception(error);
    }
    return result;
}

void PythonConnection::Execute(const std::string& query, const py::object& parameters) {
    result_ = std::make_unique<PythonResult>(Run(query, parameters));
}

std::shared_ptr<PythonResult> PythonConnection::Sql(const std::string& query,
                                                    const py::object& parameters) {
    return std::make_shared<PythonResult>(Run(query, parameters));
}

PythonResult& PythonConnection::Result() {
    if (!result_) {
        throw Exception(ErrorKind::InvalidInput, "no open result set: call execute() first");
    }
    return *result_;
}

void PythonConnection::Close() {
    result_.reset();
    connection_.reset();
    database_.reset();
}

} // namespace sluice
