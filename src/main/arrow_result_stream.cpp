#include "main/arrow_result_stream.hpp"

#include "parallel/function_task.hpp"

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <exception>
#include <mutex>

namespace sluice {

namespace {

// One chunk's way to a record batch: exported by whoever claims it first (a read-ahead task or
// the consumer itself), then handed out once.
struct Batch {
    std::shared_ptr<DataChunk> chunk;
    std::atomic<bool> claimed{false};
    bool done = false; // under the stream's mutex, with array and error
    ArrowArray array{};
    std::exception_ptr error;
};

// What the stream and its read-ahead tasks share: tasks may outlive the stream's release.
struct SharedBatches {
    std::vector<std::unique_ptr<Batch>> batches;
    std::mutex mutex;
    std::condition_variable exported;

    ~SharedBatches() {
        for (auto& batch : batches) {
            if (batch->array.release != nullptr) {
                batch->array.release(&batch->array);
            }
        }
    }

    // Exports batch `index` unless someone else has claimed it.
    void Export(idx_t index) {
        Batch& batch = *batches[index];
        if (batch.claimed.exchange(true)) {
            return;
        }
        ArrowArray array{};
        std::exception_ptr error;
        try {
            ExportChunk(std::move(batch.chunk), &array);
        } catch (...) {
            error = std::current_exception();
        }
        std::lock_guard<std::mutex> guard(mutex);
        batch.array = array;
        batch.error = error;
        batch.done = true;
        exported.notify_all();
    }
};

struct StreamData {
    std::vector<std::string> names;
    std::vector<LogicalType> types;
    std::shared_ptr<SharedBatches> shared;
    std::shared_ptr<TaskScheduler> scheduler;
    idx_t next = 0;      // the batch get_next hands out next
    idx_t scheduled = 0; // batches below this have a read-ahead task (or none is wanted)
    std::string last_error;
};

StreamData& DataOf(ArrowArrayStream* stream) {
    return *static_cast<StreamData*>(stream->private_data);
}

// The C interface reports errors as errno codes, the message kept for get_last_error.
template <class Body>
int Guarded(ArrowArrayStream* stream, Body body) {
    try {
        body();
        return 0;
    } catch (const std::exception& error) {
        DataOf(stream).last_error = error.what();
        return EIO;
    }
}

int GetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
    return Guarded(stream, [&] {
        const StreamData& data = DataOf(stream);
        ExportSchema(data.names, data.types, out);
    });
}

// Keeps read-ahead tasks scheduled for the batches after `data.next`.
void ReadAhead(StreamData& data) {
    if (!data.scheduler) {
        return;
    }
    idx_t ahead = 4 * std::max<idx_t>(1, data.scheduler->RegularThreads());
    idx_t end = std::min(data.shared->batches.size(), data.next + 1 + ahead);
    for (idx_t index = std::max(data.scheduled, data.next + 1); index < end; index++) {
        std::shared_ptr<SharedBatches> shared = data.shared;
        data.scheduler->Schedule(std::make_shared<FunctionTask>(
            TaskPool::Regular, [shared, index] { shared->Export(index); },
            [](std::exception_ptr) {})); // Export keeps its errors for the consumer
    }
    data.scheduled = std::max(data.scheduled, end);
}

int GetNext(ArrowArrayStream* stream, ArrowArray* out) {
    return Guarded(stream, [&] {
        StreamData& data = DataOf(stream);
        SharedBatches& shared = *data.shared;
        if (data.next == shared.batches.size()) {
            *out = ArrowArray{};
            out->release = nullptr; // the end of the stream
            return;
        }
        ReadAhead(data);
        idx_t index = data.next++;
        shared.Export(index); // unless a read-ahead task has it
        Batch& batch = *shared.batches[index];
        // While a task finishes it, the consumer exports batches no task has begun.
        for (idx_t ahead = index + 1; ahead < data.scheduled; ahead++) {
            {
                std::lock_guard<std::mutex> guard(shared.mutex);
                if (batch.done) {
                    break;
                }
            }
            shared.Export(ahead);
        }
        std::unique_lock<std::mutex> lock(shared.mutex);
        shared.exported.wait(lock, [&] { return batch.done; });
        if (batch.error) {
            std::rethrow_exception(batch.error);
        }
        *out = batch.array;
        batch.array.release = nullptr; // moved to the consumer
    });
}

const char* GetLastError(ArrowArrayStream* stream) {
    const std::string& error = DataOf(stream).last_error;
    return error.empty() ? nullptr : error.c_str();
}

void Release(ArrowArrayStream* stream) {
    if (stream->release == nullptr) {
        return;
    }
    delete static_cast<StreamData*>(stream->private_data);
    stream->release = nullptr;
}

void Fill(std::unique_ptr<StreamData> data, ArrowArrayStream* out) {
    out->get_schema = GetSchema;
    out->get_next = GetNext;
    out->get_last_error = GetLastError;
    out->release = Release;
    out->private_data = data.release();
}

} // namespace

void ExportResultStream(std::unique_ptr<QueryResult> result, ArrowArrayStream* out,
                        std::shared_ptr<TaskScheduler> scheduler) {
    auto data = std::make_unique<StreamData>();
    data->names = result->names();
    data->types = result->types();
    data->shared = std::make_shared<SharedBatches>();
    while (std::unique_ptr<DataChunk> chunk = result->Fetch()) {
        if (chunk->size() > 0) {
            data->shared->batches.push_back(std::make_unique<Batch>());
            data->shared->batches.back()->chunk = std::move(chunk);
        }
    }
    data->scheduler = std::move(scheduler);
    Fill(std::move(data), out);
}

void ExportBatchStream(std::vector<std::string> names, std::vector<LogicalType> types,
                       std::vector<ArrowArray> batches, ArrowArrayStream* out) {
    auto data = std::make_unique<StreamData>();
    data->names = std::move(names);
    data->types = std::move(types);
    data->shared = std::make_shared<SharedBatches>();
    for (ArrowArray& array : batches) {
        auto batch = std::make_unique<Batch>();
        batch->claimed.store(true);
        batch->done = true;
        batch->array = array;
        data->shared->batches.push_back(std::move(batch));
    }
    Fill(std::move(data), out);
}

} // namespace sluice
