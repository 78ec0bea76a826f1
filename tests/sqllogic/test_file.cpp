#include "test_file.hpp"

#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace sluice::sqllogic {

namespace {

std::vector<std::string> Words(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> words;
    std::string word;
    while (in >> word) {
        words.push_back(word);
    }
    return words;
}

bool Blank(const std::string& line) {
    return line.find_first_not_of(" \t\r") == std::string::npos;
}

// foreach's named value lists, as DuckDB's runner expands them.
std::vector<std::string> ExpandForeachValue(const std::string& value) {
    static const std::vector<std::string> kSigned = {"tinyint", "smallint", "integer", "bigint",
                                                     "hugeint"};
    static const std::vector<std::string> kUnsigned = {"utinyint", "usmallint", "uinteger",
                                                       "ubigint", "uhugeint"};
    std::vector<std::string> integral = kSigned;
    integral.insert(integral.end(), kUnsigned.begin(), kUnsigned.end());
    std::vector<std::string> numeric = integral;
    numeric.insert(numeric.end(), {"float", "double"});
    static const std::map<std::string, std::vector<std::string>> kLists = {
        {"<signed>", kSigned},
        {"<unsigned>", kUnsigned},
        {"<integral>", integral},
        {"<numeric>", numeric},
        {"<alltypes>",
         [&] {
             std::vector<std::string> all = numeric;
             all.insert(all.end(), {"bool", "interval", "varchar"});
             return all;
         }()},
        {"<compression>",
         {"none", "uncompressed", "rle", "bitpacking", "dictionary", "fsst", "alp", "alprd",
          "chimp", "patas"}},
    };
    auto found = kLists.find(value);
    return found == kLists.end() ? std::vector<std::string>{value} : found->second;
}

// The kind a record's first word names, for those that are a single line.
bool OneLineKind(const std::vector<std::string>& words, RecordKind& kind) {
    static const std::map<std::string, RecordKind> kKinds = {
        {"require", RecordKind::Require},
        {"endloop", RecordKind::EndLoop},
        {"halt", RecordKind::Halt},
        {"load", RecordKind::Load},
        {"restart", RecordKind::Restart},
        {"sleep", RecordKind::Ignored},
        {"hash-threshold", RecordKind::Ignored},
        {"tags", RecordKind::Ignored},
        {"unzip", RecordKind::Ignored},
        {"continue", RecordKind::Ignored},
        {"reconnect", RecordKind::Ignored},
        {"require-env", RecordKind::Require},
        {"test-env", RecordKind::Ignored},
        {"set", RecordKind::Ignored},
        {"reset", RecordKind::Ignored},
    };
    if (words[0] == "mode") {
        kind = words.size() > 1 && words[1] == "skip"     ? RecordKind::ModeSkip
               : words.size() > 1 && words[1] == "unskip" ? RecordKind::ModeUnskip
                                                          : RecordKind::Ignored;
        return true;
    }
    auto found = kKinds.find(words[0]);
    if (found == kKinds.end()) {
        return false;
    }
    kind = found->second;
    return true;
}

// query's words after the types: a sort mode, then a label or connection name.
void ParseQueryHeader(const std::vector<std::string>& words, Record& record) {
    record.column_types = words[1];
    size_t next = 2;
    if (words.size() > 2) {
        static const std::map<std::string, SortMode> kModes = {{"nosort", SortMode::None},
                                                               {"rowsort", SortMode::Rows},
                                                               {"sort", SortMode::Rows},
                                                               {"valuesort", SortMode::Values}};
        if (auto mode = kModes.find(words[2]); mode != kModes.end()) {
            record.sort = mode->second;
            next = 3;
        }
    }
    if (next < words.size()) {
        // DuckDB's tests name connections conN; any other word labels the result.
        (words[next].rfind("con", 0) == 0 ? record.connection : record.label) = words[next];
    }
}

} // namespace

std::vector<Record> ParseTestFile(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        throw std::runtime_error("cannot open " + path);
    }
    std::vector<std::string> lines;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        lines.push_back(line);
    }
    std::vector<Record> records;
    std::string skip_engine, only_engine;
    size_t i = 0;
    auto fail = [&](const std::string& message) {
        throw std::runtime_error(path + ":" + std::to_string(i + 1) + ": " + message);
    };
    while (i < lines.size()) {
        if (Blank(lines[i]) || lines[i][0] == '#') {
            i++;
            continue;
        }
        std::vector<std::string> words = Words(lines[i]);
        if (words[0] == "skipif" || words[0] == "onlyif") {
            if (words.size() < 2) {
                fail(words[0] + " needs an engine name");
            }
            (words[0] == "skipif" ? skip_engine : only_engine) = words[1];
            i++;
            continue;
        }
        Record record;
        record.line = static_cast<int>(i + 1);
        record.skip_engine = skip_engine;
        record.only_engine = only_engine;
        skip_engine.clear();
        only_engine.clear();
        if (OneLineKind(words, record.kind)) {
            record.arguments.assign(words.begin() + 1, words.end());
            records.push_back(record);
            i++;
            continue;
        }
        if (words[0] == "loop" || words[0] == "concurrentloop") {
            if (words.size() != 4) {
                fail("loop takes: loop <name> <start> <end>");
            }
            record.kind = RecordKind::Loop;
            record.arguments.assign(words.begin() + 1, words.end());
            records.push_back(record);
            i++;
            continue;
        }
        if (words[0] == "foreach" || words[0] == "concurrentforeach") {
            if (words.size() < 3) {
                fail("foreach takes: foreach <name> <values...>");
            }
            record.kind = RecordKind::Loop;
            record.arguments = {words[1]};
            for (size_t w = 2; w < words.size(); w++) {
                for (auto& value : ExpandForeachValue(words[w])) {
                    record.values.push_back(value);
                }
            }
            records.push_back(record);
            i++;
            continue;
        }
        if (words[0] == "statement") {
            static const std::map<std::string, RecordKind> kStatements = {
                {"ok", RecordKind::StatementOk},
                {"error", RecordKind::StatementError},
                {"maybe", RecordKind::StatementMaybe}};
            auto kind = words.size() < 2 ? kStatements.end() : kStatements.find(words[1]);
            if (kind == kStatements.end()) {
                fail("expected 'statement ok', 'statement error' or 'statement maybe'");
            }
            record.kind = kind->second;
            if (words.size() > 2) {
                record.connection = words[2];
            }
        } else if (words[0] == "query") {
            if (words.size() < 2) {
                fail("query needs column types, e.g. 'query IT'");
            }
            record.kind = RecordKind::Query;
            ParseQueryHeader(words, record);
        } else {
            fail("unknown record '" + words[0] + "'");
        }
        i++;
        while (i < lines.size() && !Blank(lines[i]) && lines[i] != "----") {
            record.sql += lines[i] + "\n";
            i++;
        }
        if (record.sql.empty()) {
            fail("record without SQL");
        }
        if (i < lines.size() && lines[i] == "----") {
            record.has_expected = true;
            i++;
            while (i < lines.size() && !Blank(lines[i])) {
                record.expected.push_back(lines[i]);
                i++;
            }
        }
        if (record.kind == RecordKind::Query && !record.has_expected && record.label.empty()) {
            fail("query without ---- and expected results");
        }
        records.push_back(std::move(record));
    }
    return records;
}

} // namespace sluice::sqllogic
