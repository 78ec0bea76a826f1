#include "main/query_result.hpp"

#include "common/exception.hpp"

namespace sluice {

QueryResult::QueryResult(std::vector<std::string> names, std::vector<LogicalType> types,
                         std::vector<std::unique_ptr<DataChunk>> chunks)
    : names_(std::move(names)), types_(std::move(types)), chunks_(std::move(chunks)) {
}

idx_t QueryResult::RowCount() const {
    idx_t rows = 0;
    for (idx_t i = next_chunk_; i < chunks_.size(); i++) {
        rows += chunks_[i]->size();
    }
    return rows;
}

std::unique_ptr<DataChunk> QueryResult::Fetch() {
    while (next_chunk_ < chunks_.size()) {
        auto chunk = std::move(chunks_[next_chunk_++]);
        if (chunk->size() > 0) {
            return chunk;
        }
    }
    return nullptr;
}

Value QueryResult::GetValue(idx_t column, idx_t row) const {
    if (column >= names_.size()) {
        throw Exception(ErrorKind::InvalidInput,
                        "column index " + std::to_string(column) + " out of range");
    }
    for (idx_t i = next_chunk_; i < chunks_.size(); i++) {
        if (row < chunks_[i]->size()) {
            return chunks_[i]->GetValue(column, row);
        }
        row -= chunks_[i]->size();
    }
    throw Exception(ErrorKind::InvalidInput, "row index out of range");
}

} // namespace sluice
