#pragma once

#include <string>
#include <vector>

namespace sluice::sqllogic {

enum class RecordKind {
    StatementOk,
    StatementError,
    StatementMaybe, // may fail; if it does, its message must match
    Query,
    Require,
    Loop, // loop <name> <from> <to>, foreach <name> <values...>: `values` holds them
    EndLoop,
    Halt,
    ModeSkip, // records until `mode unskip` are not run
    ModeUnskip,
    Load,    // load [path]: a database file, which Sluice cannot open
    Restart, // restart: the database closed and opened again (in memory, it starts empty)
    Ignored, // records that change nothing here: sleep, hash-threshold, tags, other modes ...
};
enum class SortMode { None, Rows, Values };

// One record of a DuckDB-style .test file.
struct Record {
    RecordKind kind;
    int line = 0;
    std::string sql;
    std::string column_types; // query: one letter per column (I, T, R ...)
    SortMode sort = SortMode::None;
    std::string label;      // query: results compared with other queries of the same label
    std::string connection; // statement/query run on a named connection (con1); empty: default
    std::vector<std::string> expected; // query: result lines; statement error: message lines
    bool has_expected = false;
    std::vector<std::string> arguments; // require / load / loop: name, from, to
    std::vector<std::string> values;    // foreach: the values the variable takes
    std::string skip_engine;            // skipif <engine>
    std::string only_engine;            // onlyif <engine>
};

// Parses the records of a .test file; throws std::runtime_error with the line on bad syntax.
std::vector<Record> ParseTestFile(const std::string& path);

} // namespace sluice::sqllogic
