#pragma once

#include "memory/memory_manager.hpp"
#include "parallel/executor.hpp"
#include "sql/binder.hpp"

#include <memory>

namespace sluice {

// Turns an optimized bound query into pipelines on `executor`: scans become sources; filters,
// projections, join probes and limits become operators; aggregates, join builds, sorts and
// UNION inputs end pipelines in sinks that later pipelines read. The final pipeline's chunks
// hold the query's result columns in order and go to `sink` (a result collector, a COPY
// writer ...), with at most `max_threads` tasks (0: no limit).
// Operators that hold data reserve it from `memory` (null: unaccounted).
void PlanQuery(BoundQuery& query, Executor& executor, MemoryManager* memory,
               std::shared_ptr<PipelineSink> sink, idx_t max_threads = 0);

} // namespace sluice
