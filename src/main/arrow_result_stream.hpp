#pragma once

#include "formats/arrow/arrow_c_data.hpp"
#include "main/query_result.hpp"

#include <memory>

namespace sluice {

// Hands a result to an Arrow consumer through the C Stream interface: its schema (a struct of the
// columns), then one record batch per chunk, each released independently of the stream. `out`
// owns the result until its release callback runs.
void ExportResultStream(std::unique_ptr<QueryResult> result, ArrowArrayStream* out);

} // namespace sluice
