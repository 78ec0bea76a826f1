#pragma once

#include "common/exception.hpp"
#include "execution/expression.hpp"
#include "formats/parquet/parquet_writer.hpp"
#include "sql/ast.hpp"
#include "sql/table_function.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sluice {

// A SELECT with names resolved and types decided, ready for the planner.
struct BoundSelect {
    std::optional<BoundTableFunction> from; // absent: one row, no columns
    std::vector<idx_t> column_ids;          // the columns of `from` the query reads
    std::vector<TableFilter> filters;       // WHERE conjuncts a scan can use to skip data
    ExpressionPtr where;
    std::vector<ExpressionPtr> projections;
    std::vector<std::string> names;
    std::vector<LogicalType> types;
    std::optional<uint64_t> limit;
    uint64_t offset = 0;
};

// COPY (select) TO 'path' (options), bound.
struct BoundCopy {
    BoundSelect select;
    std::string path;
    parquet::ParquetWriteOptions options;
};

// Resolves names and types. Errors name the offending expression's line and column.
class Binder {
public:
    Binder(const TableFunctionCatalog& catalog, std::string_view query_text)
        : catalog_(catalog), text_(query_text) {}

    BoundSelect BindSelect(const SelectStatement& select);
    BoundCopy BindCopy(const Statement& statement);
    // Binds an expression that may not reference columns (SET values, function arguments).
    ExpressionPtr BindConstantExpression(const ParsedExpression& expression);

private:
    enum class LiteralOrigin : uint8_t { None, Integer, String };
    struct Bound {
        ExpressionPtr expression;
        LiteralOrigin origin = LiteralOrigin::None;
    };

    Bound Bind(const ParsedExpression& expression);
    Bound BindConstant(const ParsedExpression& expression);
    Bound BindColumn(const ParsedExpression& expression);
    Bound BindCast(const ParsedExpression& expression);
    Bound BindFunction(const ParsedExpression& expression);
    Bound BindOperator(const ParsedExpression& expression);
    Bound BindComparison(const ParsedExpression& expression);
    Bound BindLogical(const ParsedExpression& expression);
    ExpressionPtr BindBoolean(const ParsedExpression& expression, const char* clause);
    uint64_t BindCount(const ParsedExpression& expression, const char* clause);
    // Lets integer and string literals take the type of the other operand, as DuckDB does.
    void AdaptLiterals(Bound& left, Bound& right, bool strings_too);
    ExpressionPtr Fold(ExpressionPtr expression);
    void PushDownProjection(BoundSelect& bound);
    void ExtractTableFilters(const Expression& predicate, std::vector<TableFilter>& filters);
    [[noreturn]] void Fail(ErrorKind kind, const std::string& message,
                           SourceLocation location) const;

    const TableFunctionCatalog& catalog_;
    std::string_view text_;
    const BoundTableFunction* columns_ = nullptr;
    std::vector<bool> used_columns_;
};

} // namespace sluice
