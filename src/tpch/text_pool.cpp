#include "tpch/text_pool.hpp"

#include "tpch/distributions.hpp"

#include <algorithm>
#include <vector>

namespace sluice::tpch {

namespace {

// dbgen's stream for the text pool (its stream 5), drawn from without row boundaries.
constexpr int64_t kTextSeed = 933588178;

// One word of a grammar form: the distribution it is drawn from (none for the grammar's
// terminator) and the punctuation written after it, if any.
struct Slot {
    char kind; // the form's letter: N, V, P or T in sentences, N, J, D, V or X in phrases
    char punctuation;
};

// The forms of one grammar level, split into slots once.
std::vector<std::vector<Slot>> SplitForms(const Distribution& forms) {
    std::vector<std::vector<Slot>> split(forms.size());
    for (size_t i = 0; i < forms.size(); i++) {
        std::string_view form = forms[i];
        for (size_t start = 0; start < form.size();) {
            size_t end = std::min(form.find(' ', start), form.size());
            split[i].push_back({form[start], end - start > 1 ? form[start + 1] : '\0'});
            start = end + 1;
        }
    }
    return split;
}

// Writes sentences as dbgen's text.c does: every word is followed by its punctuation, if any,
// and a space; a terminator replaces the space before it.
class SentenceWriter {
public:
    SentenceWriter(const Distributions& d, DbgenStream& stream, std::string& out)
        : d_(d), stream_(stream), out_(out), sentences_(SplitForms(d.grammar)),
          noun_phrases_(SplitForms(d.noun_phrases)), verb_phrases_(SplitForms(d.verb_phrases)) {}

    void Sentence() {
        for (Slot slot : sentences_[d_.grammar.Pick(stream_)]) {
            switch (slot.kind) {
            case 'N':
                Phrase(d_.noun_phrases, noun_phrases_);
                break;
            case 'V':
                Phrase(d_.verb_phrases, verb_phrases_);
                break;
            case 'P':
                out_ += d_.prepositions[d_.prepositions.Pick(stream_)];
                out_ += " the ";
                Phrase(d_.noun_phrases, noun_phrases_);
                break;
            case 'T':
                out_.pop_back();
                out_ += d_.terminators[d_.terminators.Pick(stream_)];
                break;
            }
        }
    }

private:
    void Phrase(const Distribution& forms, const std::vector<std::vector<Slot>>& split) {
        for (Slot slot : split[forms.Pick(stream_)]) {
            const Distribution& words = PartOfSpeech(slot.kind);
            out_ += words[words.Pick(stream_)];
            if (slot.punctuation) {
                out_ += slot.punctuation;
            }
            out_ += ' ';
        }
    }

    const Distribution& PartOfSpeech(char letter) const {
        switch (letter) {
        case 'J':
            return d_.adjectives;
        case 'D':
            return d_.adverbs;
        case 'V':
            return d_.verbs;
        case 'X':
            return d_.auxiliaries;
        default:
            return d_.nouns;
        }
    }

    const Distributions& d_;
    DbgenStream& stream_;
    std::string& out_;
    std::vector<std::vector<Slot>> sentences_, noun_phrases_, verb_phrases_;
};

} // namespace

TextPool::TextPool() {
    const Distributions& distributions = Distributions::Get();
    DbgenStream stream(kTextSeed, 0);
    text_.reserve(kSize + 512);
    SentenceWriter writer(distributions, stream, text_);
    // Sentences are separated by one space; the last one is cut to fill the pool exactly.
    while (text_.size() < kSize) {
        writer.Sentence();
        text_ += ' ';
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

} // namespace sluice::tpch
