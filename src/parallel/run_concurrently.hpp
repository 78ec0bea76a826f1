#pragma once

#include "parallel/task_scheduler.hpp"

#include <functional>

namespace sluice {

// Runs work(0) ... work(count - 1) as tasks on `pool` and waits for all of them; rethrows the
// first error (the remaining items are skipped once one failed). For blocking I/O fanned out from
// a thread outside the scheduler, such as opening many files while binding a query.
void RunConcurrently(TaskScheduler& scheduler, TaskPool pool, size_t count,
                     const std::function<void(size_t)>& work);

} // namespace sluice
