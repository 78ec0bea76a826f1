#pragma once

#include "main/settings.hpp"
#include "sql/table_function.hpp"

namespace sluice {

class FileSystem;

// The table functions every database starts with: sluice_settings(), read_parquet().
void RegisterBuiltinTableFunctions(TableFunctionCatalog& catalog, Settings& settings,
                                   FileSystem& file_system);

} // namespace sluice
