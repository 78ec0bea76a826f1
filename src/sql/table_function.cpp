#include "sql/table_function.hpp"

namespace sluice {

void TableFunctionCatalog::Register(TableFunction function) {
    std::string name = function.name;
    functions_[name] = std::move(function);
}

const TableFunction* TableFunctionCatalog::Find(const std::string& name) const {
    auto entry = functions_.find(name);
    return entry == functions_.end() ? nullptr : &entry->second;
}

std::vector<std::string> TableFunctionCatalog::Names() const {
    std::vector<std::string> names;
    for (const auto& entry : functions_) {
        names.push_back(entry.first);
    }
    return names;
}

} // namespace sluice
