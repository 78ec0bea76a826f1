#pragma once

#include "execution/chunk_scan_source.hpp"
#include "sql/ast.hpp"
#include "sql/table_function.hpp"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sluice {

// An in-memory table: its columns and an immutable snapshot of its rows. INSERT swaps in a new
// snapshot, so running queries keep reading the one they bound.
struct TableEntry {
    std::string name;
    std::vector<std::string> names;
    std::vector<LogicalType> types;
    std::shared_ptr<const ChunkList> chunks = std::make_shared<ChunkList>();
};

struct ViewEntry {
    std::string name;
    std::shared_ptr<SelectStatement> query;
    std::string sql; // the CREATE VIEW statement's text, for errors and sluice_tables()
};

// A table for a name the catalog does not know (nullptr if none): how a client offers its own
// data by name, such as Python's DataFrames in scope. Called while a query binds.
using ReplacementScan = std::function<std::shared_ptr<const TableEntry>(const std::string& name)>;

// Tables, views and table functions by (case-insensitive) name. Thread-safe.
class Catalog {
public:
    TableFunctionCatalog& table_functions() { return table_functions_; }
    const TableFunctionCatalog& table_functions() const { return table_functions_; }

    std::shared_ptr<const TableEntry> FindTable(const std::string& name) const;
    std::shared_ptr<const ViewEntry> FindView(const std::string& name) const;
    // Table and view names, for "did you mean" hints.
    std::vector<std::string> Names() const;
    // Every table and view, by name (sluice_tables()).
    std::vector<std::shared_ptr<const TableEntry>> Tables() const;
    std::vector<std::shared_ptr<const ViewEntry>> Views() const;

    // Throw a Catalog error if the name is taken (unless `replace`), or missing on drop.
    void CreateTable(std::shared_ptr<TableEntry> table, bool replace, bool if_not_exists);
    void CreateView(std::shared_ptr<ViewEntry> view, bool replace);
    void AppendRows(const std::string& name, const ChunkList& chunks);
    void Drop(const std::string& name, bool view, bool if_exists);

private:
    mutable std::mutex mutex_;
    TableFunctionCatalog table_functions_;
    std::map<std::string, std::shared_ptr<const TableEntry>> tables_; // by lower-case name
    std::map<std::string, std::shared_ptr<const ViewEntry>> views_;
};

} // namespace sluice
