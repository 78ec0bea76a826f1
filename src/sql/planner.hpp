#pragma once

#include "execution/result_collector.hpp"
#include "parallel/executor.hpp"
#include "sql/binder.hpp"

#include <memory>

namespace sluice {

// Turns a bound SELECT into pipelines on `executor`; the returned collector receives the rows.
std::shared_ptr<ResultCollector> PlanSelect(BoundSelect select, Executor& executor);

} // namespace sluice
