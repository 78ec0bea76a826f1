#include "main/summarize.hpp"

#include "common/sql_keywords.hpp"
#include "main/connection.hpp"
#include "main/database.hpp"
#include "sql/binder.hpp"

namespace sluice {

namespace {

bool Temporal(const LogicalType& type) {
    switch (type.id()) {
    case LogicalTypeId::DATE:
    case LogicalTypeId::TIME:
    case LogicalTypeId::TIMESTAMP:
    case LogicalTypeId::TIMESTAMP_TZ:
        return true;
    default:
        return false;
    }
}

// The aggregates summarizing one column `c` (aliased in the summarized query), in the order of
// SUMMARIZE's columns from min to q75; NULL where they do not apply to its type.
std::string ColumnAggregates(const std::string& c, const LogicalType& type) {
    auto text = [](const std::string& expression) { return "CAST(" + expression + " AS VARCHAR)"; };
    const std::string null = "CAST(NULL AS VARCHAR)";
    bool nested = type.IsNested();
    bool numeric = type.IsNumeric();
    bool ordered = (numeric || Temporal(type)) && !nested;
    std::string sql = nested ? null + ", " + null + ", CAST(NULL AS BIGINT)"
                             : text("min(" + c + ")") + ", " + text("max(" + c + ")") +
                                   ", approx_count_distinct(" + c + ")";
    sql += ", " + (numeric ? text("avg(" + c + ")") : null);
    sql += ", " + (numeric ? text("stddev(" + c + ")") : null);
    for (const char* quartile : {"0.25", "0.5", "0.75"}) {
        sql += ", " + (ordered ? text("quantile_disc(" + c + ", " + quartile + ")") : null);
    }
    return sql + ", count(" + c + ")";
}

} // namespace

std::unique_ptr<QueryResult> Summarize(Connection& connection, const Statement& statement,
                                       const std::string& sql) {
    Binder binder(connection.database().catalog(), sql);
    BoundQuery bound = binder.BindStatementQuery(*statement.select);
    idx_t columns = bound.names.size();
    // One pass over the query, its columns renamed c0, c1, ... (names may repeat).
    std::string aliases, aggregates = "count(*)";
    for (idx_t i = 0; i < columns; i++) {
        std::string c = "c" + std::to_string(i);
        aliases += (i ? ", " : "") + c;
        aggregates += ", " + ColumnAggregates(c, bound.types[i]);
    }
    constexpr idx_t kPerColumn = 9; // min, max, approx_unique, avg, std, q25, q50, q75, count
    auto totals = connection.Query("SELECT " + aggregates + " FROM (" + statement.query_text +
                                   ") AS summarized(" + aliases + ")");

    std::vector<std::string> names = {"column_name",   "column_type", "min",   "max",
                                      "approx_unique", "avg",         "std",   "q25",
                                      "q50",           "q75",         "count", "null_percentage"};
    const LogicalType varchar = LogicalTypeId::VARCHAR, bigint = LogicalTypeId::BIGINT;
    std::vector<LogicalType> types = {varchar, varchar, varchar, varchar,
                                      bigint,  varchar, varchar, varchar,
                                      varchar, varchar, bigint,  LogicalType::Decimal(9, 2)};
    auto chunk = std::make_unique<DataChunk>(types, std::max<idx_t>(columns, 1));
    hugeint_t rows = totals->GetValue(0, 0).GetInteger();
    for (idx_t i = 0; i < columns; i++) {
        chunk->SetValue(0, i, Value::Varchar(bound.names[i]));
        chunk->SetValue(1, i, Value::Varchar(bound.types[i].ToString()));
        // min .. q75; count is the query's rows, as DuckDB's.
        for (idx_t k = 0; k + 1 < kPerColumn; k++) {
            chunk->SetValue(2 + k, i, totals->GetValue(1 + i * kPerColumn + k, 0));
        }
        chunk->SetValue(10, i, Value::Integer(LogicalTypeId::BIGINT, rows));
        // The share of NULLs in percent, rounded half up to two decimals; NULL without rows.
        hugeint_t nulls =
            rows - totals->GetValue(1 + i * kPerColumn + kPerColumn - 1, 0).GetInteger();
        Value share = Value::Null(types.back());
        if (rows > 0) {
            share = Value::Decimal(9, 2, (nulls * 20000 + rows) / (rows * 2));
        }
        chunk->SetValue(11, i, share);
    }
    chunk->SetSize(columns);
    std::vector<std::unique_ptr<DataChunk>> chunks;
    chunks.push_back(std::move(chunk));
    return std::make_unique<QueryResult>(std::move(names), std::move(types), std::move(chunks));
}

} // namespace sluice
