#include "common/data_chunk.hpp"

#include "common/assert.hpp"
#include "common/exception.hpp"

namespace sluice {

DataChunk::DataChunk(const std::vector<LogicalType>& types, idx_t capacity) {
    Initialize(types, capacity);
}

void DataChunk::Initialize(const std::vector<LogicalType>& types, idx_t capacity) {
    columns_.clear();
    columns_.reserve(types.size());
    for (const auto& type : types) {
        columns_.emplace_back(type, capacity);
    }
    size_ = 0;
}

std::vector<LogicalType> DataChunk::Types() const {
    std::vector<LogicalType> types;
    types.reserve(columns_.size());
    for (const auto& column : columns_) {
        types.push_back(column.type());
    }
    return types;
}

void DataChunk::Flatten() {
    for (auto& column : columns_) {
        column.Flatten(size_);
    }
}

void DataChunk::SetSize(idx_t size) {
#ifndef NDEBUG
    for (const auto& column : columns_) {
        SLUICE_ASSERT(column.vector_type() == VectorType::CONSTANT || size <= column.capacity(),
                      "DataChunk::SetSize beyond a column's capacity");
    }
#endif
    size_ = size;
}

void DataChunk::Reset() {
    for (auto& column : columns_) {
        column.Reset();
    }
    size_ = 0;
}

void DataChunk::AppendSelected(const DataChunk& source, const idx_t* selection, idx_t count) {
    if (count == 0) {
        return;
    }
    if (columns_.empty()) {
        size_ += count;
        return;
    }
    if (size_ + count > columns_[0].capacity()) {
        throw Exception(ErrorKind::Internal, "DataChunk::AppendSelected beyond capacity");
    }
    for (idx_t c = 0; c < columns_.size(); c++) {
        columns_[c].Gather(source.columns_[c], selection, count, size_);
    }
    size_ += count;
}

} // namespace sluice
