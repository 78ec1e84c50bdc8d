#include "ropelens/model/spelling.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

namespace ropelens {
namespace {

char folded(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

// A word of at most kLongestSpelledWord characters, case-folded, on the stack.
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

// Which characters a folded word holds, as bits (letters and digits their own, the rest shared by a few). A character
// of one word that the other lacks costs at least one edit, so the bits one has and the other lacks bound the distance
// from below; sharing a bit only lowers that bound.
std::uint64_t character_set(std::string_view folded_word) {
  std::uint64_t bits = 0;
  for (const char c : folded_word) bits |= std::uint64_t{1} << (static_cast<unsigned char>(c) % 64);
  return bits;
}

bool sets_within(std::uint64_t a, std::uint64_t b, std::size_t reach) {
  return static_cast<std::size_t>(std::popcount(a & ~b)) <= reach &&
         static_cast<std::size_t>(std::popcount(b & ~a)) <= reach;
}

std::size_t length_gap(std::string_view a, std::string_view b) {
  return a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
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
  const FoldedWord folded_a(a);
  const FoldedWord folded_b(b);
  return folded_distance_within(folded_a.view(), folded_b.view(), reach);
}

SpellingDictionary::SpellingDictionary(const std::vector<std::string_view>& words) {
  for (const auto word : words) {
    if (!words_.insert(word).second || word.size() > kLongestSpelledWord) continue;
    if (by_length_.size() <= word.size()) by_length_.resize(word.size() + 1);
    const FoldedWord folded_word(word);
    by_length_[word.size()].push_back({std::string(folded_word.view()), character_set(folded_word.view()), word});
  }
  for (auto& same_length : by_length_)
    std::sort(same_length.begin(), same_length.end(), [](const Entry& a, const Entry& b) { return a.word < b.word; });
}

std::optional<std::string_view> SpellingDictionary::nearest(std::string_view word, std::size_t reach) const {
  if (word.size() > kLongestSpelledWord) return std::nullopt;
  const std::size_t shortest = word.size() > reach ? word.size() - reach : 0;
  const std::size_t longest = std::min(word.size() + reach, by_length_.empty() ? 0 : by_length_.size() - 1);
  if (shortest > longest) return std::nullopt;
  const FoldedWord key(word);
  const std::uint64_t key_characters = character_set(key.view());
  std::optional<std::string_view> best;
  std::size_t best_distance = reach;  // a word at this distance or closer is a candidate
  for (std::size_t length = shortest; length <= longest; ++length) {
    for (const auto& entry : by_length_[length]) {
      if (length_gap(word, entry.word) > best_distance) break;  // every word of this length is as far
      if (!sets_within(key_characters, entry.characters, best_distance)) continue;
      const std::size_t distance = folded_distance_within(key.view(), entry.folded, best_distance);
      if (distance > best_distance) continue;
      if (!best || distance < best_distance || entry.word < *best) {
        best = entry.word;
        best_distance = distance;
      }
    }
  }
  return best;
}

}  // namespace ropelens
