#include "execution/scalar_functions.hpp"

#include "common/date_time.hpp"
#include "common/exception.hpp"
#include "common/number_format.hpp"
#include "common/physical_dispatch.hpp"
#include "execution/row_operations.hpp"
#include "execution/vector_loops.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

namespace sluice {

namespace {

const char* PhysicalName(PhysicalType type) {
    switch (type) {
    case PhysicalType::INT8:
        return "INT8";
    case PhysicalType::INT16:
        return "INT16";
    case PhysicalType::INT32:
        return "INT32";
    case PhysicalType::INT64:
        return "INT64";
    case PhysicalType::INT128:
        return "INT128";
    case PhysicalType::UINT8:
        return "UINT8";
    case PhysicalType::UINT16:
        return "UINT16";
    case PhysicalType::UINT32:
        return "UINT32";
    case PhysicalType::UINT64:
        return "UINT64";
    default:
        return "?";
    }
}

const char* OperationName(char op) {
    switch (op) {
    case '+':
        return "addition";
    case '-':
        return "subtraction";
    case '*':
        return "multiplication";
    default:
        return "division";
    }
}

template <class T>
[[noreturn]] void ThrowOverflow(const std::string& type_name, char op, T a, T b) {
    throw Exception(ErrorKind::OutOfRange, std::string("Overflow in ") + OperationName(op) +
                                               " of " + type_name + " (" + FormatHugeint(a) + " " +
                                               op + " " + FormatHugeint(b) + ")!");
}

// + - * on an integer physical type with overflow checks. For DECIMAL types `limit` bounds the
// magnitude of the unscaled result (10^width).
template <class T>
ScalarFunctionBody IntegerArithmetic(char op, std::string type_name, hugeint_t limit) {
    return [op, type_name, limit](const std::vector<const Vector*>& args, idx_t count,
                                  Vector& result) {
        // DECIMAL bounds compared in T when they fit it (they do below 128 bits).
        bool typed_limit =
            limit != 0 && limit <= static_cast<hugeint_t>(std::numeric_limits<T>::max());
        T t_limit = typed_limit ? static_cast<T>(limit) : T(0);
        BinaryLoop<T, T, T>(*args[0], *args[1], count, result, [&](T a, T b, T& out) {
            bool overflow = false;
            switch (op) {
            case '+':
                overflow = __builtin_add_overflow(a, b, &out);
                break;
            case '-':
                overflow = __builtin_sub_overflow(a, b, &out);
                break;
            case '*':
                overflow = __builtin_mul_overflow(a, b, &out);
                break;
            case '/': // integer division; x // 0 is NULL
                if (b == 0) {
                    return false;
                }
                if (std::is_signed_v<T> && b == T(-1) && a == std::numeric_limits<T>::min()) {
                    overflow = true;
                    break;
                }
                out = a / b;
                break;
            case '%':
                if (b == 0) {
                    return false;
                }
                out = std::is_signed_v<T> && b == T(-1) ? 0 : a % b;
                break;
            }
            bool beyond = typed_limit ? (out >= t_limit || out <= -t_limit)
                                      : (limit != 0 && (out >= limit || out <= -limit));
            if (overflow || beyond) {
                ThrowOverflow(type_name, op, static_cast<hugeint_t>(a), static_cast<hugeint_t>(b));
            }
            return true;
        });
    };
}

template <class T>
ScalarFunctionBody FloatingArithmetic(char op) {
    return [op](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
        BinaryLoop<T, T, T>(*args[0], *args[1], count, result, [&](T a, T b, T& out) {
            switch (op) {
            case '+':
                out = a + b;
                break;
            case '-':
                out = a - b;
                break;
            case '*':
                out = a * b;
                break;
            case '/':
                out = a / b;
                break;
            case 'f': // floor division
                if (b == 0) {
                    return false;
                }
                out = std::floor(a / b);
                break;
            case '%':
                out = std::fmod(a, b); // NaN for b = 0 (-nan from x86's fmod, as in DuckDB)
                break;
            }
            return true;
        });
    };
}

ScalarFunctionBody IntegerBody(PhysicalType physical, char op, const std::string& type_name,
                               hugeint_t limit) {
    switch (physical) {
    case PhysicalType::INT8:
        return IntegerArithmetic<int8_t>(op, type_name, limit);
    case PhysicalType::INT16:
        return IntegerArithmetic<int16_t>(op, type_name, limit);
    case PhysicalType::INT32:
        return IntegerArithmetic<int32_t>(op, type_name, limit);
    case PhysicalType::INT64:
        return IntegerArithmetic<int64_t>(op, type_name, limit);
    case PhysicalType::UINT8:
        return IntegerArithmetic<uint8_t>(op, type_name, limit);
    case PhysicalType::UINT16:
        return IntegerArithmetic<uint16_t>(op, type_name, limit);
    case PhysicalType::UINT32:
        return IntegerArithmetic<uint32_t>(op, type_name, limit);
    case PhysicalType::UINT64:
        return IntegerArithmetic<uint64_t>(op, type_name, limit);
    default:
        return IntegerArithmetic<hugeint_t>(op, type_name, limit);
    }
}

// Calls `f(T{})` with the C++ type of a DECIMAL layout.
template <class F>
void WithDecimalLayout(PhysicalType type, F&& f) {
    switch (type) {
    case PhysicalType::INT16:
        return f(int16_t{});
    case PhysicalType::INT32:
        return f(int32_t{});
    case PhysicalType::INT64:
        return f(int64_t{});
    default:
        return f(hugeint_t{});
    }
}

// Multiplies unscaled values of two DECIMAL widths in 128 bits, typed for each layout triple.
ScalarFunctionBody DecimalMultiply(LogicalType result_type) {
    return [result_type](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
        const Vector& left = *args[0];
        const Vector& right = *args[1];
        hugeint_t limit = PowerOfTen(result_type.width());
        // The product of a p1-digit and a p2-digit number has at most p1 + p2 digits: when the
        // result type holds that many, no overflow checks, and 64-bit products when they fit.
        bool checked = left.type().width() + right.type().width() > kMaxDecimalWidth;
        WithDecimalLayout(left.type().physical(), [&](auto l_tag) {
            WithDecimalLayout(right.type().physical(), [&](auto r_tag) {
                WithDecimalLayout(result.type().physical(), [&](auto t_tag) {
                    using L = decltype(l_tag);
                    using R = decltype(r_tag);
                    using T = decltype(t_tag);
                    using Wide = std::conditional_t<sizeof(T) <= 8, int64_t, hugeint_t>;
                    BinaryLoop<L, R, T>(left, right, count, result, [&](L a, R b, T& out) {
                        if (!checked) {
                            out = static_cast<T>(static_cast<Wide>(a) * static_cast<Wide>(b));
                            return true;
                        }
                        hugeint_t product;
                        if (__builtin_mul_overflow(static_cast<hugeint_t>(a),
                                                   static_cast<hugeint_t>(b), &product) ||
                            product >= limit || product <= -limit) {
                            ThrowOverflow(result_type.ToString(), '*', static_cast<hugeint_t>(a),
                                          static_cast<hugeint_t>(b));
                        }
                        out = static_cast<T>(product);
                        return true;
                    });
                });
            });
        });
    };
}

LogicalType AsDecimal(const LogicalType& type) {
    if (type.id() == LogicalTypeId::DECIMAL) {
        return type;
    }
    return LogicalType::Decimal(IntegerDecimalWidth(type.id()), 0);
}

uint8_t ClampWidth(int width) {
    return static_cast<uint8_t>(std::min(width, 38));
}

BoundFunction Same(const LogicalType& type, ScalarFunctionBody body) {
    return BoundFunction{{type, type}, type, std::move(body)};
}

std::string IntegerTypeName(const LogicalType& type) {
    return PhysicalName(type.physical());
}

std::optional<BoundFunction> BindDateArithmetic(char op, const LogicalType& left,
                                                const LogicalType& right) {
    LogicalTypeId l = left.id(), r = right.id();
    if (op == '-' && l == LogicalTypeId::DATE && r == LogicalTypeId::DATE) {
        ScalarFunctionBody body = [](const std::vector<const Vector*>& args, idx_t count,
                                     Vector& result) {
            BinaryLoop<int32_t, int32_t, int64_t>(*args[0], *args[1], count, result,
                                                  [](int32_t a, int32_t b, int64_t& out) {
                                                      out = static_cast<int64_t>(a) - b;
                                                      return true;
                                                  });
        };
        return BoundFunction{{left, right}, LogicalTypeId::BIGINT, body};
    }
    bool date_left = l == LogicalTypeId::DATE && right.IsInteger() && r != LogicalTypeId::HUGEINT;
    bool date_right =
        op == '+' && r == LogicalTypeId::DATE && left.IsInteger() && l != LogicalTypeId::HUGEINT;
    if ((op != '+' && op != '-') || (!date_left && !date_right)) {
        return std::nullopt;
    }
    ScalarFunctionBody body = [op, date_left](const std::vector<const Vector*>& args, idx_t count,
                                              Vector& result) {
        const Vector& dates = *args[date_left ? 0 : 1];
        const Vector& days = *args[date_left ? 1 : 0];
        BinaryLoop<int32_t, int64_t, int32_t>(
            dates, days, count, result, [op](int32_t date, int64_t delta, int32_t& out) {
                int64_t value = op == '+' ? date + delta : date - delta;
                if (value <= date::kNegativeInfinity || value >= date::kInfinity ||
                    date == date::kInfinity || date == date::kNegativeInfinity) {
                    throw Exception(ErrorKind::OutOfRange, "Date out of range in date arithmetic");
                }
                out = static_cast<int32_t>(value);
                return true;
            });
    };
    LogicalType date_type = LogicalTypeId::DATE;
    LogicalType delta_type = LogicalTypeId::BIGINT;
    return BoundFunction{date_left ? std::vector<LogicalType>{date_type, delta_type}
                                   : std::vector<LogicalType>{delta_type, date_type},
                         date_type, body};
}

template <class T>
ScalarFunctionBody ComparisonBody(const std::string& op) {
    return [op](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
        auto compare = [&](auto predicate) {
            BinaryLoop<T, T, bool>(*args[0], *args[1], count, result,
                                   [&](const T& a, const T& b, bool& out) {
                                       out = predicate(a, b);
                                       return true;
                                   });
        };
        if (op == "=") {
            compare([](const T& a, const T& b) { return a == b; });
        } else if (op == "!=") {
            compare([](const T& a, const T& b) { return !(a == b); });
        } else if (op == "<") {
            compare([](const T& a, const T& b) { return a < b; });
        } else if (op == "<=") {
            compare([](const T& a, const T& b) { return !(b < a); });
        } else if (op == ">") {
            compare([](const T& a, const T& b) { return b < a; });
        } else {
            compare([](const T& a, const T& b) { return !(a < b); });
        }
    };
}

// Floating comparisons order NaN above every other value and equal to itself, as DuckDB does.
template <class T>
struct TotalOrderFloat {
    T value;
    bool operator==(const TotalOrderFloat& other) const {
        return (std::isnan(value) && std::isnan(other.value)) || value == other.value;
    }
    bool operator<(const TotalOrderFloat& other) const {
        if (std::isnan(value)) {
            return false;
        }
        return std::isnan(other.value) || value < other.value;
    }
};

} // namespace

std::optional<LogicalType> CommonNumericType(const LogicalType& left, const LogicalType& right) {
    if (!left.IsNumeric() || !right.IsNumeric()) {
        return std::nullopt;
    }
    if (left == right) {
        return left;
    }
    if (left.id() == LogicalTypeId::DOUBLE || right.id() == LogicalTypeId::DOUBLE) {
        return LogicalType(LogicalTypeId::DOUBLE);
    }
    if (left.id() == LogicalTypeId::FLOAT || right.id() == LogicalTypeId::FLOAT) {
        return LogicalType(LogicalTypeId::FLOAT);
    }
    if (left.id() == LogicalTypeId::DECIMAL || right.id() == LogicalTypeId::DECIMAL) {
        LogicalType l = AsDecimal(left), r = AsDecimal(right);
        int scale = std::max(l.scale(), r.scale());
        int digits = std::max(l.width() - l.scale(), r.width() - r.scale());
        if (digits + scale > 38) {
            // Too wide: DuckDB caps the width at 38, keeping a decimal's scale beside an integer
            // and the integer digits between two decimals.
            bool both = left.id() == LogicalTypeId::DECIMAL && right.id() == LogicalTypeId::DECIMAL;
            scale = both ? std::max(38 - digits, 0) : scale;
            return LogicalType::Decimal(38, static_cast<uint8_t>(scale));
        }
        return LogicalType::Decimal(static_cast<uint8_t>(digits + scale),
                                    static_cast<uint8_t>(scale));
    }
    // Both integers. One signedness: the wider. Mixed: the signed type if it is wider, else one
    // holding both ranges, as DuckDB decides (BIGINT, or HUGEINT next to UBIGINT).
    if (left.IsUnsigned() == right.IsUnsigned()) {
        return IntegerRank(left.id()) >= IntegerRank(right.id()) ? left : right;
    }
    const LogicalType& unsigned_side = left.IsUnsigned() ? left : right;
    const LogicalType& signed_side = left.IsUnsigned() ? right : left;
    if (IntegerRank(signed_side.id()) > IntegerRank(unsigned_side.id())) {
        return signed_side;
    }
    return LogicalType(unsigned_side.id() == LogicalTypeId::UBIGINT ? LogicalTypeId::HUGEINT
                                                                    : LogicalTypeId::BIGINT);
}

std::optional<BoundFunction> BindArithmetic(const std::string& op_text, const LogicalType& left,
                                            const LogicalType& right) {
    char op = op_text == "//" ? 'f' : op_text[0];
    if (auto date_function = BindDateArithmetic(op, left, right)) {
        return date_function;
    }
    auto common = CommonNumericType(left, right);
    if (!common) {
        return std::nullopt;
    }
    if (op == '/') {
        LogicalType type = LogicalTypeId::DOUBLE;
        if (common->id() == LogicalTypeId::FLOAT) {
            type = LogicalTypeId::FLOAT;
            return Same(type, FloatingArithmetic<float>('/'));
        }
        return Same(type, FloatingArithmetic<double>('/'));
    }
    if (common->IsFloating()) {
        if (common->id() == LogicalTypeId::FLOAT) {
            return Same(*common, FloatingArithmetic<float>(op));
        }
        return Same(*common, FloatingArithmetic<double>(op));
    }
    if (common->IsInteger()) {
        char integer_op = op == 'f' ? '/' : op;
        return Same(*common,
                    IntegerBody(common->physical(), integer_op, IntegerTypeName(*common), 0));
    }
    // DECIMAL
    LogicalType l = AsDecimal(left), r = AsDecimal(right);
    int scale = std::max(l.scale(), r.scale());
    int digits = std::max(l.width() - l.scale(), r.width() - r.scale());
    switch (op) {
    case '+':
    case '-': {
        LogicalType type =
            LogicalType::Decimal(ClampWidth(digits + scale + 1), static_cast<uint8_t>(scale));
        return Same(type,
                    IntegerBody(type.physical(), op, type.ToString(), PowerOfTen(type.width())));
    }
    case '%': {
        LogicalType type =
            LogicalType::Decimal(ClampWidth(digits + scale), static_cast<uint8_t>(scale));
        return Same(type, IntegerBody(type.physical(), '%', type.ToString(), 0));
    }
    case '*': {
        int product_scale = l.scale() + r.scale();
        if (product_scale > 38) {
            return std::nullopt;
        }
        LogicalType type = LogicalType::Decimal(ClampWidth(l.width() + r.width()),
                                                static_cast<uint8_t>(product_scale));
        return BoundFunction{{l, r}, type, DecimalMultiply(type)};
    }
    default: { // '//' on decimals divides as doubles and floors
        LogicalType type = LogicalTypeId::DOUBLE;
        return Same(type, FloatingArithmetic<double>('f'));
    }
    }
}

std::optional<BoundFunction> BindNegate(const LogicalType& operand) {
    if (!operand.IsNumeric() || operand.IsUnsigned()) {
        return std::nullopt;
    }
    ScalarFunctionBody body = [operand](const std::vector<const Vector*>& args, idx_t count,
                                        Vector& result) {
        const Vector& input = *args[0];
        for (idx_t row = 0; row < count; row++) {
            idx_t index = input.vector_type() == VectorType::CONSTANT ? 0 : row;
            if (!input.validity().RowIsValid(index)) {
                result.SetNull(row);
                continue;
            }
            switch (operand.physical()) {
            case PhysicalType::FLOAT:
                result.data<float>()[row] = -input.data<float>()[index];
                break;
            case PhysicalType::DOUBLE:
                result.data<double>()[row] = -input.data<double>()[index];
                break;
            default: {
                hugeint_t value = GetInteger(input, index);
                bool at_minimum = operand.IsInteger() && operand.id() != LogicalTypeId::HUGEINT &&
                                  value == -(static_cast<hugeint_t>(1)
                                             << (8 * PhysicalTypeSize(operand.physical()) - 1));
                if (at_minimum || (operand.id() == LogicalTypeId::HUGEINT &&
                                   value == -(static_cast<hugeint_t>(
                                                (static_cast<unsigned __int128>(1) << 127) - 1)) -
                                                1)) {
                    throw Exception(ErrorKind::OutOfRange, "Overflow in negation of integer " +
                                                               FormatHugeint(value) + "!");
                }
                SetInteger(result, row, -value);
                break;
            }
            }
        }
    };
    return BoundFunction{{operand}, operand, body};
}

namespace {

// Nested values compare as values: element by element, a NULL element above any value.
ScalarFunctionBody NestedComparisonBody(const std::string& op) {
    return [op](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
        for (idx_t row = 0; row < count; row++) {
            if (!args[0]->RowIsValid(row) || !args[1]->RowIsValid(row)) {
                result.SetNull(row);
                continue;
            }
            int order = CompareRows(*args[0], row, *args[1], row);
            bool holds = op == "=" || op == "=="    ? order == 0
                         : op == "!=" || op == "<>" ? order != 0
                         : op == "<"                ? order < 0
                         : op == "<="               ? order <= 0
                         : op == ">"                ? order > 0
                                                    : order >= 0;
            result.data<bool>()[row] = holds;
        }
    };
}

// Intervals compare as DuckDB orders them: by their length with a month of 30 days and a day of
// 24 hours (INTERVAL '30' DAY = INTERVAL '1' MONTH), not field by field.
struct IntervalOrder {
    interval_t value;
    __int128 Micros() const {
        return (static_cast<__int128>(value.months) * 30 + value.days) * dtime::kMicrosPerDay +
               value.micros;
    }
    bool operator==(const IntervalOrder& other) const { return Micros() == other.Micros(); }
    bool operator<(const IntervalOrder& other) const { return Micros() < other.Micros(); }
};
static_assert(sizeof(IntervalOrder) == sizeof(hugeint_t), "an interval's 16-byte slot");

} // namespace

BoundFunction BindIntervalOrderKey() {
    ScalarFunctionBody body = [](const std::vector<const Vector*>& args, idx_t count,
                                 Vector& result) {
        UnaryLoop<hugeint_t, hugeint_t>(*args[0], count, result, [](hugeint_t in, hugeint_t& out) {
            IntervalOrder order;
            std::memcpy(&order.value, &in, sizeof(in));
            out = order.Micros();
            return true;
        });
    };
    return BoundFunction{{LogicalTypeId::INTERVAL}, LogicalTypeId::HUGEINT, body};
}

BoundFunction BindComparison(const std::string& op, const LogicalType& type) {
    if (type.IsNested()) {
        return BoundFunction{{type, type}, LogicalTypeId::BOOLEAN, NestedComparisonBody(op)};
    }
    if (type.id() == LogicalTypeId::INTERVAL) {
        return BoundFunction{
            {type, type}, LogicalTypeId::BOOLEAN, ComparisonBody<IntervalOrder>(op)};
    }
    ScalarFunctionBody body = DispatchPhysical(type.physical(), [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_floating_point_v<T>) {
            return ComparisonBody<TotalOrderFloat<T>>(op);
        } else {
            return ComparisonBody<T>(op);
        }
    });
    return BoundFunction{{type, type}, LogicalTypeId::BOOLEAN, body};
}

BoundFunction BindConcat() {
    ScalarFunctionBody body = [](const std::vector<const Vector*>& args, idx_t count,
                                 Vector& result) {
        std::string buffer;
        BinaryLoop<string_t, string_t, string_t>(
            *args[0], *args[1], count, result,
            [&](const string_t& a, const string_t& b, string_t& out) {
                buffer.assign(a.data(), a.size());
                buffer.append(b.data(), b.size());
                out = result.AddString(buffer);
                return true;
            });
    };
    LogicalType varchar = LogicalTypeId::VARCHAR;
    return BoundFunction{{varchar, varchar}, varchar, body};
}

ExpressionPtr MakeFunction(const std::string& name, BoundFunction function,
                           std::vector<ExpressionPtr> arguments) {
    auto expression = std::make_unique<Expression>();
    expression->kind = ExpressionKind::Function;
    expression->function_name = name;
    expression->type = function.return_type;
    expression->function = std::move(function.body);
    for (size_t i = 0; i < arguments.size(); i++) {
        expression->children.push_back(
            MakeCast(std::move(arguments[i]), function.argument_types[i]));
    }
    return expression;
}

} // namespace sluice
