#include "tpch/tpch_queries.hpp"

#include "common/exception.hpp"

#include <vector>

namespace sluice::tpch {

const std::string& QueryText(int number) {
    static const std::vector<std::string> texts = {
#include "tpch_query_texts.inc"
    };
    if (number < 1 || number > static_cast<int>(texts.size())) {
        throw Exception(ErrorKind::InvalidInput, "TPC-H has queries 1 to " +
                                                     std::to_string(texts.size()) + ", not " +
                                                     std::to_string(number));
    }
    return texts[static_cast<size_t>(number - 1)];
}

} // namespace sluice::tpch
