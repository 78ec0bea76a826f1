#pragma once

#include "common/types.hpp"
#include "common/vector.hpp"

#include <pybind11/pybind11.h>

#include <algorithm>
#include <memory>
#include <string_view>
#include <vector>

namespace sluice {

namespace py = pybind11;

// The Python objects of text columns, as fetchnumpy() and df() hold them.

// A Python str of UTF-8 `text` (a new reference, or null with a Python error set); ASCII (most
// text) is copied straight into a new str.
PyObject* NewString(std::string_view text);

// The values of one text column of a chunk as indexes into its distinct values, when they
// repeat (no more than half of a chunk's rows bring a new one): a column of few distinct values
// (flags, codes, names) then needs a str per distinct value and a reference per row, as pandas
// would hold it. Found on the thread that adds the chunk, while its data is in cache (no Python
// objects, so no GIL).
struct RepeatedStrings {
    static constexpr uint16_t kNull = UINT16_MAX;
    // Rows looked at before giving up on a chunk where most values so far are new.
    static constexpr idx_t kProbe = 128;

    std::vector<string_t> values;  // distinct, in order of first appearance
    std::vector<uint32_t> uses;    // the rows of each
    std::vector<uint16_t> indexes; // per row (kNull for NULL); empty if the values do not repeat
    uint32_t nulls = 0;

    bool repeated() const { return !indexes.empty(); }
    void Find(const Vector& vector, idx_t count);
};

// The Python objects of one column of a chunk, owned (released with the GIL held) until they
// are copied into the column's array: an object per row, or for text that repeats, one per
// distinct value holding a reference for each row that shows it.
class ObjectPiece {
public:
    // Room for `rows` objects pushed one by one.
    explicit ObjectPiece(idx_t rows) : items_(new PyObject*[std::max<idx_t>(rows, 1)]) {}
    // The rows of `repeated`: `distinct` has the str of each of its values, a reference each,
    // which this takes and makes one a row (None for NULL likewise).
    ObjectPiece(const RepeatedStrings& repeated, std::vector<py::object> distinct);
    ~ObjectPiece() { Release(); }
    ObjectPiece(const ObjectPiece&) = delete;
    ObjectPiece& operator=(const ObjectPiece&) = delete;

    void Push(PyObject* object) { items_[count_++] = object; }
    idx_t rows() const { return repeated_ ? repeated_->indexes.size() : count_; }
    // Writes the rows' objects to `out` (no GIL needed: no count changes).
    void CopyTo(PyObject** out) const;
    // The references went to where CopyTo wrote them (an array that holds them now).
    void Disown() {
        count_ = 0;
        owned_ = false;
    }

private:
    void Release();

    std::unique_ptr<PyObject*[]> items_;
    idx_t count_ = 0;
    const RepeatedStrings* repeated_ = nullptr; // of the same piece, which outlives this
    std::vector<PyObject*> distinct_;
    bool owned_ = false; // distinct_'s references
};

} // namespace sluice
