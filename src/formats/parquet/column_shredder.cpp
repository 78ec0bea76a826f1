#include "formats/parquet/column_shredder.hpp"

#include "common/exception.hpp"

namespace sluice::parquet {

ColumnShredder::ColumnShredder(const WriteSchema& schema, size_t column,
                               const ColumnEncodeOptions& options)
    : root_(schema.column(column)) {
    size_t first = schema.column_first_leaf(column);
    leaves_.reserve(root_.leaf_count);
    for (size_t leaf = first; leaf < first + root_.leaf_count; leaf++) {
        const WriteLeaf& description = schema.leaves()[leaf];
        leaves_.emplace_back(description.type, options, description.max_definition,
                             description.max_repetition);
    }
}

void ColumnShredder::Append(const Vector& vector, idx_t offset, idx_t count) {
    if (root_.kind == ShredNode::Kind::Leaf) {
        leaves_[0].Append(vector, offset, count);
        return;
    }
    for (idx_t row = offset; row < offset + count; row++) {
        Shred(root_, vector, row, 0);
    }
}

void ColumnShredder::Absent(const ShredNode& node, uint32_t repetition, uint32_t level) {
    for (size_t leaf = node.first_leaf; leaf < node.first_leaf + node.leaf_count; leaf++) {
        leaves_[leaf].AppendEntry(repetition, level, nullptr, 0);
    }
}

void ColumnShredder::Shred(const ShredNode& node, const Vector& vector, idx_t row,
                           uint32_t repetition) {
    if (!vector.RowIsValid(row)) {
        if (node.required) {
            throw Exception(ErrorKind::InvalidInput,
                            "cannot write a NULL map key to Parquet (map keys are required)");
        }
        Absent(node, repetition, node.null_level);
        return;
    }
    switch (node.kind) {
    case ShredNode::Kind::Leaf:
        leaves_[node.first_leaf].AppendEntry(repetition, node.defined_level, &vector,
                                             vector.RowIndex(row));
        return;
    case ShredNode::Kind::Struct:
        // Row `row` of a struct is row `row` of each field's vector.
        for (size_t field = 0; field < node.children.size(); field++) {
            Shred(node.children[field], vector.struct_child(field), row, repetition);
        }
        return;
    case ShredNode::Kind::List: {
        list_entry_t entry = vector.ListEntry(row);
        if (entry.length == 0) {
            Absent(node, repetition, node.defined_level);
            return;
        }
        const Vector& elements = vector.list_child();
        const ShredNode& element = node.children[0];
        Shred(element, elements, entry.offset, repetition);
        for (uint64_t i = 1; i < entry.length; i++) {
            Shred(element, elements, entry.offset + i, node.repetition_level);
        }
        return;
    }
    }
}

void ColumnShredder::Finish(std::vector<EncodedColumnChunk>& chunks) {
    for (ColumnChunkEncoder& leaf : leaves_) {
        chunks.push_back(leaf.Finish());
    }
}

} // namespace sluice::parquet
