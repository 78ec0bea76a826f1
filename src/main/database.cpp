#include "main/database.hpp"

#include "common/exception.hpp"
#include "execution/rows_source.hpp"

namespace sluice {

namespace {

TableFunction SettingsFunction(Settings& settings) {
    TableFunction function;
    function.name = "sluice_settings";
    function.bind = [&settings](const std::vector<Value>& arguments) {
        if (!arguments.empty()) {
            throw Exception(ErrorKind::Binder, "sluice_settings() takes no arguments");
        }
        BoundTableFunction bound;
        bound.names = {"name", "value", "default", "description", "type"};
        bound.types.assign(5, LogicalTypeId::VARCHAR);
        std::vector<std::vector<Value>> rows;
        for (const auto& definition : Settings::Definitions()) {
            rows.push_back(
                {Value::Varchar(definition.name), Value::Varchar(settings.Display(definition.name)),
                 Value::Varchar(settings.DisplayDefault(definition.name)),
                 Value::Varchar(definition.description), Value::Varchar(definition.input_type)});
        }
        auto types = bound.types;
        bound.make_source = [types, rows]() { return std::make_shared<RowsSource>(types, rows); };
        return bound;
    };
    return function;
}

} // namespace

Database::Database() {
    scheduler_ = std::make_unique<TaskScheduler>(
        static_cast<uint32_t>(settings_.GetInteger("threads")),
        static_cast<uint32_t>(settings_.GetInteger("async_threads")));
    table_functions_.Register(SettingsFunction(settings_));
}

Database::~Database() = default;

void Database::ApplySetting(const std::string& name, const Value& value) {
    settings_.Set(name, value);
    ResizePools();
}

void Database::ResetSetting(const std::string& name) {
    settings_.Reset(name);
    ResizePools();
}

void Database::ResizePools() {
    scheduler_->SetThreadCounts(static_cast<uint32_t>(settings_.GetInteger("threads")),
                                static_cast<uint32_t>(settings_.GetInteger("async_threads")));
}

} // namespace sluice
