#include "execution/range_source.hpp"

#include "common/exception.hpp"

#include <algorithm>

namespace sluice {

namespace {
struct RangeLocal : LocalState {
    uint64_t chunk = 0;
};
} // namespace

uint64_t RangeSource::Count(int64_t start, int64_t stop, int64_t step) {
    if (step == 0) {
        throw Exception(ErrorKind::InvalidInput, "the step of range() must not be 0");
    }
    if ((step > 0 && start >= stop) || (step < 0 && start <= stop)) {
        return 0;
    }
    auto span = static_cast<unsigned __int128>(step > 0 ? static_cast<__int128>(stop) - start
                                                        : static_cast<__int128>(start) - stop);
    auto stride = static_cast<unsigned __int128>(step > 0 ? static_cast<__int128>(step)
                                                          : -static_cast<__int128>(step));
    return static_cast<uint64_t>((span + stride - 1) / stride);
}

RangeSource::RangeSource(int64_t start, int64_t stop, int64_t step, bool emit_column)
    : start_(start), step_(step), count_(Count(start, stop, step)), emit_column_(emit_column) {
}

std::vector<LogicalType> RangeSource::OutputTypes() const {
    if (!emit_column_) {
        return {};
    }
    return {LogicalTypeId::BIGINT};
}

std::unique_ptr<LocalState> RangeSource::InitLocal() {
    return std::make_unique<RangeLocal>();
}

idx_t RangeSource::MaxThreads() const {
    return std::max<idx_t>(1, (count_ + kVectorSize - 1) / kVectorSize);
}

idx_t RangeSource::BatchIndex(LocalState* local) const {
    return static_cast<RangeLocal*>(local)->chunk;
}

double RangeSource::Progress() const {
    uint64_t chunks = (count_ + kVectorSize - 1) / kVectorSize;
    return chunks == 0 ? 1.0 : std::min(1.0, static_cast<double>(next_chunk_.load()) / chunks);
}

SourceResult RangeSource::GetData(DataChunk& out, LocalState* local, TaskContext& /*context*/) {
    uint64_t chunk = next_chunk_.fetch_add(1);
    static_cast<RangeLocal*>(local)->chunk = chunk;
    uint64_t first = chunk * kVectorSize;
    if (first >= count_) {
        return SourceResult::Finished;
    }
    uint64_t rows = std::min<uint64_t>(kVectorSize, count_ - first);
    if (emit_column_) {
        int64_t* values = out.column(0).data<int64_t>();
        for (uint64_t i = 0; i < rows; i++) {
            values[i] = static_cast<int64_t>(static_cast<uint64_t>(start_) +
                                             (first + i) * static_cast<uint64_t>(step_));
        }
    }
    out.SetSize(rows);
    return SourceResult::HaveMoreOutput;
}

} // namespace sluice
