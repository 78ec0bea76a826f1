#include "test_file.hpp"

#include <fstream>
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
        if (words[0] == "require") {
            record.kind = RecordKind::Require;
            record.arguments.assign(words.begin() + 1, words.end());
            records.push_back(record);
            i++;
            continue;
        }
        if (words[0] == "loop") {
            if (words.size() != 4) {
                fail("loop takes: loop <name> <start> <end>");
            }
            record.kind = RecordKind::Loop;
            record.arguments.assign(words.begin() + 1, words.end());
            records.push_back(record);
            i++;
            continue;
        }
        if (words[0] == "endloop") {
            record.kind = RecordKind::EndLoop;
            records.push_back(record);
            i++;
            continue;
        }
        if (words[0] == "halt") {
            record.kind = RecordKind::Halt;
            records.push_back(record);
            i++;
            continue;
        }
        if (words[0] == "statement") {
            if (words.size() < 2 || (words[1] != "ok" && words[1] != "error")) {
                fail("expected 'statement ok' or 'statement error'");
            }
            record.kind = words[1] == "ok" ? RecordKind::StatementOk : RecordKind::StatementError;
        } else if (words[0] == "query") {
            if (words.size() < 2) {
                fail("query needs column types, e.g. 'query IT'");
            }
            record.kind = RecordKind::Query;
            record.column_types = words[1];
            if (words.size() > 2) {
                if (words[2] == "rowsort") {
                    record.sort = SortMode::Rows;
                } else if (words[2] == "valuesort") {
                    record.sort = SortMode::Values;
                } else if (words[2] != "nosort") {
                    fail("unknown sort mode " + words[2]);
                }
            }
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
        if (record.kind == RecordKind::Query && !record.has_expected) {
            fail("query without ---- and expected results");
        }
        records.push_back(std::move(record));
    }
    return records;
}

} // namespace sluice::sqllogic
