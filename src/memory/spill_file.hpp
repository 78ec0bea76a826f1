#pragma once

#include "common/data_chunk.hpp"
#include "memory/temporary_directory.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace sluice {

// A sequence of chunks an operator moved out of memory, in a file of the temporary directory:
// appended (by any thread), then read back in order, any number of times. Writes are buffered
// into large sequential pieces; the file is removed when the object is destroyed, which the
// query's end guarantees. Every byte counts against max_temp_directory_size.
class SpillFile {
public:
    // `reason` says why the owner spills (e.g. "ORDER BY needs more than memory_limit"), for the
    // error when the temporary directory is full.
    SpillFile(TemporaryDirectory& directory, std::string reason, size_t buffer_size = 256 << 10);
    ~SpillFile();
    SpillFile(const SpillFile&) = delete;
    SpillFile& operator=(const SpillFile&) = delete;

    // Thread-safe. Returns the bytes the chunk takes in the file.
    uint64_t Append(const DataChunk& chunk);
    // Writes out what is buffered; call before reading.
    void Flush();

    // Positions are only meaningful while one thread appends (or after the appends).
    uint64_t bytes() const { return bytes_.load(); }
    uint64_t rows() const { return rows_.load(); }
    uint64_t chunk_count() const { return chunk_count_.load(); }

    // Reads the chunks back in the order they were appended (after Flush).
    class Reader {
    public:
        explicit Reader(const SpillFile& file, size_t buffer_size = 256 << 10);
        // The chunks appended between bytes() == `start` and bytes() == `end`.
        Reader(const SpillFile& file, uint64_t start, uint64_t end, size_t buffer_size);
        // The next chunk into `out` (initialised with the spilled types); false at the end.
        bool Next(DataChunk& out);
        // As Next, but fills `out` with as many whole spilled chunks as fit in kVectorSize
        // rows (for chunks spilled a few rows at a time).
        bool NextCompacted(DataChunk& out);

    private:
        // Makes `size` bytes from `offset_` available in the buffer; returns where they start.
        const uint8_t* Fill(size_t size);

        const SpillFile& file_;
        std::string buffer_;
        uint64_t buffer_start_ = 0; // file offset of buffer_[0]
        size_t buffer_size_;
        uint64_t offset_ = 0;
        uint64_t end_;
        std::unique_ptr<DataChunk> pending_; // read, not yet handed out by NextCompacted
    };

private:
    void WriteAt(const char* data, size_t size, uint64_t offset);

    TemporaryDirectory& directory_;
    std::string reason_;
    std::string path_;
    int fd_ = -1;
    size_t buffer_size_;
    std::mutex mutex_;
    std::string buffer_;
    std::string record_;             // serialisation scratch, under mutex_
    uint64_t written_ = 0;           // bytes on disk
    std::atomic<uint64_t> bytes_{0}; // bytes appended (on disk + buffered)
    std::atomic<uint64_t> rows_{0};
    std::atomic<uint64_t> chunk_count_{0};
};

} // namespace sluice
