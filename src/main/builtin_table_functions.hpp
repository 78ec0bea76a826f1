#pragma once

#include "main/settings.hpp"
#include "sql/table_function.hpp"

namespace sluice {

class VirtualFileSystem;

// The table functions every database starts with: sluice_settings(), read_parquet(), glob(),
// sluice_http_stats() ...
void RegisterBuiltinTableFunctions(TableFunctionCatalog& catalog, Settings& settings,
                                   VirtualFileSystem& file_system);

} // namespace sluice
