#pragma once

#include "common/data_chunk.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

// The Arrow C Data and C Stream interfaces, as the Arrow specification defines their structs
// (guarded so that a program including another definition of them gets one).
extern "C" {
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
    const char* format;
    const char* name;
    const char* metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema** children;
    struct ArrowSchema* dictionary;
    void (*release)(struct ArrowSchema*);
    void* private_data;
};

struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void** buffers;
    struct ArrowArray** children;
    struct ArrowArray* dictionary;
    void (*release)(struct ArrowArray*);
    void* private_data;
};

#endif // ARROW_C_DATA_INTERFACE

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
    int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
    int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
    const char* (*get_last_error)(struct ArrowArrayStream*);
    void (*release)(struct ArrowArrayStream*);
    void* private_data;
};

#endif // ARROW_C_STREAM_INTERFACE
}

namespace sluice {

// The Arrow format string of a Sluice type, as DuckDB exports it: integers and floats as
// themselves, HUGEINT and every DECIMAL as decimal128, DATE date32, TIME time64[us],
// TIMESTAMP timestamp[us] (TIMESTAMP WITH TIME ZONE with "UTC", TIMESTAMP_NS timestamp[ns]),
// INTERVAL month_day_nano, VARCHAR and UUID utf8, BLOB binary, LIST, STRUCT and MAP nested.
std::string ArrowFormat(const LogicalType& type);

// A result's schema: a struct of one nullable field per column. `out` owns what it points at
// until its release callback runs.
void ExportSchema(const std::vector<std::string>& names, const std::vector<LogicalType>& types,
                  ArrowSchema* out);

// A chunk (flattened here) as a struct array of its columns, `out` keeping the chunk alive until
// released. Buffers whose layout Arrow shares (fixed-width values, validity bitmaps, DATE,
// TIMESTAMP, HUGEINT) are the chunk's own; the others (strings, booleans, narrow DECIMALs,
// intervals, list offsets) are converted once.
void ExportChunk(std::shared_ptr<DataChunk> chunk, ArrowArray* out);
// ExportChunk of a chunk its producer goes on to reuse (a pipeline's, exported as it passes
// while its data is in cache): the array owns copies of every buffer it shows.
void ExportChunkCopy(const DataChunk& chunk, ArrowArray* out);

} // namespace sluice
