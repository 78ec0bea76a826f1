#include "sql/catalog.hpp"

#include "common/exception.hpp"
#include "common/string_util.hpp"

namespace sluice {

std::shared_ptr<const TableEntry> Catalog::FindTable(const std::string& name) const {
    std::lock_guard<std::mutex> guard(mutex_);
    auto found = tables_.find(Lower(name));
    return found == tables_.end() ? nullptr : found->second;
}

std::shared_ptr<const ViewEntry> Catalog::FindView(const std::string& name) const {
    std::lock_guard<std::mutex> guard(mutex_);
    auto found = views_.find(Lower(name));
    return found == views_.end() ? nullptr : found->second;
}

std::vector<std::string> Catalog::Names() const {
    std::lock_guard<std::mutex> guard(mutex_);
    std::vector<std::string> names;
    for (const auto& [key, table] : tables_) {
        names.push_back(table->name);
    }
    for (const auto& [key, view] : views_) {
        names.push_back(view->name);
    }
    return names;
}

std::vector<std::shared_ptr<const TableEntry>> Catalog::Tables() const {
    std::lock_guard<std::mutex> guard(mutex_);
    std::vector<std::shared_ptr<const TableEntry>> tables;
    for (const auto& [key, table] : tables_) {
        tables.push_back(table);
    }
    return tables;
}

std::vector<std::shared_ptr<const ViewEntry>> Catalog::Views() const {
    std::lock_guard<std::mutex> guard(mutex_);
    std::vector<std::shared_ptr<const ViewEntry>> views;
    for (const auto& [key, view] : views_) {
        views.push_back(view);
    }
    return views;
}

void Catalog::CreateTable(std::shared_ptr<TableEntry> table, bool replace, bool if_not_exists) {
    std::lock_guard<std::mutex> guard(mutex_);
    std::string key = Lower(table->name);
    if (views_.count(key)) {
        throw Exception(ErrorKind::Catalog, "Existing object " + table->name +
                                                " is of type View, trying to replace with type "
                                                "Table");
    }
    if (tables_.count(key) && !replace) {
        if (if_not_exists) {
            return;
        }
        throw Exception(ErrorKind::Catalog,
                        "Table with name \"" + table->name + "\" already exists!");
    }
    tables_[key] = std::move(table);
}

void Catalog::CreateView(std::shared_ptr<ViewEntry> view, bool replace) {
    std::lock_guard<std::mutex> guard(mutex_);
    std::string key = Lower(view->name);
    if (tables_.count(key)) {
        throw Exception(ErrorKind::Catalog, "Existing object " + view->name +
                                                " is of type Table, trying to replace with type "
                                                "View");
    }
    if (views_.count(key) && !replace) {
        throw Exception(ErrorKind::Catalog,
                        "View with name \"" + view->name + "\" already exists!");
    }
    views_[key] = std::move(view);
}

void Catalog::AppendRows(const std::string& name, const ChunkList& chunks) {
    std::lock_guard<std::mutex> guard(mutex_);
    auto found = tables_.find(Lower(name));
    if (found == tables_.end()) {
        throw Exception(ErrorKind::Catalog, "Table with name " + name + " does not exist!");
    }
    auto table = std::make_shared<TableEntry>(*found->second);
    auto rows = std::make_shared<ChunkList>(*table->chunks);
    rows->insert(rows->end(), chunks.begin(), chunks.end());
    table->chunks = std::move(rows);
    found->second = std::move(table);
}

void Catalog::Drop(const std::string& name, bool view, bool if_exists) {
    std::lock_guard<std::mutex> guard(mutex_);
    std::string key = Lower(name);
    bool erased = view ? views_.erase(key) > 0 : tables_.erase(key) > 0;
    if (!erased && !if_exists) {
        throw Exception(ErrorKind::Catalog, std::string(view ? "View" : "Table") + " with name " +
                                                name + " does not exist!");
    }
}

} // namespace sluice
