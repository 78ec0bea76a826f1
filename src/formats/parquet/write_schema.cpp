#include "formats/parquet/write_schema.hpp"

#include "formats/parquet/parquet_value_layout.hpp"
#include "formats/parquet/thrift_compact_reader.hpp"

namespace sluice::parquet {

WriteSchema::WriteSchema(const std::vector<std::string>& names,
                         const std::vector<LogicalType>& types) {
    for (size_t column = 0; column < types.size(); column++) {
        first_leaves_.push_back(leaves_.size());
        columns_.push_back(Build(names[column], types[column], 0, 0, false, {}));
    }
}

ShredNode WriteSchema::Build(const std::string& name, const LogicalType& type, uint32_t null_level,
                             uint32_t repetition_level, bool required,
                             std::vector<std::string> path) {
    ShredNode node;
    node.required = required;
    node.null_level = null_level;
    node.first_leaf = leaves_.size() - first_leaves_.back();
    // A present value of an OPTIONAL node raises the definition level; a REQUIRED one cannot be
    // absent, so it adds no level.
    uint32_t level = required ? null_level : null_level + 1;
    path.push_back(name);
    size_t element = elements_.size();
    elements_.push_back({name, required ? Repetition::REQUIRED : Repetition::OPTIONAL});
    switch (type.id()) {
    case LogicalTypeId::STRUCT:
        node.kind = ShredNode::Kind::Struct;
        for (const StructField& field : type.fields()) {
            node.children.push_back(
                Build(field.name, field.type, level, repetition_level, false, path));
        }
        elements_[element].children = static_cast<int32_t>(type.fields().size());
        break;
    case LogicalTypeId::LIST:
    case LogicalTypeId::MAP: {
        bool map = type.id() == LogicalTypeId::MAP;
        node.kind = ShredNode::Kind::List;
        node.defined_level = level;
        node.repetition_level = repetition_level + 1;
        elements_[element].children = 1;
        elements_[element].converted = map ? ConvertedType::MAP : ConvertedType::LIST;
        // The repeated group: present when the list has an element, repeated per element.
        std::string group = map ? "key_value" : "list";
        path.push_back(group);
        elements_.push_back({group, Repetition::REPEATED, map ? 2 : 1});
        if (map) {
            // The repeated group is the (key, value) entry itself.
            ShredNode entry;
            entry.kind = ShredNode::Kind::Struct;
            entry.required = true;
            entry.null_level = level + 1;
            entry.first_leaf = leaves_.size() - first_leaves_.back();
            entry.children.push_back(
                Build("key", type.key(), level + 1, node.repetition_level, true, path));
            entry.children.push_back(
                Build("value", type.value(), level + 1, node.repetition_level, false, path));
            entry.leaf_count = leaves_.size() - first_leaves_.back() - entry.first_leaf;
            node.children.push_back(std::move(entry));
        } else {
            node.children.push_back(
                Build("element", type.element(), level + 1, node.repetition_level, false, path));
        }
        break;
    }
    default:
        LayoutOf(type); // throws for a type Parquet cannot hold
        node.kind = ShredNode::Kind::Leaf;
        node.defined_level = level;
        elements_[element].leaf = leaves_.size();
        leaves_.push_back({std::move(path), type, level, repetition_level});
        break;
    }
    node.leaf_count = leaves_.size() - first_leaves_.back() - node.first_leaf;
    return node;
}

void WriteSchema::WriteElements(ThriftCompactWriter& writer) const {
    writer.BeginListField(2, ThriftCompactReader::Type::kStruct,
                          static_cast<uint32_t>(elements_.size() + 1));
    writer.BeginStruct(); // the root
    writer.WriteI32Field(3, static_cast<int32_t>(Repetition::REQUIRED));
    writer.WriteBinaryField(4, "sluice_schema");
    writer.WriteI32Field(5, static_cast<int32_t>(columns_.size()));
    writer.EndStruct();
    for (const Element& element : elements_) {
        writer.BeginStruct();
        if (element.leaf == SIZE_MAX) {
            writer.WriteI32Field(3, static_cast<int32_t>(element.repetition));
            writer.WriteBinaryField(4, element.name);
            writer.WriteI32Field(5, element.children);
            if (element.converted != ConvertedType::NONE) {
                writer.WriteI32Field(6, static_cast<int32_t>(element.converted));
                // LogicalType union: MAP is member 2, LIST member 3.
                writer.BeginStructField(10);
                writer.BeginStructField(element.converted == ConvertedType::MAP ? 2 : 3);
                writer.EndStruct();
                writer.EndStruct();
            }
        } else {
            const LogicalType& type = leaves_[element.leaf].type;
            Layout layout = LayoutOf(type);
            writer.WriteI32Field(1, static_cast<int32_t>(layout.type));
            if (layout.type == Type::FIXED_LEN_BYTE_ARRAY) {
                writer.WriteI32Field(2, layout.type_length);
            }
            writer.WriteI32Field(3, static_cast<int32_t>(element.repetition));
            writer.WriteBinaryField(4, element.name);
            if (layout.converted != ConvertedType::NONE) {
                writer.WriteI32Field(6, static_cast<int32_t>(layout.converted));
            }
            if (layout.converted == ConvertedType::DECIMAL) {
                writer.WriteI32Field(7, layout.scale);
                writer.WriteI32Field(8, layout.precision);
            }
            WriteLogicalType(writer, type, layout);
        }
        writer.EndStruct();
    }
}

} // namespace sluice::parquet
