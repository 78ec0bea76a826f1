#pragma once

#include "common/string_heap.hpp"
#include "common/string_type.hpp"
#include "common/types.hpp"
#include "common/validity_mask.hpp"
#include "common/value.hpp"

#include <memory>
#include <vector>

namespace sluice {

enum class VectorType : uint8_t {
    FLAT,     // one value per row
    CONSTANT, // row 0 holds the value of every row
};

// A column of up to `capacity` values of one logical type: a typed data buffer, a validity mask
// and, for strings, the arena that owns the bytes of strings too long to inline.
class Vector {
public:
    explicit Vector(LogicalType type, idx_t capacity = kVectorSize);

    const LogicalType& type() const { return type_; }
    VectorType vector_type() const { return vector_type_; }
    idx_t capacity() const { return capacity_; }

    template <class T>
    T* data() {
        return reinterpret_cast<T*>(data_.get());
    }
    template <class T>
    const T* data() const {
        return reinterpret_cast<const T*>(data_.get());
    }
    ValidityMask& validity() { return validity_; }
    const ValidityMask& validity() const { return validity_; }

    // Row `row` of the vector, honouring CONSTANT vectors.
    bool RowIsValid(idx_t row) const {
        return validity_.RowIsValid(vector_type_ == VectorType::CONSTANT ? 0 : row);
    }
    void SetNull(idx_t row) { validity_.SetInvalid(row, capacity_); }

    // Copies `text` into this vector's arena when it is too long to inline.
    string_t AddString(std::string_view text);
    StringHeap& string_heap();
    // Keeps memory that string_t values of this vector point into alive until Reset.
    void KeepAlive(std::shared_ptr<const void> owner);

    void SetValue(idx_t row, const Value& value);
    Value GetValue(idx_t row) const;

    // Makes this a CONSTANT vector holding `value`.
    void SetConstant(const Value& value);
    void SetVectorType(VectorType type) { vector_type_ = type; }
    // Expands a CONSTANT vector into `count` FLAT rows.
    void Flatten(idx_t count);
    // Copies row `source_row` of `source` (same type) into row `target_row` of this vector.
    void CopyRow(const Vector& source, idx_t source_row, idx_t target_row);
    // Writes rows `rows[0..count)` of `source` (same type) to rows `target_offset...` of this
    // vector. Long strings are not copied: this vector keeps the source's string memory alive.
    void Gather(const Vector& source, const idx_t* rows, idx_t count, idx_t target_offset = 0);
    // Keeps rows `rows[0..count)` (ascending) as rows [0, count), in place.
    void Compact(const uint32_t* rows, idx_t count);
    // Keeps the memory `other`'s long strings point into alive as long as this vector's rows.
    void KeepAliveOf(const Vector& other);
    // Forgets contents and NULLs, keeps type and capacity.
    void Reset();
    // Makes this vector show `other`'s rows without copying them (same type). Valid until either
    // vector is Reset; this one must be Reset before it is written.
    void Reference(const Vector& other);

private:
    LogicalType type_;
    VectorType vector_type_ = VectorType::FLAT;
    idx_t capacity_;
    // Shared so that Reference() costs nothing; Reset() gives a shared vector a buffer of its own
    // before it is written again.
    std::shared_ptr<uint8_t[]> data_;
    ValidityMask validity_;
    std::shared_ptr<StringHeap> heap_;
    std::vector<std::shared_ptr<const void>> owners_;
};

// Row `row` of a vector of any integer layout (integers, DECIMAL, DATE, TIME, TIMESTAMP) as a
// 128-bit integer, and the reverse (the value must fit the layout).
hugeint_t GetInteger(const Vector& vector, idx_t row);
void SetInteger(Vector& vector, idx_t row, hugeint_t value);

} // namespace sluice
