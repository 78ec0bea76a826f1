#pragma once

#include "parallel/executor.hpp"
#include "sql/binder.hpp"

#include <memory>

namespace sluice {

// Turns a bound SELECT into pipelines on `executor`. The caller attaches the sink of the
// returned final pipeline (a result collector, a COPY writer ...).
Pipeline& PlanSelect(BoundSelect select, Executor& executor);

} // namespace sluice
