#include "common/vector.hpp"

#include "common/exception.hpp"

#include <cstring>

namespace sluice {

Vector::Vector(LogicalType type, idx_t capacity)
    : type_(type), capacity_(capacity),
      // Uninitialised: every row is written before it is read, and NULL rows are never read.
      data_(new uint8_t[PhysicalTypeSize(type.physical()) * (capacity == 0 ? 1 : capacity)]) {
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
    }
    throw Exception(ErrorKind::Internal, "unhandled physical type in Vector::GetValue");
}

void Vector::SetConstant(const Value& value) {
    vector_type_ = VectorType::CONSTANT;
    validity_.Reset();
    SetValue(0, value);
}

void Vector::Flatten(idx_t count) {
    if (vector_type_ == VectorType::FLAT) {
        return;
    }
    vector_type_ = VectorType::FLAT;
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
    idx_t width = PhysicalTypeSize(type_.physical());
    const uint8_t* from = source.data_.get();
    uint8_t* to = data_.get() + target_offset * width;
    CopyValues(width, count, [&](auto tag, idx_t i) {
        using T = decltype(tag);
        std::memcpy(to + i * sizeof(T), from + (constant ? 0 : rows[i]) * sizeof(T), sizeof(T));
    });
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

void Vector::Compact(const uint32_t* rows, idx_t count) {
    // rows[i] >= i: every row is read before a lower position is written over it.
    idx_t width = PhysicalTypeSize(type_.physical());
    uint8_t* base = data_.get();
    CopyValues(width, count, [&](auto tag, idx_t i) {
        using T = decltype(tag);
        std::memmove(base + i * sizeof(T), base + idx_t(rows[i]) * sizeof(T), sizeof(T));
    });
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
    if (data_.use_count() > 1) {
        // Another vector references our rows (or we reference theirs): write elsewhere.
        data_.reset(
            new uint8_t[PhysicalTypeSize(type_.physical()) * (capacity_ == 0 ? 1 : capacity_)]);
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
