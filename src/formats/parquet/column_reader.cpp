#include "formats/parquet/column_reader.hpp"

#include "formats/parquet/corrupt_data.hpp"
#include "formats/parquet/rle_bit_packed_decoder.hpp"

#include <algorithm>
#include <cstring>

namespace sluice::parquet {

ColumnReader::ColumnReader(const ParquetColumn& column, Codec codec,
                           std::vector<ChunkSegment> segments, std::string context)
    : column_(column), codec_(codec), segments_(std::move(segments)), context_(std::move(context)) {
    same_layout_ = SameLayout(column_);
    EnterSegment(0);
}

ColumnReader::ColumnReader(const ParquetColumn& column, Codec codec, ByteBuffer chunk,
                           uint64_t file_offset, std::string context)
    : ColumnReader(column, codec, std::vector<ChunkSegment>{{std::move(chunk), file_offset}},
                   std::move(context)) {
}

void ColumnReader::Skip(uint64_t count) {
    if (column_.max_repetition_level == 0) {
        SkipEntries(count); // an entry per row
        return;
    }
    if (!skipped_entries_) {
        skipped_entries_ = std::make_unique<LeafEntries>();
    }
    while (count > 0) {
        auto take = static_cast<idx_t>(std::min<uint64_t>(count, kVectorSize));
        ReadNested(take, *skipped_entries_);
        count -= take;
    }
}

namespace {

// The most entries one batch of a nested column's rows may hold: a bound on what a batch costs
// in memory (a gigabyte of 16-byte values), however few bytes the file spends on them.
constexpr size_t kMaxBatchEntries = size_t(1) << 26;

} // namespace

void ColumnReader::ReadNested(idx_t rows, LeafEntries& entries) {
    entries.repetition.clear();
    entries.definition.clear();
    if (!entries.values) {
        entries.values = std::make_unique<Vector>(column_.type);
    } else {
        entries.values->Reset();
    }
    idx_t started = 0;
    while (true) {
        if (page_row_ == page_rows_) {
            if (!LoadPage()) {
                break;
            }
            continue;
        }
        if (page_pending_) {
            DecodePendingPage();
        }
        // The page's entries up to the start of row `rows` + 1.
        size_t take = 0;
        bool complete = false;
        for (size_t available = page_rows_ - page_row_; take < available; take++) {
            uint8_t level = PeekRepetition(page_row_ + take);
            if (level == 0) {
                if (started == rows) {
                    complete = true;
                    break;
                }
                started++;
            } else if (entries.repetition.empty()) {
                Fail("the first value of a row has repetition level " + std::to_string(level));
            }
            entries.repetition.push_back(level);
        }
        if (entries.repetition.size() > kMaxBatchEntries) {
            // A few bytes of run-length encoded levels can declare billions of entries.
            Fail(std::to_string(rows) + " rows hold more than " + std::to_string(kMaxBatchEntries) +
                 " values");
        }
        size_t first = entries.definition.size();
        if (take > 0) {
            Vector& values = *entries.values;
            if (first + take > values.capacity()) {
                values.Grow(std::max<idx_t>(first + take, 2 * values.capacity()));
            }
            entries.definition.resize(first + take);
            ReadRows(take, nullptr, take, values, first, entries.definition.data() + first);
        }
        if (complete) {
            return;
        }
    }
    if (started < rows) {
        Fail("the column chunk ends after " + std::to_string(started) + " of the " +
             std::to_string(rows) + " rows wanted");
    }
}

uint8_t ColumnReader::PeekRepetition(size_t entry) {
    if (column_.max_repetition_level == 0) {
        return 0;
    }
    while (entry >= repetition_start_ + repetition_.size()) {
        repetition_start_ += repetition_.size();
        size_t count = std::min<size_t>(kVectorSize, page_rows_ - repetition_start_);
        uint32_t levels[kVectorSize];
        try {
            if (repetition_decoder_) {
                repetition_decoder_->GetBatch(levels, count);
            } else {
                DecodeLegacyBitPacked(legacy_repetition_, legacy_repetition_size_,
                                      BitWidthOf(column_.max_repetition_level), repetition_start_,
                                      levels, count);
            }
        } catch (const CorruptData& error) {
            Fail(std::string("repetition levels: ") + error.what());
        }
        repetition_.resize(count);
        for (size_t i = 0; i < count; i++) {
            if (levels[i] > column_.max_repetition_level) {
                Fail("repetition level " + std::to_string(levels[i]) + " exceeds the maximum " +
                     std::to_string(column_.max_repetition_level));
            }
            repetition_[i] = static_cast<uint8_t>(levels[i]);
        }
    }
    return repetition_[entry - repetition_start_];
}

void ColumnReader::SkipEntries(uint64_t count) {
    if (!skipped_) {
        skipped_ = std::make_unique<Vector>(column_.type);
    }
    uint32_t none[1];
    while (count > 0) {
        auto take = static_cast<idx_t>(std::min<uint64_t>(count, kVectorSize));
        ReadRows(take, none, 0, *skipped_);
        skipped_->Reset();
        count -= take;
    }
}

void ColumnReader::Emit(const PhysicalValues& source, const uint32_t* index, const idx_t* rows,
                        size_t count, bool contiguous, Vector& out) {
    // Strings point into the page (or dictionary) memory, which the output vector keeps alive:
    // no copies.
    bool strings =
        column_.conversion == Conversion::Varchar || column_.conversion == Conversion::Blob;
    if (strings && count > 0) {
        out.KeepAlive(&source == &dictionary_ ? dictionary_owner_ : page_owner_);
    }
    try {
        ConvertValues(column_, source, index, rows, count, contiguous && same_layout_, out);
    } catch (const CorruptData& error) {
        Fail(error.what());
    }
}

namespace {

template <size_t kWidth>
void GatherFixed(const uint8_t* from, const uint32_t* index, const idx_t* rows, size_t count,
                 uint8_t* to) {
    if (count > 0 && rows[count - 1] - rows[0] == count - 1) {
        // No NULLs in between: consecutive rows, no row indirection (the common case).
        to += rows[0] * kWidth;
        for (size_t i = 0; i < count; i++) {
            std::memcpy(to + i * kWidth, from + size_t(index[i]) * kWidth, kWidth);
        }
        return;
    }
    for (size_t i = 0; i < count; i++) {
        std::memcpy(to + rows[i] * kWidth, from + size_t(index[i]) * kWidth, kWidth);
    }
}

} // namespace

void ColumnReader::Gather(const Vector& dictionary, const uint32_t* index, const idx_t* rows,
                          size_t count, Vector& out) {
    if (record_entries_) {
        for (size_t i = 0; i < count; i++) {
            output_entries_[rows[i]] = index[i];
        }
    }
    const uint8_t* from = dictionary.data<uint8_t>();
    uint8_t* to = out.data<uint8_t>();
    switch (PhysicalTypeSize(out.type().physical())) {
    case 1:
        GatherFixed<1>(from, index, rows, count, to);
        break;
    case 2:
        GatherFixed<2>(from, index, rows, count, to);
        break;
    case 4:
        GatherFixed<4>(from, index, rows, count, to);
        break;
    case 8:
        GatherFixed<8>(from, index, rows, count, to);
        break;
    default:
        GatherFixed<16>(from, index, rows, count, to);
        break;
    }
    if (out.type().physical() == PhysicalType::VARCHAR && count > 0) {
        out.KeepAlive(dictionary_owner_);
    }
}

namespace {

template <size_t kWidth>
void CopySelectedFixed(const uint8_t* from, const uint32_t* selection, size_t count, uint8_t* to) {
    for (size_t i = 0; i < count; i++) {
        std::memcpy(to + i * kWidth, from + size_t(selection[i]) * kWidth, kWidth);
    }
}

// Copies values selection[i] of `from` (`width` bytes each) to value i of `to`.
void CopySelected(const uint8_t* from, size_t width, const uint32_t* selection, size_t count,
                  uint8_t* to) {
    switch (width) {
    case 1:
        return CopySelectedFixed<1>(from, selection, count, to);
    case 2:
        return CopySelectedFixed<2>(from, selection, count, to);
    case 4:
        return CopySelectedFixed<4>(from, selection, count, to);
    case 8:
        return CopySelectedFixed<8>(from, selection, count, to);
    case 16:
        return CopySelectedFixed<16>(from, selection, count, to);
    default:
        for (size_t i = 0; i < count; i++) {
            std::memcpy(to + i * width, from + size_t(selection[i]) * width, width);
        }
    }
}

} // namespace

void ColumnReader::DecodeIndices(uint32_t* indices, size_t count) {
    try {
        index_decoder_->GetBatch(indices, count);
    } catch (const CorruptData& error) {
        Fail(std::string("dictionary indices: ") + error.what());
    }
    uint32_t highest = 0;
    for (size_t i = 0; i < count; i++) {
        highest = std::max(highest, indices[i]);
    }
    if (highest >= dictionary_.count) {
        Fail("dictionary index " + std::to_string(highest) +
             " is out of range (the dictionary has " + std::to_string(dictionary_.count) +
             " entries)");
    }
}

void ColumnReader::ReadSelectedWithoutNulls(size_t take, idx_t done, const uint32_t* selection,
                                            size_t selected, idx_t first_out, Vector& out) {
    std::vector<uint32_t>& source_index = source_index_;
    std::vector<idx_t>& rows = rows_;
    source_index.resize(std::max(take, selected));
    rows.resize(selected);
    if (page_uses_dictionary_) {
        // Every index of the piece is decoded (they are bit-packed in runs), the selected kept.
        DecodeIndices(source_index.data(), take);
        for (size_t i = 0; i < selected; i++) {
            source_index[i] = source_index[selection[i] - done];
            rows[i] = first_out + i;
        }
        Gather(*dictionary_vector_, source_index.data(), rows.data(), selected, out);
        return;
    }
    if (page_value_ + take > values_.count) {
        Fail("the page holds fewer values than its levels announce");
    }
    for (size_t i = 0; i < selected; i++) {
        source_index[i] = static_cast<uint32_t>(page_value_ + (selection[i] - done));
        rows[i] = first_out + i;
    }
    page_value_ += take;
    Emit(values_, source_index.data(), rows.data(), selected, false, out);
}

void ColumnReader::Read(idx_t count, Vector& out) {
    ReadRows(count, nullptr, count, out);
}

size_t ColumnReader::ReadAndFilter(idx_t count, const uint32_t* selection, size_t selected,
                                   const std::vector<TableFilter>& filters, uint32_t* kept,
                                   Vector& out) {
    // Remember which dictionary entry each output came from (NULLs: none).
    constexpr uint32_t kNoEntry = UINT32_MAX;
    std::fill(output_entries_, output_entries_ + selected, kNoEntry);
    outputs_from_dictionary_ = true;
    record_entries_ = true;
    try {
        ReadRows(count, selection, selected, out);
    } catch (...) {
        record_entries_ = false;
        throw;
    }
    record_entries_ = false;
    if (selected == 0) {
        return 0; // an earlier column's filters left no row (and maybe no dictionary read yet)
    }
    for (size_t i = 0; i < selected; i++) {
        kept[i] = static_cast<uint32_t>(i);
    }
    if (!outputs_from_dictionary_) {
        return FilterRows(filters, out, kept, selected);
    }
    // Every output came from the dictionary: the filters are evaluated once per entry.
    if (!dictionary_verdicts_) {
        dictionary_verdicts_.emplace(dictionary_.count, 0);
        std::vector<uint32_t> entries(dictionary_.count);
        for (size_t i = 0; i < entries.size(); i++) {
            entries[i] = static_cast<uint32_t>(i);
        }
        size_t passing = FilterRows(filters, *dictionary_vector_, entries.data(), entries.size());
        for (size_t i = 0; i < passing; i++) {
            (*dictionary_verdicts_)[entries[i]] = 1;
        }
        null_passes_ = std::all_of(filters.begin(), filters.end(), [](const TableFilter& f) {
            return f.op == TableFilter::Op::IsNull;
        });
    }
    const uint8_t* verdicts = dictionary_verdicts_->data();
    size_t passing = 0;
    for (size_t i = 0; i < selected; i++) {
        uint32_t entry = output_entries_[i];
        kept[passing] = static_cast<uint32_t>(i);
        passing += entry == kNoEntry ? null_passes_ : verdicts[entry];
    }
    return passing;
}

void ColumnReader::ReadSelected(idx_t count, const uint32_t* selection, size_t selected,
                                Vector& out) {
    ReadRows(count, selection, selected, out);
}

void ColumnReader::ReadRows(idx_t count, const uint32_t* selection, size_t selected, Vector& out,
                            idx_t base, uint8_t* definitions) {
    uint32_t levels[kVectorSize];
    uint32_t piece_selection[kVectorSize];
    std::vector<uint32_t>& source_index = source_index_;
    std::vector<idx_t>& rows = rows_;
    idx_t done = 0;
    size_t next_selected = 0; // the first entry of `selection` not yet read
    while (done < count) {
        if (page_row_ == page_rows_) {
            if (!LoadPage()) {
                Fail("the column chunk ends after fewer values than the row group has rows");
            }
            continue;
        }
        size_t take = std::min<size_t>({count - done, page_rows_ - page_row_, kVectorSize});
        // The entries of `selection` inside this piece: [first_selected, next_selected).
        size_t first_selected = next_selected;
        if (selection && next_selected < selected) {
            // Ascending: usually the whole rest lies in this piece (one page covers the batch).
            next_selected = selection[selected - 1] < done + take
                                ? selected
                                : std::lower_bound(selection + next_selected, selection + selected,
                                                   static_cast<uint32_t>(done + take)) -
                                      selection;
        }
        if (page_pending_) {
            if (selection && next_selected == first_selected) {
                page_row_ += take; // nothing wanted from this piece of a page not yet decoded
                done += take;
                continue;
            }
            DecodePendingPage();
        }
        if (has_levels_) {
            try {
                if (level_decoder_) {
                    level_decoder_->GetBatch(levels, take);
                } else {
                    DecodeLegacyBitPacked(legacy_levels_, legacy_levels_size_,
                                          BitWidthOf(column_.max_definition_level), page_row_,
                                          levels, take);
                }
            } catch (const CorruptData& error) {
                Fail(std::string("definition levels: ") + error.what());
            }
        }
        const uint32_t max_level = column_.max_definition_level;
        if (definitions) {
            for (size_t i = 0; i < take; i++) {
                definitions[done + i] = static_cast<uint8_t>(has_levels_ ? levels[i] : max_level);
            }
        }
        // Count the valid rows first (a branch-free pass): batches without NULLs, the common
        // case, then fill the index arrays without per-row tests.
        size_t defined = take;
        if (has_levels_) {
            uint32_t highest = 0;
            defined = 0;
            for (size_t i = 0; i < take; i++) {
                highest = std::max(highest, levels[i]);
                defined += levels[i] == max_level;
            }
            if (highest > max_level) {
                Fail("definition level " + std::to_string(highest) + " exceeds the maximum " +
                     std::to_string(max_level));
            }
        }
        // Batches without NULLs of columns stored as Sluice stores them: one copy (or one per
        // selected row), no index arrays.
        if (!page_uses_dictionary_) {
            outputs_from_dictionary_ = false;
        }
        if (defined == take && !page_uses_dictionary_ && same_layout_) {
            if (page_value_ + take > values_.count) {
                Fail("the page holds fewer values than its levels announce");
            }
            size_t width = values_.width;
            const uint8_t* piece = values_.fixed_data + page_value_ * width;
            if (!selection) {
                std::memcpy(out.data<uint8_t>() + (base + done) * width, piece, take * width);
            } else if (next_selected > first_selected) {
                size_t picked = next_selected - first_selected;
                for (size_t i = 0; i < picked; i++) {
                    piece_selection[i] =
                        static_cast<uint32_t>(selection[first_selected + i] - done);
                }
                CopySelected(piece, width, piece_selection, picked,
                             out.data<uint8_t>() + first_selected * width);
            }
            page_value_ += take;
            page_row_ += take;
            done += take;
            continue;
        }
        if (selection && defined == take) {
            ReadSelectedWithoutNulls(take, done, selection + first_selected,
                                     next_selected - first_selected, first_selected, out);
            page_row_ += take;
            done += take;
            continue;
        }
        // Pairs (value, row of the batch) of the piece's valid rows.
        source_index.resize(take);
        rows.resize(take);
        size_t valid_count = 0;
        if (defined == take) {
            for (size_t i = 0; i < take; i++) {
                source_index[i] = static_cast<uint32_t>(page_value_ + i);
                rows[i] = base + done + i;
            }
            valid_count = take;
        } else {
            for (size_t i = 0; i < take; i++) {
                idx_t row = base + done + i;
                if (levels[i] != max_level) {
                    if (!selection) {
                        out.SetNull(row);
                    }
                    continue;
                }
                source_index[valid_count] = static_cast<uint32_t>(page_value_ + valid_count);
                rows[valid_count] = row;
                valid_count++;
            }
        }
        if (!page_uses_dictionary_ && page_value_ + valid_count > values_.count) {
            Fail("the page holds fewer values than its levels announce");
        }
        page_value_ += valid_count;
        source_index.resize(valid_count);
        rows.resize(valid_count);
        bool contiguous = valid_count == take && !selection;
        if (page_uses_dictionary_ && !rows.empty()) {
            DecodeIndices(source_index.data(), source_index.size());
        }
        if (selection) {
            // Keep the pairs of selected rows, now addressed by their place in the selection;
            // selected rows without a value are NULL.
            size_t kept = 0, pair = 0;
            for (size_t k = first_selected; k < next_selected; k++) {
                while (pair < valid_count && rows[pair] < selection[k]) {
                    pair++;
                }
                if (pair < valid_count && rows[pair] == selection[k]) {
                    source_index[kept] = source_index[pair];
                    rows[kept] = k;
                    kept++;
                } else {
                    out.SetNull(k);
                }
            }
            source_index.resize(kept);
            rows.resize(kept);
        }
        if (page_uses_dictionary_) {
            Gather(*dictionary_vector_, source_index.data(), rows.data(), rows.size(), out);
        } else {
            Emit(values_, source_index.data(), rows.data(), rows.size(), contiguous, out);
        }
        page_row_ += take;
        done += take;
    }
}

} // namespace sluice::parquet
