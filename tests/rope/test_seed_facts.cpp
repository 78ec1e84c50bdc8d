// Facts from the seed articles: plain RoPE at theta 1e4 / 5e5, dim 128.
#include <catch2/catch.hpp>

#include <cmath>

#include "ropelens/rope/rope.hpp"

using namespace ropelens;

namespace {

RopeSetup plain_setup(double theta, int dim, std::int64_t length) {
  RopeSetup setup;
  setup.rope_theta.value = theta;
  setup.head_dim.value = dim;
  setup.rotary_dim = dim;
  setup.max_position_embeddings.value = length;
  return setup;
}

double turns(double inv_freq, std::int64_t length) { return static_cast<double>(length - 1) * inv_freq / kTwoPi; }
double degrees(double radians) { return radians * 180.0 / 3.14159265358979323846; }

}  // namespace

TEST_CASE("theta 1e4, dim 128, length 4096: pairs under one and a quarter turn") {
  auto table = compute_rope_table(plain_setup(1e4, 128, 4096));
  REQUIRE(table.inv_freq.size() == 64);
  int under_one = 0, under_quarter = 0;
  for (double inv : table.inv_freq) {
    under_one += turns(inv, 4096) < 1.0;
    under_quarter += turns(inv, 4096) < 0.25;
  }
  CHECK(under_one == 18);
  CHECK(under_quarter == 9);
}

TEST_CASE("theta 1e4, dim 128: pair 63 reaches 27.1 degrees at 4095 and 54.2 at 8191") {
  auto table = compute_rope_table(plain_setup(1e4, 128, 4096));
  CHECK(degrees(4095 * table.inv_freq[63]) == Approx(27.1).margin(0.05));
  CHECK(degrees(8191 * table.inv_freq[63]) == Approx(54.2).margin(0.05));
}

TEST_CASE("theta 1e4, dim 128: turns at 4096 and 32768") {
  auto table = compute_rope_table(plain_setup(1e4, 128, 4096));
  CHECK(std::round(turns(table.inv_freq[0], 4096)) == 652);
  CHECK(std::round(turns(table.inv_freq[0], 32768)) == 5215);
  CHECK(turns(table.inv_freq[32], 4096) == Approx(6.5).margin(0.05));
  CHECK(std::round(turns(table.inv_freq[32], 32768)) == 52);
  CHECK(turns(table.inv_freq[48], 4096) == Approx(0.65).margin(0.005));
  CHECK(turns(table.inv_freq[48], 32768) == Approx(5.2).margin(0.05));
  CHECK(turns(table.inv_freq[63], 4096) == Approx(0.075).margin(0.0005));
  CHECK(turns(table.inv_freq[63], 32768) == Approx(0.60).margin(0.005));
}

TEST_CASE("theta 5e5, dim 128: wavelengths of pairs 0/16/32/48/63") {
  auto table = compute_rope_table(plain_setup(5e5, 128, 8192));
  auto wavelength = [&](int pair) { return kTwoPi / table.inv_freq[static_cast<std::size_t>(pair)]; };
  CHECK(wavelength(0) == Approx(6.3).margin(0.05));
  CHECK(std::round(wavelength(16)) == 167);
  CHECK(std::round(wavelength(32)) == 4443);
  CHECK(std::round(wavelength(48)) == 118143);
  CHECK(std::round(wavelength(63)) == 2559196);
}

TEST_CASE("NTK-aware base for theta 1e4, d 128, s 4 is about 40890") {
  CHECK(std::round(ntk_aware_base(1e4, 128, 4)) == 40890);
}
