#pragma once

#include "common/data_chunk.hpp"
#include "main/query_result.hpp"
#include "parallel/task_scheduler.hpp"

#include <pybind11/pybind11.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sluice {

namespace py = pybind11;

// A result's rows as numpy arrays, one per column (fetchnumpy, df): fixed-width numbers as
// arrays of their type, masked where NULL; DECIMAL and HUGEINT as float64; DATE and the
// timestamps as datetime64 (TIMESTAMP WITH TIME ZONE in UTC); INTERVAL as timedelta64; other
// types as arrays of Python objects.
//
// Chunks are added as the query produces them, on its threads. The Python objects (a str per
// text value above all) can only be made by the thread holding the GIL, so that thread makes
// those of the chunks added so far while the query goes on, and the arrays are laid out once
// the last chunk is in.
class NumpyConversion {
public:
    // `nanoseconds`: dates and times as datetime64[ns] (what pandas before 2.0 holds; an instant
    // outside its years 1677 to 2262 is an error), else as datetime64[us] as DuckDB gives them.
    NumpyConversion(std::vector<std::string> names, std::vector<LogicalType> types,
                    bool nanoseconds);
    ~NumpyConversion(); // with the GIL held: it drops the objects made
    NumpyConversion(const NumpyConversion&) = delete;
    NumpyConversion& operator=(const NumpyConversion&) = delete;

    // Any thread, without the GIL: keeps the flat `chunk` at its place in the result (after the
    // chunks of smaller batch indexes and those of its own added before), and finds which of its
    // text columns repeat a few values (one str then serves all their rows).
    void Add(std::unique_ptr<DataChunk> chunk, idx_t batch_index);
    // With the GIL: makes the Python objects of the chunks added since the last call.
    void ConvertAdded();
    // With the GIL, after the last Add: the arrays by column name. The numeric columns are
    // filled on `scheduler`'s REGULAR threads, without the GIL, while this thread places the
    // objects (here when there is no scheduler).
    py::dict Finish(TaskScheduler* scheduler);

private:
    struct Piece;

    std::vector<std::string> names_;
    std::vector<LogicalType> types_;
    bool nanoseconds_;
    std::vector<idx_t> object_columns_; // the columns of Python objects
    std::mutex mutex_;
    std::vector<std::unique_ptr<Piece>> pieces_; // in order of arrival; under mutex_
    size_t converted_ = 0;                       // pieces whose objects are made
    struct SharedStrings;
    std::unique_ptr<SharedStrings> shared_; // per text column: strs of the values seen repeated
};

// The rest of `result` (run already) as NumpyConversion gives it: its chunks added on
// `scheduler`'s threads.
py::dict ToNumpy(QueryResult& result, bool nanoseconds = false, TaskScheduler* scheduler = nullptr);

} // namespace sluice
