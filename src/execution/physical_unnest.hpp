#pragma once

#include "execution/expression.hpp"
#include "parallel/pipeline.hpp"

namespace sluice {

// unnest(list) in a SELECT list: each input row is emitted once per element of its longest
// list, with the input columns repeated and one column per list holding that list's elements
// (NULL where a shorter list has run out). Rows whose lists are all NULL or empty vanish. A row
// whose elements overflow one output chunk continues in the next call (HaveMoreOutput).
class PhysicalUnnest : public PipelineOperator {
public:
    std::string Name() const override { return "UNNEST"; }
    // Output: the input columns listed in `passed`, then each list's elements.
    PhysicalUnnest(std::vector<LogicalType> input_types, std::vector<idx_t> passed,
                   std::vector<ExpressionPtr> lists);

    std::vector<LogicalType> OutputTypes() const override;
    std::unique_ptr<LocalState> InitLocal() override;
    OperatorResult Execute(DataChunk& input, DataChunk& output, LocalState* local) override;

private:
    std::vector<LogicalType> input_types_;
    std::vector<idx_t> passed_;
    std::vector<ExpressionPtr> lists_;
};

} // namespace sluice
