#pragma once

#include "common/value.hpp"

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace sluice {

class Settings;

// One entry of the settings registry.
struct SettingDefinition {
    std::string name;
    std::string input_type; // BIGINT, BOOLEAN, DOUBLE, VARCHAR: what SET accepts
    std::string description;
    // The default, which may depend on other settings (async_threads follows threads).
    std::function<Value(const Settings&)> default_value;
    // Checks and normalises a SET value; throws an InvalidInput error naming the setting.
    std::function<Value(const Value&)> validate;
    // How the stored value is shown by sluice_settings() (memory sizes as "18.6 GiB").
    std::function<std::string(const Value&)> format;
};

// The database's settings: one registry of definitions, values set by SET, RESET to defaults.
// Thread-safe.
class Settings {
public:
    static const std::vector<SettingDefinition>& Definitions();
    static const SettingDefinition& Find(const std::string& name);

    Value Get(const std::string& name) const;
    bool IsSet(const std::string& name) const;
    void Set(const std::string& name, const Value& value);
    void Reset(const std::string& name);
    std::string Display(const std::string& name) const;
    std::string DisplayDefault(const std::string& name) const;

    int64_t GetInteger(const std::string& name) const;
    double GetDouble(const std::string& name) const;
    bool GetBoolean(const std::string& name) const;
    std::string GetString(const std::string& name) const;

private:
    Value GetLocked(const SettingDefinition& definition) const;

    mutable std::recursive_mutex mutex_;
    std::map<std::string, Value> values_;
};

} // namespace sluice
