#include "execution/math_functions.hpp"

#include "common/exception.hpp"
#include "common/physical_dispatch.hpp"
#include "execution/vector_loops.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <string_view>

namespace sluice {

namespace {

hugeint_t PowerOfTen(int64_t exponent) {
    hugeint_t result = 1;
    for (int64_t i = 0; i < exponent; i++) {
        result *= 10;
    }
    return result;
}

// value / divisor rounded half away from zero.
hugeint_t DivideRounded(hugeint_t value, hugeint_t divisor) {
    hugeint_t quotient = value / divisor;
    hugeint_t remainder = value % divisor;
    if (remainder < 0) {
        remainder = -remainder;
    }
    if (remainder * 2 >= divisor) {
        quotient += value < 0 ? -1 : 1;
    }
    return quotient;
}

enum class Rounding : uint8_t { Round, Floor, Ceil, Trunc };

// value / divisor rounded the way `rounding` says.
hugeint_t DivideBy(hugeint_t value, hugeint_t divisor, Rounding rounding) {
    hugeint_t quotient = value / divisor;
    hugeint_t remainder = value % divisor;
    switch (rounding) {
    case Rounding::Round:
        return DivideRounded(value, divisor);
    case Rounding::Floor:
        return remainder < 0 ? quotient - 1 : quotient;
    case Rounding::Ceil:
        return remainder > 0 ? quotient + 1 : quotient;
    case Rounding::Trunc:
        return quotient;
    }
    return quotient;
}

// A function over one value of physical type T giving T, for every row.
template <class Op>
ScalarFunctionBody SameTypeUnary(PhysicalType physical, Op op) {
    return [physical, op](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
        DispatchPhysical(physical, [&](auto zero) {
            using T = decltype(zero);
            if constexpr ((std::is_integral_v<T> && !std::is_same_v<T, bool>) ||
                          std::is_same_v<T, hugeint_t>) {
                UnaryLoop<T, T>(*args[0], count, result, [&](T in, T& out) {
                    out = static_cast<T>(op(static_cast<hugeint_t>(in)));
                    return true;
                });
            }
        });
    };
}

ScalarFunctionBody DoubleUnary(double (*op)(double)) {
    return [op](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
        UnaryLoop<double, double>(*args[0], count, result, [&](double in, double& out) {
            out = op(in);
            return true;
        });
    };
}

double Logarithm(double value, double (*log)(double)) {
    if (value < 0) {
        throw Exception(ErrorKind::OutOfRange, "cannot take logarithm of a negative number");
    }
    if (value == 0) {
        throw Exception(ErrorKind::OutOfRange, "cannot take logarithm of zero");
    }
    return log(value);
}

// Trigonometric functions refuse infinities and NaN, as DuckDB's do.
double Finite(double value) {
    if (!std::isfinite(value)) {
        throw Exception(ErrorKind::OutOfRange, "input value " + std::to_string(value) +
                                                   " is out of range for numeric function");
    }
    return value;
}

// asin and acos are defined on [-1, 1] only.
double InUnitRange(double value, const char* function) {
    if (!(value >= -1 && value <= 1)) {
        throw Exception(ErrorKind::InvalidInput,
                        std::string(function) + " is undefined outside [-1,1]");
    }
    return value;
}

double Cotangent(double value) {
    double tangent = std::tan(Finite(value));
    if (tangent == 0) {
        throw Exception(ErrorKind::OutOfRange, "input value " + std::to_string(value) +
                                                   " is out of range for numeric function "
                                                   "cotangent");
    }
    return 1 / tangent;
}

// DuckDB's round(double, digits): scaled, rounded half away from zero, scaled back; values too
// large to scale stay as they are.
double RoundDouble(double value, int64_t digits) {
    double modifier = std::pow(10.0, static_cast<double>(digits));
    double rounded = std::round(value * modifier) / modifier;
    return std::isinf(rounded) || std::isnan(rounded) ? value : rounded;
}

std::optional<BoundFunction> BindRounding(const std::string& name, const LogicalType& type,
                                          std::optional<int64_t> digits) {
    Rounding rounding = name == "floor"   ? Rounding::Floor
                        : name == "ceil"  ? Rounding::Ceil
                        : name == "trunc" ? Rounding::Trunc
                                          : Rounding::Round;
    int64_t keep = digits.value_or(0); // decimal places to keep
    std::vector<LogicalType> arguments = {type};
    if (digits) {
        arguments.push_back(LogicalTypeId::INTEGER);
    }
    if (type.IsFloating() || type.id() == LogicalTypeId::SQLNULL) {
        arguments[0] = LogicalTypeId::DOUBLE;
        ScalarFunctionBody body = [rounding, keep](const std::vector<const Vector*>& args,
                                                   idx_t count, Vector& result) {
            UnaryLoop<double, double>(*args[0], count, result, [&](double in, double& out) {
                switch (rounding) {
                case Rounding::Round:
                    // Beyond 10^308 every double rounds to 0 (10^-keep would be infinite).
                    out = keep == 0 ? std::round(in) : keep < -308 ? 0.0 : RoundDouble(in, keep);
                    break;
                case Rounding::Floor:
                    out = std::floor(in);
                    break;
                case Rounding::Ceil:
                    out = std::ceil(in);
                    break;
                case Rounding::Trunc:
                    out = std::trunc(in);
                    break;
                }
                return true;
            });
        };
        return BoundFunction{arguments, LogicalTypeId::DOUBLE, body};
    }
    if (type.IsInteger()) {
        // Whole already; round(x, -n) rounds to a multiple of 10^n.
        hugeint_t unit = keep < 0 ? PowerOfTen(-keep) : 1;
        return BoundFunction{arguments, type,
                             SameTypeUnary(type.physical(), [unit](hugeint_t value) {
                                 return unit == 1 ? value : DivideRounded(value, unit) * unit;
                             })};
    }
    if (type.id() != LogicalTypeId::DECIMAL) {
        return std::nullopt;
    }
    int64_t scale = type.scale();
    if (rounding == Rounding::Round && keep >= scale) {
        return BoundFunction{
            arguments, type,
            [](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
                for (idx_t row = 0; row < count; row++) {
                    result.CopyRow(*args[0], row, row);
                }
            }};
    }
    // The digits that go: to `kept` decimal places (none for ceil, floor, trunc and negative
    // digits, which round further to a multiple of 10^-digits).
    int64_t kept = rounding == Rounding::Round ? std::max<int64_t>(keep, 0) : 0;
    int64_t dropped = scale - (rounding == Rounding::Round ? keep : 0);
    hugeint_t refill = rounding == Rounding::Round && keep < 0 ? PowerOfTen(-keep) : 1;
    LogicalType result_type = LogicalType::Decimal(type.width(), static_cast<uint8_t>(kept));
    if (dropped > kMaxDecimalWidth) {
        return BoundFunction{arguments, result_type, SameTypeUnary(type.physical(), [](hugeint_t) {
                                 return hugeint_t(0);
                             })};
    }
    hugeint_t divisor = PowerOfTen(dropped);
    return BoundFunction{arguments, result_type,
                         SameTypeUnary(type.physical(), [divisor, rounding, refill](hugeint_t v) {
                             return DivideBy(v, divisor, rounding) * refill;
                         })};
}

std::optional<BoundFunction> BindAbsOrSign(bool sign, const LogicalType& type) {
    if (type.IsFloating() || type.id() == LogicalTypeId::SQLNULL) {
        if (sign) {
            return BoundFunction{
                {LogicalTypeId::DOUBLE},
                LogicalTypeId::TINYINT,
                [](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
                    UnaryLoop<double, int8_t>(*args[0], count, result, [](double in, int8_t& out) {
                        out = static_cast<int8_t>(in > 0 ? 1 : (in < 0 ? -1 : 0));
                        return true;
                    });
                }};
        }
        return BoundFunction{{LogicalTypeId::DOUBLE},
                             LogicalTypeId::DOUBLE,
                             DoubleUnary([](double value) { return std::fabs(value); })};
    }
    if (!type.IsInteger() && type.id() != LogicalTypeId::DECIMAL) {
        return std::nullopt;
    }
    if (sign) {
        PhysicalType physical = type.physical();
        return BoundFunction{
            {type},
            LogicalTypeId::TINYINT,
            [physical](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
                DispatchPhysical(physical, [&](auto zero) {
                    using T = decltype(zero);
                    if constexpr ((std::is_integral_v<T> && !std::is_same_v<T, bool>) ||
                                  std::is_same_v<T, hugeint_t>) {
                        UnaryLoop<T, int8_t>(*args[0], count, result, [](T in, int8_t& out) {
                            out = static_cast<int8_t>(in > 0 ? 1 : (in < 0 ? -1 : 0));
                            return true;
                        });
                    }
                });
            }};
    }
    // The most negative value of the type has no absolute value in it.
    hugeint_t lowest = 0;
    DispatchPhysical(type.physical(), [&](auto zero) {
        using T = decltype(zero);
        if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
            lowest = std::numeric_limits<T>::min();
        }
    });
    std::string type_name = type.ToString();
    return BoundFunction{
        {type}, type, SameTypeUnary(type.physical(), [lowest, type_name](hugeint_t value) {
            if (lowest != 0 && value == lowest) {
                throw Exception(ErrorKind::OutOfRange, "Overflow on abs of " + type_name);
            }
            return value < 0 ? -value : value;
        })};
}

} // namespace

std::optional<BoundFunction> BindMathFunction(const std::string& name,
                                              const std::vector<LogicalType>& arguments,
                                              std::optional<int64_t> digits) {
    const LogicalTypeId kDouble = LogicalTypeId::DOUBLE;
    if (name == "pi" && arguments.empty()) {
        return BoundFunction{
            {}, kDouble, [](const std::vector<const Vector*>&, idx_t count, Vector& result) {
                for (idx_t row = 0; row < count; row++) {
                    result.data<double>()[row] = M_PI;
                }
            }};
    }
    if (arguments.size() == 2 && name == "atan2") {
        return BoundFunction{
            {kDouble, kDouble},
            kDouble,
            [](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
                BinaryLoop<double, double, double>(*args[0], *args[1], count, result,
                                                   [](double y, double x, double& out) {
                                                       out = std::atan2(Finite(y), Finite(x));
                                                       return true;
                                                   });
            }};
    }
    if (arguments.size() == 2 && (name == "power" || name == "pow")) {
        return BoundFunction{
            {kDouble, kDouble},
            kDouble,
            [](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
                BinaryLoop<double, double, double>(*args[0], *args[1], count, result,
                                                   [](double x, double y, double& out) {
                                                       out = std::pow(x, y);
                                                       return true;
                                                   });
            }};
    }
    // An untyped NULL takes the overload DuckDB picks: BIGINT for abs, round and trunc.
    auto null_as = [](const LogicalType& type, LogicalTypeId overload) {
        return type.id() == LogicalTypeId::SQLNULL ? LogicalType(overload) : type;
    };
    if (name == "round" && (arguments.size() == 1 || (arguments.size() == 2 && digits))) {
        return BindRounding(name, null_as(arguments[0], LogicalTypeId::BIGINT), digits);
    }
    if (arguments.size() != 1) {
        return std::nullopt;
    }
    const LogicalType& type = arguments[0];
    if (type.id() != LogicalTypeId::SQLNULL && !type.IsNumeric()) {
        return std::nullopt;
    }
    if (name == "ceil" || name == "ceiling" || name == "floor" || name == "trunc") {
        LogicalType overload =
            null_as(type, name == "trunc" ? LogicalTypeId::BIGINT : LogicalTypeId::DOUBLE);
        return BindRounding(name == "ceiling" ? "ceil" : name, overload, std::nullopt);
    }
    if (name == "abs" || name == "sign") {
        return BindAbsOrSign(name == "sign", null_as(type, name == "abs" ? LogicalTypeId::BIGINT
                                                                         : LogicalTypeId::DOUBLE));
    }
    double (*op)(double) = nullptr;
    if (name == "sqrt") {
        op = [](double value) { return std::sqrt(value); };
    } else if (name == "cbrt") {
        op = [](double value) { return std::cbrt(value); };
    } else if (name == "exp") {
        op = [](double value) { return std::exp(value); };
    } else if (name == "ln") {
        op = [](double value) { return Logarithm(value, std::log); };
    } else if (name == "log" || name == "log10") {
        op = [](double value) { return Logarithm(value, std::log10); };
    } else if (name == "log2") {
        op = [](double value) { return Logarithm(value, std::log2); };
    } else if (name == "sin") {
        op = [](double value) { return std::sin(Finite(value)); };
    } else if (name == "cos") {
        op = [](double value) { return std::cos(Finite(value)); };
    } else if (name == "tan") {
        op = [](double value) { return std::tan(Finite(value)); };
    } else if (name == "cot") {
        op = Cotangent;
    } else if (name == "asin") {
        op = [](double value) { return std::asin(InUnitRange(value, "ASIN")); };
    } else if (name == "acos") {
        op = [](double value) { return std::acos(InUnitRange(value, "ACOS")); };
    } else if (name == "atan") {
        op = [](double value) { return std::atan(Finite(value)); };
    } else if (name == "degrees") {
        op = [](double value) { return value * 180 / M_PI; };
    } else if (name == "radians") {
        op = [](double value) { return value * M_PI / 180; };
    }
    if (!op) {
        return std::nullopt;
    }
    return BoundFunction{{kDouble}, kDouble, DoubleUnary(op)};
}

BoundFunction BindGreatestLeast(bool greatest, size_t argument_count, const LogicalType& type) {
    PhysicalType physical = type.physical();
    ScalarFunctionBody body = [greatest, physical](const std::vector<const Vector*>& args,
                                                   idx_t count, Vector& result) {
        DispatchPhysical(physical, [&](auto zero) {
            using T = decltype(zero);
            auto better = [&](const T& candidate, const T& best) {
                if constexpr (std::is_same_v<T, string_t>) {
                    std::string_view a(candidate.data(), candidate.size());
                    std::string_view b(best.data(), best.size());
                    return greatest ? a > b : a < b;
                } else {
                    return greatest ? candidate > best : candidate < best;
                }
            };
            for (idx_t row = 0; row < count; row++) {
                const Vector* chosen = nullptr;
                idx_t chosen_index = 0;
                for (const Vector* argument : args) {
                    idx_t index = argument->vector_type() == VectorType::CONSTANT ? 0 : row;
                    if (!argument->validity().RowIsValid(index)) {
                        continue;
                    }
                    if (!chosen ||
                        better(argument->data<T>()[index], chosen->data<T>()[chosen_index])) {
                        chosen = argument;
                        chosen_index = index;
                    }
                }
                if (chosen) {
                    result.CopyRow(*chosen, row, row); // CopyRow reads CONSTANT inputs at 0
                } else {
                    result.SetNull(row);
                }
            }
        });
    };
    return BoundFunction{std::vector<LogicalType>(argument_count, type), type, body};
}

} // namespace sluice
