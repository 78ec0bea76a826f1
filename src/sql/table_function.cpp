#include "sql/table_function.hpp"

#include "common/cast.hpp"
#include "common/exception.hpp"

#include <algorithm>

namespace sluice {

const Value& TableFunctionInput::Scalar(size_t index, const std::string& function) const {
    if (index >= positional.size() || positional[index].is_list ||
        positional[index].values.size() != 1) {
        throw Exception(ErrorKind::Binder, function + ": argument " + std::to_string(index + 1) +
                                               " must be a single value");
    }
    return positional[index].values[0];
}

bool TableFunctionInput::Flag(const std::string& name, const std::string& function) const {
    auto entry = named.find(name);
    if (entry == named.end()) {
        return false;
    }
    Value flag;
    if (entry->second.IsNull() || !TryCastValue(entry->second, LogicalTypeId::BOOLEAN, flag)) {
        throw Exception(ErrorKind::Binder, function + ": " + name + " must be true or false");
    }
    return flag.GetBoolean();
}

void TableFunctionInput::CheckNamed(const std::vector<std::string>& known,
                                    const std::string& function) const {
    std::vector<std::string> given;
    for (const auto& entry : named) {
        given.push_back(entry.first);
    }
    for (const auto& entry : named_lists) {
        given.push_back(entry.first);
    }
    for (const auto& entry : named_structs) {
        given.push_back(entry.first);
    }
    for (const auto& name : given) {
        if (std::find(known.begin(), known.end(), name) == known.end()) {
            std::string list;
            for (const auto& option : known) {
                list += (list.empty() ? "" : ", ") + option;
            }
            throw Exception(ErrorKind::Binder,
                            function + " has no parameter \"" + name + "\"" +
                                (known.empty() ? "" : " (it takes " + list + ")"));
        }
    }
}

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
