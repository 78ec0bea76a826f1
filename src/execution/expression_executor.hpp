#pragma once

#include <optional>

#include "common/data_chunk.hpp"
#include "execution/expression.hpp"

namespace sluice {

// Evaluates bound expressions a chunk at a time. Stateless apart from scratch vectors, so one
// executor per thread.
class ExpressionExecutor {
public:
    // Evaluates `expression` over the rows of `input` into `result` (of the expression's type).
    void Execute(const Expression& expression, const DataChunk& input, Vector& result);
    // Evaluates a row-independent expression to a single value.
    static Value EvaluateConstant(const Expression& expression);
    // As EvaluateConstant, but gives up (nullopt) when the value holds more than `max_elements`
    // list elements at any depth (a Value spends a whole object per element, so a constant of
    // millions of elements belongs in a vector, evaluated when the query runs), and stops as
    // soon as the evaluation allocates more than `max_bytes`, rather than build range(1e8) or
    // repeat('x', 1e9) in full to find out.
    static std::optional<Value> EvaluateSmallConstant(const Expression& expression,
                                                      idx_t max_elements, idx_t max_bytes);
    // Fills `selection` with the rows of `input` where the BOOLEAN `predicate` is true.
    idx_t Select(const Expression& predicate, const DataChunk& input, idx_t* selection);

private:
    void ExecuteFunction(const Expression& expression, const DataChunk& input, Vector& result);
    // CASE evaluated branch by branch on the rows each decides (after evaluating every branch
    // on every row failed).
    void ExecuteCaseByRows(const Expression& expression, const DataChunk& input, Vector& result);
};

} // namespace sluice
