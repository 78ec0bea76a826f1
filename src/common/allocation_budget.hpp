#pragma once

#include "common/types.hpp"

namespace sluice {

class AllocationBudget;

// Thrown by AllocationBudget::Charge when a budget open on this thread is spent. Not an
// Exception: only the code that opened `budget` catches it, and no user ever sees it.
struct AllocationBudgetExceeded {
    const AllocationBudget* budget;
};

// A cap on the bytes that vectors and string heaps allocate on this thread while the budget is
// open. The binder folds a constant expression by evaluating it once; a constant such as
// range(200000000) or repeat('x', 1000000000) must be given up after a few megabytes (it then
// stays an expression, evaluated as the query runs) instead of being built in full at bind
// time only to be discarded. Budgets nest: an allocation counts against every open budget.
class AllocationBudget {
public:
    explicit AllocationBudget(idx_t bytes) : enclosing_(open_), remaining_(bytes) { open_ = this; }
    ~AllocationBudget() { open_ = enclosing_; }
    AllocationBudget(const AllocationBudget&) = delete;
    AllocationBudget& operator=(const AllocationBudget&) = delete;

    // Counts `bytes` about to be allocated against the budgets open on this thread, if any.
    static void Charge(idx_t bytes) {
        for (AllocationBudget* budget = open_; budget != nullptr; budget = budget->enclosing_) {
            if (bytes > budget->remaining_) {
                throw AllocationBudgetExceeded{budget};
            }
            budget->remaining_ -= bytes;
        }
    }

private:
    static inline thread_local AllocationBudget* open_ = nullptr;
    AllocationBudget* enclosing_;
    idx_t remaining_;
};

} // namespace sluice
