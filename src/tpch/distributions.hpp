#pragma once

#include "tpch/dbgen_random.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace sluice::tpch {

// One of dbgen's distributions (its file dists.dss): members with weights, picked the way
// dbgen's pick_str picks: a uniform draw in [1, total weight], then the first member whose
// cumulative weight reaches it. Order and weights are dbgen's, so picks are dbgen's.
class Distribution {
public:
    struct Member {
        std::string text;
        int64_t weight;
    };
    explicit Distribution(std::vector<Member> members);

    // The index of the member picked with one draw from `stream`.
    size_t Pick(DbgenStream& stream) const {
        return member_at_[static_cast<size_t>(
            stream.Uniform(1, static_cast<int64_t>(member_at_.size()) - 1))];
    }
    std::string_view operator[](size_t index) const { return texts_[index]; }
    size_t size() const { return texts_.size(); }

private:
    std::vector<std::string> texts_;
    std::vector<uint16_t> member_at_; // the member each point of [1, total weight] picks
};

// The distributions dbgen 2.x reads from dists.dss, under clearer names.
struct Distributions {
    Distribution containers, colors, part_types, priorities, instructions, ship_modes, return_flags,
        segments, nouns, verbs, adjectives, adverbs, auxiliaries, terminators, prepositions,
        grammar, noun_phrases, verb_phrases;

    static const Distributions& Get();
};

struct Nation {
    std::string_view name;
    int32_t region;
};
// The 25 nations with their regions and the 5 regions (TPC-H specification, clause 4.2.3).
extern const Nation kNations[25];
extern const std::string_view kRegions[5];

} // namespace sluice::tpch
