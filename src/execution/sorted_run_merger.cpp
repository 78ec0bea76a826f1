#include "execution/sorted_run_merger.hpp"

#include <algorithm>

namespace sluice {

SortedRunMerger::SortedRunMerger(std::vector<LogicalType> types, std::vector<const SpillFile*> runs,
                                 RowLess less, size_t read_buffer)
    : types_(std::move(types)), less_(std::move(less)), cursors_(runs.size()) {
    for (idx_t i = 0; i < runs.size(); i++) {
        Cursor& cursor = cursors_[i];
        cursor.reader = std::make_unique<SpillFile::Reader>(*runs[i], read_buffer);
        cursor.chunk.Initialize(types_);
        if (cursor.reader->Next(cursor.chunk) && cursor.chunk.size() > 0) {
            heap_.push_back(i);
        }
    }
    // std heap functions keep the largest at the front: invert the order.
    std::make_heap(heap_.begin(), heap_.end(), [&](idx_t a, idx_t b) { return CursorLess(b, a); });
}

idx_t SortedRunMerger::CursorMemory(const std::vector<LogicalType>& types, size_t read_buffer) {
    idx_t bytes = read_buffer;
    for (const LogicalType& type : types) {
        bytes += kVectorSize * PhysicalTypeSize(type.physical());
    }
    return bytes;
}

bool SortedRunMerger::CursorLess(idx_t a, idx_t b) const {
    const Cursor& left = cursors_[a];
    const Cursor& right = cursors_[b];
    if (less_(left.chunk, left.row, right.chunk, right.row)) {
        return true;
    }
    if (less_(right.chunk, right.row, left.chunk, left.row)) {
        return false;
    }
    return a < b;
}

bool SortedRunMerger::Advance(Cursor& cursor) {
    if (++cursor.row < cursor.chunk.size()) {
        return true;
    }
    cursor.row = 0;
    while (cursor.reader->Next(cursor.chunk)) {
        if (cursor.chunk.size() > 0) {
            return true;
        }
    }
    return false;
}

bool SortedRunMerger::Next(DataChunk& out) {
    auto greater = [&](idx_t a, idx_t b) { return CursorLess(b, a); };
    idx_t count = 0;
    while (count < kVectorSize && !heap_.empty()) {
        std::pop_heap(heap_.begin(), heap_.end(), greater);
        idx_t index = heap_.back();
        Cursor& cursor = cursors_[index];
        for (idx_t column = 0; column < types_.size(); column++) {
            out.column(column).CopyRow(cursor.chunk.column(column), cursor.row, count);
        }
        count++;
        if (Advance(cursor)) {
            std::push_heap(heap_.begin(), heap_.end(), greater);
        } else {
            heap_.pop_back();
        }
    }
    out.SetSize(count);
    return count > 0;
}

} // namespace sluice
