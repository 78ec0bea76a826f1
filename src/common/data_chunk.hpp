#pragma once

#include "common/vector.hpp"

#include <vector>

namespace sluice {

// A horizontal slice of a table: one Vector per column, all with the same row count
// (at most kVectorSize). The unit that flows between operators.
class DataChunk {
public:
    DataChunk() = default;
    explicit DataChunk(const std::vector<LogicalType>& types, idx_t capacity = kVectorSize);

    void Initialize(const std::vector<LogicalType>& types, idx_t capacity = kVectorSize);

    idx_t size() const { return size_; }
    // The rows in use; every column (but CONSTANT ones) must hold that many.
    void SetSize(idx_t size);
    idx_t ColumnCount() const { return columns_.size(); }
    Vector& column(idx_t index) { return columns_[index]; }
    const Vector& column(idx_t index) const { return columns_[index]; }
    std::vector<LogicalType> Types() const;

    Value GetValue(idx_t column, idx_t row) const { return columns_[column].GetValue(row); }
    void SetValue(idx_t column, idx_t row, const Value& value) {
        columns_[column].SetValue(row, value);
    }

    // Turns every CONSTANT column into a FLAT one.
    void Flatten();
    // Empties the chunk for reuse.
    void Reset();
    // Appends the rows of `source` listed in `selection` (same column types).
    void AppendSelected(const DataChunk& source, const idx_t* selection, idx_t count);

private:
    std::vector<Vector> columns_;
    idx_t size_ = 0;
};

} // namespace sluice
