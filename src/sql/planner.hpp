#pragma once

#include "memory/memory_manager.hpp"
#include "parallel/executor.hpp"
#include "sql/binder.hpp"

#include <memory>

namespace sluice {

// Turns an optimized bound query into pipelines on `executor`: scans become sources; filters,
// projections, join probes and limits become operators; aggregates, join builds, sorts and
// UNION inputs end pipelines in sinks that later pipelines read. Returns the final pipeline,
// whose sink the caller attaches (a result collector, a COPY writer ...). Its chunks hold the
// query's result columns in order.
// Operators that hold data reserve it from `memory` (null: unaccounted).
Pipeline& PlanQuery(BoundQuery& query, Executor& executor, MemoryManager* memory);

} // namespace sluice
