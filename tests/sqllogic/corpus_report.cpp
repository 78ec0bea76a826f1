// Runs every record of many DuckDB-style .test files, past failures, and classifies each record
// that does not pass: a different answer without an error, an INTERNAL error, a crash, a missing
// function, a syntax error ... Each file runs in a child process of its own (forked, so a crash or
// a hang loses only that file), with the corpus root as its working directory, several at once.
//
//   sqllogic_report ROOT OUT_DIR [--jobs N] [--timeout SECONDS] [PATH ...]
//
// PATHs (files or folders under ROOT, default test/sql) are searched for .test files. Writes
// OUT_DIR/files.tsv (per file: records by class, or why it was skipped), OUT_DIR/folders.tsv (the
// same by folder), OUT_DIR/records.tsv (every record that did not pass, with its class and the
// first line of what happened) and OUT_DIR/defects.tsv (the records that must not be: a wrong
// answer without an error, an INTERNAL error, a crash, a hang), and prints the totals by class.
// With --check, a defect not in the given list fails (exit 1). Exit 77 without the corpus.
#include "test_runner.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

using namespace sluice::sqllogic;
namespace fs = std::filesystem;

namespace {

// The class of a record that ran, from its outcome and message.
std::string Classify(const RecordOutcome& outcome) {
    const std::string& message = outcome.message;
    if (message.find("INTERNAL Error") != std::string::npos) {
        return "internal";
    }
    switch (outcome.outcome) {
    case Outcome::Passed:
        return "passed";
    case Outcome::WrongResult:
        return "wrong";
    case Outcome::NoError:
        return "no-error";
    case Outcome::WrongMessage:
        return "wrong-message";
    case Outcome::Failed:
        break;
    }
    auto starts = [&](const char* prefix) { return message.rfind(prefix, 0) == 0; };
    if (starts("Parser Error")) {
        return "syntax";
    }
    if (starts("Not implemented Error")) {
        return "not-implemented";
    }
    if (starts("Catalog Error") && message.find("Function with name") != std::string::npos) {
        return "missing-function";
    }
    if (starts("Catalog Error") && message.find("does not exist") != std::string::npos) {
        return "missing-object"; // often a statement before it that failed
    }
    return "error";
}

std::string OneLine(std::string text, size_t limit = 240) {
    for (char& c : text) {
        if (c == '\n' || c == '\t' || c == '\r') {
            c = ' ';
        }
    }
    return text.size() > limit ? text.substr(0, limit) + "..." : text;
}

// Runs one file in this (child) process, writing its progress to `out`, one line each:
// S <line> when a record starts, R <line> <class> <message> when one did not pass, P when one
// passed, K <reason> when the file is skipped.
void RunFile(const std::string& path, int out) {
    auto write_line = [out](const std::string& line) {
        std::string text = line + "\n";
        for (size_t done = 0; done < text.size();) {
            ssize_t n = write(out, text.data() + done, text.size() - done);
            if (n <= 0) {
                _exit(3);
            }
            done += static_cast<size_t>(n);
        }
    };
    TestRunner::Hooks hooks;
    hooks.on_start = [&](const Record& record) { write_line("S\t" + std::to_string(record.line)); };
    // A different answer after an earlier record failed (a table not made, a setting not
    // taken) is told apart: it may follow from that failure rather than be wrong by itself.
    bool earlier_failure = false;
    hooks.on_outcome = [&](const Record& record, const RecordOutcome& outcome) {
        std::string kind = Classify(outcome);
        if (kind == "wrong" && earlier_failure) {
            kind = "wrong-after-error";
        }
        bool explain = record.sql.find_first_not_of(" \n") != std::string::npos &&
                       (record.sql.rfind("EXPLAIN", record.sql.find_first_not_of(" \n")) == 0 ||
                        record.sql.rfind("explain", record.sql.find_first_not_of(" \n")) == 0);
        if (kind == "wrong" && explain) {
            kind = "explain"; // a plan drawn otherwise than DuckDB's
        }
        earlier_failure = earlier_failure || kind != "passed";
        write_line(kind == "passed" ? "P"
                                    : "R\t" + std::to_string(record.line) + "\t" + kind + "\t" +
                                          OneLine(outcome.message));
        return true;
    };
    try {
        std::string skipped = TestRunner(path, hooks).Run();
        if (!skipped.empty()) {
            write_line("K\t" + OneLine(skipped));
        }
    } catch (const std::exception& error) {
        write_line("K\tcannot run: " + OneLine(error.what()));
    }
}

// A tab-separated line's fields.
std::vector<std::string> Fields(const std::string& line) {
    std::vector<std::string> fields;
    size_t start = 0;
    for (size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1) {
        fields.push_back(line.substr(start, tab - start));
    }
    fields.push_back(line.substr(start));
    return fields;
}

struct FileReport {
    std::string path;
    std::map<std::string, int> counts;
    std::vector<std::string> records; // line, class, message
    std::string skipped;
    std::string last_started;
};

struct Child {
    pid_t pid;
    int pipe;
    std::string buffer;
    FileReport report;
    std::chrono::steady_clock::time_point started;
    bool timed_out = false;
};

void Consume(Child& child, const std::string& data) {
    child.buffer += data;
    size_t newline;
    while ((newline = child.buffer.find('\n')) != std::string::npos) {
        std::string line = child.buffer.substr(0, newline);
        child.buffer.erase(0, newline + 1);
        FileReport& report = child.report;
        if (line == "P") {
            report.counts["passed"]++;
        } else if (line.rfind("S\t", 0) == 0) {
            report.last_started = line.substr(2);
        } else if (line.rfind("K\t", 0) == 0) {
            report.skipped = line.substr(2);
        } else if (line.rfind("R\t", 0) == 0) {
            std::string rest = line.substr(2);
            size_t tab = rest.find('\t');
            size_t second = rest.find('\t', tab + 1);
            report.counts[rest.substr(tab + 1, second - tab - 1)]++;
            report.records.push_back(rest);
        }
    }
}

void Finish(Child& child, int status) {
    FileReport& report = child.report;
    std::string at = report.last_started.empty() ? "0" : report.last_started;
    if (child.timed_out) {
        report.counts["hang"]++;
        report.records.push_back(at + "\thang\tno answer within the timeout");
    } else if (WIFSIGNALED(status)) {
        report.counts["crash"]++;
        report.records.push_back(at + "\tcrash\tsignal " + std::to_string(WTERMSIG(status)) + " (" +
                                 strsignal(WTERMSIG(status)) + ")");
    } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        report.counts["crash"]++;
        report.records.push_back(at + "\tcrash\texit status " +
                                 std::to_string(WEXITSTATUS(status)));
    }
}

std::vector<std::string> FindTests(const fs::path& root, const std::vector<std::string>& paths) {
    std::vector<std::string> files;
    for (const auto& path : paths) {
        fs::path full = root / path;
        if (!fs::exists(full)) {
            std::cerr << "sqllogic_report: no file or folder " << full << "\n";
            std::exit(2);
        }
        if (fs::is_regular_file(full)) {
            files.push_back(path);
            continue;
        }
        for (const auto& entry : fs::recursive_directory_iterator(full)) {
            if (entry.is_regular_file() && entry.path().extension() == ".test") {
                files.push_back(fs::relative(entry.path(), root).string());
            }
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

// Runs `files` (relative to the working directory, the corpus root), `jobs` at once, each in a
// fresh process of this program killed after `timeout` seconds; their reports by path.
std::vector<FileReport> RunAll(const std::vector<std::string>& files, size_t jobs, int timeout) {
    std::vector<FileReport> reports;
    std::vector<Child> running;
    size_t next = 0;
    while (next < files.size() || !running.empty()) {
        while (next < files.size() && running.size() < jobs) {
            int fds[2];
            if (pipe(fds) != 0) {
                perror("pipe");
                std::exit(1);
            }
            std::cout.flush();
            pid_t pid = fork();
            if (pid == 0) {
                // A fresh process of this program runs the file: a fork alone would carry this
                // process's engine threads' state (the scheduler, the trimmer) without the threads.
                close(fds[0]);
                dup2(fds[1], STDOUT_FILENO);
                int null = open("/dev/null", O_WRONLY);
                dup2(null, STDERR_FILENO);
                std::string file = files[next];
                execl("/proc/self/exe", "sqllogic_report", "--run-one", file.c_str(), nullptr);
                _exit(4);
            }
            close(fds[1]);
            Child child{pid, fds[0], "", {}, std::chrono::steady_clock::now()};
            child.report.path = files[next++];
            running.push_back(std::move(child));
        }
        std::vector<pollfd> polls;
        for (const auto& child : running) {
            polls.push_back({child.pipe, POLLIN, 0});
        }
        poll(polls.data(), polls.size(), 500);
        for (size_t i = 0; i < running.size();) {
            Child& child = running[i];
            char data[65536];
            bool ended = false;
            if (polls[i].revents & (POLLIN | POLLHUP | POLLERR)) {
                ssize_t n = read(child.pipe, data, sizeof(data));
                if (n > 0) {
                    Consume(child, std::string(data, static_cast<size_t>(n)));
                } else {
                    ended = true;
                }
            }
            auto elapsed = std::chrono::steady_clock::now() - child.started;
            if (!ended && elapsed > std::chrono::seconds(timeout)) {
                child.timed_out = true;
                kill(child.pid, SIGKILL);
                ended = true;
            }
            if (!ended) {
                i++;
                continue;
            }
            int status = 0;
            waitpid(child.pid, &status, 0);
            close(child.pipe);
            Finish(child, status);
            reports.push_back(std::move(child.report));
            polls.erase(polls.begin() + static_cast<std::ptrdiff_t>(i));
            running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
        }
    }
    std::sort(reports.begin(), reports.end(),
              [](const FileReport& a, const FileReport& b) { return a.path < b.path; });
    return reports;
}

const std::vector<std::string> kClasses = {"passed",
                                           "wrong",
                                           "wrong-after-error",
                                           "explain",
                                           "no-error",
                                           "internal",
                                           "crash",
                                           "hang",
                                           "wrong-message",
                                           "syntax",
                                           "missing-function",
                                           "not-implemented",
                                           "missing-object",
                                           "error"};

// The classes a record must never be in: a different answer without an error (before any other
// failure in its file), an INTERNAL error, a crash, a hang.
bool IsDefect(const std::string& kind) {
    return kind == "wrong" || kind == "internal" || kind == "crash" || kind == "hang";
}

void WriteCounts(std::ofstream& table, const std::string& name,
                 const std::map<std::string, int>& counts) {
    table << name;
    for (const auto& kind : kClasses) {
        auto found = counts.find(kind);
        table << "\t" << (found == counts.end() ? 0 : found->second);
    }
}

// files.tsv, folders.tsv, records.tsv and defects.tsv (file, line, class: each defect once);
// prints the totals.
void WriteTables(const fs::path& out_dir, const std::vector<FileReport>& reports) {
    std::ofstream file_table(out_dir / "files.tsv");
    std::ofstream folder_table(out_dir / "folders.tsv");
    std::ofstream record_table(out_dir / "records.tsv");
    std::ofstream defect_table(out_dir / "defects.tsv");
    std::string header;
    for (const auto& kind : kClasses) {
        header += "\t" + kind;
    }
    file_table << "file" << header << "\tskipped\n";
    folder_table << "folder" << header << "\n";
    record_table << "file\tline\tclass\tmessage\n";
    defect_table << "file\tline\tclass\tmessage\n";
    std::map<std::string, std::map<std::string, int>> folders;
    std::map<std::string, int> totals;
    int skipped_files = 0;
    for (const auto& report : reports) {
        WriteCounts(file_table, report.path, report.counts);
        file_table << "\t" << report.skipped << "\n";
        std::set<std::string> defects;
        for (const auto& record : report.records) {
            record_table << report.path << "\t" << record << "\n";
            std::vector<std::string> parts = Fields(record);
            if (IsDefect(parts[1]) && defects.insert(parts[0] + "\t" + parts[1]).second) {
                defect_table << report.path << "\t" << record << "\n";
            }
        }
        skipped_files += !report.skipped.empty();
        for (const auto& [kind, count] : report.counts) {
            folders[fs::path(report.path).parent_path().string()][kind] += count;
            totals[kind] += count;
        }
    }
    for (const auto& [folder, counts] : folders) {
        WriteCounts(folder_table, folder, counts);
        folder_table << "\n";
    }
    std::cout << reports.size() << " files (" << skipped_files << " skipped by require or load)\n";
    int all = 0;
    for (const auto& kind : kClasses) {
        std::cout << "  " << kind << ": " << totals[kind] << "\n";
        all += totals[kind];
    }
    std::cout << "  records run: " << all << "\n";
}

// Whether the record at `line` of `file` comes out as `kind` in each of two more runs of its file.
// An answer that differs from run to run is an order SQL leaves open that DuckDB's test assumes
// (string_agg without ORDER BY over a UNION ALL), not a defect of its own.
bool Reproduces(const std::string& file, const std::string& line, const std::string& kind,
                int timeout) {
    for (int run = 0; run < 2; run++) {
        std::vector<FileReport> again = RunAll({file}, 1, timeout);
        bool seen = false;
        for (const auto& record : again[0].records) {
            std::vector<std::string> parts = Fields(record);
            seen = seen || (parts[0] == line && parts[1] == kind);
        }
        if (!seen) {
            return false;
        }
    }
    return true;
}

// The defects of `reports` against the list `known` (a defects.tsv): those not in it that come
// back in two more runs of their file are new and fail, but for hangs, which depend on the
// machine's load (they are printed); those in the list no longer found are reported as fixed,
// to take off it.
bool CheckDefects(const std::string& known_path, const std::vector<FileReport>& reports,
                  int timeout) {
    std::set<std::string> known, found;
    std::ifstream in(known_path);
    std::string line;
    std::getline(in, line); // header
    while (std::getline(in, line)) {
        std::vector<std::string> parts = Fields(line);
        if (parts.size() >= 3) {
            known.insert(parts[0] + ":" + parts[1] + " " + parts[2]);
        }
    }
    bool clean = true;
    for (const auto& report : reports) {
        for (const auto& record : report.records) {
            std::vector<std::string> parts = Fields(record);
            std::string key = report.path + ":" + parts[0] + " " + parts[1];
            if (!IsDefect(parts[1]) || !found.insert(key).second || known.count(key)) {
                continue;
            }
            std::string message = parts.size() > 2 ? parts[2] : "";
            if (parts[1] != "hang" && !Reproduces(report.path, parts[0], parts[1], timeout)) {
                std::cout << "UNSTABLE " << key << " (not in every run): " << message << "\n";
                continue;
            }
            std::cout << "NEW " << key << ": " << message << "\n";
            clean = clean && parts[1] == "hang";
        }
    }
    for (const auto& key : known) {
        if (!found.count(key)) {
            std::cout << "FIXED " << key << " (take it off " << known_path << ")\n";
        }
    }
    return clean;
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--run-one") {
        RunFile(argv[2], STDOUT_FILENO);
        return 0;
    }
    if (argc < 3) {
        std::cerr << "usage: sqllogic_report ROOT OUT_DIR [--jobs N] [--timeout SECONDS] "
                     "[--check DEFECTS.tsv] [PATH ...]\n";
        return 2;
    }
    fs::path root = fs::absolute(argv[1]);
    fs::path out_dir = fs::absolute(argv[2]);
    size_t jobs = 2;
    int timeout = 60;
    std::string known;
    std::vector<std::string> paths;
    for (int i = 3; i < argc; i++) {
        std::string argument = argv[i];
        if ((argument == "--jobs" || argument == "--timeout") && i + 1 < argc) {
            int value = std::atoi(argv[++i]);
            if (argument == "--jobs") {
                jobs = static_cast<size_t>(std::max(value, 1));
            } else {
                timeout = value;
            }
        } else if (argument == "--check" && i + 1 < argc) {
            known = fs::absolute(argv[++i]).string();
        } else {
            paths.push_back(argument);
        }
    }
    if (!fs::exists(root / "test/sql")) {
        std::cout << "SKIPPED: no DuckDB test corpus at " << root << "\n";
        return 77;
    }
    if (paths.empty()) {
        paths.push_back("test/sql");
    }
    std::vector<std::string> files = FindTests(root, paths);
    fs::create_directories(out_dir);
    fs::current_path(root);
    signal(SIGPIPE, SIG_IGN);
    std::vector<FileReport> reports = RunAll(files, jobs, timeout);
    WriteTables(out_dir, reports);
    return known.empty() || CheckDefects(known, reports, timeout) ? 0 : 1;
}
