// Seed-article facts about real configs, through the table report (the numbers `ropelens table` prints).
#include <catch2/catch.hpp>

#include <cmath>

#include "ropelens/load/model_loader.hpp"
#include "ropelens/report/table_report.hpp"
#include "support.hpp"
#include "render/table/table_summary.hpp"

using namespace ropelens;

namespace {

Model load_config(const std::string& config, std::vector<Edit> edits = {}) {
  return load_model(test::source_path("testdata/configs/" + config), edits).model;
}

}  // namespace

TEST_CASE("Llama-3.1-8B llama3: 29 kept, 29 divided by 8, pairs 29-34 smoothed") {
  Model model = load_config("llama/llama-3.1-8b-instruct-bnb8bit-finetune.json");
  TableReport report = build_table_report(model, {});
  REQUIRE(report.setups.size() == 1);
  const auto& st = report.setups[0];
  CHECK(st.summary.kept == 29);
  CHECK(st.summary.scaled == 29);
  CHECK(st.summary.uniform_scale == Approx(8.0));
  REQUIRE(st.summary.interpolated_pairs == std::vector<int>{29, 30, 31, 32, 33, 34});
  std::vector<double> expected = {1.21, 1.55, 2.03, 2.69, 3.68, 5.26};
  for (std::size_t i = 0; i < expected.size(); ++i)
    CHECK(st.summary.interpolated_scales[i] == Approx(expected[i]).margin(0.005));
  CHECK(render_detail::band_summary(st) ==
        "29 pairs kept, 29 divided by 8, 6 interpolated (pairs 29–34: ×1.21 ×1.55 ×2.03 ×2.69 ×3.68 ×5.26)");
}

TEST_CASE("Qwen3-8B with yarn x4 on 32768: 24 kept, 16 ramped 1.05-3.40, 24 divided by 4") {
  Model model = load_config(
      "qwen/qwen3-8b.json",
      {parse_edit(R"(/rope_scaling={"rope_type":"yarn","factor":4,"original_max_position_embeddings":32768})")});
  TableReport report = build_table_report(model, {});
  const auto& st = report.setups.at(0);
  CHECK(st.summary.kept == 24);
  CHECK(st.summary.scaled == 24);
  CHECK(st.summary.uniform_scale == Approx(4.0));
  REQUIRE(st.summary.interpolated == 16);
  CHECK(st.summary.interpolated_pairs.front() == 24);
  CHECK(st.summary.interpolated_pairs.back() == 39);
  CHECK(st.summary.interpolated_scales.front() == Approx(1.05).margin(0.005));
  CHECK(st.summary.interpolated_scales.back() == Approx(3.40).margin(0.005));
  CHECK(st.table.attention_factor == Approx(0.1 * std::log(4.0) + 1.0).epsilon(1e-15));
  CHECK(st.table.attention_factor == Approx(1.139).margin(0.0005));
  CHECK(st.table.attention_factor * st.table.attention_factor == Approx(1.30).margin(0.005));
}

TEST_CASE("Llama-2-7B-like at 8192: pairs 46-63 out of range, pair 63 from 27.1 to 54.2 degrees") {
  Model model = load_config("llava/llava-v1.5-7b.json");
  TableRequest request;
  request.target_tokens = 8192;
  TableReport report = build_table_report(model, request);
  const auto& audit = report.setups.at(0).audit.value();
  std::vector<int> expected;
  for (int p = 46; p <= 63; ++p) expected.push_back(p);
  CHECK(audit.out_of_range_pairs == expected);
  CHECK(audit.pairs[63].seen_deg == Approx(27.1).margin(0.05));
  CHECK(audit.pairs[63].needed_deg == Approx(54.2).margin(0.05));
  CHECK(audit.pairs[45].out_of_range == false);
}

TEST_CASE("the pairs filter selects rows but never the frequencies") {
  Model model = load_config("llava/llava-v1.5-7b.json");
  TableRequest request;
  request.pairs = {0, 16, 32, 48, 63};
  TableReport report = build_table_report(model, request);
  const auto& st = report.setups.at(0);
  CHECK(st.rows.size() == 5);
  CHECK(st.rows[4].pair == 63);
  CHECK(st.table.inv_freq.size() == 64);
}
