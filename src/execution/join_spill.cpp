#include "execution/join_spill.hpp"

#include "common/memory_size.hpp"
#include "execution/row_operations.hpp"

namespace sluice {

namespace {

// Each partition file buffers this much before writing. The build files are flushed (and
// their buffers freed) before the probe files fill theirs: kPartitions buffers at a time.
constexpr size_t kWriteBuffer = 16 << 10;
// Spilled rows are read back in pieces of this size.
constexpr size_t kReadBuffer = 64 << 10;
// A part of fewer build rows is admitted rather than split.
constexpr uint64_t kMinRowsToSplit = 4 * kVectorSize;

} // namespace

JoinSpill::JoinSpill(MemoryManager& memory, idx_t key_count, std::vector<LogicalType> build_types,
                     std::vector<LogicalType> probe_types, bool emits_unmatched_build)
    : memory_(memory), key_count_(key_count), build_types_(std::move(build_types)),
      probe_types_(std::move(probe_types)), emits_unmatched_build_(emits_unmatched_build),
      buffers_(&memory, "a hash join's spill buffers", &statistics_),
      resident_(kPartitions, false) {
    partitions_ = NewParts(0);
    buffers_.ForceResize(kPartitions * kWriteBuffer);
}

std::vector<std::shared_ptr<JoinSpill::Part>> JoinSpill::NewParts(idx_t level) {
    std::string reason =
        "a hash join needs more than memory_limit (" + FormatMemorySize(memory_.limit()) + ")";
    std::vector<std::shared_ptr<Part>> parts;
    for (idx_t p = 0; p < kPartitions; p++) {
        auto part = std::make_shared<Part>();
        part->build =
            std::make_unique<SpillFile>(*memory_.temporary_directory(), reason, kWriteBuffer);
        part->probe =
            std::make_unique<SpillFile>(*memory_.temporary_directory(), reason, kWriteBuffer);
        part->level = level;
        parts.push_back(std::move(part));
    }
    statistics_.spill_files.fetch_add(2 * kPartitions);
    return parts;
}

void JoinSpill::Append(std::vector<std::shared_ptr<Part>>& parts, bool build,
                       const DataChunk& chunk, const uint64_t* hashes, const bool* skip,
                       idx_t level) {
    std::vector<std::vector<idx_t>> rows(kPartitions);
    for (idx_t row = 0; row < chunk.size(); row++) {
        if (!skip || !skip[row]) {
            rows[PartitionOf(hashes[row], level)].push_back(row);
        }
    }
    DataChunk part(chunk.Types());
    for (idx_t p = 0; p < kPartitions; p++) {
        if (rows[p].empty()) {
            continue;
        }
        part.Reset();
        part.AppendSelected(chunk, rows[p].data(), rows[p].size());
        SpillFile& file = build ? *parts[p]->build : *parts[p]->probe;
        statistics_.spilled_bytes.fetch_add(file.Append(part));
    }
}

std::vector<std::unique_ptr<DataChunk>> JoinSpill::ReadBuild(const Part& part) {
    std::vector<std::unique_ptr<DataChunk>> chunks;
    SpillFile::Reader reader(*part.build, kReadBuffer);
    while (true) {
        auto chunk = std::make_unique<DataChunk>(build_types_);
        if (!reader.NextCompacted(*chunk)) {
            break;
        }
        chunks.push_back(std::move(chunk));
    }
    statistics_.read_back_bytes.fetch_add(part.build->bytes());
    return chunks;
}

void JoinSpill::HashBuildKeys(const DataChunk& chunk, uint64_t* hashes) const {
    for (idx_t k = 0; k < key_count_; k++) {
        HashVector(chunk.column(k), chunk.size(), hashes, k == 0);
    }
}

void JoinSpill::AppendBuild(const DataChunk& chunk) {
    uint64_t hashes[kVectorSize];
    HashBuildKeys(chunk, hashes);
    for (idx_t row = 0; row < chunk.size(); row++) {
        for (idx_t k = 0; k < key_count_; k++) {
            if (!chunk.column(k).RowIsValid(row)) {
                build_has_null_key_.store(true); // never matches, but IN must know
            }
        }
    }
    build_rows_.fetch_add(chunk.size());
    Append(partitions_, true, chunk, hashes, nullptr, 0);
}

void JoinSpill::LoadResident(JoinHashTable& table, idx_t budget, MemoryReservation& reservation) {
    for (auto& part : partitions_) {
        part->build->Flush();
    }
    idx_t used = 0;
    bool loading = true;
    for (idx_t p = 0; p < kPartitions; p++) {
        // Loaded rows take about their serialised size plus the index.
        const SpillFile& build = *partitions_[p]->build;
        idx_t need = build.bytes() + JoinHashTable::IndexMemory(build.rows());
        loading = loading && used + need <= budget;
        if (loading) {
            used += need;
            resident_[p] = true;
            table.Append(ReadBuild(*partitions_[p]));
        } else {
            pending_.push_back(partitions_[p]);
        }
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
        Append(partitions_, false, chunk, hashes, probe_now, 0);
    }
    return kept;
}

std::shared_ptr<JoinSpill::Part> JoinSpill::NextPart() {
    std::lock_guard<std::mutex> guard(mutex_);
    if (pending_.empty()) {
        return nullptr;
    }
    auto part = std::move(pending_.front());
    pending_.pop_front();
    return part;
}

std::shared_ptr<JoinHashTable> JoinSpill::LoadPart(Part& part, MemoryReservation& reservation,
                                                   const ProbeHasher& probe_hasher) {
    part.probe->Flush();
    idx_t need = part.build->bytes() + JoinHashTable::IndexMemory(part.build->rows());
    if (!reservation.TryResize(need) && part.level < kMaxLevel &&
        part.build->rows() >= kMinRowsToSplit) {
        Split(part, probe_hasher);
        return nullptr;
    }
    auto table = std::make_shared<JoinHashTable>(key_count_, build_types_);
    auto chunks = ReadBuild(part);
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

void JoinSpill::Split(Part& part, const ProbeHasher& probe_hasher) {
    splits_.fetch_add(1);
    auto parts = NewParts(part.level + 1);
    MemoryReservation buffers(&memory_, "a hash join's spill buffers", &statistics_);
    buffers.ForceResize(kPartitions * kWriteBuffer);
    uint64_t hashes[kVectorSize];
    {
        SpillFile::Reader reader(*part.build, kReadBuffer);
        DataChunk chunk(build_types_);
        while (reader.NextCompacted(chunk)) {
            HashBuildKeys(chunk, hashes);
            Append(parts, true, chunk, hashes, nullptr, part.level + 1);
        }
    }
    {
        SpillFile::Reader reader(*part.probe, kReadBuffer);
        DataChunk chunk(probe_types_);
        while (reader.NextCompacted(chunk)) {
            probe_hasher(chunk, hashes);
            Append(parts, false, chunk, hashes, nullptr, part.level + 1);
        }
    }
    statistics_.read_back_bytes.fetch_add(part.build->bytes() + part.probe->bytes());
    // The part's own files go now: its rows are all in the new parts.
    part.build.reset();
    part.probe.reset();
    for (auto& sub : parts) {
        sub->build->Flush();
        sub->probe->Flush();
    }
    std::lock_guard<std::mutex> guard(mutex_);
    for (auto& sub : parts) {
        // Build rows without probe rows give nothing, except unmatched rows of right and full
        // joins.
        if (sub->probe->rows() > 0 || (emits_unmatched_build_ && sub->build->rows() > 0)) {
            pending_.push_back(std::move(sub));
        }
    }
}

} // namespace sluice
