#include "tpch/text_pool.hpp"

#include "tpch/distributions.hpp"

namespace sluice::tpch {

namespace {

constexpr uint64_t kTextSeed = 0x7e47;

void AppendWord(std::string& out, std::string_view word) {
    if (!out.empty() && out.back() != ' ') {
        out += ' ';
    }
    out += word;
}

void AppendNounPhrase(std::string& out, RandomStream& random, const Distributions& d) {
    for (char part : d.noun_phrases.Pick(random)) {
        switch (part) {
        case 'N':
            AppendWord(out, d.nouns.Pick(random));
            break;
        case 'J':
            AppendWord(out, d.adjectives.Pick(random));
            break;
        case 'D':
            AppendWord(out, d.adverbs.Pick(random));
            break;
        case ',':
            out += ',';
            break;
        }
    }
}

void AppendVerbPhrase(std::string& out, RandomStream& random, const Distributions& d) {
    for (char part : d.verb_phrases.Pick(random)) {
        switch (part) {
        case 'V':
            AppendWord(out, d.verbs.Pick(random));
            break;
        case 'X':
            AppendWord(out, d.auxiliaries.Pick(random));
            break;
        case 'D':
            AppendWord(out, d.adverbs.Pick(random));
            break;
        }
    }
}

void AppendSentence(std::string& out, RandomStream& random, const Distributions& d) {
    for (char part : d.sentences.Pick(random)) {
        switch (part) {
        case 'N':
            AppendNounPhrase(out, random, d);
            break;
        case 'V':
            AppendVerbPhrase(out, random, d);
            break;
        case 'P':
            AppendWord(out, d.prepositions.Pick(random));
            AppendWord(out, "the");
            AppendNounPhrase(out, random, d);
            break;
        case 'T':
            out += d.terminators.Pick(random); // attached to the last word
            out += ' ';
            break;
        }
    }
}

} // namespace

TextPool::TextPool() {
    const Distributions& distributions = Distributions::Get();
    RandomStream random(kTextSeed, 0);
    text_.reserve(kSize + 256);
    while (text_.size() < kSize) {
        AppendSentence(text_, random, distributions);
    }
    text_.resize(kSize);
}

const TextPool& TextPool::Get() {
    return *static_cast<const TextPool*>(Owner().get());
}

std::shared_ptr<const void> TextPool::Owner() {
    static const std::shared_ptr<const TextPool> pool(new TextPool());
    return pool;
}

std::string_view TextPool::Text(RandomStream& random, int64_t min_length,
                                int64_t max_length) const {
    auto length = static_cast<size_t>(random.Uniform(min_length, max_length));
    auto offset = static_cast<size_t>(random.Uniform(0, static_cast<int64_t>(kSize - length)));
    return std::string_view(text_).substr(offset, length);
}

} // namespace sluice::tpch
