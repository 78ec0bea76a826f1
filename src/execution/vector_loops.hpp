#pragma once

#include "common/vector.hpp"

namespace sluice {

// Runs `op(input, out)` over the rows; `op` returns false to make the row NULL. NULL inputs give
// NULL outputs. A CONSTANT input is read at row 0 for every row.
template <class In, class Out, class Op>
void UnaryLoop(const Vector& input, idx_t count, Vector& result, Op op) {
    const In* in = input.data<In>();
    Out* out = result.data<Out>();
    bool constant = input.vector_type() == VectorType::CONSTANT;
    for (idx_t row = 0; row < count; row++) {
        idx_t index = constant ? 0 : row;
        if (!input.validity().RowIsValid(index) || !op(in[index], out[row])) {
            result.SetNull(row);
        }
    }
}

// Runs `op(left, right, out)` over the rows; `op` returns false to make the row NULL.
template <class L, class R, class T, class Op>
void BinaryLoop(const Vector& left, const Vector& right, idx_t count, Vector& result, Op op) {
    const L* l = left.data<L>();
    const R* r = right.data<R>();
    T* out = result.data<T>();
    bool l_const = left.vector_type() == VectorType::CONSTANT;
    bool r_const = right.vector_type() == VectorType::CONSTANT;
    if (left.validity().AllValid() && right.validity().AllValid()) {
        // No NULLs: the common case gets a loop without per-row validity tests.
        if (!l_const && !r_const) {
            for (idx_t row = 0; row < count; row++) {
                if (!op(l[row], r[row], out[row])) {
                    result.SetNull(row);
                }
            }
        } else if (!l_const) {
            const R constant = r[0];
            for (idx_t row = 0; row < count; row++) {
                if (!op(l[row], constant, out[row])) {
                    result.SetNull(row);
                }
            }
        } else {
            for (idx_t row = 0; row < count; row++) {
                if (!op(l[l_const ? 0 : row], r[r_const ? 0 : row], out[row])) {
                    result.SetNull(row);
                }
            }
        }
        return;
    }
    for (idx_t row = 0; row < count; row++) {
        idx_t li = l_const ? 0 : row, ri = r_const ? 0 : row;
        if (!left.validity().RowIsValid(li) || !right.validity().RowIsValid(ri)) {
            result.SetNull(row);
            continue;
        }
        if (!op(l[li], r[ri], out[row])) {
            result.SetNull(row);
        }
    }
}

} // namespace sluice
