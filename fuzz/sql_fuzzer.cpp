// libFuzzer target: arbitrary text as SQL. The text is lexed and parsed; each SELECT that parses
// is then bound, optimized and planned (as EXPLAIN does, without running it) against a catalog
// of tables and views with every kind of column, and DESCRIBE is answered. Files named in the
// statements (read_parquet, read_csv, globs, URLs) all resolve to one small in-memory Parquet
// or CSV file, so that nothing touches the disk or the network. Every failure must be a
// sluice::Exception of a kind a user may see: an uncaught exception of another type, or an
// Internal error, is a bug.
#include "common/exception.hpp"
#include "expected_errors.hpp"
#include "main/connection.hpp"
#include "main/database.hpp"
#include "memory_file.hpp"
#include "sql/parser.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace sluice;

namespace {

// Every path is one of two files: Parquet when it ends in .parquet, else CSV.
class FixedFiles : public FileSystem {
public:
    FixedFiles(std::string parquet, std::string csv)
        : parquet_(std::move(parquet)), csv_(std::move(csv)) {}
    std::unique_ptr<FileHandle> Open(const std::string& path, const IoContext&) override {
        const std::string& bytes = Bytes(path);
        return std::make_unique<MemoryFileHandle>(reinterpret_cast<const uint8_t*>(bytes.data()),
                                                  bytes.size(), path);
    }
    std::vector<FileInfo> Glob(const std::string& pattern) override {
        return {{pattern, Bytes(pattern).size()}};
    }

private:
    const std::string& Bytes(const std::string& path) const {
        bool parquet = path.size() >= 8 && path.compare(path.size() - 8, 8, ".parquet") == 0;
        return parquet ? parquet_ : csv_;
    }
    std::string parquet_, csv_;
};

struct Engine {
    Database database;
    Connection connection{database};

    Engine() {
        connection.Query(R"(
            CREATE TABLE t AS SELECT range AS i, range::VARCHAR || 'x' AS s, range / 3.0 AS d,
                DATE '2020-01-01' + range::INTEGER AS day, range % 2 = 0 AS b,
                [range, NULL] AS l, {'a': range, 'b': [range::VARCHAR]} AS st,
                MAP {range: 'v'} AS m FROM range(10);
            CREATE TABLE u (k INTEGER, v VARCHAR, amount DECIMAL(12, 2), at TIMESTAMP);
            INSERT INTO u VALUES (1, 'one', 1.5, TIMESTAMP '2024-01-01 10:00:00'), (NULL, NULL, NULL, NULL);
            CREATE VIEW w AS SELECT i, s FROM t WHERE i > 2;)");
        // The Parquet bytes are written by Sluice itself before paths are redirected.
        std::string path = std::filesystem::temp_directory_path() /
                           ("sluice-sql-fuzzer-" + std::to_string(getpid()) + ".parquet");
        connection.Query("COPY t TO '" + path + "' (FORMAT parquet)");
        std::ifstream in(path, std::ios::binary);
        std::stringstream parquet;
        parquet << in.rdbuf();
        std::remove(path.c_str());
        std::string csv =
            "id,name,price,day\n1,apple,1.25,2024-01-02\n2,\"pear, green\",,2024-02-03\n";
        database.file_system().RegisterPrefix(
            "", std::make_shared<FixedFiles>(parquet.str(), std::move(csv)));
    }
};

Engine& Shared() {
    static Engine* engine = new Engine(); // lives as long as the fuzzing process
    return *engine;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Engine& engine = Shared();
    std::string sql(reinterpret_cast<const char*>(data), size);
    std::vector<Statement> statements;
    try {
        statements = Parser(sql).ParseStatements();
    } catch (const Exception& error) {
        fuzz::ExpectUserError(error);
        return 0;
    }
    for (const Statement& statement : statements) {
        try {
            if (statement.kind == StatementKind::Select) {
                engine.connection.Query("EXPLAIN " + statement.text);
            } else if (statement.kind == StatementKind::Describe) {
                engine.connection.Query(statement.text);
            }
        } catch (const Exception& error) {
            fuzz::ExpectUserError(error);
        }
    }
    return 0;
}
