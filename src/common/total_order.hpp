#pragma once

#include <cmath>
#include <type_traits>

namespace sluice {

// SQL's order of values of one C++ type, as DuckDB has it: floating-point NaN equals itself and
// lies above every number; other types compare as their operators do.
template <class T>
bool TotalOrderEqual(const T& a, const T& b) {
    if constexpr (std::is_floating_point_v<T>) {
        return a == b || (std::isnan(a) && std::isnan(b));
    } else {
        return a == b;
    }
}

template <class T>
bool TotalOrderLess(const T& a, const T& b) {
    if constexpr (std::is_floating_point_v<T>) {
        return !std::isnan(a) && (std::isnan(b) || a < b);
    } else {
        return a < b;
    }
}

} // namespace sluice
