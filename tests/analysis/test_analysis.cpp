// Expected values computed independently in Python: float32 products via struct-packed floats (a product of
// two floats is exact in a double, then rounded once), bases and multipliers with the math module.
#include <catch2/catch.hpp>

#include <cmath>
#include <string_view>
#include <vector>

#include "ropelens/analysis/analysis.hpp"

using namespace ropelens;

TEST_CASE("edit_distance counts insertions, deletions, substitutions and transpositions", "[analysis]") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("factor", "factro") == 1);  // one transposition
  CHECK(edit_distance("orignal_max_position_embeddings", "original_max_position_embeddings") == 1);
  CHECK(edit_distance("beta_fst", "beta_fast") == 1);
}

TEST_CASE("closest_spelling suggests a known RoPE key for a typo", "[analysis]") {
  const auto& keys = all_rope_keys();
  CHECK(closest_spelling("orignal_max_position_embeddings", keys, 3) == "original_max_position_embeddings");
  CHECK(closest_spelling("original_max_positions_embedding", keys, 3) == "original_max_position_embeddings");
  CHECK(closest_spelling("factr", keys, 2) == "factor");
  CHECK(closest_spelling("factor", keys, 3) == std::nullopt);  // a known key is not a typo
  CHECK(closest_spelling("finetuned", keys, 2) == std::nullopt);
  CHECK(closest_spelling("beta_fst", rope_keys_read_by(RopeType::yarn), 2) == "beta_fast");
}

TEST_CASE("rope key tables follow transformers' validation", "[analysis]") {
  CHECK(rope_types_reading("low_freq_factor") == std::vector<RopeType>{RopeType::llama3});
  CHECK(rope_types_reading("truncate") == std::vector<RopeType>{RopeType::yarn});
  CHECK(rope_types_reading("short_factor") == std::vector<RopeType>{RopeType::longrope});
  CHECK(rope_types_reading("factor").size() == 6);  // every type but default
  CHECK(rope_types_reading("rope_theta").size() == 7);
  CHECK(rope_types_reading("max_model_len").empty());
}

TEST_CASE("float32_angle_error is the float32 rounding of position times inv_freq", "[analysis]") {
  CHECK(float32_angle_error(1.0, 1048575) == 0.0);  // integers below 2^24 are exact
  CHECK(float32_angle_error(0.5, 1048575) == 0.0);
  CHECK(float32_angle_error(0.1, 999999) == Approx(0.0046875).epsilon(1e-6));
  const double pair1 = std::pow(10000.0, -2.0 / 128.0);  // Llama-2's fastest non-trivial pair
  CHECK(float32_angle_error(pair1, 1048575) == Approx(0.062140625086613).epsilon(1e-9));
  CHECK(float32_angle_error(pair1, 8191) == Approx(0.00048517020513827447).epsilon(1e-9));
  CHECK(float32_angle_error(pair1, 0) == 0.0);
}

TEST_CASE("worst_angle_precision skips exact and zero pairs", "[analysis]") {
  const double pair1 = std::pow(10000.0, -2.0 / 128.0);
  auto worst = worst_angle_precision({1.0, pair1, 0.0}, 1048575);
  REQUIRE(worst);
  CHECK(worst->pair == 1);
  CHECK(worst->error_rad == Approx(0.062140625086613).epsilon(1e-9));
  CHECK(worst->angle_rad == Approx(1048575 * pair1));
  CHECK_FALSE(worst_angle_precision({0.0}, 100));
}

TEST_CASE("worst_angle_precision with a floor skips pairs that cannot exceed it", "[analysis]") {
  const double pair1 = std::pow(10000.0, -2.0 / 128.0);
  auto worst = worst_angle_precision({1.0, pair1}, 1048575, 0.01);
  REQUIRE(worst);
  CHECK(worst->pair == 1);
  CHECK(worst->error_rad == Approx(0.062140625086613).epsilon(1e-9));
  CHECK_FALSE(worst_angle_precision({1.0, pair1}, 8191, 0.01));  // error 0.000485 at 8192 tokens
  CHECK(worst_angle_precision({1.0, pair1}, 8191));
}

TEST_CASE("engine magnitudes and bases", "[analysis]") {
  CHECK(mla_softmax_scale_multiplier(40.0, 1.0) == Approx(1.8738542070926265).epsilon(1e-12));  // DeepSeek-V3
  CHECK(mla_softmax_scale_multiplier(1.0, 1.0) == 1.0);
  CHECK(vllm_static_dynamic_base(10000.0, 128, 2.0) == Approx(30527.7367488067).epsilon(1e-12));
  CHECK(smallest_covering_factor(65536, 32768) == 2);
  CHECK(smallest_covering_factor(65537, 32768) == 3);
  CHECK(smallest_covering_factor(1000, 32768) == 1);
}
