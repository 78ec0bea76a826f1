#include "execution/expression_executor.hpp"

#include "common/allocation_budget.hpp"
#include "common/cast.hpp"
#include "common/exception.hpp"

#include <numeric>

namespace sluice {

namespace {

// Errors a value's evaluation can raise (a bad cast, an overflow), as opposed to the query's
// own (interrupted, out of memory, internal).
bool EvaluationError(ErrorKind kind) {
    return kind == ErrorKind::Conversion || kind == ErrorKind::OutOfRange ||
           kind == ErrorKind::InvalidInput;
}

bool AllConstant(const std::vector<std::unique_ptr<Vector>>& vectors) {
    for (const auto& vector : vectors) {
        if (vector->vector_type() != VectorType::CONSTANT) {
            return false;
        }
    }
    return true;
}

// Three-valued logic: for AND a false operand wins over NULL, for OR a true one does.
void ExecuteConjunction(bool is_and, const Vector& left, const Vector& right, idx_t count,
                        Vector& result) {
    bool constant =
        left.vector_type() == VectorType::CONSTANT && right.vector_type() == VectorType::CONSTANT;
    idx_t rows = constant ? 1 : count;
    const bool* l = left.data<bool>();
    const bool* r = right.data<bool>();
    bool* out = result.data<bool>();
    if (left.vector_type() == VectorType::FLAT && right.vector_type() == VectorType::FLAT &&
        left.validity().AllValid() && right.validity().AllValid()) {
        // No NULLs: plain boolean logic, which the compiler vectorises.
        for (idx_t row = 0; row < count; row++) {
            out[row] = is_and ? (l[row] & r[row]) : (l[row] | r[row]);
        }
        result.SetVectorType(VectorType::FLAT);
        return;
    }
    for (idx_t row = 0; row < rows; row++) {
        idx_t li = left.vector_type() == VectorType::CONSTANT ? 0 : row;
        idx_t ri = right.vector_type() == VectorType::CONSTANT ? 0 : row;
        bool l_valid = left.validity().RowIsValid(li), r_valid = right.validity().RowIsValid(ri);
        bool dominant = !is_and; // the value that decides the result alone
        if ((l_valid && l[li] == dominant) || (r_valid && r[ri] == dominant)) {
            out[row] = dominant;
            result.validity().SetValid(row);
        } else if (!l_valid || !r_valid) {
            result.SetNull(row);
        } else {
            out[row] = !dominant;
            result.validity().SetValid(row);
        }
    }
    result.SetVectorType(constant ? VectorType::CONSTANT : VectorType::FLAT);
}

} // namespace

void ExpressionExecutor::Execute(const Expression& expression, const DataChunk& input,
                                 Vector& result) {
    idx_t count = input.size();
    switch (expression.kind) {
    case ExpressionKind::Constant:
        result.SetConstant(expression.value);
        return;
    case ExpressionKind::ColumnRef:
        result.Reset();
        result.Reference(input.column(expression.column_index));
        return;
    case ExpressionKind::SubqueryValue:
        if (!expression.subquery_value->filled) {
            // Evaluated before its subquery ran (at bind time, say): its value is not NULL.
            throw Exception(ErrorKind::Internal, "a subquery's value was read before it ran");
        }
        result.SetConstant(expression.subquery_value->value);
        return;
    case ExpressionKind::BoundColumn:
        throw Exception(ErrorKind::Internal, "column binding left unresolved in the plan");
    case ExpressionKind::Cast: {
        Vector child(expression.children[0]->type, std::max<idx_t>(count, 1));
        Execute(*expression.children[0], input, child);
        result.Reset();
        if (!expression.try_cast) {
            CastVector(child, result, count);
            return;
        }
        idx_t rows = child.vector_type() == VectorType::CONSTANT ? 1 : count;
        for (idx_t row = 0; row < rows; row++) {
            Value cast;
            if (!TryCastValue(child.GetValue(row), result.type(), cast)) {
                cast = Value::Null(result.type());
            }
            result.SetValue(row, cast);
        }
        result.SetVectorType(rows == 1 && child.vector_type() == VectorType::CONSTANT
                                 ? VectorType::CONSTANT
                                 : VectorType::FLAT);
        return;
    }
    case ExpressionKind::Function:
        if (expression.function_name != "case") {
            ExecuteFunction(expression, input, result);
            return;
        }
        // Every branch over every row is fastest; but a branch may fail on rows that another
        // branch takes (CASE WHEN s ~ '^[0-9]+$' THEN CAST(s AS INTEGER) END): then each
        // condition and value is evaluated on the rows it decides, as SQL says.
        try {
            ExecuteFunction(expression, input, result);
        } catch (const Exception& error) {
            if (!EvaluationError(error.Kind())) {
                throw;
            }
            ExecuteCaseByRows(expression, input, result);
        }
        return;
    case ExpressionKind::And:
    case ExpressionKind::Or: {
        Vector left(LogicalTypeId::BOOLEAN, std::max<idx_t>(count, 1));
        Vector right(LogicalTypeId::BOOLEAN, std::max<idx_t>(count, 1));
        Execute(*expression.children[0], input, left);
        Execute(*expression.children[1], input, right);
        result.Reset();
        ExecuteConjunction(expression.kind == ExpressionKind::And, left, right, count, result);
        return;
    }
    case ExpressionKind::Not:
    case ExpressionKind::IsNull:
    case ExpressionKind::IsNotNull: {
        Vector child(expression.children[0]->type, std::max<idx_t>(count, 1));
        Execute(*expression.children[0], input, child);
        result.Reset();
        bool constant = child.vector_type() == VectorType::CONSTANT;
        idx_t rows = constant ? 1 : count;
        bool* out = result.data<bool>();
        for (idx_t row = 0; row < rows; row++) {
            bool valid = child.validity().RowIsValid(row);
            if (expression.kind == ExpressionKind::Not) {
                if (!valid) {
                    result.SetNull(row);
                } else {
                    out[row] = !child.data<bool>()[row];
                }
            } else {
                out[row] = expression.kind == ExpressionKind::IsNull ? !valid : valid;
            }
        }
        result.SetVectorType(constant ? VectorType::CONSTANT : VectorType::FLAT);
        return;
    }
    }
    throw Exception(ErrorKind::Internal, "unknown expression kind");
}

namespace {

Vector EvaluateOneRow(const Expression& expression) {
    DataChunk one_row;
    one_row.SetSize(1);
    Vector result(expression.type, 1);
    ExpressionExecutor executor;
    executor.Execute(expression, one_row, result);
    return result;
}

// Elements of every list below `vector`, counting the child vectors' used rows.
idx_t NestedElementCount(const Vector& vector) {
    switch (vector.type().id()) {
    case LogicalTypeId::LIST:
    case LogicalTypeId::MAP:
        return vector.list_size() + NestedElementCount(vector.list_child());
    case LogicalTypeId::STRUCT: {
        idx_t count = 0;
        for (idx_t field = 0; field < vector.type().fields().size(); field++) {
            count += NestedElementCount(vector.struct_child(field));
        }
        return count;
    }
    default:
        return 0;
    }
}

} // namespace

void ExpressionExecutor::ExecuteFunction(const Expression& expression, const DataChunk& input,
                                         Vector& result) {
    idx_t count = input.size();
    std::vector<std::unique_ptr<Vector>> arguments;
    std::vector<const Vector*> pointers;
    for (const auto& child : expression.children) {
        // A constant fills one row (an IN list's constants would otherwise allocate a
        // vector's worth each, for every chunk).
        idx_t capacity = child->kind == ExpressionKind::Constant ? 1 : std::max<idx_t>(count, 1);
        arguments.push_back(std::make_unique<Vector>(child->type, capacity));
        Execute(*child, input, *arguments.back());
        pointers.push_back(arguments.back().get());
    }
    result.Reset();
    // Functions of only constants run once.
    expression.function(pointers, AllConstant(arguments) ? 1 : count, result);
    if (AllConstant(arguments) && !arguments.empty()) {
        result.SetVectorType(VectorType::CONSTANT);
    }
}

void ExpressionExecutor::ExecuteCaseByRows(const Expression& expression, const DataChunk& input,
                                           Vector& result) {
    idx_t count = input.size();
    result.Reset();
    result.SetVectorType(VectorType::FLAT);
    // The input rows not yet decided, and the rows of `input` a sub-chunk holds.
    std::vector<idx_t> undecided(count);
    std::iota(undecided.begin(), undecided.end(), 0);
    auto evaluate_on = [&](const Expression& child, const std::vector<idx_t>& rows, Vector& out) {
        DataChunk part(input.Types(), std::max<idx_t>(rows.size(), 1));
        part.AppendSelected(input, rows.data(), rows.size());
        Execute(child, part, out);
    };
    size_t branches = (expression.children.size() - 1) / 2;
    for (size_t branch = 0; branch <= branches && !undecided.empty(); branch++) {
        std::vector<idx_t> taken;
        if (branch == branches) {
            taken = std::move(undecided); // ELSE (NULL when unsaid)
            undecided.clear();
        } else {
            Vector condition(LogicalTypeId::BOOLEAN, std::max<idx_t>(undecided.size(), 1));
            evaluate_on(*expression.children[2 * branch], undecided, condition);
            std::vector<idx_t> rest;
            for (idx_t i = 0; i < undecided.size(); i++) {
                idx_t index = condition.RowIndex(i);
                bool holds =
                    condition.validity().RowIsValid(index) && condition.data<bool>()[index];
                (holds ? taken : rest).push_back(undecided[i]);
            }
            undecided = std::move(rest);
        }
        if (taken.empty()) {
            continue;
        }
        const Expression& value =
            *expression.children[branch == branches ? 2 * branch : 2 * branch + 1];
        Vector values(value.type, std::max<idx_t>(taken.size(), 1));
        evaluate_on(value, taken, values);
        for (idx_t i = 0; i < taken.size(); i++) {
            result.CopyRow(values, values.RowIndex(i), taken[i]);
        }
    }
}

Value ExpressionExecutor::EvaluateConstant(const Expression& expression) {
    return EvaluateOneRow(expression).GetValue(0);
}

std::optional<Value> ExpressionExecutor::EvaluateSmallConstant(const Expression& expression,
                                                               idx_t max_elements,
                                                               idx_t max_bytes) {
    AllocationBudget budget(max_bytes);
    try {
        Vector result = EvaluateOneRow(expression);
        if (NestedElementCount(result) > max_elements) {
            return std::nullopt;
        }
        return result.GetValue(0);
    } catch (const AllocationBudgetExceeded& exceeded) {
        if (exceeded.budget != &budget) {
            throw; // an enclosing budget's
        }
        return std::nullopt;
    }
}

idx_t ExpressionExecutor::Select(const Expression& predicate, const DataChunk& input,
                                 idx_t* selection) {
    Vector result(LogicalTypeId::BOOLEAN, std::max<idx_t>(input.size(), 1));
    Execute(predicate, input, result);
    idx_t selected = 0;
    if (result.vector_type() == VectorType::FLAT && result.validity().AllValid()) {
        const bool* values = result.data<bool>();
        for (idx_t row = 0; row < input.size(); row++) {
            selection[selected] = row;
            selected += values[row] ? 1 : 0;
        }
        return selected;
    }
    for (idx_t row = 0; row < input.size(); row++) {
        idx_t index = result.vector_type() == VectorType::CONSTANT ? 0 : row;
        if (result.validity().RowIsValid(index) && result.data<bool>()[index]) {
            selection[selected++] = row;
        }
    }
    return selected;
}

} // namespace sluice
