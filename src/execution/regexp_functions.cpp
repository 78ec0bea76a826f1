#include "execution/regexp_functions.hpp"

#include "common/exception.hpp"

#include <memory>
#include <re2/re2.h>
#include <string_view>
#include <vector>

namespace sluice {

namespace {

enum class Regexp : uint8_t { Matches, FullMatch, Replace, Extract };

struct Options {
    RE2::Options re2;
    bool global = false;
};

Options ParseOptions(std::string_view text, Regexp kind) {
    Options options;
    options.re2.set_log_errors(false);
    for (char option : text) {
        switch (option) {
        case 'c':
            options.re2.set_case_sensitive(true);
            break;
        case 'i':
            options.re2.set_case_sensitive(false);
            break;
        case 'l':
            options.re2.set_literal(true);
            break;
        case 's':
            options.re2.set_dot_nl(true);
            break;
        case 'm':
        case 'n':
        case 'p':
            options.re2.set_dot_nl(false);
            break;
        case 'g':
            if (kind != Regexp::Replace) {
                throw Exception(ErrorKind::InvalidInput,
                                "Option 'g' (global replace) is only valid for regexp_replace");
            }
            options.global = true;
            break;
        default:
            throw Exception(ErrorKind::InvalidInput,
                            std::string("Unrecognized Regex option ") + option);
        }
    }
    return options;
}

std::unique_ptr<RE2> Compile(std::string_view pattern, const Options& options) {
    auto regexp =
        std::make_unique<RE2>(re2::StringPiece(pattern.data(), pattern.size()), options.re2);
    if (!regexp->ok()) {
        throw Exception(ErrorKind::InvalidInput, regexp->error());
    }
    return regexp;
}

std::string_view TextAt(const Vector& vector, idx_t row) {
    return vector.data<string_t>()[vector.RowIndex(row)].view();
}

// The compiled pattern of each row: made once while the pattern and options stay the same
// (always, when both are constants, as they nearly always are).
class PatternCache {
public:
    PatternCache(Regexp kind) : kind_(kind) {}
    const RE2& For(std::string_view pattern, std::string_view options, bool& global) {
        if (!regexp_ || pattern != pattern_ || options != options_) {
            parsed_ = ParseOptions(options, kind_);
            regexp_ = Compile(pattern, parsed_);
            pattern_ = pattern;
            options_ = options;
        }
        global = parsed_.global;
        return *regexp_;
    }

private:
    Regexp kind_;
    Options parsed_;
    std::unique_ptr<RE2> regexp_;
    std::string pattern_;
    std::string options_;
};

void Evaluate(Regexp kind, const std::vector<const Vector*>& args, idx_t count, Vector& result) {
    PatternCache cache(kind);
    // The optional last argument: options (a text), or regexp_extract's group (a number).
    bool has_options = kind != Regexp::Extract && args.size() > (kind == Regexp::Replace ? 3 : 2);
    bool has_group = kind == Regexp::Extract && args.size() > 2;
    for (idx_t row = 0; row < count; row++) {
        bool any_null = false;
        for (const Vector* argument : args) {
            any_null |= !argument->validity().RowIsValid(argument->RowIndex(row));
        }
        if (any_null) {
            result.SetNull(row);
            continue;
        }
        std::string_view text = TextAt(*args[0], row);
        std::string_view options = has_options ? TextAt(*args.back(), row) : std::string_view();
        bool global = false;
        const RE2& regexp = cache.For(TextAt(*args[1], row), options, global);
        re2::StringPiece input(text.data(), text.size());
        switch (kind) {
        case Regexp::Matches:
            result.data<bool>()[row] = RE2::PartialMatch(input, regexp);
            break;
        case Regexp::FullMatch:
            result.data<bool>()[row] = RE2::FullMatch(input, regexp);
            break;
        case Regexp::Replace: {
            std::string replaced(text);
            std::string_view rewrite = TextAt(*args[2], row);
            re2::StringPiece rewrite_piece(rewrite.data(), rewrite.size());
            if (global) {
                RE2::GlobalReplace(&replaced, regexp, rewrite_piece);
            } else {
                RE2::Replace(&replaced, regexp, rewrite_piece);
            }
            result.data<string_t>()[row] = result.AddString(replaced);
            break;
        }
        case Regexp::Extract: {
            int64_t group = has_group ? args[2]->data<int64_t>()[args[2]->RowIndex(row)] : 0;
            if (group < 0 || group > 9) {
                throw Exception(ErrorKind::InvalidInput, "Group index must be between 0 and 9!");
            }
            re2::StringPiece groups[10];
            std::string_view found;
            if (group <= regexp.NumberOfCapturingGroups() &&
                regexp.Match(input, 0, input.size(), RE2::UNANCHORED, groups,
                             static_cast<int>(group) + 1)) {
                found = std::string_view(groups[group].data(), groups[group].size());
            }
            result.data<string_t>()[row] = result.AddString(found);
            break;
        }
        }
    }
}

} // namespace

std::optional<BoundFunction> BindRegexpFunction(const std::string& name, size_t argument_count) {
    LogicalType varchar = LogicalTypeId::VARCHAR;
    Regexp kind;
    size_t required = 2;
    if (name == "regexp_matches") {
        kind = Regexp::Matches;
    } else if (name == "regexp_full_match") {
        kind = Regexp::FullMatch;
    } else if (name == "regexp_replace") {
        kind = Regexp::Replace;
        required = 3;
    } else if (name == "regexp_extract") {
        kind = Regexp::Extract;
    } else {
        return std::nullopt;
    }
    if (argument_count != required && argument_count != required + 1) {
        return std::nullopt;
    }
    std::vector<LogicalType> types;
    for (size_t i = 0; i < argument_count; i++) {
        bool group = kind == Regexp::Extract && i == 2;
        types.push_back(group ? LogicalTypeId::BIGINT : LogicalTypeId::VARCHAR);
    }
    bool boolean = kind == Regexp::Matches || kind == Regexp::FullMatch;
    return BoundFunction{types, boolean ? LogicalType(LogicalTypeId::BOOLEAN) : varchar,
                         [kind](const std::vector<const Vector*>& args, idx_t count,
                                Vector& result) { Evaluate(kind, args, count, result); }};
}

} // namespace sluice
