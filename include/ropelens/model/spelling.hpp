// Spelling distance, and a dictionary that tells a near miss of one of its words from a word of its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace ropelens {

// Words longer than this are nobody's misspelling: they are never within reach of another word.
inline constexpr std::size_t kLongestSpelledWord = 256;

// The optimal-string-alignment distance between two words, ASCII case ignored (insertions, deletions, substitutions
// and adjacent transpositions each count one), when it is at most `reach`; reach + 1 otherwise. It allocates nothing,
// and stops as soon as every alignment costs more than `reach`.
std::size_t spelling_distance_within(std::string_view a, std::string_view b, std::size_t reach);

// A fixed set of words that every key of every config is checked against. A word of the set costs one hash lookup; a
// near miss is looked for only among the words whose length is within reach, with the key's case folded once and a
// distance that gives up beyond reach. The views must outlive the dictionary.
class SpellingDictionary {
 public:
  explicit SpellingDictionary(const std::vector<std::string_view>& words);

  // Whether the word is in the set, spelled exactly so (case matters).
  bool contains(std::string_view word) const { return words_.contains(word); }

  // The word of the set nearest `word`, ASCII case ignored, when it is at most `reach` edits away; of several at the
  // same distance, the first in byte order.
  std::optional<std::string_view> nearest(std::string_view word, std::size_t reach) const;

 private:
  struct Entry {
    std::string folded;
    std::uint64_t characters;  // which characters it holds (spelling.cpp, character_set)
    std::string_view word;
  };
  std::unordered_set<std::string_view> words_;
  std::vector<std::vector<Entry>> by_length_;  // [length]: the words of that length, in byte order
};

}  // namespace ropelens
