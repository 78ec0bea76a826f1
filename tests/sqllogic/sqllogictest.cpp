// Runs a DuckDB-style sqllogictest file against a fresh Sluice database, stopping at the first
// record that does not come out as expected.
//
//   sqllogictest FILE.test
//
// Exit status: 0 passed, 1 failed, 77 skipped (a `require` this build cannot meet).
#include "test_runner.hpp"

#include <iostream>

using namespace sluice::sqllogic;

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: sqllogictest FILE.test\n";
        return 2;
    }
    const std::string path = argv[1];
    bool failed = false;
    TestRunner::Hooks hooks;
    hooks.on_outcome = [&](const Record& record, const RecordOutcome& outcome) {
        if (outcome.outcome == Outcome::Passed) {
            return true;
        }
        static const char* kWhat[] = {"", "result mismatch", "", "error message mismatch",
                                      "failed"};
        std::cerr << path << ":" << record.line << ": " << kWhat[static_cast<int>(outcome.outcome)]
                  << (outcome.outcome == Outcome::NoError ? "" : "\n") << outcome.message
                  << "\nSQL:\n"
                  << record.sql;
        failed = true;
        return false;
    };
    try {
        std::string skipped = TestRunner(path, hooks).Run();
        if (!skipped.empty()) {
            std::cout << "SKIPPED " << path << ": " << skipped << "\n";
            return 77;
        }
    } catch (const std::exception& error) {
        std::cerr << error.what() << "\n";
        return 1;
    }
    return failed ? 1 : 0;
}
