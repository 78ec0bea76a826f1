#pragma once

#include "tpch/random_stream.hpp"

#include <string_view>
#include <vector>

namespace sluice::tpch {

// A list of strings drawn with relative weights (TPC-H specification, clause 4.2.2.13).
class WeightedList {
public:
    struct Entry {
        std::string_view text;
        uint32_t weight;
    };
    explicit WeightedList(std::vector<Entry> entries);

    std::string_view Pick(RandomStream& random) const;
    size_t size() const { return entries_.size(); }
    std::string_view operator[](size_t index) const { return entries_[index].text; }

private:
    std::vector<Entry> entries_;
    std::vector<uint32_t> cumulative_;
};

// The specification's value lists (clause 4.2.2.13) and the word lists of its text grammar.
struct Distributions {
    WeightedList colors, type_size, type_finish, type_material, container_size, container_kind,
        segments, priorities, instructions, modes, nouns, verbs, adjectives, adverbs, prepositions,
        auxiliaries, terminators, sentences, noun_phrases, verb_phrases;

    static const Distributions& Get();
};

struct Nation {
    std::string_view name;
    int32_t region;
};
// The 25 nations with their regions and the 5 regions (clause 4.2.3).
extern const Nation kNations[25];
extern const std::string_view kRegions[5];

} // namespace sluice::tpch
