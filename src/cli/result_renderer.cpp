#include "cli/result_renderer.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace sluice {

namespace {

// Display width in terminal columns: one per UTF-8 code point.
size_t DisplayWidth(const std::string& text) {
    size_t width = 0;
    for (unsigned char c : text) {
        if ((c & 0xC0) != 0x80) {
            width++;
        }
    }
    return width;
}

std::string Repeat(const std::string& piece, size_t count) {
    std::string out;
    for (size_t i = 0; i < count; i++) {
        out += piece;
    }
    return out;
}

bool RightAligned(const LogicalType& type) {
    return type.IsNumeric();
}

struct Table {
    std::vector<std::string> names;
    std::vector<LogicalType> types;
    std::vector<std::vector<std::string>> rows; // NULL as "NULL"
    std::vector<std::vector<bool>> nulls;
};

Table Collect(QueryResult& result, const std::optional<std::string>& null_text) {
    Table table{result.names(), result.types(), {}, {}};
    while (auto chunk = result.Fetch()) {
        for (idx_t row = 0; row < chunk->size(); row++) {
            std::vector<std::string> cells;
            std::vector<bool> nulls;
            for (idx_t column = 0; column < chunk->ColumnCount(); column++) {
                Value value = chunk->GetValue(column, row);
                cells.push_back(value.IsNull() && null_text ? *null_text : value.ToString());
                nulls.push_back(value.IsNull());
            }
            table.rows.push_back(std::move(cells));
            table.nulls.push_back(std::move(nulls));
        }
    }
    return table;
}

std::string Pad(const std::string& text, size_t width, int align) { // -1 left, 0 centre, 1 right
    size_t padding = width > DisplayWidth(text) ? width - DisplayWidth(text) : 0;
    size_t left = align < 0 ? 0 : align > 0 ? padding : padding / 2;
    return std::string(left, ' ') + text + std::string(padding - left, ' ');
}

// The least width of column `column` that .width asks for.
size_t LeastWidth(const RenderOptions& options, size_t column) {
    return column < options.widths.size() ? options.widths[column] : 0;
}

void RenderBox(const Table& table, const RenderOptions& options, std::ostream& out) {
    size_t columns = table.names.size();
    std::vector<std::string> type_names;
    std::vector<size_t> widths;
    for (size_t c = 0; c < columns; c++) {
        type_names.push_back(table.types[c].DisplayName());
        widths.push_back(std::max(
            {DisplayWidth(table.names[c]), DisplayWidth(type_names[c]), LeastWidth(options, c)}));
    }
    // The first half and the last half of max_rows, the rest elided (the odd one goes first).
    size_t max_rows = options.max_rows;
    bool truncated = max_rows > 0 && table.rows.size() > max_rows;
    size_t head = (max_rows + 1) / 2, tail = max_rows / 2;
    std::vector<size_t> shown;
    for (size_t r = 0; r < table.rows.size(); r++) {
        if (!truncated || r < head || r >= table.rows.size() - tail) {
            shown.push_back(r);
        }
    }
    for (size_t r : shown) {
        for (size_t c = 0; c < columns; c++) {
            widths[c] = std::max(widths[c], DisplayWidth(table.rows[r][c]));
        }
    }
    std::string footer = std::to_string(table.rows.size()) + " rows";
    if (truncated) {
        footer += " (" + std::to_string(max_rows) + " shown)";
    }
    // The footer spans the columns and their separators: the last column widens to hold it.
    size_t inner = 0;
    for (size_t c = 0; c < columns; c++) {
        inner += widths[c] + 3;
    }
    inner -= 1;
    bool footed = table.rows.empty() || truncated;
    if (footed && columns > 0 && DisplayWidth(footer) + 2 > inner) {
        widths.back() += DisplayWidth(footer) + 2 - inner;
        inner = DisplayWidth(footer) + 2;
    }
    auto line = [&](const char* left, const char* middle, const char* right) {
        out << left;
        for (size_t c = 0; c < columns; c++) {
            out << Repeat("─", widths[c] + 2) << (c + 1 < columns ? middle : right);
        }
        out << "\n";
    };
    auto row = [&](auto cell) {
        out << "│";
        for (size_t c = 0; c < columns; c++) {
            out << " " << cell(c) << " │";
        }
        out << "\n";
    };
    line("┌", "┬", "┐");
    row([&](size_t c) { return Pad(table.names[c], widths[c], 0); });
    row([&](size_t c) { return Pad(type_names[c], widths[c], 0); });
    line("├", "┼", "┤");
    for (size_t i = 0; i < shown.size(); i++) {
        size_t r = shown[i];
        row([&](size_t c) {
            return Pad(table.rows[r][c], widths[c], RightAligned(table.types[c]) ? 1 : -1);
        });
        if (truncated && i + 1 == head) {
            for (int dots = 0; dots < 3; dots++) {
                row([&](size_t c) { return Pad("·", widths[c], 0); });
            }
        }
    }
    if (footed) {
        line("├", "┴", "┤");
        out << "│" << Pad(footer, inner, 0) << "│\n";
        out << "└" << Repeat("─", inner) << "┘\n";
        return;
    }
    line("└", "┴", "┘");
}

// Markdown: a pipe table, numbers right-aligned (`---:`), pipes in cells escaped.
void RenderMarkdown(const Table& table, const RenderOptions& options, std::ostream& out) {
    size_t columns = table.names.size();
    auto escape = [](const std::string& text) {
        std::string escaped;
        for (char c : text) {
            escaped += c == '|' ? "\\|" : c == '\n' ? " " : std::string(1, c);
        }
        return escaped;
    };
    std::vector<size_t> widths;
    for (size_t c = 0; c < columns; c++) {
        widths.push_back(
            std::max({DisplayWidth(escape(table.names[c])), LeastWidth(options, c), size_t(3)}));
        for (const auto& row : table.rows) {
            widths[c] = std::max(widths[c], DisplayWidth(escape(row[c])));
        }
    }
    auto row = [&](auto cell) {
        for (size_t c = 0; c < columns; c++) {
            out << "| " << cell(c) << " ";
        }
        out << "|\n";
    };
    row([&](size_t c) {
        return Pad(escape(table.names[c]), widths[c], RightAligned(table.types[c]) ? 1 : -1);
    });
    for (size_t c = 0; c < columns; c++) {
        bool right = RightAligned(table.types[c]);
        out << "|" << Repeat("-", widths[c] + (right ? 1 : 2)) << (right ? ":" : "");
    }
    out << "|\n";
    for (const auto& cells : table.rows) {
        row([&](size_t c) {
            return Pad(escape(cells[c]), widths[c], RightAligned(table.types[c]) ? 1 : -1);
        });
    }
}

// EXPLAIN's result: (explain_key, explain_value) rows, each value a plan drawn as lines.
bool IsExplain(const QueryResult& result) {
    return result.names() == std::vector<std::string>{"explain_key", "explain_value"};
}

// Each plan under a boxed title ("logical_plan" -> "Logical Plan"), its lines as they are.
void RenderExplain(QueryResult& result, std::ostream& out) {
    Table table = Collect(result, std::nullopt);
    for (const auto& row : table.rows) {
        std::string title;
        bool word_start = true;
        for (char c : row[0]) {
            title += c == '_' ? ' ' : word_start ? static_cast<char>(std::toupper(c)) : c;
            word_start = c == '_';
        }
        out << "┌" << Repeat("─", title.size() + 2) << "┐\n";
        out << "│ " << title << " │\n";
        out << "└" << Repeat("─", title.size() + 2) << "┘\n";
        out << row[1];
        if (!row[1].empty() && row[1].back() != '\n') {
            out << "\n";
        }
    }
}

std::string CsvField(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) {
        return text;
    }
    std::string out = "\"";
    for (char c : text) {
        out += c;
        if (c == '"') {
            out += '"';
        }
    }
    return out + "\"";
}

std::string JsonString(const std::string& text) {
    std::string out = "\"";
    for (unsigned char c : text) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20) {
                char buffer[8];
                std::snprintf(buffer, sizeof(buffer), "\\u%04x", c);
                out += buffer;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    return out + "\"";
}

bool JsonNumber(const LogicalType& type, const std::string& text) {
    if (type.id() == LogicalTypeId::BOOLEAN) {
        return true;
    }
    // inf and nan are not JSON numbers.
    return type.IsNumeric() && text.find_first_of("in") == std::string::npos;
}

} // namespace

bool ParseOutputMode(const std::string& name, OutputMode& mode) {
    if (name == "box" || name == "duckbox") {
        mode = OutputMode::Box;
    } else if (name == "csv") {
        mode = OutputMode::Csv;
    } else if (name == "json") {
        mode = OutputMode::Json;
    } else if (name == "line") {
        mode = OutputMode::Line;
    } else if (name == "markdown") {
        mode = OutputMode::Markdown;
    } else {
        return false;
    }
    return true;
}

void RenderResult(QueryResult& result, const RenderOptions& options, std::ostream& out) {
    if (result.ColumnCount() == 0) {
        return;
    }
    // The modes read by people draw plans as trees; csv and json stay data for programs.
    bool for_people = options.mode == OutputMode::Box || options.mode == OutputMode::Line ||
                      options.mode == OutputMode::Markdown;
    if (for_people && IsExplain(result)) {
        RenderExplain(result, out);
        return;
    }
    const std::optional<std::string>& null_text = options.null_text;
    Table table = Collect(result, null_text);
    size_t columns = table.names.size();
    switch (options.mode) {
    case OutputMode::Box:
        RenderBox(table, options, out);
        return;
    case OutputMode::Markdown:
        RenderMarkdown(table, options, out);
        return;
    case OutputMode::Csv:
        for (size_t c = 0; c < columns; c++) {
            out << (c ? "," : "") << CsvField(table.names[c]);
        }
        out << "\n";
        for (size_t r = 0; r < table.rows.size(); r++) {
            for (size_t c = 0; c < columns; c++) {
                bool empty_null = table.nulls[r][c] && !null_text;
                out << (c ? "," : "") << (empty_null ? "" : CsvField(table.rows[r][c]));
            }
            out << "\n";
        }
        return;
    case OutputMode::Json:
        if (table.rows.empty()) {
            return;
        }
        for (size_t r = 0; r < table.rows.size(); r++) {
            out << (r == 0 ? "[{" : "{");
            for (size_t c = 0; c < columns; c++) {
                out << (c ? "," : "") << JsonString(table.names[c]) << ":";
                const std::string& cell = table.rows[r][c];
                if (table.nulls[r][c] && !null_text) {
                    out << "null";
                } else if (table.nulls[r][c]) {
                    out << JsonString(cell);
                } else if (JsonNumber(table.types[c], cell)) {
                    out << cell;
                } else {
                    out << JsonString(cell);
                }
            }
            out << (r + 1 == table.rows.size() ? "}]\n" : "},\n");
        }
        return;
    case OutputMode::Line: {
        size_t name_width = 0;
        for (const auto& name : table.names) {
            name_width = std::max(name_width, DisplayWidth(name));
        }
        for (size_t r = 0; r < table.rows.size(); r++) {
            if (r > 0) {
                out << "\n";
            }
            for (size_t c = 0; c < columns; c++) {
                out << Pad(table.names[c], name_width, 1) << " = " << table.rows[r][c] << "\n";
            }
        }
        return;
    }
    }
}

} // namespace sluice
