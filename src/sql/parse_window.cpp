// Window clauses: OVER (...) after a function call, the WINDOW clause of a SELECT block, and the
// resolution of named windows into the specifications that refer to them.
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "sql/parser.hpp"

#include <functional>

namespace sluice {

OrderTerm Parser::ParseOrderTerm(bool expression_required) {
    OrderTerm term;
    if (expression_required) {
        term.expression = ParseExpression();
    }
    if (AcceptKeyword("DESC")) {
        term.descending = true;
    } else {
        term.asc_written = AcceptKeyword("ASC");
    }
    if (AcceptKeyword("NULLS")) {
        term.nulls_written = true;
        if (AcceptKeyword("FIRST")) {
            term.nulls_first = true;
        } else {
            ExpectKeyword("LAST");
        }
    }
    return term;
}

void Parser::AcceptOver(ParsedExpression& function) {
    if (IsKeyword("IGNORE") && IsKeyword("NULLS", 1)) {
        pos_ += 2;
        function.ignore_nulls = true;
    } else if (IsKeyword("RESPECT") && IsKeyword("NULLS", 1)) {
        pos_ += 2;
    }
    if (!IsKeyword("OVER")) {
        if (function.ignore_nulls) {
            SyntaxError(Peek());
        }
        return;
    }
    SourceLocation location = Take().location;
    if (!IsOperator("(")) {
        // OVER name: the named window as it is.
        auto spec = std::make_shared<WindowSpec>();
        spec->location = location;
        spec->base = ParseObjectName();
        spec->whole_base = true;
        function.window = std::move(spec);
        return;
    }
    Take();
    function.window = ParseWindowSpec(location);
    ExpectOperator(")");
}

std::shared_ptr<WindowSpec> Parser::ParseWindowSpec(SourceLocation location) {
    auto spec = std::make_shared<WindowSpec>();
    spec->location = location;
    const Token& first = Peek();
    if ((first.type == TokenType::Identifier || first.type == TokenType::QuotedIdentifier) &&
        !IsKeyword("PARTITION") && !IsKeyword("ORDER") && !IsKeyword("ROWS") &&
        !IsKeyword("RANGE") && !IsKeyword("GROUPS")) {
        spec->base = ParseObjectName();
    }
    if (IsKeyword("PARTITION") && IsKeyword("BY", 1)) {
        pos_ += 2;
        do {
            spec->partitions.push_back(ParseExpression());
        } while (AcceptOperator(","));
    }
    if (IsKeyword("ORDER") && IsKeyword("BY", 1)) {
        pos_ += 2;
        do {
            spec->orders.push_back(ParseOrderTerm(true));
        } while (AcceptOperator(","));
    }
    if (IsKeyword("ROWS") || IsKeyword("RANGE") || IsKeyword("GROUPS")) {
        spec->has_frame = true;
        std::string unit = Upper(Take().text);
        spec->unit = unit == "ROWS"    ? FrameUnit::Rows
                     : unit == "RANGE" ? FrameUnit::Range
                                       : FrameUnit::Groups;
        if (AcceptKeyword("BETWEEN")) {
            spec->start = ParseFrameBound();
            ExpectKeyword("AND");
            spec->end = ParseFrameBound();
        } else {
            spec->start = ParseFrameBound();
            spec->end = {FrameBoundKind::CurrentRow, nullptr};
        }
        if (spec->start.kind == FrameBoundKind::UnboundedFollowing ||
            spec->end.kind == FrameBoundKind::UnboundedPreceding) {
            Fail("a window frame cannot start at UNBOUNDED FOLLOWING or end at UNBOUNDED "
                 "PRECEDING",
                 location);
        }
        bool end_precedes = spec->end.kind == FrameBoundKind::Preceding;
        if (spec->start.kind == FrameBoundKind::Following &&
            (end_precedes || spec->end.kind == FrameBoundKind::CurrentRow)) {
            Fail("frame starting from following row cannot have preceding rows", location);
        }
        if (spec->start.kind == FrameBoundKind::CurrentRow && end_precedes) {
            Fail("frame starting from current row cannot have preceding rows", location);
        }
        if (AcceptKeyword("EXCLUDE")) {
            if (IsKeyword("CURRENT") && IsKeyword("ROW", 1)) {
                pos_ += 2;
                spec->exclude = FrameExclude::CurrentRow;
            } else if (AcceptKeyword("GROUP")) {
                spec->exclude = FrameExclude::Group;
            } else if (AcceptKeyword("TIES")) {
                spec->exclude = FrameExclude::Ties;
            } else {
                ExpectKeyword("NO");
                ExpectKeyword("OTHERS");
            }
        }
    }
    return spec;
}

FrameBound Parser::ParseFrameBound() {
    FrameBound bound;
    if (AcceptKeyword("UNBOUNDED")) {
        if (AcceptKeyword("PRECEDING")) {
            bound.kind = FrameBoundKind::UnboundedPreceding;
        } else {
            ExpectKeyword("FOLLOWING");
            bound.kind = FrameBoundKind::UnboundedFollowing;
        }
        return bound;
    }
    if (IsKeyword("CURRENT") && IsKeyword("ROW", 1)) {
        pos_ += 2;
        bound.kind = FrameBoundKind::CurrentRow;
        return bound;
    }
    // The offset binds tighter than AND: `1 PRECEDING AND CURRENT ROW`.
    bound.offset = ParseAdditive();
    if (AcceptKeyword("PRECEDING")) {
        bound.kind = FrameBoundKind::Preceding;
    } else {
        ExpectKeyword("FOLLOWING");
        bound.kind = FrameBoundKind::Following;
    }
    return bound;
}

void Parser::ParseWindowClause(SelectStatement& select) {
    do {
        const Token& name_token = Peek();
        std::string name = ParseObjectName();
        for (const auto& [existing, spec] : select.windows) {
            if (Lower(existing) == Lower(name)) {
                Fail("window \"" + name + "\" is defined twice", name_token.location);
            }
        }
        ExpectKeyword("AS");
        SourceLocation location = Peek().location;
        ExpectOperator("(");
        select.windows.emplace_back(name, ParseWindowSpec(location));
        ExpectOperator(")");
    } while (AcceptOperator(","));
}

void Parser::ResolveNamedWindows(SelectStatement& select) const {
    // A named window may itself build on an earlier one: resolve the WINDOW clause in order.
    auto resolve = [&](WindowSpec& spec, size_t visible) {
        if (spec.base.empty()) {
            return;
        }
        const WindowSpec* base = nullptr;
        for (size_t i = 0; i < visible; i++) {
            if (Lower(select.windows[i].first) == Lower(spec.base)) {
                base = select.windows[i].second.get();
            }
        }
        if (!base) {
            Fail("window \"" + spec.base + "\" does not exist", spec.location);
        }
        if (base->has_frame && !spec.whole_base) {
            Fail("cannot copy window \"" + spec.base + "\" because it has a frame clause",
                 spec.location);
        }
        if (!spec.partitions.empty() || (!base->orders.empty() && !spec.orders.empty())) {
            Fail("a window that refers to \"" + spec.base +
                     "\" may add an ORDER BY it lacks and a frame, nothing else",
                 spec.location);
        }
        if (spec.whole_base) {
            auto clone_bound = [](const FrameBound& bound) {
                return FrameBound{bound.kind,
                                  bound.offset ? CloneExpression(*bound.offset) : nullptr};
            };
            spec.has_frame = base->has_frame;
            spec.unit = base->unit;
            spec.start = clone_bound(base->start);
            spec.end = clone_bound(base->end);
            spec.exclude = base->exclude;
            spec.whole_base = false;
        }
        for (const auto& partition : base->partitions) {
            spec.partitions.push_back(CloneExpression(*partition));
        }
        if (spec.orders.empty()) {
            for (const auto& order : base->orders) {
                spec.orders.push_back(
                    {CloneExpression(*order.expression), order.descending, order.nulls_first});
            }
        }
        spec.base.clear();
    };
    for (size_t i = 0; i < select.windows.size(); i++) {
        resolve(*select.windows[i].second, i);
    }
    std::function<void(ParsedExpression&)> visit = [&](ParsedExpression& expression) {
        if (expression.window) {
            resolve(*expression.window, select.windows.size());
        }
        for (auto& child : expression.children) {
            visit(*child);
        }
    };
    for (auto& item : select.select_list) {
        visit(*item);
    }
    if (select.qualify) {
        visit(*select.qualify);
    }
    for (auto& term : select.order_by) {
        if (term.expression) {
            visit(*term.expression);
        }
    }
}

} // namespace sluice
