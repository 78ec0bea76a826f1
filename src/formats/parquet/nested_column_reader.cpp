#include "formats/parquet/nested_column_reader.hpp"

#include "common/exception.hpp"

#include <limits>

namespace sluice::parquet {

NestedColumnReader::NestedColumnReader(const ParquetColumn& column,
                                       std::vector<std::unique_ptr<ColumnReader>> leaves,
                                       std::string context)
    : column_(column), leaves_(std::move(leaves)), entries_(leaves_.size()),
      context_(std::move(context)) {
}

void NestedColumnReader::Fail(const std::string& what) const {
    throw Exception(ErrorKind::InvalidInput, context_ + ": " + what);
}

void NestedColumnReader::Skip(uint64_t count) {
    for (auto& leaf : leaves_) {
        if (leaf) {
            leaf->Skip(count);
        }
    }
}

void NestedColumnReader::Read(idx_t count, Vector& out) {
    std::vector<Runs> runs(leaves_.size());
    for (size_t leaf = 0; leaf < leaves_.size(); leaf++) {
        if (!leaves_[leaf]) {
            continue;
        }
        LeafEntries& entries = entries_[leaf];
        leaves_[leaf]->ReadNested(count, entries);
        if (entries.repetition.size() > std::numeric_limits<uint32_t>::max()) {
            Fail("more than 4 billion values in " + std::to_string(count) + " rows");
        }
        // A row is its entries from one of repetition level 0 to the next.
        Runs& rows = runs[leaf];
        for (size_t i = 0; i < entries.repetition.size(); i++) {
            if (entries.repetition[i] == 0) {
                if (!rows.begin.empty()) {
                    rows.end.push_back(static_cast<uint32_t>(i));
                }
                rows.begin.push_back(static_cast<uint32_t>(i));
            }
        }
        rows.end.push_back(static_cast<uint32_t>(entries.repetition.size()));
        if (rows.begin.size() != count) {
            Fail("leaf '" + column_.leaves[leaf].name + "' holds " +
                 std::to_string(rows.begin.size()) + " rows where " + std::to_string(count) +
                 " were read");
        }
    }
    Assemble(*column_.nested, runs, out, 0, count);
}

std::optional<size_t> NestedColumnReader::FirstReadLeaf(const NestedNode& node) const {
    for (size_t leaf = node.first_leaf; leaf < node.first_leaf + node.leaf_count; leaf++) {
        if (leaves_[leaf]) {
            return leaf;
        }
    }
    return std::nullopt;
}

void NestedColumnReader::ReadSelected(idx_t count, const uint32_t* selection, size_t selected,
                                      Vector& out) {
    if (!scratch_) {
        scratch_ = std::make_unique<Vector>(column_.type);
    }
    scratch_->Reset();
    Read(count, *scratch_);
    rows_.assign(selection, selection + selected);
    out.Gather(*scratch_, rows_.data(), selected);
}

void NestedColumnReader::SplitElements(const NestedNode& list, size_t leaf, const Runs& runs,
                                       Runs& elements, std::vector<uint32_t>& lengths,
                                       bool check) const {
    const LeafEntries& entries = entries_[leaf];
    const uint8_t* definition = entries.definition.data();
    const uint8_t* repetition = entries.repetition.data();
    if (!check) {
        lengths.assign(runs.begin.size(), 0);
    }
    for (size_t k = 0; k < runs.begin.size(); k++) {
        uint32_t begin = runs.begin[k];
        uint32_t end = runs.end[k];
        uint32_t length = 0;
        if (definition[begin] >= list.element_level) {
            // Elements start at the run's first entry and at each of the list's repetition level.
            for (uint32_t i = begin; i < end; i++) {
                if (i == begin || repetition[i] <= list.repetition_level) {
                    if (i != begin) {
                        elements.end.push_back(i);
                    }
                    elements.begin.push_back(i);
                    length++;
                }
            }
            elements.end.push_back(end);
        } else if (end - begin != 1) {
            Fail("leaf '" + column_.leaves[leaf].name + "' repeats a NULL or empty list");
        }
        if (!check) {
            lengths[k] = length;
        } else if (lengths[k] != length) {
            Fail("leaf '" + column_.leaves[leaf].name + "' gives a list " + std::to_string(length) +
                 " elements where another leaf gives it " + std::to_string(lengths[k]));
        }
    }
}

void NestedColumnReader::Assemble(const NestedNode& node, std::vector<Runs>& runs, Vector& target,
                                  idx_t offset, idx_t count) {
    std::optional<size_t> read_leaf = FirstReadLeaf(node);
    if (!read_leaf) {
        target.SetNullRange(offset, count);
        return;
    }
    const Runs& first = runs[*read_leaf];
    const uint8_t* definition = entries_[*read_leaf].definition.data();
    switch (node.kind) {
    case NestedNode::Kind::Leaf: {
        // The leaf's entries hold its values, NULL where not defined to the end.
        rows_.assign(first.begin.begin(), first.begin.end());
        target.Gather(*entries_[*read_leaf].values, rows_.data(), count, offset);
        return;
    }
    case NestedNode::Kind::Struct:
        for (size_t k = 0; k < count; k++) {
            if (definition[first.begin[k]] < node.defined_level) {
                target.SetNull(offset + k);
            }
        }
        for (size_t field = 0; field < node.children.size(); field++) {
            Assemble(node.children[field], runs, target.struct_child(field), offset, count);
        }
        return;
    case NestedNode::Kind::List: {
        std::vector<Runs> elements(runs.size());
        std::vector<uint32_t> lengths;
        for (size_t leaf = *read_leaf; leaf < node.first_leaf + node.leaf_count; leaf++) {
            if (leaves_[leaf]) {
                SplitElements(node, leaf, runs[leaf], elements[leaf], lengths, leaf != *read_leaf);
            }
        }
        idx_t element_count = elements[*read_leaf].begin.size();
        idx_t start = target.ReserveElements(element_count);
        auto* entries = target.data<list_entry_t>() + offset;
        idx_t at = start;
        for (size_t k = 0; k < count; k++) {
            if (definition[first.begin[k]] < node.defined_level) {
                target.SetNull(offset + k);
                continue;
            }
            entries[k] = list_entry_t{at, lengths[k]};
            at += lengths[k];
        }
        Assemble(node.children[0], elements, target.list_child(), start, element_count);
        return;
    }
    }
}

} // namespace sluice::parquet
