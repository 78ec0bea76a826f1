#include "python/python_connection.hpp"

#include "common/exception.hpp"
#include "python/python_arrow.hpp"
#include "python/python_conversion.hpp"
#include "python/python_dataframe.hpp"
#include "python/python_numpy.hpp"
#include "python/python_numpy_sink.hpp"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

namespace sluice {

namespace {

// Runs `body` (a query on `connection`) on a thread of its own with the GIL released; this
// thread looks for Ctrl-C every 100 ms (Python runs signal handlers only on the main thread,
// holding the GIL) and interrupts the query, leaving KeyboardInterrupt set. Each time Wake() is
// called (from any thread) it also runs `meanwhile` with the GIL held: the Python objects of
// the rows produced so far are made while the query produces the rest.
class InterruptibleRun {
public:
    void Wake() {
        std::lock_guard<std::mutex> guard(mutex_);
        woken_ = true;
        signal_.notify_all();
    }

    void Run(Connection& connection, const std::function<void()>& body,
             const std::function<void()>& meanwhile = nullptr) {
        std::exception_ptr error;
        std::thread worker([&] {
            try {
                body();
            } catch (...) {
                error = std::current_exception();
            }
            std::lock_guard<std::mutex> guard(mutex_);
            done_ = true;
            signal_.notify_all();
        });
        bool interrupted = false;
        std::exception_ptr meanwhile_error; // stops the query too
        {
            py::gil_scoped_release release;
            std::unique_lock<std::mutex> lock(mutex_);
            while (!done_) {
                signal_.wait_for(lock, std::chrono::milliseconds(100),
                                 [&] { return done_ || woken_; });
                if (done_ || interrupted || meanwhile_error) {
                    continue;
                }
                bool woken = std::exchange(woken_, false);
                lock.unlock();
                {
                    py::gil_scoped_acquire acquire;
                    if (PyErr_CheckSignals() != 0) {
                        interrupted = true; // the KeyboardInterrupt stays set
                    } else if (woken && meanwhile) {
                        try {
                            meanwhile();
                        } catch (...) {
                            meanwhile_error = std::current_exception();
                        }
                    }
                }
                if (interrupted || meanwhile_error) {
                    connection.Interrupt();
                }
                lock.lock();
            }
        }
        worker.join();
        if (interrupted) {
            throw py::error_already_set();
        }
        if (meanwhile_error) {
            std::rethrow_exception(meanwhile_error);
        }
        if (error) {
            std::rethrow_exception(error);
        }
    }

private:
    std::mutex mutex_;
    std::condition_variable signal_;
    bool done_ = false;
    bool woken_ = false;
};

void RunInterruptibly(Connection& connection, const std::function<void()>& body) {
    InterruptibleRun().Run(connection, body);
}

// The connection of a pending result, unless it was closed.
Connection& Open(const std::shared_ptr<Connection>& connection, const std::atomic<bool>& closed) {
    if (closed.load()) {
        throw Exception(ErrorKind::InvalidInput,
                        "the connection is closed: a relation runs on the connection that made it");
    }
    return *connection;
}

} // namespace

PythonResult::PythonResult(std::unique_ptr<QueryResult> result,
                           std::shared_ptr<TaskScheduler> scheduler)
    : names_(result->names()), types_(result->types()), result_(std::move(result)),
      scheduler_(std::move(scheduler)) {
}

PythonResult::PythonResult(std::unique_ptr<PendingQuery> pending,
                           std::shared_ptr<Connection> connection,
                           std::shared_ptr<const std::atomic<bool>> closed,
                           std::shared_ptr<TaskScheduler> scheduler)
    : names_(pending->names), types_(pending->types), pending_(std::move(pending)),
      connection_(std::move(connection)), closed_(std::move(closed)),
      scheduler_(std::move(scheduler)) {
}

QueryResult& PythonResult::Result() {
    if (pending_) {
        Connection& connection = Open(connection_, *closed_);
        std::unique_ptr<PendingQuery> pending = std::move(pending_);
        RunInterruptibly(connection, [&] { result_ = connection.RunPending(*pending); });
    }
    if (!result_) {
        throw Exception(ErrorKind::InvalidInput,
                        "this relation's query failed or was interrupted when it ran: make it "
                        "again with sql() to run it again");
    }
    return *result_;
}

py::object PythonResult::FetchOne() {
    py::list rows = FetchMany(1);
    return rows.empty() ? py::none() : py::object(rows[0]);
}

py::list PythonResult::FetchMany(idx_t count) {
    py::list rows;
    QueryResult& result = Result();
    idx_t columns = result.ColumnCount();
    for (idx_t fetched = 0; fetched < count;) {
        if (!chunk_ || row_ == chunk_->size()) {
            chunk_ = result.Fetch();
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
    QueryResult& result = Result();
    std::vector<std::unique_ptr<DataChunk>> chunks;
    if (chunk_ && row_ < chunk_->size()) {
        // The rest of the chunk being fetched row by row.
        auto rest = std::make_unique<DataChunk>(types_);
        std::vector<idx_t> rows;
        for (idx_t row = row_; row < chunk_->size(); row++) {
            rows.push_back(row);
        }
        rest->AppendSelected(*chunk_, rows.data(), rows.size());
        chunks.push_back(std::move(rest));
    }
    chunk_.reset();
    while (auto chunk = result.Fetch()) {
        chunks.push_back(std::move(chunk));
    }
    return std::make_unique<QueryResult>(names_, types_, std::move(chunks));
}

std::shared_ptr<PythonArrowStream> PythonResult::RestAsArrow() {
    if (!pending_) {
        return ResultArrowStream(Rest(), scheduler_); // Rest() throws if the run failed
    }
    // Not run yet: run with the rows exported as they are produced.
    Connection& connection = Open(connection_, *closed_);
    std::unique_ptr<PendingQuery> pending = std::move(pending_);
    auto stream = std::make_unique<ArrowArrayStream>();
    stream->release = nullptr;
    RunInterruptibly(connection, [&] { connection.RunPendingToArrow(*pending, stream.get()); });
    // What is read from this result after is nothing: the rows went to the stream.
    result_ =
        std::make_unique<QueryResult>(names_, types_, std::vector<std::unique_ptr<DataChunk>>{});
    return std::make_shared<PythonArrowStream>(names_, types_, std::move(stream));
}

py::dict PythonResult::Numpy(bool nanoseconds) {
    if (!pending_) {
        auto rest = Rest(); // throws if the run failed
        return ToNumpy(*rest, nanoseconds, scheduler_.get());
    }
    // Not run yet: run with the Python objects made by this thread as the rows come.
    Connection& connection = Open(connection_, *closed_);
    std::unique_ptr<PendingQuery> pending = std::move(pending_);
    NumpyConversion conversion(names_, types_, nanoseconds);
    InterruptibleRun run;
    auto sink = std::make_shared<NumpySink>(conversion, &connection.database().memory(),
                                            [&run] { run.Wake(); });
    run.Run(
        connection, [&] { connection.RunPendingInto(*pending, sink); },
        [&] { conversion.ConvertAdded(); });
    // What is read from this result after is nothing: the rows went to the arrays.
    result_ =
        std::make_unique<QueryResult>(names_, types_, std::vector<std::unique_ptr<DataChunk>>{});
    return conversion.Finish(scheduler_.get());
}

py::dict PythonResult::FetchNumpy() {
    return Numpy(false);
}

py::object PythonResult::Arrow() {
    return ToArrow(RestAsArrow());
}

py::object PythonResult::ArrowStream() {
    return py::cast(RestAsArrow());
}

namespace {

// The columns as a DataFrame of one pandas block per column, each block a view of its numpy
// array: pandas.DataFrame(dict) would copy every column once more to consolidate the blocks of
// one dtype (pandas consolidates later, if an operation wants it), and a Series made of each
// array first costs more than the rest (12 ms for lineitem's 16 columns). Through pandas'
// internal constructors (pandas.core.internals.api.make_block, BlockManager); nullopt when they
// are not there or refuse.
std::optional<py::object> FrameOfBlocks(const std::vector<std::pair<py::object, py::object>>& named,
                                        idx_t rows) {
    try {
        py::module_ pandas = py::module_::import("pandas");
        py::object make_block = py::module_::import("pandas.core.internals.api").attr("make_block");
        py::object block_manager =
            py::module_::import("pandas.core.internals").attr("BlockManager");
        py::list blocks;
        py::list names;
        for (size_t i = 0; i < named.size(); i++) {
            const auto& [name, array] = named[i];
            py::object column = array.attr("reshape")(1, static_cast<py::ssize_t>(rows));
            py::list placement;
            placement.append(i);
            blocks.append(
                make_block(column, py::arg("placement") = placement, py::arg("ndim") = 2));
            names.append(name);
        }
        py::list axes;
        axes.append(pandas.attr("Index")(names, py::arg("dtype") = "object"));
        axes.append(pandas.attr("RangeIndex")(rows));
        return pandas.attr("DataFrame")(block_manager(blocks, axes));
    } catch (py::error_already_set&) {
        return std::nullopt;
    }
}

} // namespace

py::object PythonResult::DataFrame() {
    py::module_ pandas = py::module_::import("pandas");
    bool pandas_1 = pandas.attr("__version__").cast<std::string>().rfind("1.", 0) == 0;
    py::dict columns = Numpy(pandas_1);
    py::module_ numpy = py::module_::import("numpy");
    std::vector<std::pair<py::object, py::object>> named;
    bool any_time_zone = false;
    idx_t rows = 0;
    idx_t index = 0;
    for (auto [name, column] : columns) {
        bool utc = types_[index++].id() == LogicalTypeId::TIMESTAMP_TZ;
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
        rows = py::len(array);
        any_time_zone = any_time_zone || utc;
        named.emplace_back(py::reinterpret_borrow<py::object>(name), array);
    }
    if (!any_time_zone && !named.empty()) {
        if (auto frame = FrameOfBlocks(named, rows)) {
            return *frame;
        }
    }
    py::dict series;
    index = 0;
    for (const auto& [name, array] : named) {
        // The dtype given: pandas does not scan object columns to infer dates from them.
        py::object values = pandas.attr("Series")(array, py::arg("dtype") = array.attr("dtype"),
                                                  py::arg("copy") = false);
        if (types_[index++].id() == LogicalTypeId::TIMESTAMP_TZ) {
            values = values.attr("dt").attr("tz_localize")("UTC");
        }
        series[name] = values;
    }
    return pandas.attr("DataFrame")(series, py::arg("copy") = false);
}

py::list PythonResult::Description() const {
    py::list description;
    for (idx_t i = 0; i < names_.size(); i++) {
        description.append(py::make_tuple(names_[i], types_[i].ToString(), py::none(), py::none(),
                                          py::none(), py::none(), py::none()));
    }
    return description;
}

py::list PythonResult::ColumnNames() const {
    py::list names;
    for (const auto& name : names_) {
        names.append(name);
    }
    return names;
}

py::list PythonResult::ColumnTypes() const {
    py::list types;
    for (const auto& type : types_) {
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
    database_ = std::make_shared<Database>();
    // A pending result running on the connection keeps its database too.
    connection_ = std::shared_ptr<Connection>(
        new Connection(*database_),
        [database = database_](Connection* connection) { delete connection; });
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
                                                   const py::object& parameters,
                                                   std::unique_ptr<PendingQuery>* pending) {
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
    std::unique_ptr<QueryResult> result;
    RunInterruptibly(connection, [&] {
        if (pending) {
            *pending = connection.BindSelect(query, with_parameters ? &values : nullptr);
            if (*pending) {
                return;
            }
        }
        result = with_parameters ? connection.Query(query, values) : connection.Query(query);
    });
    return result;
}

void PythonConnection::Execute(const std::string& query, const py::object& parameters) {
    auto result = Run(query, parameters);
    result_ = std::make_unique<PythonResult>(std::move(result), Scheduler());
}

std::shared_ptr<PythonResult> PythonConnection::Sql(const std::string& query,
                                                    const py::object& parameters) {
    std::unique_ptr<PendingQuery> pending;
    auto result = Run(query, parameters, &pending);
    if (pending) {
        return std::make_shared<PythonResult>(std::move(pending), connection_, closed_,
                                              Scheduler());
    }
    return std::make_shared<PythonResult>(std::move(result), Scheduler());
}

PythonResult& PythonConnection::Result() {
    if (!result_) {
        throw Exception(ErrorKind::InvalidInput, "no open result set: call execute() first");
    }
    return *result_;
}

std::shared_ptr<TaskScheduler> PythonConnection::Scheduler() const {
    if (!database_) {
        return nullptr;
    }
    return std::shared_ptr<TaskScheduler>(database_, &database_->scheduler());
}

void PythonConnection::Close() {
    closed_->store(true);
    result_.reset();
    connection_.reset();
    database_.reset();
}

} // namespace sluice
