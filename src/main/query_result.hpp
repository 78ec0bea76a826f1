#pragma once

#include "common/data_chunk.hpp"

#include <memory>
#include <string>
#include <vector>

namespace sluice {

// The rows a statement produced: a schema and a stream of chunks. Statements without rows
// (SET, RESET) give a result with no columns.
class QueryResult {
public:
    QueryResult(std::vector<std::string> names, std::vector<LogicalType> types,
                std::vector<std::unique_ptr<DataChunk>> chunks);

    const std::vector<std::string>& names() const { return names_; }
    const std::vector<LogicalType>& types() const { return types_; }
    idx_t ColumnCount() const { return names_.size(); }
    idx_t RowCount() const;

    // The next chunk of rows, or nullptr when exhausted.
    std::unique_ptr<DataChunk> Fetch();
    // Convenience for small results and tests: the value at (row, column) among rows not yet
    // fetched. Random access is linear in the number of chunks.
    Value GetValue(idx_t column, idx_t row) const;

private:
    std::vector<std::string> names_;
    std::vector<LogicalType> types_;
    std::vector<std::unique_ptr<DataChunk>> chunks_;
    idx_t next_chunk_ = 0;
};

} // namespace sluice
