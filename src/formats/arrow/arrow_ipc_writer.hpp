#pragma once

#include "formats/arrow/arrow_c_data.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace sluice::arrow {

// Arrow's two IPC forms: the stream (messages one after another, then an end marker) and the
// file (the stream between "ARROW1" magic, with a footer indexing its record batches).
enum class IpcForm { kStream, kFile };

// Writes a query's rows as Arrow IPC, one record batch per chunk. The batches are the arrays
// ExportChunk makes (so the file holds exactly what a C Data consumer would see); their messages
// are FlatBuffers built field by field from the format's schema (Schema.fbs, Message.fbs,
// File.fbs) with the flatbuffers library, uncompressed, little-endian, metadata version V5.
class ArrowIpcWriter {
public:
    ArrowIpcWriter(std::string path, const std::vector<std::string>& names,
                   const std::vector<LogicalType>& types, IpcForm form);
    ~ArrowIpcWriter();
    ArrowIpcWriter(const ArrowIpcWriter&) = delete;
    ArrowIpcWriter& operator=(const ArrowIpcWriter&) = delete;

    void Append(DataChunk& chunk);
    void Finish();
    uint64_t rows_written() const { return rows_written_; }

    // Where a message sits in the file, for the footer (File.fbs's Block).
    struct Block {
        int64_t offset;
        int32_t metadata_length; // the prefix, the FlatBuffer and its padding
        int32_t padding;
        int64_t body_length;
    };

private:
    // Writes one encapsulated message: the continuation marker, the metadata length, the
    // FlatBuffer padded to 8 bytes, then the body's pieces each padded to 8 bytes.
    Block WriteMessage(const uint8_t* metadata, size_t metadata_size,
                       const std::vector<std::pair<const void*, size_t>>& body);
    void WriteBytes(const void* data, size_t size);

    std::string path_;
    IpcForm form_;
    std::FILE* file_ = nullptr;
    ArrowSchema schema_{};
    std::vector<Block> batches_;
    uint64_t position_ = 0;
    uint64_t rows_written_ = 0;
    bool finished_ = false;
};

} // namespace sluice::arrow
