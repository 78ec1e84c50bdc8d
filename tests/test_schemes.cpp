// Expected values were derived outside this code: powers of two by hand, T5 buckets with a
// float32 replica of transformers' _relative_position_bucket (Python, struct-packed floats),
// temperatures and wavelengths with Python's math module. The seed articles' numbers are marked.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "ropelens/schemes/schemes.hpp"

using namespace ropelens;

namespace {

Approx tight(double expected) { return Approx(expected).epsilon(1e-12); }

// BLOOM's build_alibi_tensor recipe, written independently of MPT's gen_slopes that the library follows.
std::vector<double> bloom_recipe_slopes(int num_heads) {
  int closest = 1;
  while (closest * 2 <= num_heads) closest *= 2;
  std::vector<double> slopes;
  for (int k = 1; k <= closest; ++k) slopes.push_back(std::pow(std::pow(2.0, -8.0 / closest), k));
  const double extra_base = std::pow(2.0, -4.0 / closest);
  for (int power = 1; static_cast<int>(slopes.size()) < num_heads; power += 2)
    slopes.push_back(std::pow(extra_base, power));
  return slopes;
}

struct ExpectedSpan {
  int bucket;
  std::int64_t first;
  std::int64_t last;  // -1: open-ended
};

void require_spans(const std::vector<T5BucketSpan>& actual, const std::vector<ExpectedSpan>& expected,
                   T5Direction direction, std::size_t offset) {
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const T5BucketSpan& span = actual.at(offset + i);
    INFO("bucket " << expected[i].bucket);
    CHECK(span.bucket == expected[i].bucket);
    CHECK(span.direction == direction);
    CHECK(span.first_distance_tokens == expected[i].first);
    if (expected[i].last < 0) CHECK_FALSE(span.last_distance_tokens.has_value());
    else CHECK(span.last_distance_tokens == expected[i].last);
  }
}

// Buckets 0..7 hold one distance each, then eight log-spaced buckets; the last one is open.
const std::vector<ExpectedSpan> kT5BaseHalf{
    {0, 0, 0},  {1, 1, 1},   {2, 2, 2},    {3, 3, 3},    {4, 4, 4},    {5, 5, 5},    {6, 6, 6},    {7, 7, 7},
    {8, 8, 11}, {9, 12, 15}, {10, 16, 22}, {11, 23, 31}, {12, 32, 45}, {13, 46, 63}, {14, 64, 90}, {15, 91, -1},
};

const std::vector<ExpectedSpan> kT5BaseCausal{
    {0, 0, 0},    {1, 1, 1},    {2, 2, 2},    {3, 3, 3},    {4, 4, 4},    {5, 5, 5},    {6, 6, 6},     {7, 7, 7},
    {8, 8, 8},    {9, 9, 9},    {10, 10, 10}, {11, 11, 11}, {12, 12, 12}, {13, 13, 13}, {14, 14, 14},  {15, 15, 15},
    {16, 16, 18}, {17, 19, 20}, {18, 21, 23}, {19, 24, 26}, {20, 27, 30}, {21, 31, 34}, {22, 35, 39},  {23, 40, 45},
    {24, 46, 51}, {25, 52, 58}, {26, 59, 66}, {27, 67, 76}, {28, 77, 86}, {29, 87, 98}, {30, 99, 112}, {31, 113, -1},
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// ALiBi

TEST_CASE("ALiBi slopes for 8 heads are 1/2 .. 1/256", "[schemes][alibi]") {
  const std::vector<double> expected{0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625};
  CHECK(alibi_slopes(8) == expected);  // exact: every slope is a power of two
}

TEST_CASE("ALiBi slopes for BLOOM-176B's 112 heads interleave the 128-head set", "[schemes][alibi]") {
  const std::vector<double> slopes = alibi_slopes(112);
  REQUIRE(slopes.size() == 112);
  CHECK(slopes[0] == tight(0.9170040432046712));     // 2^(-1/8)
  CHECK(slopes[1] == tight(0.8408964152537145));     // 2^(-2/8)
  CHECK(slopes[62] == tight(0.004259795830723663));  // 2^(-63/8)
  CHECK(slopes[63] == 0.00390625);                   // 2^-8, the last of the 64-head set
  CHECK(slopes[64] == tight(0.9576032806985737));    // 2^(-1/16): first extra, odd index of the 128 set
  CHECK(slopes[65] == tight(0.8781260801866497));    // 2^(-3/16)
  CHECK(slopes[111] == tight(0.01631677785042834));  // 2^(-95/16)
  for (std::size_t head = 0; head < 64; ++head)
    CHECK(std::log2(slopes[head]) == tight(-static_cast<double>(head + 1) / 8.0));  // k/64 * 8, k = 1..64
  for (std::size_t j = 0; j < 48; ++j)
    CHECK(std::log2(slopes[64 + j]) == tight(-static_cast<double>(2 * j + 1) / 16.0));  // odd k of 128
}

TEST_CASE("ALiBi slopes for MPT replit-code-v1.5 (24 heads, alibi_bias_max 8)", "[schemes][alibi]") {
  const std::vector<double> slopes = alibi_slopes(24, 8.0);
  REQUIRE(slopes.size() == 24);
  CHECK(slopes[0] == tight(0.7071067811865476));  // 2^(-2/4), even k of the 32-head set first
  CHECK(slopes[1] == 0.5);
  CHECK(slopes[15] == 0.00390625);
  CHECK(slopes[16] == tight(0.8408964152537145));   // 2^(-1/4), then the odd k
  CHECK(slopes[23] == tight(0.07432544468767006));  // 2^(-15/4)
}

TEST_CASE("BLOOM's and MPT's slope recipes agree for every head count at bias max 8", "[schemes][alibi]") {
  for (int heads = 1; heads <= 256; ++heads) {
    const std::vector<double> bloom = bloom_recipe_slopes(heads);
    const std::vector<double> library = alibi_slopes(heads);
    REQUIRE(library.size() == static_cast<std::size_t>(heads));
    for (std::size_t head = 0; head < library.size(); ++head) {
      INFO("heads " << heads << " head " << head);
      CHECK(library[head] == Approx(bloom[head]).epsilon(1e-13));
    }
  }
}

TEST_CASE("ALiBi bias max scales the exponent", "[schemes][alibi]") {
  CHECK(alibi_slopes(4, 16.0) == std::vector<double>{0.0625, 0.00390625, 0.000244140625, 0.0000152587890625});
  CHECK(alibi_slopes(1) == std::vector<double>{0.00390625});
  CHECK(alibi_slopes(3) == std::vector<double>{0.0625, 0.00390625, 0.25});  // P = 4: k = 2, 4, then 1

  AlibiInfo info;
  info.num_heads = 4;
  info.bias_max.value = 16.0;
  CHECK(alibi_slopes(info) == alibi_slopes(4, 16.0));
}

TEST_CASE("ALiBi bias is -slope * distance", "[schemes][alibi]") {
  CHECK(alibi_bias(0.5, 10) == -5.0);
  CHECK(alibi_bias(0.00390625, 4095) == -15.99609375);
  CHECK(alibi_bias(0.25, 0) == 0.0);
  CHECK_FALSE(std::signbit(alibi_bias(0.25, 0)));
}

TEST_CASE("ALiBi bias at a target for the steepest and shallowest heads", "[schemes][alibi]") {
  SECTION("BLOOM-176B at 2048 tokens: head 64 is steepest, head 63 shallowest") {
    const AlibiBiasAtTarget at = alibi_bias_at_target(alibi_slopes(112), 2048);
    CHECK(at.steepest_head == 64);
    CHECK(at.steepest_slope == tight(0.9576032806985737));
    CHECK(at.steepest_bias == tight(-1960.2139155899804));
    CHECK(at.shallowest_head == 63);
    CHECK(at.shallowest_bias == -7.99609375);
  }
  SECTION("MPT replit at its max_seq_len 4096") {
    const AlibiBiasAtTarget at = alibi_bias_at_target(alibi_slopes(24), 4096);
    CHECK(at.steepest_head == 16);
    CHECK(at.shallowest_head == 15);
    CHECK(at.shallowest_bias == -15.99609375);
  }
  SECTION("8 heads: first steepest, last shallowest; a one-token target has no distance") {
    const AlibiBiasAtTarget at = alibi_bias_at_target(alibi_slopes(8), 1);
    CHECK(at.steepest_head == 0);
    CHECK(at.shallowest_head == 7);
    CHECK(at.steepest_bias == 0.0);
  }
}

TEST_CASE("ALiBi rejects impossible arguments", "[schemes][alibi]") {
  CHECK_THROWS_AS(alibi_slopes(0), std::invalid_argument);
  CHECK_THROWS_AS(alibi_slopes(-3), std::invalid_argument);
  CHECK_THROWS_AS(alibi_slopes(8, 0.0), std::invalid_argument);
  CHECK_THROWS_AS(alibi_slopes(8, std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
  CHECK_THROWS_AS(alibi_bias_at_target({}, 10), std::invalid_argument);
  CHECK_THROWS_AS(alibi_bias_at_target({0.5}, 0), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// T5 relative buckets

TEST_CASE("T5-base bidirectional buckets (32, 128) for single positions", "[schemes][t5]") {
  // relative_position = key - query: negative is the past, positive the future (+16).
  CHECK(t5_relative_bucket(0, true, 32, 128) == 0);
  CHECK(t5_relative_bucket(-7, true, 32, 128) == 7);
  CHECK(t5_relative_bucket(7, true, 32, 128) == 23);
  CHECK(t5_relative_bucket(-8, true, 32, 128) == 8);
  CHECK(t5_relative_bucket(-15, true, 32, 128) == 9);
  CHECK(t5_relative_bucket(-16, true, 32, 128) == 10);  // log2(2)/log(16)*8 = 2 exactly, also in float32
  CHECK(t5_relative_bucket(-20, true, 32, 128) == 10);
  CHECK(t5_relative_bucket(-36, true, 32, 128) == 12);
  CHECK(t5_relative_bucket(-64, true, 32, 128) == 14);
  CHECK(t5_relative_bucket(-90, true, 32, 128) == 14);
  CHECK(t5_relative_bucket(-91, true, 32, 128) == 15);
  CHECK(t5_relative_bucket(-127, true, 32, 128) == 15);
  CHECK(t5_relative_bucket(-128, true, 32, 128) == 15);
  CHECK(t5_relative_bucket(-1000000, true, 32, 128) == 15);
  CHECK(t5_relative_bucket(54, true, 32, 128) == 29);
  CHECK(t5_relative_bucket(1000, true, 32, 128) == 31);
  CHECK(t5_relative_bucket(std::numeric_limits<std::int64_t>::min(), true, 32, 128) == 15);
  CHECK(t5_relative_bucket(std::numeric_limits<std::int64_t>::max(), true, 32, 128) == 31);
}

TEST_CASE("T5-base causal buckets (32, 128) for single positions", "[schemes][t5]") {
  CHECK(t5_relative_bucket(0, false, 32, 128) == 0);
  CHECK(t5_relative_bucket(5, false, 32, 128) == 0);  // future keys collapse to bucket 0 (masked anyway)
  CHECK(t5_relative_bucket(-15, false, 32, 128) == 15);
  CHECK(t5_relative_bucket(-16, false, 32, 128) == 16);
  CHECK(t5_relative_bucket(-20, false, 32, 128) == 17);
  CHECK(t5_relative_bucket(-36, false, 32, 128) == 22);
  CHECK(t5_relative_bucket(-54, false, 32, 128) == 25);
  CHECK(t5_relative_bucket(-80, false, 32, 128) == 28);
  CHECK(t5_relative_bucket(-112, false, 32, 128) == 30);
  CHECK(t5_relative_bucket(-113, false, 32, 128) == 31);
  CHECK(t5_relative_bucket(-127, false, 32, 128) == 31);
  CHECK(t5_relative_bucket(-100000, false, 32, 128) == 31);
}

TEST_CASE("T5 log buckets are computed in float32 like transformers", "[schemes][t5]") {
  // 48 causal buckets, max_distance 81: log(36/24) / log(81/24) * 24 is 8 in real numbers, but
  // 7.9999995 in float32, so transformers puts distance 36 in bucket 31, not 32. Same at 54.
  CHECK(t5_relative_bucket(-36, false, 48, 81) == 31);
  CHECK(t5_relative_bucket(-54, false, 48, 81) == 39);
  CHECK(t5_relative_bucket(-20, false, 48, 81) == 20);
  CHECK(t5_relative_bucket(-80, false, 48, 81) == 47);
  CHECK(t5_relative_bucket(-36, true, 96, 81) == 31);
  CHECK(t5_relative_bucket(36, true, 96, 81) == 79);
}

TEST_CASE("T5-base bucket table, bidirectional: two mirrored halves, bucket 16 unused", "[schemes][t5]") {
  const std::vector<T5BucketSpan> spans = t5_bucket_spans(true, 32, 128);
  REQUIRE(spans.size() == 31);
  require_spans(spans, kT5BaseHalf, T5Direction::past, 0);
  std::vector<ExpectedSpan> future;
  for (std::size_t i = 1; i < kT5BaseHalf.size(); ++i)
    future.push_back({kT5BaseHalf[i].bucket + 16, kT5BaseHalf[i].first, kT5BaseHalf[i].last});
  require_spans(spans, future, T5Direction::future, 16);
}

TEST_CASE("T5-base bucket table, causal: 16 exact and 16 log buckets", "[schemes][t5]") {
  const std::vector<T5BucketSpan> spans = t5_bucket_spans(false, 32, 128);
  REQUIRE(spans.size() == 32);
  require_spans(spans, kT5BaseCausal, T5Direction::past, 0);

  T5Buckets decoder;
  decoder.num_buckets.value = 32;
  decoder.max_distance.value = 128;
  decoder.bidirectional = false;
  CHECK(t5_bucket_spans(decoder).size() == 32);
}

TEST_CASE("T5 bucket tables agree with the per-position function", "[schemes][t5]") {
  struct Config {
    bool bidirectional;
    int num_buckets;
    int max_distance;
  };
  const std::vector<Config> configs{{true, 32, 128}, {false, 32, 128}, {false, 48, 81},    {true, 96, 81},
                                    {false, 32, 25}, {true, 64, 256},  {false, 128, 1024}, {true, 5, 3},
                                    {false, 2, 2},   {true, 32, 9}};
  for (const Config& config : configs) {
    INFO("bidirectional " << config.bidirectional << " buckets " << config.num_buckets << " max "
                          << config.max_distance);
    const std::vector<T5BucketSpan> spans =
        t5_bucket_spans(config.bidirectional, config.num_buckets, config.max_distance);
    std::size_t covered_buckets = 0;
    for (const T5BucketSpan& span : spans) {
      const std::int64_t last = span.last_distance_tokens.value_or(config.max_distance + 50);
      const std::int64_t sign = span.direction == T5Direction::past ? -1 : 1;
      for (std::int64_t distance = span.first_distance_tokens; distance <= last; ++distance)
        REQUIRE(t5_relative_bucket(sign * distance, config.bidirectional, config.num_buckets, config.max_distance) ==
                span.bucket);
      ++covered_buckets;
    }
    CHECK(covered_buckets == spans.size());
    CHECK_FALSE(spans.back().last_distance_tokens.has_value());
  }
}

TEST_CASE("T5 buckets with fewer log distances than log buckets skip buckets", "[schemes][t5]") {
  // 32 causal buckets, max_distance 25: distances 16..24 spread over buckets 16..31 with gaps.
  const std::vector<T5BucketSpan> spans = t5_bucket_spans(false, 32, 25);
  REQUIRE(spans.size() < 32);
  CHECK(spans.back().bucket == 31);
  CHECK(t5_relative_bucket(-20, false, 32, 25) == 24);
}

TEST_CASE("T5 last bucket: first distance and how many distances it swallows", "[schemes][t5]") {
  CHECK(t5_last_bucket_first_distance(true, 32, 128) == 91);
  CHECK(t5_last_bucket_first_distance(false, 32, 128) == 113);

  CHECK(distances_in_last_bucket(64, true, 32, 128) == 0);
  CHECK(distances_in_last_bucket(91, true, 32, 128) == 0);
  CHECK(distances_in_last_bucket(92, true, 32, 128) == 1);
  CHECK(distances_in_last_bucket(512, true, 32, 128) == 421);  // t5-base's nominal n_positions
  CHECK(distances_in_last_bucket(512, false, 32, 128) == 399);
  CHECK(distances_in_last_bucket(8192, false, 32, 128) == 8079);
  CHECK(distances_in_last_bucket(1048576, true, 32, 128) == 1048485);
  CHECK(distances_in_last_bucket(std::int64_t{1} << 40, false, 32, 128) == (std::int64_t{1} << 40) - 113);
}

TEST_CASE("T5 rejects bucket settings transformers cannot evaluate", "[schemes][t5]") {
  CHECK_THROWS_AS(t5_relative_bucket(-5, true, 3, 128), std::invalid_argument);  // max_exact 0
  CHECK_THROWS_AS(t5_relative_bucket(-5, false, 1, 128), std::invalid_argument);
  CHECK_THROWS_AS(t5_relative_bucket(-5, true, 32, 8), std::invalid_argument);  // max_distance <= max_exact
  CHECK_THROWS_AS(t5_bucket_spans(false, 32, 16), std::invalid_argument);
  CHECK_THROWS_AS(t5_bucket_spans(false, kMaxT5Buckets + 1, 1 << 20), std::invalid_argument);
  CHECK_THROWS_AS(distances_in_last_bucket(10, true, 0, 128), std::invalid_argument);
  CHECK_NOTHROW(t5_bucket_spans(false, 2, 2));
}

TEST_CASE("T5 spans stay cheap for a huge max_distance", "[schemes][t5]") {
  const std::vector<T5BucketSpan> spans = t5_bucket_spans(false, 32, std::numeric_limits<int>::max());
  REQUIRE(spans.size() == 32);
  CHECK(spans.back().bucket == 31);
  CHECK(spans[15].last_distance_tokens == 15);
}

// ---------------------------------------------------------------------------------------------
// Llama 4 NoPE attention temperature

TEST_CASE("Llama 4 NoPE temperature: 1 up to position 8190, 1.069 from 8191", "[schemes][nope]") {
  for (std::int64_t position : {0, 1, 4096, 8189, 8190})
    CHECK(nope_attention_temperature(position, kLlama4FloorScale, kLlama4AttnScale) == 1.0);
  CHECK(nope_attention_temperature(8191, kLlama4FloorScale, kLlama4AttnScale) == tight(1.0693147180559945));
  CHECK(nope_attention_temperature(8191, kLlama4FloorScale, kLlama4AttnScale) == Approx(1.069).margin(5e-4));
  CHECK(nope_attention_temperature(16382, kLlama4FloorScale, kLlama4AttnScale) == tight(1.0693147180559945));
  CHECK(nope_attention_temperature(16383, kLlama4FloorScale, kLlama4AttnScale) == tight(1.109861228866811));
  CHECK(nope_first_scaled_position(kLlama4FloorScale) == 8191);
}

TEST_CASE("Llama 4 NoPE temperature near one million tokens is about 1.486", "[schemes][nope]") {
  CHECK(nope_attention_temperature(1048575, kLlama4FloorScale, kLlama4AttnScale) == tight(1.4859812404361672));
  CHECK(nope_attention_temperature(1048575, kLlama4FloorScale, kLlama4AttnScale) == Approx(1.486).margin(5e-4));
  CHECK(nope_attention_temperature(1000000, kLlama4FloorScale, kLlama4AttnScale) == tight(1.4812184355372418));
}

TEST_CASE("Llama 4 NoPE temperature at a target's last position", "[schemes][nope]") {
  CHECK(nope_attention_temperature_at_target(8191, kLlama4FloorScale, kLlama4AttnScale) == 1.0);
  CHECK(nope_attention_temperature_at_target(8192, kLlama4FloorScale, kLlama4AttnScale) == Approx(1.0693).margin(5e-5));
  CHECK(nope_attention_temperature_at_target(1048576, kLlama4FloorScale, kLlama4AttnScale) ==
        Approx(1.48598).margin(5e-6));
  // The synthetic Llama-4 config's max_position_embeddings.
  CHECK(nope_attention_temperature_at_target(10485760, kLlama4FloorScale, kLlama4AttnScale) ==
        tight(1.7155396301896735));
}

TEST_CASE("NoPE temperature reads the model's tuning values", "[schemes][nope]") {
  NopeTemperature tuning;
  tuning.enabled = true;
  tuning.floor_scale.value = 4.0;
  tuning.attn_scale.value = 1.0;
  CHECK(nope_attention_temperature(2, tuning) == 1.0);
  CHECK(nope_attention_temperature(3, tuning) == tight(1.0 + std::log(2.0)));
  CHECK(nope_first_scaled_position(4.0) == 3);
  CHECK(nope_first_scaled_position(2.5) == 2);  // floor(3 / 2.5) = 1
  CHECK(nope_attention_temperature(2, 2.5, 1.0) == tight(1.0 + std::log(2.0)));
}

TEST_CASE("NoPE temperature rejects impossible arguments", "[schemes][nope]") {
  CHECK_THROWS_AS(nope_attention_temperature(-1, 8192.0, 0.1), std::invalid_argument);
  CHECK_THROWS_AS(nope_attention_temperature(0, 0.0, 0.1), std::invalid_argument);
  CHECK_THROWS_AS(nope_attention_temperature(0, std::numeric_limits<double>::infinity(), 0.1), std::invalid_argument);
  CHECK_THROWS_AS(nope_attention_temperature_at_target(0, 8192.0, 0.1), std::invalid_argument);
  CHECK_THROWS_AS(nope_first_scaled_position(-1.0), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Sinusoidal absolute positions (seed article 1: head dim 128, base 10000)

TEST_CASE("Sinusoidal inverse frequencies span four decades", "[schemes][sinusoidal]") {
  CHECK(sinusoidal_inverse_frequency(0, 128) == 1.0);
  CHECK(sinusoidal_inverse_frequency(32, 128) == tight(0.01));
  CHECK(sinusoidal_inverse_frequency(48, 128) == tight(0.001));
  CHECK(sinusoidal_inverse_frequency(63, 128) == tight(0.00011547819846894582));
  // The seed's "0.000116" is 1.1548e-4 rounded twice.
  CHECK(sinusoidal_inverse_frequency(63, 128) == Approx(0.000116).margin(1e-6));
  CHECK(sinusoidal_inverse_frequency(2, 5) == tight(std::pow(10000.0, -0.8)));
}

TEST_CASE("Sinusoidal turns over 4096 and 32768 tokens match the seed table", "[schemes][sinusoidal]") {
  auto turns = [](int pair, double tokens) { return tokens / sinusoidal_wavelength_tokens(pair, 128); };
  CHECK(turns(0, 4096) == Approx(652).margin(0.5));
  CHECK(turns(0, 32768) == Approx(5215).margin(0.5));
  CHECK(turns(32, 4096) == Approx(6.5).margin(0.05));
  CHECK(turns(32, 32768) == Approx(52).margin(0.5));
  CHECK(turns(48, 4096) == Approx(0.65).margin(0.005));
  CHECK(turns(48, 32768) == Approx(5.2).margin(0.05));
  CHECK(turns(63, 4096) == Approx(0.075).margin(0.0005));
  CHECK(turns(63, 4096) * 360.0 == Approx(27).margin(0.5));  // degrees
  CHECK(turns(63, 32768) == Approx(0.6).margin(0.005));
  CHECK(turns(63, 8192) == Approx(0.15).margin(0.005));

  int under_one_turn = 0;
  int under_quarter_turn = 0;
  for (int pair = 0; pair < 64; ++pair) {
    under_one_turn += turns(pair, 4096) < 1.0 ? 1 : 0;
    under_quarter_turn += turns(pair, 4096) < 0.25 ? 1 : 0;
  }
  CHECK(under_one_turn == 18);
  CHECK(under_quarter_turn == 9);
}

TEST_CASE("Sinusoidal wavelengths", "[schemes][sinusoidal]") {
  CHECK(sinusoidal_wavelength_tokens(0, 128) == tight(2.0 * std::numbers::pi));
  CHECK(sinusoidal_longest_wavelength_tokens(128) == tight(54410.14313077675));  // seed 2: "约 54410"
  CHECK(sinusoidal_longest_wavelength_tokens(512) == tight(sinusoidal_wavelength_tokens(255, 512)));
  CHECK_THROWS_AS(sinusoidal_inverse_frequency(64, 128), std::invalid_argument);
  CHECK_THROWS_AS(sinusoidal_inverse_frequency(-1, 128), std::invalid_argument);
  CHECK_THROWS_AS(sinusoidal_inverse_frequency(0, 0), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Learned absolute positions

TEST_CASE("Learned positions: GPT-2 and BERT have no row past their table", "[schemes][learned]") {
  CHECK(learned_position_has_row(1023, 1024));
  CHECK_FALSE(learned_position_has_row(1024, 1024));  // GPT-2's 1025th token
  CHECK(learned_position_has_row(0, 512));
  CHECK_FALSE(learned_position_has_row(512, 512));
  CHECK_FALSE(learned_position_has_row(-1, 512));
  CHECK(learned_position_row_offset("gpt2") == 0);
  CHECK(learned_position_row_offset("bert") == 0);
  CHECK(learned_position_table_rows(1024, learned_position_row_offset("gpt2")) == 1024);
}

TEST_CASE("Learned positions: OPT and BART tables carry 2 extra rows, not extra positions", "[schemes][learned]") {
  static_assert(learned_position_row_offset("opt") == 2);
  CHECK(learned_position_row_offset("bart") == 2);
  CHECK(learned_position_row_offset("mbart") == 2);
  CHECK(learned_position_table_rows(2048, learned_position_row_offset("opt")) == 2050);
  CHECK(learned_position_table_rows(1024, learned_position_row_offset("bart")) == 1026);
  CHECK(learned_position_has_row(2047, 2048));
  CHECK_FALSE(learned_position_has_row(2048, 2048));
}
