#include "test_runner.hpp"

#include "common/cast.hpp"
#include "common/string_util.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <stdlib.h>

namespace sluice::sqllogic {

namespace {

constexpr const char* kEngine = "sluice";

std::string Substitute(std::string text, const std::map<std::string, std::string>& variables) {
    for (const auto& [name, value] : variables) {
        // Loop variables are written ${name} or {name}; the runner's keywords as they are.
        bool keyword = name.rfind("__", 0) == 0 || name.front() == '{' || name.front() == '$';
        std::vector<std::string> patterns = {name};
        if (!keyword) {
            patterns = {"${" + name + "}", "{" + name + "}"};
        }
        for (const auto& pattern : patterns) {
            size_t pos = 0;
            while ((pos = text.find(pattern, pos)) != std::string::npos) {
                text.replace(pos, pattern.size(), value);
                pos += value.size();
            }
        }
    }
    return text;
}

// A value as DuckDB's runner prints it: its cast to VARCHAR (nested values too, whose strings are
// quoted only where they must be), NULL and the empty string by name.
std::string Render(const Value& value) {
    if (value.IsNull()) {
        return "NULL";
    }
    bool nested = value.type().id() == LogicalTypeId::LIST ||
                  value.type().id() == LogicalTypeId::STRUCT ||
                  value.type().id() == LogicalTypeId::MAP;
    std::string text =
        nested ? CastValue(value, LogicalTypeId::VARCHAR).GetString() : value.ToString();
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

// The requirements Sluice meets: what it has built in, and DuckDB's build variants that change
// nothing here.
bool Meets(const std::vector<std::string>& arguments) {
    static const std::set<std::string> kMet = {"parquet",
                                               "tpch",
                                               "skip_reload",
                                               "no_alternative_verify",
                                               "noforcestorage",
                                               "no_force_storage",
                                               "notwindows",
                                               "notmingw",
                                               "no_extension_autoloading",
                                               "64bit",
                                               "no_vector_verification",
                                               "no_latest_storage"};
    if (arguments.empty()) {
        return false;
    }
    if (arguments[0] == "vector_size" && arguments.size() > 1) {
        return std::strtoull(arguments[1].c_str(), nullptr, 10) <= kVectorSize;
    }
    if (arguments[0] == "exact_vector_size" && arguments.size() > 1) {
        return std::strtoull(arguments[1].c_str(), nullptr, 10) == kVectorSize;
    }
    return kMet.count(arguments[0]) > 0;
}

std::string Md5(const std::vector<std::string>& values) {
    std::string text;
    for (const auto& value : values) {
        text += value + "\n";
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_Digest(text.data(), text.size(), digest, &length, EVP_md5(), nullptr);
    std::string hex;
    char byte[3];
    for (unsigned int i = 0; i < length; i++) {
        std::snprintf(byte, sizeof(byte), "%02x", digest[i]);
        hex += byte;
    }
    return hex;
}

// DuckDB's comparison of a result value with the expected text: equal text, or the expected
// text cast to the column's type equal to the value (1 and true for a BOOLEAN, 1.0 for an
// INTEGER); floating-point values within 1%.
bool SameValue(const std::string& actual, const std::string& padded, const LogicalType& type) {
    // DuckDB's runner reads past spaces around a number (in text they are the value's own).
    std::string expected = type.IsNumeric() ? std::string(Trim(padded)) : padded;
    if (actual == expected) {
        return true;
    }
    if (actual == "NULL" || expected == "NULL") {
        return false;
    }
    if (type.id() == LogicalTypeId::FLOAT || type.id() == LogicalTypeId::DOUBLE) {
        char* end = nullptr;
        long double want = std::strtold(expected.c_str(), &end);
        if (end == expected.c_str() || *end != '\0') {
            return false;
        }
        long double got = std::strtold(actual.c_str(), &end);
        if (*end != '\0') {
            return false;
        }
        if (std::isnan(want) || std::isnan(got)) {
            return std::isnan(want) && std::isnan(got);
        }
        return std::fabs(got - want) <= std::fabs(want) * 0.01L + 1e-8L;
    }
    Value cast;
    try {
        if (!TryCastValue(Value::Varchar(expected), type, cast)) {
            return false;
        }
    } catch (const std::exception&) {
        return false;
    }
    return Render(cast) == actual;
}

std::string Show(const std::vector<std::string>& lines, size_t limit = 12) {
    std::string out;
    for (size_t i = 0; i < lines.size() && i < limit; i++) {
        out += "  " + lines[i] + "\n";
    }
    if (lines.size() > limit) {
        out += "  ... " + std::to_string(lines.size() - limit) + " more\n";
    }
    return out;
}

} // namespace

TestRunner::TestRunner(std::string path, Hooks hooks)
    : path_(std::move(path)), hooks_(std::move(hooks)), database_(std::make_unique<Database>()) {
    // __TEST_DIR__ in a test names a scratch directory of its own, as in DuckDB's runner.
    char pattern[] = "/tmp/sluice_sqllogic_XXXXXX";
    const char* directory = mkdtemp(pattern);
    test_dir_ = directory ? directory : "/tmp";
}

TestRunner::~TestRunner() {
    connections_.clear();
    database_.reset();
    if (test_dir_ != "/tmp") {
        std::error_code ignored;
        std::filesystem::remove_all(test_dir_, ignored);
    }
}

std::string TestRunner::Run() {
    std::vector<Record> records = ParseTestFile(path_);
    std::map<std::string, std::string> keywords = {{"__TEST_DIR__", test_dir_},
                                                   {"{TEST_DIR}", test_dir_},
                                                   {"{TEMP_DIR}", test_dir_},
                                                   {"{DATA_DIR}", "data"},
                                                   {"${DATA_DIR}", "data"}};
    RunRange(records, 0, records.size(), keywords);
    return skip_reason_;
}

Connection& TestRunner::ConnectionFor(const std::string& name) {
    auto& connection = connections_[name];
    if (!connection) {
        connection = std::make_unique<Connection>(*database_);
    }
    return *connection;
}

void TestRunner::Restart() {
    connections_.clear();
    database_ = std::make_unique<Database>();
}

bool TestRunner::RunRange(const std::vector<Record>& records, size_t begin, size_t end,
                          const std::map<std::string, std::string>& variables) {
    for (size_t i = begin; i < end; i++) {
        const Record& record = records[i];
        if (record.kind == RecordKind::Loop) {
            size_t depth = 1, close = i + 1;
            for (; close < end && depth > 0; close++) {
                depth += records[close].kind == RecordKind::Loop;
                depth -= records[close].kind == RecordKind::EndLoop;
            }
            if (depth != 0) {
                throw std::runtime_error(path_ + ":" + std::to_string(record.line) +
                                         ": loop without endloop");
            }
            std::vector<std::string> values = record.values;
            if (values.empty()) {
                long from = std::stol(record.arguments[1]), to = std::stol(record.arguments[2]);
                for (long value = from; value < to; value++) {
                    values.push_back(std::to_string(value));
                }
            }
            for (const auto& value : values) {
                auto inner = variables;
                inner[record.arguments[0]] = value;
                if (!RunRange(records, i + 1, close - 1, inner)) {
                    return false;
                }
            }
            i = close - 1;
            continue;
        }
        bool other_engine = record.skip_engine == kEngine ||
                            (!record.only_engine.empty() && record.only_engine != kEngine);
        if (other_engine) {
            continue;
        }
        switch (record.kind) {
        case RecordKind::Halt:
            return false;
        case RecordKind::Require:
            if (!Meets(record.arguments)) {
                skip_reason_ = "require";
                for (const auto& argument : record.arguments) {
                    skip_reason_ += " " + argument;
                }
                return false;
            }
            continue;
        case RecordKind::Load:
            if (!record.arguments.empty()) {
                skip_reason_ = "load of a database file (Sluice databases are in memory)";
                return false;
            }
            continue;
        case RecordKind::Restart:
            Restart();
            continue;
        case RecordKind::ModeSkip:
            skipping_ = true;
            continue;
        case RecordKind::ModeUnskip:
            skipping_ = false;
            continue;
        case RecordKind::EndLoop:
            throw std::runtime_error(path_ + ":" + std::to_string(record.line) +
                                     ": endloop without loop");
        case RecordKind::Ignored:
            continue;
        default:
            break;
        }
        if (skipping_) {
            continue;
        }
        if (hooks_.on_start) {
            hooks_.on_start(record);
        }
        RecordOutcome outcome = RunRecord(record, variables);
        if (!hooks_.on_outcome(record, outcome)) {
            return false;
        }
    }
    return true;
}

RecordOutcome TestRunner::RunRecord(const Record& record,
                                    const std::map<std::string, std::string>& variables) {
    std::string sql = Substitute(record.sql, variables);
    std::unique_ptr<QueryResult> result;
    std::string error;
    try {
        result = ConnectionFor(record.connection).Query(sql);
    } catch (const std::exception& e) {
        error = e.what();
    }
    bool expects_error = record.kind == RecordKind::StatementError;
    if (record.kind == RecordKind::StatementOk ||
        (!expects_error && !error.empty() && record.kind != RecordKind::StatementMaybe)) {
        return error.empty() ? RecordOutcome{} : RecordOutcome{Outcome::Failed, error};
    }
    if (record.kind == RecordKind::StatementError || record.kind == RecordKind::StatementMaybe) {
        if (error.empty()) {
            return expects_error ? RecordOutcome{Outcome::NoError,
                                                 "statement succeeded but an error was expected"}
                                 : RecordOutcome{};
        }
        std::string expected;
        for (const auto& line : record.expected) {
            expected += (expected.empty() ? "" : "\n") + Substitute(line, variables);
        }
        bool matches = expected.empty() || error.find(expected) != std::string::npos;
        if (!matches && expected.rfind("<REGEX>:", 0) == 0) {
            try {
                matches = std::regex_search(error, std::regex(expected.substr(8)));
            } catch (const std::regex_error&) {
                matches = false;
            }
        }
        return matches ? RecordOutcome{}
                       : RecordOutcome{Outcome::WrongMessage,
                                       "expected to contain: " + expected + "\nactual: " + error};
    }
    return CheckQuery(record, *result, variables);
}

RecordOutcome TestRunner::CheckQuery(const Record& record, QueryResult& result,
                                     const std::map<std::string, std::string>& variables) {
    size_t columns = record.column_types.size();
    if (result.ColumnCount() != columns) {
        return {Outcome::WrongResult, "expected " + std::to_string(columns) + " columns, got " +
                                          std::to_string(result.ColumnCount())};
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
    std::vector<std::string> expected_lines;
    for (const auto& line : record.expected) {
        expected_lines.push_back(Substitute(line, variables));
    }
    // Rows as DuckDB's runner orders them, then their values in a row (the expected rows too,
    // so files may list them in any order).
    auto values_of = [&](std::vector<std::vector<std::string>>& list) {
        if (record.sort == SortMode::Rows) {
            std::sort(list.begin(), list.end());
        }
        std::vector<std::string> values;
        for (const auto& row : list) {
            values.insert(values.end(), row.begin(), row.end());
        }
        if (record.sort == SortMode::Values) {
            std::sort(values.begin(), values.end());
        }
        return values;
    };
    std::vector<std::string> actual_values = values_of(rows);
    auto shown_actual = [&] {
        std::vector<std::string> lines;
        for (const auto& row : rows) {
            std::string line;
            for (size_t c = 0; c < row.size(); c++) {
                line += (c ? "\t" : "") + row[c];
            }
            lines.push_back(line);
        }
        return lines;
    };
    auto mismatch = [&](const std::string& what) {
        return RecordOutcome{Outcome::WrongResult, what + "\nexpected:\n" + Show(expected_lines) +
                                                       "actual:\n" + Show(shown_actual())};
    };
    static const std::regex kHash("^([0-9]+) values hashing to ([0-9a-f]{32})$");
    std::smatch hashed;
    if (expected_lines.size() == 1 && std::regex_match(expected_lines[0], hashed, kHash)) {
        if (std::to_string(actual_values.size()) != hashed[1].str() ||
            Md5(actual_values) != hashed[2].str()) {
            return mismatch(std::to_string(actual_values.size()) + " values hashing to " +
                            Md5(actual_values));
        }
        return {};
    }
    if (!record.label.empty() && expected_lines.empty()) {
        // A labelled query without results: its result is compared with the label's.
        auto [stored, fresh] = labelled_.try_emplace(record.label, actual_values);
        return fresh || stored->second == actual_values
                   ? RecordOutcome{}
                   : mismatch("a result other than label " + record.label + "'s");
    }
    std::vector<std::vector<std::string>> expected_rows;
    for (const auto& line : expected_lines) {
        std::vector<std::string> cells = Split(line, '\t');
        if (cells.size() > columns) {
            // Doubled or trailing tabs, which DuckDB's runner reads past.
            cells.erase(std::remove(cells.begin(), cells.end(), std::string()), cells.end());
        }
        if (cells.size() != columns && columns == 1) {
            cells = {line};
        }
        expected_rows.push_back(std::move(cells));
    }
    std::vector<std::string> expected_values = values_of(expected_rows);
    if (expected_values.size() != actual_values.size()) {
        return mismatch(std::to_string(rows.size()) + " rows, expected " +
                        std::to_string(expected_rows.size()));
    }
    for (size_t i = 0; i < actual_values.size(); i++) {
        const LogicalType& type = result.types()[i % columns];
        if (!SameValue(actual_values[i], expected_values[i], type)) {
            return mismatch("row " + std::to_string(i / columns + 1) + " column " +
                            std::to_string(i % columns + 1) + ": " + actual_values[i] +
                            ", expected " + expected_values[i]);
        }
    }
    if (!record.label.empty()) {
        labelled_.try_emplace(record.label, actual_values);
    }
    return {};
}

} // namespace sluice::sqllogic
