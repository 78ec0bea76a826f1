#pragma once

#include "parallel/task_scheduler.hpp"

#include <functional>

namespace sluice {

// Runs work(0) ... work(count - 1) as tasks on `pool` and waits for all of them; rethrows the
// first error (the remaining items are skipped once one failed). For blocking I/O fanned out from
// a thread outside the scheduler, such as opening many files while binding a query.
void RunConcurrently(TaskScheduler& scheduler, TaskPool pool, size_t count,
                     const std::function<void(size_t)>& work);

// Runs work(0) ... work(count - 1) on the calling thread, with the other REGULAR threads of its
// scheduler taking items beside it when they are idle (a sink's single-threaded finish, such
// as building a join's index, would otherwise leave them waiting). Safe on a worker thread:
// the caller only ever waits for items another thread has started. Off the scheduler's
// threads the caller runs every item. Rethrows the first error; items not yet started are
// then skipped.
void RunSharingWithIdleThreads(size_t count, const std::function<void(size_t)>& work);

} // namespace sluice
