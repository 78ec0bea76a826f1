#pragma once

#include "common/exception.hpp"
#include "common/string_type.hpp"
#include "common/types.hpp"

#include <cstdint>

namespace sluice {

// Calls `f(T{})` with the C++ type a vector of `type` stores (bool, int8_t ... hugeint_t,
// float, double, string_t), so that typed loops are chosen once per vector, not per value.
template <class F>
decltype(auto) DispatchPhysical(PhysicalType type, F&& f) {
    switch (type) {
    case PhysicalType::BOOL:
        return f(bool{});
    case PhysicalType::INT8:
        return f(int8_t{});
    case PhysicalType::INT16:
        return f(int16_t{});
    case PhysicalType::INT32:
        return f(int32_t{});
    case PhysicalType::INT64:
        return f(int64_t{});
    case PhysicalType::INT128:
        return f(hugeint_t{});
    case PhysicalType::UINT8:
        return f(uint8_t{});
    case PhysicalType::UINT16:
        return f(uint16_t{});
    case PhysicalType::UINT32:
        return f(uint32_t{});
    case PhysicalType::UINT64:
        return f(uint64_t{});
    case PhysicalType::FLOAT:
        return f(float{});
    case PhysicalType::DOUBLE:
        return f(double{});
    case PhysicalType::VARCHAR:
        return f(string_t{});
    case PhysicalType::LIST:
    case PhysicalType::STRUCT:
        break;
    }
    if (type == PhysicalType::LIST || type == PhysicalType::STRUCT) {
        throw Exception(ErrorKind::NotImplemented,
                        "not supported: this operation on LIST, STRUCT or MAP values");
    }
    throw Exception(ErrorKind::Internal, "unhandled physical type");
}

} // namespace sluice
