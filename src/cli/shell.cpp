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
        QueryMonitor monitor(connection_,
                             connection_.database().settings().GetBoolean("enable_progress_bar"));
        connection_.QueryEach(sql, [&](std::unique_ptr<QueryResult> result) {
            RenderResult(*result, mode_, std::cout, null_value_);
            std::cout.flush();
        });
    } catch (const Exception& error) {
        std::cerr << error.what() << std::endl;
        ok = false;
    } catch (const std::exception& error) {
        std::cerr << "INTERNAL Error: " << error.what() << std::endl;
        ok = false;
    }
    if (timer_) {
        double real =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("Run Time (s): real %.3f user %.6f sys %.6f\n", real, CpuSeconds(true) - user,
                    CpuSeconds(false) - system);
    }
    return ok;
}

void Shell::PrintHelp() {
    std::cout << ".exit                  Leave the shell (also .quit, Ctrl-D)\n"
                 ".help                  Show this message\n"
                 ".mode box|csv|json|line  Set the output mode\n"
                 ".nullvalue TEXT         Print NULL as TEXT\n"
                 ".read FILE             Run the statements in FILE\n"
                 ".timer on|off          Print the run time of each statement\n";
}

bool Shell::RunDotCommand(const std::string& line) {
    std::istringstream words(line);
    std::string command, argument;
    words >> command >> argument;
    if (command == ".exit" || command == ".quit") {
        exit_requested_ = true;
        return true;
    }
    if (command == ".help") {
        PrintHelp();
        return true;
    }
    if (command == ".timer") {
        if (argument != "on" && argument != "off") {
            std::cerr << "Error: .timer takes on or off" << std::endl;
            return false;
        }
        timer_ = argument == "on";
        return true;
    }
    if (command == ".mode") {
        if (!ParseOutputMode(argument, mode_)) {
            std::cerr << "Error: unknown mode \"" << argument << "\"; use box, csv, json or line"
                      << std::endl;
            return false;
        }
        return true;
    }
    if (command == ".nullvalue") {
        null_value_ = argument;
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
    while (!exit_requested_ && std::getline(in, line)) {
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
    if (!exit_requested_ && !Trim(buffer).empty()) {
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
