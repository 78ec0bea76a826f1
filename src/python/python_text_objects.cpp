#include "python/python_text_objects.hpp"

#include <algorithm>
#include <cstring>

namespace sluice {

namespace {

// Copies `size` bytes and says whether they are all ASCII, in one pass of 8-byte words (the last
// one overlapping the one before rather than a loop over the rest byte by byte).
bool CopyIfAscii(char* out, const char* in, size_t size) {
    uint64_t high = 0;
    auto copy = [&](size_t at, auto word) {
        std::memcpy(&word, in + at, sizeof(word));
        high |= word;
        std::memcpy(out + at, &word, sizeof(word));
    };
    if (size >= 8) {
        for (size_t at = 0; at + 8 < size; at += 8) {
            copy(at, uint64_t());
        }
        copy(size - 8, uint64_t());
    } else if (size >= 4) {
        copy(0, uint32_t());
        copy(size - 4, uint32_t());
    } else {
        for (size_t at = 0; at < size; at++) {
            copy(at, uint8_t());
        }
    }
    return (high & 0x8080808080808080ULL) == 0;
}

// As ==, without reading the bytes of long strings that point at the same place (a column
// decoded from a Parquet dictionary points each value's rows at one copy).
bool Same(const string_t& a, const string_t& b) {
    uint64_t a_head, a_tail, b_head, b_tail;
    a.InlinedWords(a_head, a_tail);
    b.InlinedWords(b_head, b_tail);
    if (a_head != b_head) {
        return false; // the lengths or the first bytes differ
    }
    if (a_tail == b_tail) {
        return true; // the same inlined bytes, or the same pointer
    }
    return !a.IsInlined() && std::memcmp(a.data(), b.data(), a.size()) == 0;
}

// Long strings hash by their length and first four bytes only, which are in the string_t:
// reading their bytes would cost a load from the heap a row.
uint64_t Hash(const string_t& value) {
    uint64_t head, tail;
    value.InlinedWords(head, tail);
    if (!value.IsInlined()) {
        tail = 0;
    }
    uint64_t hash = (head ^ (tail * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL;
    return hash ^ (hash >> 29);
}

} // namespace

PyObject* NewString(std::string_view text) {
    PyObject* object = PyUnicode_New(static_cast<py::ssize_t>(text.size()), 127);
    if (object == nullptr ||
        CopyIfAscii(static_cast<char*>(PyUnicode_DATA(object)), text.data(), text.size())) {
        return object;
    }
    Py_DECREF(object);
    return PyUnicode_DecodeUTF8(text.data(), static_cast<py::ssize_t>(text.size()), "replace");
}

void RepeatedStrings::Find(const Vector& vector, idx_t count) {
    // A small chunk's values are shared whatever they are: it costs next to nothing.
    idx_t most = std::max<idx_t>(count / 2, std::min<idx_t>(count, 64));
    size_t slots = 16; // an open-addressed table at most half full
    while (slots < 2 * count) {
        slots *= 2;
    }
    uint16_t table[2 * kVectorSize];
    std::fill_n(table, slots, kNull);
    // The loop works on locals and arrays on the stack (left uninitialised past `found`):
    // through the members, the compiler would reload them after every store.
    uint16_t first_rows[kVectorSize]; // of each distinct value
    uint32_t counts[kVectorSize];
    indexes.resize(count);
    uint16_t* out = indexes.data();
    uint16_t found = 0;
    uint32_t null_rows = 0;
    const string_t* strings = vector.data<string_t>();
    bool all_valid = vector.validity().AllValid();
    for (idx_t row = 0; row < count; row++) {
        if (row == kProbe && found > kProbe / 2) {
            indexes = {}; // most of the first rows differ: distinct text, as a rule
            return;
        }
        if (!all_valid && !vector.RowIsValid(row)) {
            out[row] = kNull;
            null_rows++;
            continue;
        }
        const string_t& value = strings[row];
        size_t slot = Hash(value) & (slots - 1);
        while (table[slot] != kNull && !Same(strings[first_rows[table[slot]]], value)) {
            slot = (slot + 1) & (slots - 1);
        }
        uint16_t index = table[slot];
        if (index == kNull) {
            if (found == most) {
                indexes = {}; // too many to share
                return;
            }
            index = table[slot] = found;
            first_rows[found] = static_cast<uint16_t>(row);
            counts[found++] = 0;
        }
        out[row] = index;
        counts[index]++;
    }
    for (uint16_t i = 0; i < found; i++) {
        values.push_back(strings[first_rows[i]]);
    }
    uses.assign(counts, counts + found);
    nulls = null_rows;
}

ObjectPiece::ObjectPiece(const RepeatedStrings& repeated, std::vector<py::object> distinct)
    : repeated_(&repeated) {
    for (size_t i = 0; i < distinct.size(); i++) {
        PyObject* object = distinct[i].release().ptr();
        Py_SET_REFCNT(object, Py_REFCNT(object) + repeated.uses[i] - 1);
        distinct_.push_back(object);
    }
    Py_SET_REFCNT(Py_None, Py_REFCNT(Py_None) + repeated.nulls);
    owned_ = true;
}

void ObjectPiece::CopyTo(PyObject** out) const {
    if (!repeated_) {
        std::memcpy(out, items_.get(), count_ * sizeof(PyObject*));
        return;
    }
    const uint16_t* indexes = repeated_->indexes.data();
    for (size_t row = 0; row < repeated_->indexes.size(); row++) {
        uint16_t index = indexes[row];
        out[row] = index == RepeatedStrings::kNull ? Py_None : distinct_[index];
    }
}

void ObjectPiece::Release() {
    for (idx_t i = 0; i < count_; i++) {
        Py_DECREF(items_[i]);
    }
    if (!owned_) {
        return;
    }
    for (size_t i = 0; i < distinct_.size(); i++) {
        for (uint32_t use = 0; use < repeated_->uses[i]; use++) {
            Py_DECREF(distinct_[i]);
        }
    }
    Py_SET_REFCNT(Py_None, Py_REFCNT(Py_None) - repeated_->nulls);
}

} // namespace sluice
