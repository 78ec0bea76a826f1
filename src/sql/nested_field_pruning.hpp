#pragma once

#include "sql/logical_operator.hpp"

namespace sluice {

// Has each Get of `root` read only the leaves of its nested columns the plan uses: a column read
// only through field and element accesses (`s.a.b`, `items[1].part`), also of what it unnests
// to (`unnest(items).qty`), needs only the leaves below those paths, and a Parquet scan then
// fetches and decodes nothing else. Sets the Gets' leaf_masks; runs after PruneColumns.
void PruneNestedFields(LogicalOperator& root);

} // namespace sluice
