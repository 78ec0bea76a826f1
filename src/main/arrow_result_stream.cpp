#include "main/arrow_result_stream.hpp"

#include <cerrno>
#include <exception>

namespace sluice {

namespace {

struct StreamData {
    std::unique_ptr<QueryResult> result;
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
        const QueryResult& result = *DataOf(stream).result;
        ExportSchema(result.names(), result.types(), out);
    });
}

int GetNext(ArrowArrayStream* stream, ArrowArray* out) {
    return Guarded(stream, [&] {
        std::unique_ptr<DataChunk> chunk = DataOf(stream).result->Fetch();
        while (chunk && chunk->size() == 0) {
            chunk = DataOf(stream).result->Fetch();
        }
        if (!chunk) {
            *out = ArrowArray{};
            out->release = nullptr; // the end of the stream
            return;
        }
        ExportChunk(std::shared_ptr<DataChunk>(std::move(chunk)), out);
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

} // namespace

void ExportResultStream(std::unique_ptr<QueryResult> result, ArrowArrayStream* out) {
    out->get_schema = GetSchema;
    out->get_next = GetNext;
    out->get_last_error = GetLastError;
    out->release = Release;
    out->private_data = new StreamData{std::move(result), {}};
}

} // namespace sluice
