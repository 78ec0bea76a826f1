#pragma once

#include "formats/arrow/arrow_c_data.hpp"
#include "main/query_result.hpp"
#include "parallel/task_scheduler.hpp"

#include <memory>
#include <string>
#include <vector>

namespace sluice {

// Hands a result to an Arrow consumer through the C Stream interface: its schema (a struct of the
// columns), then one record batch per chunk, each released independently of the stream. `out`
// owns the result until its release callback runs.
//
// With a scheduler, the batches after the one asked for are exported ahead on its REGULAR
// threads (a few per thread) while the consumer imports the current one, so that converting a
// large result takes about its share of every core; `scheduler` is kept alive by the stream.
void ExportResultStream(std::unique_ptr<QueryResult> result, ArrowArrayStream* out,
                        std::shared_ptr<TaskScheduler> scheduler = nullptr);
// The same for record batches already exported (a query run into an ArrowBatchCollector): `out`
// owns them until its release callback runs.
void ExportBatchStream(std::vector<std::string> names, std::vector<LogicalType> types,
                       std::vector<ArrowArray> batches, ArrowArrayStream* out);

} // namespace sluice
