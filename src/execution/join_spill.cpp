#include "execution/join_spill.hpp"

#include "common/memory_size.hpp"
#include "execution/row_operations.hpp"

namespace sluice {

namespace {

// Each partition file buffers this much before writing. The build files are flushed (and
// their buffers freed) before the probe files fill theirs: kPartitions buffers at a time.
constexpr size_t kWriteBuffer = 16 << 10;

} // namespace

JoinSpill::JoinSpill(MemoryManager& memory, idx_t key_count, std::vector<LogicalType> build_types,
                     std::vector<LogicalType> probe_types)
    : key_count_(key_count), build_types_(std::move(build_types)),
      probe_types_(std::move(probe_types)),
      buffers_(&memory, "a hash join's spill buffers", &statistics_),
      resident_(kPartitions, false) {
    std::string reason =
        "a hash join needs more than memory_limit (" + FormatMemorySize(memory.limit()) + ")";
    for (idx_t p = 0; p < kPartitions; p++) {
        build_.push_back(
            std::make_unique<SpillFile>(*memory.temporary_directory(), reason, kWriteBuffer));
        probe_.push_back(
            std::make_unique<SpillFile>(*memory.temporary_directory(), reason, kWriteBuffer));
    }
    buffers_.ForceResize(kPartitions * kWriteBuffer);
    statistics_.spill_files.store(2 * kPartitions);
}

void JoinSpill::Append(std::vector<std::unique_ptr<SpillFile>>& files, const DataChunk& chunk,
                       const uint64_t* hashes, const bool* skip) {
    std::vector<std::vector<idx_t>> rows(kPartitions);
    for (idx_t row = 0; row < chunk.size(); row++) {
        if (!skip || !skip[row]) {
            rows[PartitionOf(hashes[row])].push_back(row);
        }
    }
    DataChunk part(chunk.Types());
    for (idx_t p = 0; p < kPartitions; p++) {
        if (rows[p].empty()) {
            continue;
        }
        part.Reset();
        part.AppendSelected(chunk, rows[p].data(), rows[p].size());
        statistics_.spilled_bytes.fetch_add(files[p]->Append(part));
    }
}

std::vector<std::unique_ptr<DataChunk>> JoinSpill::ReadBuild(idx_t partition) {
    std::vector<std::unique_ptr<DataChunk>> chunks;
    SpillFile::Reader reader(*build_[partition], 64 << 10);
    while (true) {
        auto chunk = std::make_unique<DataChunk>(build_types_);
        if (!reader.NextCompacted(*chunk)) {
            break;
        }
        chunks.push_back(std::move(chunk));
    }
    statistics_.read_back_bytes.fetch_add(build_[partition]->bytes());
    return chunks;
}

void JoinSpill::AppendBuild(const DataChunk& chunk) {
    uint64_t hashes[kVectorSize];
    for (idx_t k = 0; k < key_count_; k++) {
        HashVector(chunk.column(k), chunk.size(), hashes, k == 0);
    }
    for (idx_t row = 0; row < chunk.size(); row++) {
        for (idx_t k = 0; k < key_count_; k++) {
            if (!chunk.column(k).RowIsValid(row)) {
                build_has_null_key_.store(true); // never matches, but IN must know
            }
        }
    }
    build_rows_.fetch_add(chunk.size());
    Append(build_, chunk, hashes, nullptr);
}

void JoinSpill::LoadResident(JoinHashTable& table, idx_t budget, MemoryReservation& reservation) {
    for (auto& file : build_) {
        file->Flush();
    }
    idx_t used = 0;
    for (idx_t p = 0; p < kPartitions; p++) {
        // Loaded rows take about their serialised size plus the index.
        idx_t need = build_[p]->bytes() + JoinHashTable::IndexMemory(build_[p]->rows());
        if (used + need > budget) {
            break;
        }
        used += need;
        resident_[p] = true;
        table.Append(ReadBuild(p));
    }
    reservation.ForceResize(used);
    table.SetBuildFacts(build_rows_.load(), build_has_null_key_.load());
}

idx_t JoinSpill::DeferProbeRows(const DataChunk& chunk, const uint64_t* hashes,
                                const bool* key_null, idx_t* keep) {
    bool probe_now[kVectorSize]; // Append skips these: they are probed at once
    idx_t kept = 0;
    for (idx_t row = 0; row < chunk.size(); row++) {
        probe_now[row] = key_null[row] || resident_[PartitionOf(hashes[row])];
        if (probe_now[row]) {
            keep[kept++] = row;
        }
    }
    if (kept < chunk.size()) {
        Append(probe_, chunk, hashes, probe_now);
    }
    return kept;
}

bool JoinSpill::NextPartition(idx_t& partition) {
    while (true) {
        idx_t p = next_partition_.fetch_add(1);
        if (p >= kPartitions) {
            return false;
        }
        if (!resident_[p]) {
            partition = p;
            return true;
        }
    }
}

std::shared_ptr<JoinHashTable> JoinSpill::LoadPartition(idx_t partition,
                                                        MemoryReservation& reservation) {
    probe_[partition]->Flush();
    auto table = std::make_shared<JoinHashTable>(key_count_, build_types_);
    auto chunks = ReadBuild(partition);
    idx_t bytes = 0;
    for (const auto& chunk : chunks) {
        bytes += ChunkMemory(*chunk);
    }
    table->Append(std::move(chunks));
    reservation.ForceResize(bytes + JoinHashTable::IndexMemory(table->RowCount()));
    table->Build();
    table->SetBuildFacts(build_rows_.load(), build_has_null_key_.load());
    return table;
}

} // namespace sluice
