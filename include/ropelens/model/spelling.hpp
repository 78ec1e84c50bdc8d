// Spelling distance, and a dictionary that tells a near miss of one of its words from a word of its own.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string_view>

namespace ropelens {

// Words longer than this are nobody's misspelling: they are never within reach of another word.
inline constexpr std::size_t kLongestSpelledWord = 256;

// The optimal-string-alignment distance between two words, ASCII case ignored (insertions, deletions, substitutions
// and adjacent transpositions each count one), when it is at most `reach`; reach + 1 otherwise. It allocates nothing,
// and stops as soon as every alignment costs more than `reach`.
std::size_t spelling_distance_within(std::string_view a, std::string_view b, std::size_t reach);

namespace spelling_detail {

// A word of a dictionary, with the set of characters it holds (one bit per character, modulo 64).
struct SpelledWord {
  std::string_view word;
  std::uint64_t characters = 0;
};

constexpr std::uint64_t character_set(std::string_view word) {
  std::uint64_t bits = 0;
  for (const char c : word) bits |= std::uint64_t{1} << (static_cast<unsigned char>(c) % 64);
  return bits;
}

// FNV-1a: simple enough to run at compile time, and the table it indexes is half empty.
constexpr std::uint64_t word_hash(std::string_view word) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const char c : word) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return hash;
}

// The nearest of `words` (sorted by length, then bytes) to `word`; see SpellingDictionary::nearest.
std::optional<std::string_view> nearest_word(std::span<const SpelledWord> words, std::string_view word,
                                             std::size_t reach);

}  // namespace spelling_detail

// A fixed set of words that every key of every config is checked against, built at compile time (nothing to do when
// the program starts). A word of the set costs one hash lookup; a near miss is looked for only among the words whose
// length is within reach and whose characters differ from the key's by at most reach, with the key's case folded
// once and a distance that gives up beyond reach. The words are distinct and in lower case, as config attributes are.
template <std::size_t N> class SpellingDictionary {
 public:
  consteval explicit SpellingDictionary(const std::array<std::string_view, N>& words) {
    for (std::size_t i = 0; i < N; ++i) {
      const std::string_view word = words[i];
      if (word.empty() || word.size() > kLongestSpelledWord ||
          std::any_of(word.begin(), word.end(), [](char c) { return c >= 'A' && c <= 'Z'; }))
        throw std::logic_error("a dictionary word is empty, too long or not in lower case");
      by_length_[i] = {word, spelling_detail::character_set(word)};
      std::size_t slot = spelling_detail::word_hash(word) % kSlots;
      while (!slots_[slot].empty()) {
        if (slots_[slot] == word) throw std::logic_error("a dictionary word is there twice");
        slot = (slot + 1) % kSlots;
      }
      slots_[slot] = word;
    }
    std::sort(by_length_.begin(), by_length_.end(), [](const auto& a, const auto& b) {
      return a.word.size() != b.word.size() ? a.word.size() < b.word.size() : a.word < b.word;
    });
  }

  // Whether the word is in the set, spelled exactly so (case matters).
  bool contains(std::string_view word) const {
    for (std::size_t slot = spelling_detail::word_hash(word) % kSlots; !slots_[slot].empty();
         slot = (slot + 1) % kSlots)
      if (slots_[slot] == word) return true;
    return false;
  }

  // The word of the set nearest `word`, ASCII case ignored, when it is at most `reach` edits away; of several at the
  // same distance, the first in byte order.
  std::optional<std::string_view> nearest(std::string_view word, std::size_t reach) const {
    return spelling_detail::nearest_word(by_length_, word, reach);
  }

 private:
  static constexpr std::size_t kSlots = std::bit_ceil(2 * N);
  std::array<std::string_view, kSlots> slots_{};
  std::array<spelling_detail::SpelledWord, N> by_length_{};
};

}  // namespace ropelens
