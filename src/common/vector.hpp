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
//
// Nested types keep their values in child vectors. A LIST (and a MAP) row is a list_entry_t
// naming a run of its one child vector, which grows as lists are appended; entries may share
// elements, and elements no entry names are harmless. A STRUCT has no data of its own, one child
// per field with the struct's capacity and vector type (row r of the struct is row r of every
// child), and its own validity: a NULL struct is NULL in every child too.
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

    // Where row `row`'s value is: row 0 of a CONSTANT vector holds every row's.
    idx_t RowIndex(idx_t row) const { return vector_type_ == VectorType::CONSTANT ? 0 : row; }
    // Row `row` of the vector, honouring CONSTANT vectors.
    bool RowIsValid(idx_t row) const {
        return validity_.RowIsValid(vector_type_ == VectorType::CONSTANT ? 0 : row);
    }
    void SetNull(idx_t row);
    // Rows [offset, offset + count) NULL, as SetNull of each.
    void SetNullRange(idx_t offset, idx_t count);

    // LIST and MAP: the element vector, and how many of its rows are in use.
    Vector& list_child() { return *children_[0]; }
    const Vector& list_child() const { return *children_[0]; }
    idx_t list_size() const { return list_size_; }
    // LIST and MAP: row `row`'s entry, honouring CONSTANT vectors.
    list_entry_t ListEntry(idx_t row) const { return data<list_entry_t>()[RowIndex(row)]; }
    // Appends a copy of a row's elements: rows [offset, offset + length) of `source_elements`
    // (an element vector) go to the end of the child; returns the entry naming them.
    list_entry_t AppendElements(const Vector& source_elements, idx_t offset, idx_t length);
    // Makes room for `count` more elements and counts them as used; returns where they start.
    idx_t ReserveElements(idx_t count);
    // STRUCT: the vector of field `index`.
    Vector& struct_child(idx_t index) { return *children_[index]; }
    const Vector& struct_child(idx_t index) const { return *children_[index]; }
    // Grows the capacity, keeping rows (element vectors grow as lists are appended).
    void Grow(idx_t capacity);

    // Copies `text` into this vector's arena when it is too long to inline.
    string_t AddString(std::string_view text);
    StringHeap& string_heap();
    // Keeps memory that string_t values of this vector point into alive until Reset.
    void KeepAlive(std::shared_ptr<const void> owner);

    void SetValue(idx_t row, const Value& value);
    Value GetValue(idx_t row) const;

    // Makes this a CONSTANT vector holding `value`.
    void SetConstant(const Value& value);
    void SetVectorType(VectorType type);
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
    // As Reference, but of rows [offset, offset + count) of FLAT `other` only, shown as rows
    // [0, count): the values are not copied (the validity bits of the rows are). The capacity
    // stays this vector's, for the buffer Reset gives it.
    void Slice(const Vector& other, idx_t offset, idx_t count);

private:
    LogicalType type_;
    VectorType vector_type_ = VectorType::FLAT;
    idx_t capacity_;
    // Shared so that Reference() costs nothing; Reset() gives a shared vector a buffer of its own
    // before it is written again.
    std::shared_ptr<uint8_t[]> data_;
    // The buffer this vector allocated and its rows: Reset() goes back to one of that size after
    // Reference() or Slice() showed another vector's rows (whose capacity may be smaller).
    const uint8_t* own_buffer_ = nullptr;
    idx_t own_capacity_;
    ValidityMask validity_;
    std::shared_ptr<StringHeap> heap_;
    std::vector<std::shared_ptr<const void>> owners_;
    // Nested types' child vectors (see above), shared like data_ by Reference().
    std::vector<std::shared_ptr<Vector>> children_;
    idx_t list_size_ = 0;

    void MakeChildren();
    void GatherLists(const Vector& source, const idx_t* rows, idx_t count, idx_t target_offset);
};

// Row `row` of a vector of any integer layout (integers, DECIMAL, DATE, TIME, TIMESTAMP) as a
// 128-bit integer, and the reverse (the value must fit the layout).
hugeint_t GetInteger(const Vector& vector, idx_t row);
void SetInteger(Vector& vector, idx_t row, hugeint_t value);

} // namespace sluice
