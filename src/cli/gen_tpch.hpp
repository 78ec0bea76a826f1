#pragma once

namespace sluice {

// `sluice gen-tpch --sf 10 --out DIR [--format parquet|csv] [--row-group-size N] [--files K]
// [--tables a,b] [--compression codec] [--threads N]`: TPC-H files without the SQL shell, a
// progress bar per table on a terminal and a summary line per table. Returns the exit code.
int RunGenTpch(int argc, char** argv);

} // namespace sluice
