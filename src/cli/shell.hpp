#pragma once

#include "cli/result_renderer.hpp"
#include "main/connection.hpp"

#include <iosfwd>
#include <optional>
#include <string>

namespace sluice {

// The interactive `sluice` shell and its batch forms (-c, -f, piped stdin). Statements end with
// ';' (or the end of a -c argument); lines starting with '.' are shell commands.
class Shell {
public:
    explicit Shell(Connection& connection) : connection_(connection) {}

    void SetMode(OutputMode mode) { mode_ = mode; }
    void SetNullValue(std::string text) { null_value_ = std::move(text); }
    // Runs one -c argument: SQL statements, or a single dot command. False if anything failed.
    bool RunCommand(const std::string& text);
    bool RunFile(const std::string& path);
    // Reads statements from a non-interactive stream until EOF.
    bool RunStream(std::istream& in);
    // The line-editing REPL; returns when the user exits.
    void RunInteractive();
    bool exit_requested() const { return exit_requested_; }

private:
    bool RunStatements(const std::string& sql);
    bool RunDotCommand(const std::string& line);
    void PrintHelp();

    Connection& connection_;
    OutputMode mode_ = OutputMode::Box;
    std::optional<std::string> null_value_;
    bool timer_ = false;
    bool exit_requested_ = false;
};

// Whether `text` ends a complete statement: the last token outside quotes and comments is ';'.
bool IsCompleteStatement(const std::string& text);

} // namespace sluice
