#include "main/copy_from.hpp"

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "common/types.hpp"

namespace sluice {

namespace {

ParsedExpressionPtr StringLiteral(const std::string& text, SourceLocation location) {
    auto literal = std::make_unique<ParsedExpression>();
    literal->kind = ParsedExpressionKind::Constant;
    literal->literal_kind = LiteralKind::String;
    literal->text = text;
    literal->location = location;
    return literal;
}

ParsedExpressionPtr TrueLiteral(SourceLocation location) {
    auto literal = std::make_unique<ParsedExpression>();
    literal->kind = ParsedExpressionKind::Constant;
    literal->literal_kind = LiteralKind::Boolean;
    literal->text = "true";
    literal->location = location;
    return literal;
}

std::string ReadCsvName(const std::string& copy_option) {
    if (copy_option == "delimiter") {
        return "delim";
    }
    if (copy_option == "null") {
        return "nullstr";
    }
    return copy_option;
}

} // namespace

std::shared_ptr<SelectStatement> CopyFromQuery(const Statement& statement, const TableEntry& table,
                                               const std::vector<idx_t>& targets) {
    std::string format = EndsWith(Lower(statement.copy_path), ".parquet") ? "parquet" : "csv";
    auto scan = std::make_unique<TableRef>();
    scan->kind = TableRefKind::TableFunction;
    scan->location = statement.location;
    scan->arguments.push_back(StringLiteral(statement.copy_path, statement.location));
    bool typed = false;
    for (const auto& option : statement.copy_options) {
        if (option.name == "format") {
            if (!option.value || option.value->kind != ParsedExpressionKind::Constant) {
                throw Exception(ErrorKind::Binder, "COPY ... FROM: FORMAT needs a name");
            }
            format = Lower(option.value->text);
            continue;
        }
        std::string name = ReadCsvName(option.name);
        typed = typed || name == "types" || name == "dtypes" || name == "columns";
        scan->named_arguments.emplace_back(name, option.value ? CloneExpression(*option.value)
                                                              : TrueLiteral(option.location));
    }
    if (format != "csv" && format != "parquet") {
        throw Exception(ErrorKind::NotImplemented,
                        "COPY ... FROM: format \"" + format + "\" (supported: csv, parquet)");
    }
    scan->name = format == "csv" ? "read_csv" : "read_parquet";
    if (format == "csv" && !typed) {
        auto types = std::make_unique<ParsedExpression>();
        types->kind = ParsedExpressionKind::List;
        types->location = statement.location;
        for (idx_t target : targets) {
            types->children.push_back(
                StringLiteral(table.types[target].ToString(), statement.location));
        }
        scan->named_arguments.emplace_back("types", std::move(types));
    }
    auto select = std::make_shared<SelectStatement>();
    select->location = statement.location;
    auto star = std::make_unique<ParsedExpression>();
    star->kind = ParsedExpressionKind::Star;
    star->location = statement.location;
    select->select_list.push_back(std::move(star));
    select->from = std::move(scan);
    return select;
}

} // namespace sluice
