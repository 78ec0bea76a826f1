#pragma once

#include <string>

namespace sluice::tpch {

constexpr int kQueryCount = 22;

// The text of TPC-H query `number` (1-22) with the specification's validation parameters, as in
// tpch/queries/; throws an InvalidInput error for other numbers.
const std::string& QueryText(int number);

} // namespace sluice::tpch
