// The `sluice` command: an interactive SQL shell, or a batch runner with -c / -f / stdin.
#include "cli/gen_tpch.hpp"
#include "cli/query_monitor.hpp"
#include "cli/shell.hpp"
#include "common/exception.hpp"

#include <clocale>
#include <cstring>
#include <iostream>
#include <optional>
#include <unistd.h>

namespace {

void Usage() {
    std::cout << "Usage: sluice [OPTIONS]\n"
                 "  -c SQL        run SQL and exit\n"
                 "  -f FILE       run the statements in FILE and exit\n"
                 "  -init FILE    run FILE before anything else\n"
                 "  -box | -csv | -json | -line | -markdown   output mode (default box)\n"
                 "  -nullvalue TEXT   print NULL as TEXT\n"
                 "  -bail         stop after the first statement that fails\n"
                 "  -help         show this message\n"
                 "Without -c or -f, statements are read from stdin (interactively on a terminal).\n"
                 "\n"
                 "       sluice gen-tpch --out DIR [--sf N] [--format parquet|csv|tbl] ...\n"
                 "  writes TPC-H tables to files (sluice gen-tpch --help for the options)\n";
}

} // namespace

int main(int argc, char** argv) {
    using namespace sluice;
    if (argc > 1 && std::strcmp(argv[1], "gen-tpch") == 0) {
        return RunGenTpch(argc - 2, argv + 2);
    }
    std::string command, file, init;
    std::optional<std::string> null_value;
    OutputMode mode = OutputMode::Box;
    bool bail = false;
    for (int i = 1; i < argc; i++) {
        std::string argument = argv[i];
        if (argument.size() > 2 && argument.rfind("--", 0) == 0) {
            argument = argument.substr(1); // accept --csv as well as -csv
        }
        auto next = [&](const char* what) -> std::string {
            if (i + 1 >= argc) {
                std::cerr << "Error: " << argument << " needs " << what << "\n";
                std::exit(2);
            }
            return argv[++i];
        };
        OutputMode parsed;
        if (argument == "-c") {
            command = next("a SQL string");
        } else if (argument == "-f") {
            file = next("a file name");
        } else if (argument == "-init") {
            init = next("a file name");
        } else if (argument == "-nullvalue") {
            null_value = next("a text");
        } else if (argument == "-bail") {
            bail = true;
        } else if (argument.size() > 1 && ParseOutputMode(argument.substr(1), parsed)) {
            mode = parsed;
        } else if (argument == "-help" || argument == "-h") {
            Usage();
            return 0;
        } else {
            std::cerr << "Error: unknown option " << argv[i] << "\n";
            Usage();
            return 2;
        }
    }
    // Character classes follow the terminal (UTF-8 line editing); number formatting stays "C".
    std::setlocale(LC_CTYPE, "");
    try {
        Database database;
        Connection connection(database);
        Shell shell(connection);
        shell.SetMode(mode);
        shell.SetBail(bail);
        if (null_value) {
            shell.SetNullValue(*null_value);
        }
        InstallInterruptHandler();
        bool ok = true;
        if (!init.empty()) {
            ok = shell.RunFile(init) && ok;
        }
        if (!command.empty()) {
            // A -c argument is one complete unit even without a trailing ';'.
            ok = shell.RunCommand(command) && ok;
        } else if (!file.empty()) {
            ok = shell.RunFile(file) && ok;
        } else if (isatty(STDIN_FILENO)) {
            shell.RunInteractive();
        } else {
            ok = shell.RunStream(std::cin) && ok;
        }
        return ok ? 0 : 1;
    } catch (const std::exception& error) {
        std::cerr << error.what() << "\n";
        return 1;
    }
}
