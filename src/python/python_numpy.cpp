#include "python/python_numpy.hpp"

#include "parallel/function_task.hpp"
#include "python/python_conversion.hpp"
#include "python/python_numpy_arrays.hpp"
#include "python/python_text_objects.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace sluice {

struct NumpyConversion::Piece {
    idx_t batch_index;
    idx_t arrival;
    std::unique_ptr<DataChunk> chunk;
    std::vector<RepeatedStrings> strings;              // per object column (text columns only)
    std::vector<std::unique_ptr<ObjectPiece>> objects; // per object column, once made
};

// Per text column, the strs of values that repeat, made once and shared by all their rows (up
// to kMost a column: past that, each chunk makes its own).
struct NumpyConversion::SharedStrings {
    static constexpr size_t kMost = 4096;

    std::vector<std::unordered_map<std::string, PyObject*>> columns; // per object column

    explicit SharedStrings(size_t count) : columns(count) {}
    ~SharedStrings() {
        for (auto& strs : columns) {
            for (auto& [text, object] : strs) {
                Py_DECREF(object);
            }
        }
    }

    // The str of `value` in object column `column` (a new reference).
    py::object Get(size_t column, const string_t& value) {
        auto& strs = columns[column];
        std::string text(value.view());
        auto found = strs.find(text);
        if (found != strs.end()) {
            return py::reinterpret_borrow<py::object>(found->second);
        }
        auto object = py::reinterpret_steal<py::object>(NewString(value.view()));
        if (!object) {
            throw py::error_already_set();
        }
        if (strs.size() < kMost) {
            strs.emplace(std::move(text), py::object(object).release().ptr());
        }
        return object;
    }
};

NumpyConversion::NumpyConversion(std::vector<std::string> names, std::vector<LogicalType> types,
                                 bool nanoseconds)
    : names_(std::move(names)), types_(std::move(types)), nanoseconds_(nanoseconds) {
    for (idx_t c = 0; c < types_.size(); c++) {
        if (!IsNumpyNative(types_[c])) {
            object_columns_.push_back(c);
        }
    }
    shared_ = std::make_unique<SharedStrings>(object_columns_.size());
}

NumpyConversion::~NumpyConversion() = default;

void NumpyConversion::Add(std::unique_ptr<DataChunk> chunk, idx_t batch_index) {
    chunk->Flatten();
    auto piece = std::make_unique<Piece>();
    piece->batch_index = batch_index;
    piece->strings.resize(object_columns_.size());
    for (size_t k = 0; k < object_columns_.size(); k++) {
        idx_t c = object_columns_[k];
        if (types_[c].id() == LogicalTypeId::VARCHAR) {
            piece->strings[k].Find(chunk->column(c), chunk->size());
        }
    }
    piece->chunk = std::move(chunk);
    std::lock_guard<std::mutex> guard(mutex_);
    piece->arrival = pieces_.size();
    pieces_.push_back(std::move(piece));
}

void NumpyConversion::ConvertAdded() {
    while (true) {
        Piece* piece;
        {
            std::lock_guard<std::mutex> guard(mutex_);
            if (converted_ == pieces_.size()) {
                return;
            }
            piece = pieces_[converted_].get();
        }
        const DataChunk& chunk = *piece->chunk;
        idx_t count = chunk.size();
        for (size_t k = 0; k < object_columns_.size(); k++) {
            const Vector& vector = chunk.column(object_columns_[k]);
            const RepeatedStrings& repeated = piece->strings[k];
            if (repeated.repeated()) {
                std::vector<py::object> distinct;
                for (const string_t& value : repeated.values) {
                    distinct.push_back(shared_->Get(k, value));
                }
                piece->objects.push_back(
                    std::make_unique<ObjectPiece>(repeated, std::move(distinct)));
                continue;
            }
            auto run = std::make_unique<ObjectPiece>(count);
            if (vector.type().id() == LogicalTypeId::VARCHAR) {
                const string_t* strings = vector.data<string_t>();
                bool all_valid = vector.validity().AllValid();
                for (idx_t row = 0; row < count; row++) {
                    if (row + 8 < count) {
                        __builtin_prefetch(strings[row + 8].data()); // hides the heap's latency
                    }
                    PyObject* object = Py_None;
                    if (all_valid || vector.RowIsValid(row)) {
                        object = NewString(strings[row].view());
                        if (object == nullptr) {
                            throw py::error_already_set();
                        }
                    } else {
                        Py_INCREF(object);
                    }
                    run->Push(object);
                }
            } else {
                for (py::object& value : ToPython(vector, 0, count)) {
                    run->Push(value.release().ptr());
                }
            }
            piece->objects.push_back(std::move(run));
        }
        converted_++;
    }
}

py::dict NumpyConversion::Finish(TaskScheduler* scheduler) {
    ConvertAdded();
    // The pieces in the result's order; their chunks for the numeric columns' fills.
    std::sort(pieces_.begin(), pieces_.end(), [](const auto& a, const auto& b) {
        return a->batch_index != b->batch_index ? a->batch_index < b->batch_index
                                                : a->arrival < b->arrival;
    });
    Chunks chunks;
    idx_t rows = 0;
    for (auto& piece : pieces_) {
        rows += piece->chunk->size();
        chunks.push_back(std::move(piece->chunk));
    }
    Fills fills;
    std::vector<ArrayMaker> native(types_.size());
    for (idx_t c = 0; c < types_.size(); c++) {
        if (IsNumpyNative(types_[c])) {
            native[c] = NativeColumn(fills, chunks, c, rows, types_[c], nanoseconds_);
        }
    }
    // Each object column's references copied into one array, then held by it.
    std::vector<std::unique_ptr<ArrayMemory>> objects;
    for (size_t k = 0; k < object_columns_.size(); k++) {
        objects.push_back(
            std::make_unique<ArrayMemory>(std::max<idx_t>(rows, 1) * sizeof(PyObject*)));
        fills.push_back([this, k, array = static_cast<PyObject**>(objects[k]->data())] {
            PyObject** out = array;
            PyObject* copied[kVectorSize]; // a piece's objects, streamed to `out` from the cache
            for (const auto& piece : pieces_) {
                const ObjectPiece& objects = *piece->objects[k];
                objects.CopyTo(copied);
                StreamBytes(out, copied, objects.rows() * sizeof(PyObject*));
                out += objects.rows();
            }
            StreamedStoresDone();
        });
    }
    RunFills(scheduler, fills);
    for (size_t k = 0; k < object_columns_.size(); k++) {
        objects[k]->HoldObjects(rows);
        for (auto& piece : pieces_) {
            piece->objects[k]->Disown();
        }
    }
    // Freed on a REGULAR thread while this one makes the frame: a gigabyte of chunks, in the
    // allocator's time (no Python objects are left in them).
    auto garbage = std::make_shared<std::pair<Chunks, std::vector<std::unique_ptr<Piece>>>>(
        std::move(chunks), std::move(pieces_));
    pieces_.clear();
    converted_ = 0;
    if (scheduler != nullptr) {
        scheduler->Schedule(std::make_shared<FunctionTask>(
            TaskPool::Regular,
            [garbage] {
                garbage->first.clear();
                garbage->second.clear();
            },
            [](std::exception_ptr) {}));
    }
    py::dict columns;
    size_t next_object = 0;
    for (idx_t c = 0; c < types_.size(); c++) {
        columns[py::str(names_[c])] =
            native[c] ? native[c]()
                      : ArrayMemory::Wrap(std::move(objects[next_object++]), py::dtype("O"), rows);
    }
    return columns;
}

py::dict ToNumpy(QueryResult& result, bool nanoseconds, TaskScheduler* scheduler) {
    NumpyConversion conversion(result.names(), result.types(), nanoseconds);
    Chunks chunks;
    while (auto chunk = result.Fetch()) {
        chunks.push_back(std::move(chunk));
    }
    // Added on the scheduler's threads: finding the text values that repeat reads them all.
    Fills adds;
    size_t tasks = std::min<size_t>(chunks.size(), 16);
    for (size_t task = 0; task < tasks; task++) {
        adds.push_back([&chunks, &conversion, task, tasks] {
            for (size_t i = task; i < chunks.size(); i += tasks) {
                conversion.Add(std::move(chunks[i]), i);
            }
        });
    }
    RunFills(scheduler, adds);
    return conversion.Finish(scheduler);
}

} // namespace sluice
