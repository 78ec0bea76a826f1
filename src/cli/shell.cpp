#include "cli/shell.hpp"

#include "cli/query_monitor.hpp"

#include "common/exception.hpp"
#include "common/string_util.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

#include <editline/readline.h>

namespace sluice {

namespace {

double CpuSeconds(bool user) {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const timeval& time = user ? usage.ru_utime : usage.ru_stime;
    return static_cast<double>(time.tv_sec) + time.tv_usec / 1e6;
}

} // namespace

bool IsCompleteStatement(const std::string& text) {
    bool complete = false;
    for (size_t i = 0; i < text.size(); i++) {
        char c = text[i];
        if (c == '\'' || c == '"') {
            size_t close = text.find(c, i + 1);
            while (close != std::string::npos && close + 1 < text.size() && text[close + 1] == c) {
                close = text.find(c, close + 2);
            }
            if (close == std::string::npos) {
                return false;
            }
            i = close;
            complete = false;
        } else if (c == '-' && i + 1 < text.size() && text[i + 1] == '-') {
            size_t end = text.find('\n', i);
            if (end == std::string::npos) {
                return complete;
            }
            i = end;
        } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
            size_t end = text.find("*/", i + 2);
            if (end == std::string::npos) {
                return false;
            }
            i = end + 1;
        } else if (c == ';') {
            complete = true;
        } else if (!std::isspace(static_cast<unsigned char>(c))) {
            complete = false;
        }
    }
    return complete;
}

bool Shell::RunStatements(const std::string& sql) {
    if (Trim(sql).empty()) {
        return true;
    }
    auto start = std::chrono::steady_clock::now();
    double user = CpuSeconds(true), system = CpuSeconds(false);
    bool ok = true;
    try {
        const Settings& settings = connection_.database().settings();
        QueryMonitor monitor(connection_, settings.GetBoolean("enable_progress_bar"), "",
                             std::chrono::milliseconds(settings.GetInteger("progress_bar_time")));
        connection_.QueryEach(sql, [&](std::unique_ptr<QueryResult> result) {
            RenderResult(*result, options_, Out());
            Out().flush();
        });
    } catch (const Exception& error) {
        std::cerr << error.what() << std::endl;
        ok = false;
    } catch (const std::exception& error) {
        std::cerr << "INTERNAL Error: " << error.what() << std::endl;
        ok = false;
    }
    once_.reset(); // .once covers one statement's results, failed or not
    if (timer_) {
        double real =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("Run Time (s): real %.3f user %.6f sys %.6f\n", real, CpuSeconds(true) - user,
                    CpuSeconds(false) - system);
    }
    return ok;
}

std::ostream& Shell::Out() {
    if (once_) {
        return *once_;
    }
    if (output_) {
        return *output_;
    }
    return std::cout;
}

void Shell::PrintHelp() {
    std::cout << ".bail on|off           Stop after the first error (batch input)\n"
                 ".exit                  Leave the shell (also .quit, Ctrl-D)\n"
                 ".help                  Show this message\n"
                 ".maxrows N             Show at most N rows in box mode (0: all; default 40)\n"
                 ".mode box|csv|json|line|markdown  Set the output mode\n"
                 ".nullvalue TEXT        Print NULL as TEXT\n"
                 ".once FILE             Write the next statement's results to FILE\n"
                 ".output [FILE]         Write results to FILE (to the terminal without one)\n"
                 ".read FILE             Run the statements in FILE\n"
                 ".schema [PATTERN]      Show the CREATE statements of tables and views\n"
                 ".tables [PATTERN]      List the tables and views\n"
                 ".timer on|off          Print the run time of each statement\n"
                 ".width N1 N2 ...       Least widths of the columns in box and markdown modes\n";
}

bool Shell::Redirect(const std::string& path, bool once) {
    if (path.empty()) {
        if (once) {
            std::cerr << "Error: .once takes a file name" << std::endl;
            return false;
        }
        output_.reset();
        return true;
    }
    auto file = std::make_unique<std::ofstream>(path, std::ios::trunc);
    if (!*file) {
        std::cerr << "IO Error: cannot open \"" << path << "\" for writing" << std::endl;
        return false;
    }
    (once ? once_ : output_) = std::move(file);
    return true;
}

std::optional<std::vector<std::string>> Shell::TablesColumn(const std::string& column,
                                                            const std::string& pattern) {
    std::string sql = "SELECT " + column + " FROM sluice_tables()";
    std::vector<Value> parameters;
    if (!pattern.empty()) {
        sql += " WHERE name ILIKE ?";
        parameters.push_back(Value::Varchar(pattern));
    }
    std::vector<std::string> values;
    try {
        auto result = connection_.Query(sql + " ORDER BY name", parameters);
        while (auto chunk = result->Fetch()) {
            for (idx_t row = 0; row < chunk->size(); row++) {
                values.push_back(chunk->GetValue(0, row).ToString());
            }
        }
    } catch (const Exception& error) {
        std::cerr << error.what() << std::endl;
        return std::nullopt;
    }
    return values;
}

bool Shell::ListTables(const std::string& pattern) {
    auto names = TablesColumn("name", pattern);
    if (!names) {
        return false;
    }
    size_t width = 0;
    for (const auto& name : *names) {
        width = std::max(width, name.size());
    }
    // In columns, as DuckDB and SQLite list them: down each column, 80 characters wide.
    size_t columns = std::max<size_t>(1, 80 / (width + 2));
    size_t rows = (names->size() + columns - 1) / columns;
    for (size_t r = 0; r < rows; r++) {
        std::string line;
        for (size_t c = 0; c < columns && c * rows + r < names->size(); c++) {
            const std::string& name = (*names)[c * rows + r];
            line += name + std::string(width + 2 - name.size(), ' ');
        }
        Out() << line.substr(0, line.find_last_not_of(' ') + 1) << "\n";
    }
    return true;
}

bool Shell::PrintSchema(const std::string& pattern) {
    auto statements = TablesColumn("sql", pattern);
    if (!statements) {
        return false;
    }
    for (const auto& statement : *statements) {
        Out() << statement << "\n";
    }
    return true;
}

namespace {

// `.command on|off` into `flag`.
bool SetSwitch(const std::string& command, const std::string& argument, bool& flag) {
    if (argument != "on" && argument != "off") {
        std::cerr << "Error: " << command << " takes on or off" << std::endl;
        return false;
    }
    flag = argument == "on";
    return true;
}

} // namespace

bool Shell::RunDotCommand(const std::string& line) {
    std::istringstream words(line);
    std::string command, argument;
    words >> command >> argument;
    if (command == ".bail") {
        return SetSwitch(command, argument, bail_);
    }
    if (command == ".maxrows") {
        char* end = nullptr;
        long rows = std::strtol(argument.c_str(), &end, 10);
        if (argument.empty() || *end != '\0' || rows < 0) {
            std::cerr << "Error: .maxrows takes a row count (0 for all)" << std::endl;
            return false;
        }
        options_.max_rows = static_cast<size_t>(rows);
        return true;
    }
    if (command == ".width") {
        std::vector<size_t> widths;
        for (std::string word = argument; !word.empty(); word.clear(), words >> word) {
            char* end = nullptr;
            long width = std::strtol(word.c_str(), &end, 10);
            if (*end != '\0' || width < 0 || width > 10000) {
                std::cerr << "Error: .width takes column widths (0 to 10000)" << std::endl;
                return false;
            }
            widths.push_back(static_cast<size_t>(width));
        }
        options_.widths = widths;
        return true;
    }
    if (command == ".output" || command == ".once") {
        return Redirect(argument, command == ".once");
    }
    if (command == ".tables") {
        return ListTables(argument);
    }
    if (command == ".schema") {
        return PrintSchema(argument);
    }
    if (command == ".exit" || command == ".quit") {
        exit_requested_ = true;
        return true;
    }
    if (command == ".help") {
        PrintHelp();
        return true;
    }
    if (command == ".timer") {
        return SetSwitch(command, argument, timer_);
    }
    if (command == ".mode") {
        if (!ParseOutputMode(argument, options_.mode)) {
            std::cerr << "Error: unknown mode \"" << argument
                      << "\"; use box, csv, json, line or markdown" << std::endl;
            return false;
        }
        return true;
    }
    if (command == ".nullvalue") {
        options_.null_text = argument;
        return true;
    }
    if (command == ".read") {
        if (argument.empty()) {
            std::cerr << "Error: .read takes a file name" << std::endl;
            return false;
        }
        return RunFile(argument);
    }
    std::cerr << "Error: unknown command \"" << command << "\"; .help lists the commands"
              << std::endl;
    return false;
}

bool Shell::RunCommand(const std::string& text) {
    std::string trimmed(Trim(text));
    if (!trimmed.empty() && trimmed[0] == '.') {
        return RunDotCommand(trimmed);
    }
    return RunStatements(text);
}

bool Shell::RunFile(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        std::cerr << "IO Error: cannot open file \"" << path << "\"" << std::endl;
        return false;
    }
    return RunStream(in);
}

bool Shell::RunStream(std::istream& in) {
    bool ok = true;
    std::string buffer, line;
    while (!exit_requested_ && (ok || !bail_) && std::getline(in, line)) {
        if (Trim(buffer).empty() && !Trim(line).empty() && Trim(line)[0] == '.') {
            ok = RunDotCommand(std::string(Trim(line))) && ok;
            buffer.clear();
            continue;
        }
        buffer += line + "\n";
        if (IsCompleteStatement(buffer)) {
            ok = RunStatements(buffer) && ok;
            buffer.clear();
        }
    }
    if (!exit_requested_ && (ok || !bail_) && !Trim(buffer).empty()) {
        ok = RunStatements(buffer) && ok; // a last statement without ';'
    }
    return ok;
}

void Shell::RunInteractive() {
    std::string history;
    if (const char* home = std::getenv("HOME")) {
        history = std::string(home) + "/.sluice_history";
        read_history(history.c_str());
    }
    std::cout << "Sluice shell. Enter \".help\" for usage hints.\n";
    std::string buffer;
    while (!exit_requested_) {
        char* raw = readline(buffer.empty() ? "S " : "> ");
        if (!raw) {
            std::cout << "\n";
            break;
        }
        std::string line = raw;
        std::free(raw);
        if (buffer.empty() && Trim(line).empty()) {
            continue;
        }
        if (buffer.empty() && Trim(line)[0] == '.') {
            add_history(line.c_str());
            RunDotCommand(std::string(Trim(line)));
            continue;
        }
        buffer += line + "\n";
        if (IsCompleteStatement(buffer)) {
            std::string entry(Trim(buffer));
            add_history(entry.c_str());
            RunStatements(buffer);
            buffer.clear();
        }
    }
    if (!history.empty()) {
        write_history(history.c_str());
    }
}

} // namespace sluice
