#include "execution/result_collector.hpp"

namespace sluice {

std::string ResultCollector::ProfileDetails() const {
    // Only what spilled is worth a line: every query ends in a collector.
    return rows_->statistics().spill_files.load() > 0 ? rows_->statistics().Render() : "";
}

} // namespace sluice
