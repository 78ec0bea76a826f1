#include "execution/window_function.hpp"

#include <map>

namespace sluice {

std::optional<WindowFunctionKind> WindowFunctionKindOf(const std::string& name) {
    static const std::map<std::string, WindowFunctionKind> kNames = {
        {"row_number", WindowFunctionKind::RowNumber},
        {"rank", WindowFunctionKind::Rank},
        {"dense_rank", WindowFunctionKind::DenseRank},
        {"rank_dense", WindowFunctionKind::DenseRank},
        {"percent_rank", WindowFunctionKind::PercentRank},
        {"cume_dist", WindowFunctionKind::CumeDist},
        {"ntile", WindowFunctionKind::Ntile},
        {"lag", WindowFunctionKind::Lag},
        {"lead", WindowFunctionKind::Lead},
        {"first_value", WindowFunctionKind::FirstValue},
        {"last_value", WindowFunctionKind::LastValue},
        {"nth_value", WindowFunctionKind::NthValue},
    };
    auto found = kNames.find(name);
    if (found == kNames.end()) {
        return std::nullopt;
    }
    return found->second;
}

bool UsesFrame(WindowFunctionKind kind) {
    return kind == WindowFunctionKind::Aggregate || kind == WindowFunctionKind::FirstValue ||
           kind == WindowFunctionKind::LastValue || kind == WindowFunctionKind::NthValue;
}

} // namespace sluice
