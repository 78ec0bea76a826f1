// The GROUP BY list: plain expressions, ROLLUP, CUBE and GROUPING SETS, as the sets of
// group_by entries each result part groups by.
#include "sql/parser.hpp"

#include <algorithm>

namespace sluice {

void Parser::ParseGroupBy(SelectStatement& select) {
    using Set = std::vector<size_t>;
    // Each distinct expression is one group_by entry; sets name entries by index.
    auto entry_of = [&](ParsedExpressionPtr expression) {
        std::string text = expression->ToString();
        for (size_t i = 0; i < select.group_by.size(); i++) {
            if (select.group_by[i]->ToString() == text) {
                return i;
            }
        }
        select.group_by.push_back(std::move(expression));
        return select.group_by.size() - 1;
    };
    // `(a, b)`, `()` or `a`.
    auto parse_set = [&]() {
        Set set;
        if (IsOperator("(") && (IsOperator(")", 1) || !AtQueryStart(1))) {
            // A parenthesised list; `(a + b)` alone is a one-entry list too.
            Take();
            if (!AcceptOperator(")")) {
                do {
                    set.push_back(entry_of(ParseExpression()));
                } while (AcceptOperator(","));
                ExpectOperator(")");
            }
            return set;
        }
        set.push_back(entry_of(ParseExpression()));
        return set;
    };
    auto joined = [](Set a, const Set& b) {
        for (size_t entry : b) {
            if (std::find(a.begin(), a.end(), entry) == a.end()) {
                a.push_back(entry);
            }
        }
        return a;
    };
    std::vector<Set> sets = {{}};
    bool explicit_sets = false;
    do {
        std::vector<Set> item_sets;
        bool rollup = IsKeyword("ROLLUP") && IsOperator("(", 1);
        bool cube = IsKeyword("CUBE") && IsOperator("(", 1);
        if (rollup || cube) {
            Take();
            Take();
            std::vector<Set> elements;
            do {
                elements.push_back(parse_set());
            } while (AcceptOperator(","));
            ExpectOperator(")");
            if (elements.size() > 12) {
                Fail("ROLLUP and CUBE take at most 12 elements", Peek().location);
            }
            if (rollup) {
                // (a, b, c), (a, b), (a), ()
                for (size_t length = elements.size() + 1; length-- > 0;) {
                    Set set;
                    for (size_t i = 0; i < length; i++) {
                        set = joined(std::move(set), elements[i]);
                    }
                    item_sets.push_back(std::move(set));
                }
            } else {
                // Every subset, the whole first.
                size_t subsets = size_t(1) << elements.size();
                for (size_t mask = subsets; mask-- > 0;) {
                    Set set;
                    for (size_t i = 0; i < elements.size(); i++) {
                        if (mask & (size_t(1) << (elements.size() - 1 - i))) {
                            set = joined(std::move(set), elements[i]);
                        }
                    }
                    item_sets.push_back(std::move(set));
                }
            }
            explicit_sets = true;
        } else if (IsKeyword("GROUPING") && IsKeyword("SETS", 1)) {
            Take();
            Take();
            ExpectOperator("(");
            do {
                item_sets.push_back(parse_set());
            } while (AcceptOperator(","));
            ExpectOperator(")");
            explicit_sets = true;
        } else if (IsOperator("(") && IsOperator(")", 1)) {
            // GROUP BY (): the one group of every row (one result row even for no rows).
            Take();
            Take();
            item_sets.emplace_back();
            explicit_sets = true;
        } else {
            item_sets.push_back({entry_of(ParseExpression())});
        }
        // Several items: every combination of one set from each.
        std::vector<Set> combined;
        for (const Set& set : sets) {
            for (const Set& item_set : item_sets) {
                combined.push_back(joined(set, item_set));
            }
        }
        if (combined.size() > 4096) {
            Fail("too many grouping sets (more than 4096)", Peek().location);
        }
        sets = std::move(combined);
    } while (AcceptOperator(","));
    if (explicit_sets) {
        select.grouping_sets = std::move(sets);
    }
}

} // namespace sluice
