#pragma once

#include "main/sluice.hpp"

#include <string>

namespace sluice {

// A query's result as text: each value's ToString followed by '|', one line per row. Results
// compared this way are equal exactly when their values and order are.
inline std::string QueryText(Connection& connection, const std::string& sql) {
    auto result = connection.Query(sql);
    std::string text;
    for (idx_t row = 0; row < result->RowCount(); row++) {
        for (idx_t column = 0; column < result->ColumnCount(); column++) {
            text += result->GetValue(column, row).ToString() + "|";
        }
        text += "\n";
    }
    return text;
}

} // namespace sluice
