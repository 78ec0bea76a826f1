#pragma once

#include <string>
#include <vector>

namespace sluice::sqllogic {

enum class RecordKind { StatementOk, StatementError, Query, Require, Loop, EndLoop, Halt };
enum class SortMode { None, Rows, Values };

// One record of a DuckDB-style .test file.
struct Record {
    RecordKind kind;
    int line = 0;
    std::string sql;
    std::string column_types; // query: one letter per column (I, T, R ...)
    SortMode sort = SortMode::None;
    std::vector<std::string> expected; // query: result lines; statement error: message lines
    bool has_expected = false;
    std::vector<std::string> arguments; // require / loop
    std::string skip_engine;            // skipif <engine>
    std::string only_engine;            // onlyif <engine>
};

// Parses the records of a .test file; throws std::runtime_error with the line on bad syntax.
std::vector<Record> ParseTestFile(const std::string& path);

} // namespace sluice::sqllogic
