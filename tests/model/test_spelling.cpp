// Spelling distance within a reach, and the dictionary CFG012 looks keys up in.
#include <array>
#include <string>
#include <string_view>

#include <catch2/catch.hpp>

#include "ropelens/model/spelling.hpp"

using namespace ropelens;

TEST_CASE("spelling_distance_within counts edits, transpositions once, and ignores ASCII case") {
  CHECK(spelling_distance_within("rope_theta", "rope_theta", 2) == 0);
  CHECK(spelling_distance_within("ROPE_THETA", "rope_theta", 2) == 0);
  CHECK(spelling_distance_within("rope_thetta", "rope_theta", 2) == 1);  // insertion
  CHECK(spelling_distance_within("rope_thta", "rope_theta", 2) == 1);    // deletion
  CHECK(spelling_distance_within("rope_thefa", "rope_theta", 2) == 1);   // substitution
  CHECK(spelling_distance_within("rope_tehta", "rope_theta", 2) == 1);   // adjacent transposition
  CHECK(spelling_distance_within("rpoe_tehta", "rope_theta", 2) == 2);   // two transpositions
  CHECK(spelling_distance_within("kitten", "sitting", 5) == 3);
  CHECK(spelling_distance_within("ca", "abc", 5) == 3);  // optimal string alignment: no edit of a transposed pair
  CHECK(spelling_distance_within("", "abc", 5) == 3);
  CHECK(spelling_distance_within("\xc3\xa9", "\xc3\x89", 5) == 1);  // é and É: only ASCII case is folded
}

TEST_CASE("spelling_distance_within says reach + 1 for anything beyond reach, and for words too long to be typos") {
  CHECK(spelling_distance_within("kitten", "sitting", 2) == 3);
  CHECK(spelling_distance_within("kitten", "sitting", 1) == 2);
  CHECK(spelling_distance_within("a", "abcdef", 2) == 3);  // the length gap alone
  CHECK(spelling_distance_within("zzzzzzzz", "rope_theta", 0) == 1);
  const std::string long_word(kLongestSpelledWord + 1, 'a');
  CHECK(spelling_distance_within(long_word, long_word, 2) == 3);
  const std::string longest(kLongestSpelledWord, 'a');
  CHECK(spelling_distance_within(longest, longest, 2) == 0);
  CHECK(spelling_distance_within(longest, std::string(kLongestSpelledWord - 2, 'a'), 2) == 2);
}

TEST_CASE("SpellingDictionary: exact words are found as spelled, near misses within reach, ties in byte order") {
  static constexpr SpellingDictionary<8> dictionary(std::array<std::string_view, 8>{
      "rope_theta", "rope_type", "n_group", "n_groups", "o_groups", "head_dim", "n_head", "n_heads"});
  CHECK(dictionary.contains("rope_theta"));
  CHECK(dictionary.contains("n_heads"));
  CHECK_FALSE(dictionary.contains("ROPE_THETA"));  // a key spelled in another case is not the attribute
  CHECK_FALSE(dictionary.contains("rope_thet"));
  CHECK_FALSE(dictionary.contains(""));
  CHECK(dictionary.nearest("ROPE_THETA", 1) == std::optional<std::string_view>("rope_theta"));
  CHECK(dictionary.nearest("rope_thetta", 1) == std::optional<std::string_view>("rope_theta"));
  CHECK(dictionary.nearest("heda_dim", 1) == std::optional<std::string_view>("head_dim"));
  CHECK_FALSE(dictionary.nearest("rope_thetta_x", 1).has_value());
  CHECK_FALSE(dictionary.nearest("vocab_size", 2).has_value());
  // m_groups is one edit from n_groups and from o_groups: the first in byte order
  CHECK(dictionary.nearest("m_groups", 1) == std::optional<std::string_view>("n_groups"));
  // o_groupsx is one edit from o_groups and two from n_groups: the nearer wins over byte order
  CHECK(dictionary.nearest("o_groupsx", 2) == std::optional<std::string_view>("o_groups"));
  // n_grou is one edit from n_group (shorter than n_groups, which is two away)
  CHECK(dictionary.nearest("n_grou", 2) == std::optional<std::string_view>("n_group"));
  CHECK_FALSE(dictionary.nearest("n_hed", 0).has_value());
  CHECK(dictionary.nearest("N_HEAD", 0) == std::optional<std::string_view>("n_head"));
  CHECK_FALSE(dictionary.nearest(std::string(kLongestSpelledWord + 1, 'a'), 2).has_value());
  CHECK_FALSE(dictionary.nearest("", 2).has_value());
}
