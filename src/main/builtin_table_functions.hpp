#pragma once

namespace sluice {

class Database;

// The table functions every database starts with: sluice_settings(), read_parquet(), glob(),
// sluice_http_stats() ...
void RegisterBuiltinTableFunctions(Database& database);

} // namespace sluice
