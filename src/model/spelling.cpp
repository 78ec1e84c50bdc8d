#include "ropelens/model/spelling.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace ropelens {
namespace {

char folded(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// A word of at most kLongestSpelledWord characters in lower case, on the stack.
class FoldedWord {
 public:
  explicit FoldedWord(std::string_view word) : size_(word.size()) {
    std::transform(word.begin(), word.end(), chars_.begin(), folded);
  }
  std::string_view view() const { return {chars_.data(), size_}; }

 private:
  std::array<char, kLongestSpelledWord> chars_;
  std::size_t size_;
};

std::size_t length_gap(std::string_view a, std::string_view b) {
  return a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
}

bool at_most_bits(std::uint64_t bits, std::size_t count) {
  for (std::size_t i = 0; i < count && bits != 0; ++i) bits &= bits - 1;  // clears the lowest bit set
  return bits == 0;
}

// A character of one word that the other lacks costs at least one edit (a deletion or a substitution; a transposition
// changes no set), so the characters one has and the other lacks bound the distance from below. Characters that share
// a bit only lower the bound.
bool character_sets_within(std::uint64_t a, std::uint64_t b, std::size_t reach) {
  return at_most_bits(a & ~b, reach) && at_most_bits(b & ~a, reach);
}

// spelling_distance_within for words already folded and at most kLongestSpelledWord long: the dynamic programme
// keeps three rows (the transposition looks two back). No cell of a row is below the smallest cell of the row
// before it, so once a whole row is beyond reach the distance is.
std::size_t folded_distance_within(std::string_view a, std::string_view b, std::size_t reach) {
  if (length_gap(a, b) > reach) return reach + 1;  // at least that many insertions or deletions
  using Row = std::array<std::uint16_t, kLongestSpelledWord + 1>;
  std::array<Row, 3> rows;
  Row* two_back = &rows[0];
  Row* previous = &rows[1];
  Row* current = &rows[2];
  for (std::size_t j = 0; j <= b.size(); ++j) (*previous)[j] = static_cast<std::uint16_t>(j);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    (*current)[0] = static_cast<std::uint16_t>(i);
    std::size_t row_smallest = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const unsigned substitution = a[i - 1] == b[j - 1] ? 0 : 1;
      unsigned cell = std::min({(*previous)[j] + 1u, (*current)[j - 1] + 1u, (*previous)[j - 1] + substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        cell = std::min(cell, (*two_back)[j - 2] + 1u);
      (*current)[j] = static_cast<std::uint16_t>(cell);
      row_smallest = std::min<std::size_t>(row_smallest, cell);
    }
    if (row_smallest > reach) return reach + 1;
    std::swap(two_back, previous);  // the row before becomes two back, and its storage is reused below
    std::swap(previous, current);
  }
  return std::min<std::size_t>((*previous)[b.size()], reach + 1);
}

}  // namespace

std::size_t spelling_distance_within(std::string_view a, std::string_view b, std::size_t reach) {
  if (a.size() > kLongestSpelledWord || b.size() > kLongestSpelledWord) return reach + 1;
  if (length_gap(a, b) > reach) return reach + 1;  // before folding: a list of flags is mostly other lengths
  const FoldedWord folded_a(a);
  const FoldedWord folded_b(b);
  using spelling_detail::character_set;
  if (!character_sets_within(character_set(folded_a.view()), character_set(folded_b.view()), reach))
    return reach + 1;  // the characters one word lacks already cost more edits than reach
  return folded_distance_within(folded_a.view(), folded_b.view(), reach);
}

namespace spelling_detail {

std::optional<std::string_view> nearest_word(std::span<const SpelledWord> words, std::string_view word,
                                             std::size_t reach) {
  if (word.size() > kLongestSpelledWord) return std::nullopt;
  const FoldedWord key(word);
  const std::uint64_t key_characters = character_set(key.view());
  const std::size_t shortest = word.size() > reach ? word.size() - reach : 0;
  auto candidate = std::lower_bound(words.begin(), words.end(), shortest,
                                    [](const SpelledWord& w, std::size_t length) { return w.word.size() < length; });
  std::optional<std::string_view> best;
  std::size_t best_distance = reach;  // a word at this distance or closer is a candidate
  for (; candidate != words.end() && candidate->word.size() <= word.size() + best_distance; ++candidate) {
    if (length_gap(word, candidate->word) > best_distance) continue;  // at least that many insertions or deletions
    if (!character_sets_within(key_characters, candidate->characters, best_distance)) continue;
    const std::size_t distance = folded_distance_within(key.view(), candidate->word, best_distance);
    if (distance > best_distance || (best && distance == best_distance && *best < candidate->word)) continue;
    best = candidate->word;
    best_distance = distance;
  }
  return best;
}

}  // namespace spelling_detail
}  // namespace ropelens
