#pragma once

#include "cli/result_renderer.hpp"
#include "main/connection.hpp"

#include <fstream>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sluice {

// The interactive `sluice` shell and its batch forms (-c, -f, piped stdin). Statements end with
// ';' (or the end of a -c argument); lines starting with '.' are shell commands.
class Shell {
public:
    explicit Shell(Connection& connection) : connection_(connection) {}

    void SetMode(OutputMode mode) { options_.mode = mode; }
    void SetNullValue(std::string text) { options_.null_text = std::move(text); }
    // -bail: stop reading statements after the first that fails.
    void SetBail(bool bail) { bail_ = bail; }
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
    // .output / .once FILE: where results go from now on, or for the next statement only.
    bool Redirect(const std::string& path, bool once);
    // .tables and .schema, from sluice_tables().
    bool ListTables(const std::string& pattern);
    bool PrintSchema(const std::string& pattern);
    // A column of sluice_tables() for the names matching `pattern` (ILIKE; all when empty), by
    // name; nullopt after printing the error.
    std::optional<std::vector<std::string>> TablesColumn(const std::string& column,
                                                         const std::string& pattern);
    std::ostream& Out();
    void PrintHelp();

    Connection& connection_;
    RenderOptions options_;
    bool timer_ = false;
    bool bail_ = false;
    bool exit_requested_ = false;
    std::unique_ptr<std::ofstream> output_; // .output FILE, until .output alone
    std::unique_ptr<std::ofstream> once_;   // .once FILE, for the next statement's results
};

// Whether `text` ends a complete statement: the last token outside quotes and comments is ';'.
bool IsCompleteStatement(const std::string& text);

} // namespace sluice
