#pragma once

#include "main/sluice.hpp"
#include "test_file.hpp"

#include <functional>
#include <map>
#include <memory>
#include <string>

namespace sluice::sqllogic {

// How a record came out.
enum class Outcome {
    Passed,
    WrongResult,  // the query ran and gave other rows (or columns) than expected
    NoError,      // an error was expected and the statement succeeded
    WrongMessage, // an error was expected and another came
    Failed,       // a statement or query expected to succeed failed (the message says how)
};

struct RecordOutcome {
    Outcome outcome = Outcome::Passed;
    std::string message;
};

// Runs the records of one DuckDB-style .test file on a fresh in-memory database, as DuckDB's
// runner does: loops unrolled, named connections, skipped blocks, results compared as DuckDB
// compares them (sorted by the record's mode, "N values hashing to H" by MD5, numbers by value
// and floating-point ones to 1%).
class TestRunner {
public:
    struct Hooks {
        // Before each record runs (a crash report names the last one started).
        std::function<void(const Record&)> on_start;
        // After each record that ran; return false to stop the file there.
        std::function<bool(const Record&, const RecordOutcome&)> on_outcome;
    };

    TestRunner(std::string path, Hooks hooks);
    ~TestRunner();

    // Runs the file. Returns the reason the file was skipped (a `require` Sluice cannot meet, a
    // database file to load), or an empty string once it ran. Throws on a malformed file.
    std::string Run();

private:
    bool RunRange(const std::vector<Record>& records, size_t begin, size_t end,
                  const std::map<std::string, std::string>& variables);
    RecordOutcome RunRecord(const Record& record,
                            const std::map<std::string, std::string>& variables);
    RecordOutcome CheckQuery(const Record& record, QueryResult& result,
                             const std::map<std::string, std::string>& variables);
    Connection& ConnectionFor(const std::string& name);
    void Restart();

    std::string path_;
    Hooks hooks_;
    std::string test_dir_;
    std::string skip_reason_;
    bool skipping_ = false; // between mode skip and mode unskip
    std::unique_ptr<Database> database_;
    std::map<std::string, std::unique_ptr<Connection>> connections_;
    std::map<std::string, std::vector<std::string>> labelled_; // label -> its result's values
};

} // namespace sluice::sqllogic
