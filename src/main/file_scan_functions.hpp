#pragma once

namespace sluice {

class Database;

// The table functions that scan files through the multi-file read-ahead scan: read_parquet,
// read_csv and read_csv_auto, and sniff_csv.
void RegisterFileScanFunctions(Database& database);

} // namespace sluice
