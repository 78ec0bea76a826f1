// Runs a DuckDB-style sqllogictest file against a fresh Sluice database.
//
//   sqllogictest FILE.test
//
// Exit status: 0 passed, 1 failed, 77 skipped (a `require` this build cannot meet).
#include "main/sluice.hpp"
#include "test_file.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>
#include <stdlib.h>

using namespace sluice;
using namespace sluice::sqllogic;

namespace {

constexpr int kSkipped = 77;

std::string Substitute(std::string text, const std::map<std::string, std::string>& variables) {
    for (const auto& [name, value] : variables) {
        std::string pattern = name.rfind("__", 0) == 0 ? name : "${" + name + "}";
        size_t pos;
        while ((pos = text.find(pattern)) != std::string::npos) {
            text.replace(pos, pattern.size(), value);
        }
    }
    return text;
}

std::string Render(const Value& value) {
    if (value.IsNull()) {
        return "NULL";
    }
    std::string text = value.ToString();
    return text.empty() ? "(empty)" : text;
}

std::vector<std::string> Split(const std::string& line, char separator) {
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(line);
    while (std::getline(in, part, separator)) {
        parts.push_back(part);
    }
    if (!line.empty() && line.back() == separator) {
        parts.push_back("");
    }
    return parts;
}

class Runner {
public:
    explicit Runner(std::string path) : path_(std::move(path)), connection_(database_) {
        // __TEST_DIR__ in a test names a scratch directory of its own, as in DuckDB's runner.
        char pattern[] = "/tmp/sluice_sqllogic_XXXXXX";
        const char* directory = mkdtemp(pattern);
        test_dir_ = directory ? directory : "/tmp";
    }
    ~Runner() {
        if (test_dir_ != "/tmp") {
            std::filesystem::remove_all(test_dir_);
        }
    }

    int Run() {
        std::vector<Record> records;
        try {
            records = ParseTestFile(path_);
        } catch (const std::exception& error) {
            std::cerr << error.what() << "\n";
            return 1;
        }
        return RunRange(records, 0, records.size(), {});
    }

private:
    int RunRange(const std::vector<Record>& records, size_t begin, size_t end,
                 std::map<std::string, std::string> variables) {
        for (size_t i = begin; i < end; i++) {
            const Record& record = records[i];
            if (record.kind == RecordKind::Halt) {
                return 0;
            }
            if (record.kind == RecordKind::Require) {
                std::cout << "SKIPPED " << path_ << ": requires";
                for (const auto& argument : record.arguments) {
                    std::cout << " " << argument;
                }
                std::cout << ", which this build does not provide\n";
                return kSkipped;
            }
            if (record.kind == RecordKind::Loop) {
                size_t depth = 1, close = i + 1;
                for (; close < end && depth > 0; close++) {
                    depth += records[close].kind == RecordKind::Loop;
                    depth -= records[close].kind == RecordKind::EndLoop;
                }
                if (depth != 0) {
                    return Fail(record, "loop without endloop");
                }
                long from = std::stol(record.arguments[1]), to = std::stol(record.arguments[2]);
                for (long value = from; value < to; value++) {
                    auto inner = variables;
                    inner[record.arguments[0]] = std::to_string(value);
                    if (int status = RunRange(records, i + 1, close - 1, inner)) {
                        return status;
                    }
                }
                i = close - 1;
                continue;
            }
            if (record.kind == RecordKind::EndLoop) {
                return Fail(record, "endloop without loop");
            }
            if (record.skip_engine == "sluice" ||
                (!record.only_engine.empty() && record.only_engine != "sluice")) {
                continue;
            }
            auto with_dir = variables;
            with_dir["__TEST_DIR__"] = test_dir_;
            if (int status = RunRecord(record, with_dir)) {
                return status;
            }
        }
        return 0;
    }

    int Fail(const Record& record, const std::string& message) {
        std::cerr << path_ << ":" << record.line << ": " << message << "\n";
        if (!record.sql.empty()) {
            std::cerr << "SQL:\n" << record.sql;
        }
        return 1;
    }

    int RunRecord(const Record& record, const std::map<std::string, std::string>& variables) {
        std::string sql = Substitute(record.sql, variables);
        std::unique_ptr<QueryResult> result;
        std::string error;
        try {
            result = connection_.Query(sql);
        } catch (const std::exception& e) {
            error = e.what();
        }
        if (record.kind == RecordKind::StatementOk) {
            return error.empty() ? 0 : Fail(record, "statement failed: " + error);
        }
        if (record.kind == RecordKind::StatementError) {
            if (error.empty()) {
                return Fail(record, "statement succeeded but an error was expected");
            }
            std::string expected;
            for (const auto& line : record.expected) {
                expected += (expected.empty() ? "" : "\n") + Substitute(line, variables);
            }
            if (!expected.empty() && error.find(expected) == std::string::npos) {
                return Fail(record, "error message mismatch\nexpected to contain: " + expected +
                                        "\nactual: " + error);
            }
            return 0;
        }
        if (!error.empty()) {
            return Fail(record, "query failed: " + error);
        }
        return CheckQuery(record, *result, variables);
    }

    int CheckQuery(const Record& record, QueryResult& result,
                   const std::map<std::string, std::string>& variables) {
        size_t columns = record.column_types.size();
        if (result.ColumnCount() != columns) {
            return Fail(record, "expected " + std::to_string(columns) + " columns, got " +
                                    std::to_string(result.ColumnCount()));
        }
        std::vector<std::vector<std::string>> rows;
        while (auto chunk = result.Fetch()) {
            for (idx_t row = 0; row < chunk->size(); row++) {
                std::vector<std::string> cells;
                for (idx_t column = 0; column < columns; column++) {
                    cells.push_back(Render(chunk->GetValue(column, row)));
                }
                rows.push_back(std::move(cells));
            }
        }
        std::vector<std::string> expected_values, actual_values;
        for (const auto& line : record.expected) {
            for (auto& cell : Split(Substitute(line, variables), '\t')) {
                expected_values.push_back(cell);
            }
        }
        if (record.sort == SortMode::Rows) {
            std::sort(rows.begin(), rows.end());
        }
        for (const auto& row : rows) {
            actual_values.insert(actual_values.end(), row.begin(), row.end());
        }
        if (record.sort == SortMode::Rows) {
            // Expected rows are compared sorted too, so files may list them in any order.
            std::vector<std::vector<std::string>> expected_rows;
            for (size_t i = 0; i + columns <= expected_values.size(); i += columns) {
                expected_rows.emplace_back(expected_values.begin() + i,
                                           expected_values.begin() + i + columns);
            }
            std::sort(expected_rows.begin(), expected_rows.end());
            expected_values.clear();
            for (const auto& row : expected_rows) {
                expected_values.insert(expected_values.end(), row.begin(), row.end());
            }
        } else if (record.sort == SortMode::Values) {
            std::sort(expected_values.begin(), expected_values.end());
            std::sort(actual_values.begin(), actual_values.end());
        }
        if (expected_values != actual_values) {
            std::ostringstream message;
            message << "result mismatch\nexpected:\n";
            for (const auto& line : record.expected) {
                message << "  " << line << "\n";
            }
            message << "actual:\n";
            for (const auto& row : rows) {
                message << " ";
                for (size_t c = 0; c < row.size(); c++) {
                    message << (c ? "\t" : " ") << row[c];
                }
                message << "\n";
            }
            return Fail(record, message.str());
        }
        return 0;
    }

    std::string path_;
    std::string test_dir_;
    Database database_;
    Connection connection_;
};

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: sqllogictest FILE.test\n";
        return 2;
    }
    return Runner(argv[1]).Run();
}
