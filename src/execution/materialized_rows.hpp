#pragma once

#include "common/data_chunk.hpp"
#include "memory/memory_manager.hpp"
#include "memory/spill_file.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sluice {

// Chunks materialised earlier, read back by index from any thread.
class ChunkSequence {
public:
    virtual ~ChunkSequence() = default;
    virtual idx_t ChunkCount() const = 0;
    virtual std::shared_ptr<const DataChunk> Chunk(idx_t index) const = 0;
};

using ChunkList = std::vector<std::shared_ptr<const DataChunk>>;

// A ChunkSequence over chunks in memory (a table's rows).
class ChunkListSequence : public ChunkSequence {
public:
    explicit ChunkListSequence(std::shared_ptr<const ChunkList> chunks)
        : chunks_(std::move(chunks)) {}
    idx_t ChunkCount() const override { return chunks_->size(); }
    std::shared_ptr<const DataChunk> Chunk(idx_t index) const override { return (*chunks_)[index]; }

private:
    std::shared_ptr<const ChunkList> chunks_;
};

// Several sequences one after the other (the inputs of a UNION).
class ConcatenatedSequence : public ChunkSequence {
public:
    explicit ConcatenatedSequence(std::vector<std::shared_ptr<const ChunkSequence>> parts);
    idx_t ChunkCount() const override { return total_; }
    std::shared_ptr<const DataChunk> Chunk(idx_t index) const override;

private:
    std::vector<std::shared_ptr<const ChunkSequence>> parts_;
    std::vector<idx_t> starts_; // the first index of each part
    idx_t total_ = 0;
};

// Rows an intermediate result collects (a UNION input, a CTE named twice) in the producers'
// order: chunks copied in and reserved against memory_limit; once the reservation cannot grow,
// further chunks go to a spill file and are read back one at a time when scanned.
// Append is thread-safe; Finish, then the ChunkSequence reads, follow.
class MaterializedRows : public ChunkSequence {
public:
    // `memory` null: unaccounted; `may_spill` false: chunks past the limit are an Out of
    // Memory error.
    MaterializedRows(std::vector<LogicalType> types, MemoryManager* memory, bool may_spill);

    void Append(const DataChunk& chunk, idx_t batch_index);
    // Orders the chunks by batch index (then arrival).
    void Finish();

    idx_t ChunkCount() const override { return entries_.size(); }
    std::shared_ptr<const DataChunk> Chunk(idx_t index) const override;
    // Every chunk in memory, in order (reading back what was spilled): the query's result.
    std::vector<std::unique_ptr<DataChunk>> TakeAll();
    const MemoryStatistics& statistics() const { return statistics_; }

private:
    struct Entry {
        idx_t batch_index;
        idx_t arrival;
        std::shared_ptr<const DataChunk> chunk; // null: spilled
        uint64_t start = 0, end = 0;            // where in the spill file
    };

    std::vector<LogicalType> types_;
    MemoryManager* memory_;
    bool may_spill_;
    std::mutex mutex_;
    mutable MemoryStatistics statistics_; // read-back counted by the const reads
    MemoryReservation reservation_;
    std::unique_ptr<SpillFile> spill_;
    std::vector<Entry> entries_;
};

} // namespace sluice
