#include "formats/parquet/nested_schema.hpp"

#include "formats/parquet/corrupt_data.hpp"
#include "formats/parquet/parquet_schema.hpp"

#include <stdexcept>

namespace sluice::parquet {

namespace {

using Kind = LogicalTypeAnnotation::Kind;

bool IsList(const SchemaElement& element) {
    return element.logical_type.kind == Kind::LIST || element.converted_type == ConvertedType::LIST;
}

bool IsMap(const SchemaElement& element) {
    return element.logical_type.kind == Kind::MAP || element.converted_type == ConvertedType::MAP ||
           element.converted_type == ConvertedType::MAP_KEY_VALUE;
}

// Walks a nested column's schema subtree, element by element in the schema's depth-first order,
// keeping the definition and repetition levels each element adds.
class NestedBuilder {
public:
    NestedBuilder(const std::vector<SchemaElement>& schema, size_t& index, size_t first_leaf,
                  ParquetColumn& column)
        : schema_(schema), index_(index), first_leaf_(first_leaf), column_(column) {}

    // A field below a parent whose values are present from definition level `defined` and
    // repeat at `repetition`: its own repetition adds a level (OPTIONAL), or makes it a list of
    // itself (REPEATED outside a LIST or MAP annotation, as DuckDB reads it).
    NestedNode Field(uint32_t defined, uint32_t repetition, const std::string& path) {
        const SchemaElement& element = Current(path);
        std::string name = path.empty() ? element.name : path + "." + element.name;
        if (element.repetition == Repetition::REPEATED) {
            NestedNode list = ListNode(defined, repetition);
            list.children.push_back(Value(defined + 1, repetition + 1, name));
            return Finish(std::move(list));
        }
        bool optional = element.repetition != Repetition::REQUIRED;
        return Value(defined + (optional ? 1 : 0), repetition, name);
    }

private:
    const SchemaElement& Current(const std::string& path) const {
        if (index_ >= schema_.size()) {
            throw CorruptData("the schema below \"" + path + "\" is cut off");
        }
        return schema_[index_];
    }

    static NestedNode ListNode(uint32_t defined, uint32_t repetition) {
        NestedNode list;
        list.kind = NestedNode::Kind::List;
        list.defined_level = defined;
        list.element_level = defined + 1;
        list.repetition_level = repetition + 1;
        return list;
    }

    // Sets a finished node's type (and leaf range) from its children's.
    static NestedNode Finish(NestedNode node) {
        node.first_leaf = node.children.front().first_leaf;
        node.leaf_count = 0;
        for (const NestedNode& child : node.children) {
            node.leaf_count += child.leaf_count;
        }
        if (node.kind == NestedNode::Kind::List && node.type.id() != LogicalTypeId::MAP) {
            node.type = LogicalType::List(node.children[0].type);
        }
        return node;
    }

    // The value of the element at the cursor, present from definition level `defined`.
    NestedNode Value(uint32_t defined, uint32_t repetition, const std::string& name) {
        const SchemaElement& element = Current(name);
        if (element.num_children <= 0) {
            return Leaf(defined, repetition, name);
        }
        if (IsList(element)) {
            return List(defined, repetition, name);
        }
        if (IsMap(element)) {
            return Map(defined, repetition, name);
        }
        return Struct(defined, repetition, name);
    }

    NestedNode Leaf(uint32_t defined, uint32_t repetition, const std::string& name) {
        const SchemaElement& element = schema_[index_++];
        if (!element.type) {
            throw CorruptData("leaf column \"" + name + "\" has no physical type");
        }
        ParquetColumn leaf;
        leaf.name = name;
        leaf.physical = *element.type;
        leaf.type_length = element.type_length;
        leaf.max_definition_level = defined;
        leaf.max_repetition_level = repetition;
        leaf.leaf_index = first_leaf_ + column_.leaves.size();
        if (leaf.physical == Type::FIXED_LEN_BYTE_ARRAY && leaf.type_length <= 0) {
            throw CorruptData("FIXED_LEN_BYTE_ARRAY column \"" + name + "\" has length " +
                              std::to_string(leaf.type_length));
        }
        MapPrimitive(element, leaf);
        if (!leaf.unsupported.empty() && column_.unsupported.empty()) {
            column_.unsupported = leaf.unsupported + " in field \"" + name + "\"";
        }
        NestedNode node;
        node.kind = NestedNode::Kind::Leaf;
        node.type = leaf.type;
        node.defined_level = defined;
        node.first_leaf = column_.leaves.size();
        node.leaf_count = 1;
        column_.leaves.push_back(std::move(leaf));
        return node;
    }

    NestedNode Struct(uint32_t defined, uint32_t repetition, const std::string& name) {
        const SchemaElement& element = schema_[index_++];
        NestedNode node;
        node.kind = NestedNode::Kind::Struct;
        node.defined_level = defined;
        std::vector<StructField> fields;
        for (int32_t i = 0; i < element.num_children; i++) {
            std::string field_name = Current(name).name;
            node.children.push_back(Field(defined, repetition, name));
            fields.push_back(StructField{field_name, node.children.back().type});
        }
        node.type = LogicalType::Struct(std::move(fields));
        return Finish(std::move(node));
    }

    // A LIST-annotated group: one repeated field, which is the element itself (a primitive, a
    // group of several fields, or a group named "array" or "<list>_tuple": the legacy two-level
    // shapes) or holds the element as its only field (the standard three levels).
    NestedNode List(uint32_t defined, uint32_t repetition, const std::string& name) {
        const SchemaElement& element = schema_[index_++];
        const SchemaElement& repeated = Current(name);
        if (element.num_children != 1 || repeated.repetition != Repetition::REPEATED) {
            throw CorruptData("LIST column \"" + name +
                              "\" does not hold exactly one repeated field");
        }
        NestedNode list = ListNode(defined, repetition);
        std::string inner = name + "." + repeated.name;
        bool two_level = repeated.num_children != 1 || repeated.name == "array" ||
                         repeated.name == element.name + "_tuple";
        if (two_level) {
            list.children.push_back(Value(defined + 1, repetition + 1, inner));
        } else {
            index_++;
            list.children.push_back(Field(defined + 1, repetition + 1, inner));
        }
        return Finish(std::move(list));
    }

    // A MAP-annotated group: one repeated group of the key and the value.
    NestedNode Map(uint32_t defined, uint32_t repetition, const std::string& name) {
        const SchemaElement& element = schema_[index_++];
        const SchemaElement& entries = Current(name);
        if (element.num_children != 1 || entries.repetition != Repetition::REPEATED ||
            entries.num_children != 2) {
            throw CorruptData("MAP column \"" + name +
                              "\" does not hold one repeated group of a key and a value");
        }
        NestedNode map = ListNode(defined, repetition);
        std::string inner = name + "." + entries.name;
        NestedNode entry = Struct(defined + 1, repetition + 1, inner);
        const std::vector<StructField>& fields = entry.type.fields();
        map.type = LogicalType::Map(fields[0].type, fields[1].type);
        entry.type = map.type.element();
        map.children.push_back(std::move(entry));
        return Finish(std::move(map));
    }

    const std::vector<SchemaElement>& schema_;
    size_t& index_;
    size_t first_leaf_;
    ParquetColumn& column_;
};

} // namespace

void BuildNestedColumn(const std::vector<SchemaElement>& schema, size_t& index, size_t first_leaf,
                       ParquetColumn& column) {
    column.leaves.clear();
    NestedBuilder builder(schema, index, first_leaf, column);
    NestedNode root = builder.Field(0, 0, "");
    column.type = root.type;
    column.leaf_index = first_leaf;
    column.nested = std::make_shared<const NestedNode>(std::move(root));
}

} // namespace sluice::parquet
