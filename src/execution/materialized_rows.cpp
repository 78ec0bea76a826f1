#include "execution/materialized_rows.hpp"

#include "common/memory_size.hpp"
#include "execution/row_operations.hpp"

#include <algorithm>

namespace sluice {

ConcatenatedSequence::ConcatenatedSequence(std::vector<std::shared_ptr<const ChunkSequence>> parts)
    : parts_(std::move(parts)) {
    for (const auto& part : parts_) {
        starts_.push_back(total_);
        total_ += part->ChunkCount();
    }
}

std::shared_ptr<const DataChunk> ConcatenatedSequence::Chunk(idx_t index) const {
    auto part = std::upper_bound(starts_.begin(), starts_.end(), index) - starts_.begin() - 1;
    // Parts without chunks share their start with the next: skip to the one holding `index`.
    while (index - starts_[part] >= parts_[part]->ChunkCount()) {
        part++;
    }
    return parts_[part]->Chunk(index - starts_[part]);
}

MaterializedRows::MaterializedRows(std::vector<LogicalType> types, MemoryManager* memory,
                                   bool may_spill)
    : types_(std::move(types)), memory_(memory),
      may_spill_(may_spill && memory && memory->temporary_directory()),
      reservation_(memory, "a materialised result", &statistics_) {
}

void MaterializedRows::Append(const DataChunk& chunk, idx_t batch_index) {
    auto copy = CopyChunk(chunk);
    copy->Flatten();
    std::lock_guard<std::mutex> guard(mutex_);
    Entry entry{batch_index, entries_.size(), nullptr};
    idx_t bytes = ChunkMemory(*copy);
    if (reservation_.TryResize(reservation_.size() + bytes)) {
        entry.chunk = std::move(copy);
    } else if (may_spill_) {
        if (!spill_) {
            spill_ =
                std::make_unique<SpillFile>(*memory_->temporary_directory(),
                                            "a materialised result needs more than memory_limit (" +
                                                FormatMemorySize(memory_->limit()) + ")");
            statistics_.spill_files.fetch_add(1);
        }
        entry.start = spill_->bytes();
        spill_->Append(*copy);
        entry.end = spill_->bytes();
        statistics_.spilled_bytes.fetch_add(entry.end - entry.start);
    } else {
        reservation_.Resize(reservation_.size() + bytes); // the Out of Memory error
        entry.chunk = std::move(copy);
    }
    entries_.push_back(std::move(entry));
}

void MaterializedRows::Finish() {
    std::lock_guard<std::mutex> guard(mutex_);
    std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
        return a.batch_index != b.batch_index ? a.batch_index < b.batch_index
                                              : a.arrival < b.arrival;
    });
    if (spill_) {
        spill_->Flush();
    }
}

std::shared_ptr<const DataChunk> MaterializedRows::Chunk(idx_t index) const {
    const Entry& entry = entries_[index];
    if (entry.chunk) {
        return entry.chunk;
    }
    auto chunk = std::make_shared<DataChunk>(types_);
    SpillFile::Reader reader(*spill_, entry.start, entry.end, entry.end - entry.start);
    reader.Next(*chunk);
    statistics_.read_back_bytes.fetch_add(entry.end - entry.start);
    return chunk;
}

std::vector<std::unique_ptr<DataChunk>> MaterializedRows::TakeAll() {
    Finish();
    std::vector<std::unique_ptr<DataChunk>> chunks;
    for (idx_t i = 0; i < entries_.size(); i++) {
        chunks.push_back(ReferenceChunk(*Chunk(i)));
    }
    entries_.clear();
    reservation_.Resize(0); // the result now belongs to the caller
    return chunks;
}

} // namespace sluice
