#include "common/vector.hpp"

#include "common/allocation_budget.hpp"
#include "common/assert.hpp"
#include "common/exception.hpp"

#include <algorithm>
#include <cstring>

namespace sluice {

Vector::Vector(LogicalType type, idx_t capacity)
    : type_(type), capacity_(capacity), own_capacity_(capacity) {
    idx_t bytes = PhysicalTypeSize(type.physical()) * (capacity == 0 ? 1 : capacity);
    AllocationBudget::Charge(bytes);
    // Uninitialised: every row is written before it is read, and NULL rows are never read.
    data_.reset(new uint8_t[bytes]);
    own_buffer_ = data_.get();
    MakeChildren();
}

void Vector::MakeChildren() {
    children_.clear();
    list_size_ = 0;
    if (type_.physical() == PhysicalType::LIST) {
        children_.push_back(std::make_shared<Vector>(type_.element(), capacity_));
    } else if (type_.physical() == PhysicalType::STRUCT) {
        for (const StructField& field : type_.fields()) {
            children_.push_back(std::make_shared<Vector>(field.type, capacity_));
        }
    }
}

void Vector::SetNull(idx_t row) {
    validity_.SetInvalid(row, capacity_);
    if (type_.physical() == PhysicalType::LIST) {
        data<list_entry_t>()[row] = list_entry_t{0, 0};
    } else if (type_.physical() == PhysicalType::STRUCT) {
        for (auto& child : children_) {
            child->SetNull(row);
        }
    }
}

void Vector::SetNullRange(idx_t offset, idx_t count) {
    validity_.SetInvalidRange(offset, count, capacity_);
    if (type_.physical() == PhysicalType::LIST) {
        std::fill_n(data<list_entry_t>() + offset, count, list_entry_t{0, 0});
    } else if (type_.physical() == PhysicalType::STRUCT) {
        for (auto& child : children_) {
            child->SetNullRange(offset, count);
        }
    }
}

void Vector::SetVectorType(VectorType type) {
    vector_type_ = type;
    if (type_.physical() == PhysicalType::STRUCT) {
        for (auto& child : children_) {
            child->SetVectorType(type);
        }
    }
}

void Vector::Grow(idx_t capacity) {
    if (capacity <= capacity_) {
        return;
    }
    idx_t width = PhysicalTypeSize(type_.physical());
    AllocationBudget::Charge(width * capacity);
    std::shared_ptr<uint8_t[]> grown(new uint8_t[width * capacity]);
    std::memcpy(grown.get(), data_.get(), width * capacity_);
    data_ = std::move(grown);
    own_buffer_ = data_.get();
    capacity_ = own_capacity_ = capacity;
    validity_.Grow(capacity);
    if (type_.physical() == PhysicalType::STRUCT) {
        for (auto& child : children_) {
            child->Grow(capacity);
        }
    }
}

idx_t Vector::ReserveElements(idx_t count) {
    Vector& elements = list_child();
    idx_t start = list_size_;
    if (start + count > elements.capacity()) {
        elements.Grow(std::max(start + count, 2 * elements.capacity()));
    }
    list_size_ += count;
    return start;
}

list_entry_t Vector::AppendElements(const Vector& source_elements, idx_t offset, idx_t length) {
    // Copied, strings too, rather than gathered: a row copied into a hash table or a key chunk
    // must not keep the source's memory (and all it keeps) alive.
    idx_t start = ReserveElements(length);
    for (idx_t i = 0; i < length; i++) {
        list_child().CopyRow(source_elements, offset + i, start + i);
    }
    return list_entry_t{start, length};
}

void Vector::Reference(const Vector& other) {
    if (other.type_ != type_) {
        throw Exception(ErrorKind::Internal,
                        "Vector::Reference between vectors of different types");
    }
    data_ = other.data_;
    capacity_ = other.capacity_; // the capacity is the shared buffer's
    vector_type_ = other.vector_type_;
    validity_ = other.validity_;
    heap_ = other.heap_;
    owners_ = other.owners_;
    children_ = other.children_;
    list_size_ = other.list_size_;
}

void Vector::Slice(const Vector& other, idx_t offset, idx_t count) {
    if (other.type_ != type_ || other.vector_type_ != VectorType::FLAT) {
        throw Exception(ErrorKind::Internal, "Vector::Slice of a different type or layout");
    }
    idx_t width = PhysicalTypeSize(type_.physical());
    // Shares the buffer's ownership, pointing `offset` rows in.
    data_ = std::shared_ptr<uint8_t[]>(other.data_, other.data_.get() + offset * width);
    capacity_ = std::max(capacity_, count);
    vector_type_ = VectorType::FLAT;
    validity_.Slice(other.validity_, offset, count);
    heap_ = other.heap_;
    owners_ = other.owners_;
    list_size_ = other.list_size_;
    if (type_.physical() == PhysicalType::STRUCT) {
        for (idx_t field = 0; field < children_.size(); field++) {
            if (children_[field].use_count() > 1) {
                children_[field] = std::make_shared<Vector>(children_[field]->type_, capacity_);
            }
            children_[field]->Slice(*other.children_[field], offset, count);
        }
    } else {
        children_ = other.children_; // a list's entries still name the same elements
    }
}

StringHeap& Vector::string_heap() {
    if (!heap_) {
        heap_ = std::make_shared<StringHeap>();
    }
    return *heap_;
}

string_t Vector::AddString(std::string_view text) {
    return string_heap().AddString(text);
}

void Vector::KeepAlive(std::shared_ptr<const void> owner) {
    if (owners_.empty() || owners_.back() != owner) {
        owners_.push_back(std::move(owner));
    }
}

void Vector::SetValue(idx_t row, const Value& value) {
    if (value.IsNull()) {
        SetNull(row);
        return;
    }
    validity_.SetValid(row);
    switch (type_.physical()) {
    case PhysicalType::BOOL:
        data<bool>()[row] = value.GetBoolean();
        break;
    case PhysicalType::INT8:
        data<int8_t>()[row] = static_cast<int8_t>(value.GetInteger());
        break;
    case PhysicalType::INT16:
        data<int16_t>()[row] = static_cast<int16_t>(value.GetInteger());
        break;
    case PhysicalType::INT32:
        data<int32_t>()[row] = static_cast<int32_t>(value.GetInteger());
        break;
    case PhysicalType::INT64:
        data<int64_t>()[row] = static_cast<int64_t>(value.GetInteger());
        break;
    case PhysicalType::INT128:
        data<hugeint_t>()[row] = value.GetInteger();
        break;
    case PhysicalType::UINT8:
    case PhysicalType::UINT16:
    case PhysicalType::UINT32:
    case PhysicalType::UINT64:
        SetInteger(*this, row, value.GetInteger());
        break;
    case PhysicalType::FLOAT:
        data<float>()[row] = static_cast<float>(value.GetDouble());
        break;
    case PhysicalType::DOUBLE:
        data<double>()[row] = value.GetDouble();
        break;
    case PhysicalType::VARCHAR:
        data<string_t>()[row] = AddString(value.GetString());
        break;
    case PhysicalType::LIST: {
        const std::vector<Value>& elements = value.children();
        idx_t start = ReserveElements(elements.size());
        for (idx_t i = 0; i < elements.size(); i++) {
            list_child().SetValue(start + i, elements[i]);
        }
        data<list_entry_t>()[row] = list_entry_t{start, elements.size()};
        break;
    }
    case PhysicalType::STRUCT:
        for (idx_t field = 0; field < children_.size(); field++) {
            children_[field]->SetValue(row, value.children()[field]);
        }
        break;
    }
}

Value Vector::GetValue(idx_t row) const {
    idx_t index = vector_type_ == VectorType::CONSTANT ? 0 : row;
    if (!validity_.RowIsValid(index)) {
        return Value::Null(type_);
    }
    switch (type_.physical()) {
    case PhysicalType::BOOL:
        return Value::Boolean(data<bool>()[index]);
    case PhysicalType::INT8:
        return Value::Integer(type_, data<int8_t>()[index]);
    case PhysicalType::INT16:
        return Value::Integer(type_, data<int16_t>()[index]);
    case PhysicalType::INT32:
        return Value::Integer(type_, data<int32_t>()[index]);
    case PhysicalType::INT64:
        return Value::Integer(type_, data<int64_t>()[index]);
    case PhysicalType::INT128:
        return Value::Integer(type_, data<hugeint_t>()[index]);
    case PhysicalType::UINT8:
    case PhysicalType::UINT16:
    case PhysicalType::UINT32:
    case PhysicalType::UINT64:
        return Value::Integer(type_, GetInteger(*this, index));
    case PhysicalType::FLOAT:
        return Value::Float(data<float>()[index]);
    case PhysicalType::DOUBLE:
        return Value::Double(data<double>()[index]);
    case PhysicalType::VARCHAR: {
        std::string text = data<string_t>()[index].str();
        return type_.id() == LogicalTypeId::BLOB ? Value::Blob(std::move(text))
                                                 : Value::Varchar(std::move(text));
    }
    case PhysicalType::LIST: {
        list_entry_t entry = data<list_entry_t>()[index];
        std::vector<Value> elements;
        elements.reserve(entry.length);
        for (idx_t i = 0; i < entry.length; i++) {
            elements.push_back(list_child().GetValue(entry.offset + i));
        }
        return Value::Nested(type_, std::move(elements));
    }
    case PhysicalType::STRUCT: {
        std::vector<Value> fields;
        for (const auto& child : children_) {
            fields.push_back(child->GetValue(index));
        }
        return Value::Nested(type_, std::move(fields));
    }
    }
    throw Exception(ErrorKind::Internal, "unhandled physical type in Vector::GetValue");
}

void Vector::SetConstant(const Value& value) {
    SetVectorType(VectorType::CONSTANT);
    validity_.Reset();
    SetValue(0, value);
}

void Vector::Flatten(idx_t count) {
    if (vector_type_ == VectorType::FLAT) {
        return;
    }
    vector_type_ = VectorType::FLAT;
    if (type_.physical() == PhysicalType::STRUCT) {
        for (auto& child : children_) {
            child->Flatten(count);
        }
    }
    if (!validity_.RowIsValid(0)) {
        for (idx_t row = 0; row < count; row++) {
            validity_.SetInvalid(row, capacity_);
        }
        return;
    }
    idx_t width = PhysicalTypeSize(type_.physical());
    for (idx_t row = 1; row < count; row++) {
        std::memcpy(data_.get() + row * width, data_.get(), width);
    }
}

void Vector::CopyRow(const Vector& source, idx_t source_row, idx_t target_row) {
    idx_t index = source.vector_type_ == VectorType::CONSTANT ? 0 : source_row;
    if (!source.validity_.RowIsValid(index)) {
        SetNull(target_row);
        return;
    }
    validity_.SetValid(target_row);
    if (type_.physical() == PhysicalType::VARCHAR) {
        data<string_t>()[target_row] = AddString(source.data<string_t>()[index].view());
        return;
    }
    if (type_.physical() == PhysicalType::LIST) {
        list_entry_t entry = source.data<list_entry_t>()[index];
        data<list_entry_t>()[target_row] =
            AppendElements(source.list_child(), entry.offset, entry.length);
        return;
    }
    if (type_.physical() == PhysicalType::STRUCT) {
        for (idx_t field = 0; field < children_.size(); field++) {
            children_[field]->CopyRow(*source.children_[field], source_row, target_row);
        }
        return;
    }
    idx_t width = PhysicalTypeSize(type_.physical());
    std::memcpy(data_.get() + target_row * width, source.data_.get() + index * width, width);
}

void Vector::KeepAliveOf(const Vector& other) {
    if (other.heap_) {
        KeepAlive(other.heap_);
    }
    for (const auto& owner : other.owners_) {
        KeepAlive(owner);
    }
}

namespace {

// Calls copy(T{}, i) for i in [0, count) with T a type of `width` bytes (every physical type's
// size is one of them).
template <class Copy>
void CopyValues(idx_t width, idx_t count, Copy copy) {
    auto each = [&](auto tag) {
        for (idx_t i = 0; i < count; i++) {
            copy(tag, i);
        }
    };
    switch (width) {
    case 1:
        return each(uint8_t{});
    case 2:
        return each(uint16_t{});
    case 4:
        return each(uint32_t{});
    case 8:
        return each(uint64_t{});
    case 16:
        return each(hugeint_t{});
    default:
        throw Exception(ErrorKind::Internal, "vector of " + std::to_string(width) + "-byte values");
    }
}

} // namespace

void Vector::Gather(const Vector& source, const idx_t* rows, idx_t count, idx_t target_offset) {
    bool constant = source.vector_type_ == VectorType::CONSTANT;
    SLUICE_ASSERT(target_offset + count <= capacity_, "Vector::Gather beyond the target's rows");
#ifndef NDEBUG
    for (idx_t i = 0; i < count && !constant; i++) {
        SLUICE_ASSERT(rows[i] < std::max<idx_t>(source.capacity_, 1),
                      "Vector::Gather of a row beyond the source's");
    }
#endif
    if (type_.physical() == PhysicalType::STRUCT) {
        for (idx_t field = 0; field < children_.size(); field++) {
            children_[field]->Gather(*source.children_[field], rows, count, target_offset);
        }
    } else if (type_.physical() == PhysicalType::LIST) {
        GatherLists(source, rows, count, target_offset);
    } else {
        idx_t width = PhysicalTypeSize(type_.physical());
        const uint8_t* from = source.data_.get();
        uint8_t* to = data_.get() + target_offset * width;
        CopyValues(width, count, [&](auto tag, idx_t i) {
            using T = decltype(tag);
            std::memcpy(to + i * sizeof(T), from + (constant ? 0 : rows[i]) * sizeof(T), sizeof(T));
        });
    }
    if (source.validity_.AllValid()) {
        if (!validity_.AllValid()) {
            for (idx_t i = 0; i < count; i++) {
                validity_.SetValid(target_offset + i);
            }
        }
    } else {
        for (idx_t i = 0; i < count; i++) {
            if (source.validity_.RowIsValid(constant ? 0 : rows[i])) {
                validity_.SetValid(target_offset + i);
            } else {
                SetNull(target_offset + i);
            }
        }
    }
    if (type_.physical() == PhysicalType::VARCHAR) {
        KeepAliveOf(source);
    }
}

void Vector::GatherLists(const Vector& source, const idx_t* rows, idx_t count,
                         idx_t target_offset) {
    // One Gather of every element the rows name, then entries pointing at their new places.
    bool constant = source.vector_type_ == VectorType::CONSTANT;
    const list_entry_t* from = source.data<list_entry_t>();
    std::vector<idx_t> element_rows;
    for (idx_t i = 0; i < count; i++) {
        idx_t row = constant ? 0 : rows[i];
        if (source.validity_.RowIsValid(row)) {
            for (idx_t e = 0; e < from[row].length; e++) {
                element_rows.push_back(from[row].offset + e);
            }
        }
    }
    idx_t start = ReserveElements(element_rows.size());
    list_child().Gather(source.list_child(), element_rows.data(), element_rows.size(), start);
    list_entry_t* to = data<list_entry_t>() + target_offset;
    for (idx_t i = 0; i < count; i++) {
        idx_t row = constant ? 0 : rows[i];
        idx_t length = source.validity_.RowIsValid(row) ? from[row].length : 0;
        to[i] = list_entry_t{start, length};
        start += length;
    }
}

void Vector::Compact(const uint32_t* rows, idx_t count) {
    // rows[i] >= i: every row is read before a lower position is written over it.
    if (type_.physical() == PhysicalType::STRUCT) {
        for (auto& child : children_) {
            child->Compact(rows, count);
        }
    } else {
        idx_t width = PhysicalTypeSize(type_.physical());
        uint8_t* base = data_.get();
        CopyValues(width, count, [&](auto tag, idx_t i) {
            using T = decltype(tag);
            std::memmove(base + i * sizeof(T), base + idx_t(rows[i]) * sizeof(T), sizeof(T));
        });
    }
    if (!validity_.AllValid()) {
        for (idx_t i = 0; i < count; i++) {
            validity_.Set(i, validity_.RowIsValid(rows[i]), capacity_);
        }
    }
}

void Vector::Reset() {
    vector_type_ = VectorType::FLAT;
    validity_.Reset();
    heap_.reset();
    owners_.clear();
    if (data_.use_count() > 1 || data_.get() != own_buffer_) {
        // Another vector references our rows, or we show another's (Reference, Slice), whose
        // buffer may hold fewer rows than ours did: write to a buffer of our own, as large as
        // ours was and as the rows shown (a slice may show more).
        own_capacity_ = std::max(own_capacity_, capacity_);
        data_.reset(new uint8_t[PhysicalTypeSize(type_.physical()) *
                                (own_capacity_ == 0 ? 1 : own_capacity_)]);
        own_buffer_ = data_.get();
        capacity_ = own_capacity_;
    }
    list_size_ = 0;
    bool rows = type_.physical() == PhysicalType::STRUCT; // a struct's fields hold its rows
    for (auto& child : children_) {
        if (child.use_count() > 1 || (rows && child->own_capacity_ < own_capacity_)) {
            child =
                std::make_shared<Vector>(child->type_, rows ? own_capacity_ : child->own_capacity_);
        } else {
            child->Reset();
        }
    }
}

hugeint_t GetInteger(const Vector& vector, idx_t row) {
    switch (vector.type().physical()) {
    case PhysicalType::INT8:
        return vector.data<int8_t>()[row];
    case PhysicalType::INT16:
        return vector.data<int16_t>()[row];
    case PhysicalType::INT32:
        return vector.data<int32_t>()[row];
    case PhysicalType::INT64:
        return vector.data<int64_t>()[row];
    case PhysicalType::INT128:
        return vector.data<hugeint_t>()[row];
    case PhysicalType::UINT8:
        return vector.data<uint8_t>()[row];
    case PhysicalType::UINT16:
        return vector.data<uint16_t>()[row];
    case PhysicalType::UINT32:
        return vector.data<uint32_t>()[row];
    case PhysicalType::UINT64:
        return vector.data<uint64_t>()[row];
    default:
        throw Exception(ErrorKind::Internal,
                        "GetInteger on a " + vector.type().ToString() + " vector");
    }
}

void SetInteger(Vector& vector, idx_t row, hugeint_t value) {
    switch (vector.type().physical()) {
    case PhysicalType::INT8:
        vector.data<int8_t>()[row] = static_cast<int8_t>(value);
        break;
    case PhysicalType::INT16:
        vector.data<int16_t>()[row] = static_cast<int16_t>(value);
        break;
    case PhysicalType::INT32:
        vector.data<int32_t>()[row] = static_cast<int32_t>(value);
        break;
    case PhysicalType::INT64:
        vector.data<int64_t>()[row] = static_cast<int64_t>(value);
        break;
    case PhysicalType::INT128:
        vector.data<hugeint_t>()[row] = value;
        break;
    case PhysicalType::UINT8:
        vector.data<uint8_t>()[row] = static_cast<uint8_t>(value);
        break;
    case PhysicalType::UINT16:
        vector.data<uint16_t>()[row] = static_cast<uint16_t>(value);
        break;
    case PhysicalType::UINT32:
        vector.data<uint32_t>()[row] = static_cast<uint32_t>(value);
        break;
    case PhysicalType::UINT64:
        vector.data<uint64_t>()[row] = static_cast<uint64_t>(value);
        break;
    default:
        throw Exception(ErrorKind::Internal,
                        "SetInteger on a " + vector.type().ToString() + " vector");
    }
}

} // namespace sluice
