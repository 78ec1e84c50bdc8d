// The charts draw exactly the rows `table` computes: one point per pair, bands and out-of-range pairs marked,
// values written back exactly; hostile text stays well-formed SVG.
#include <sstream>

#include <catch2/catch.hpp>

#include "model_support.hpp"
#include "render/table/rope_charts.hpp"
#include "ropelens/render/render.hpp"
#include "support.hpp"

using ropelens::TableReport;
using ropelens::TableRequest;
using ropelens::test::chart_values;
using ropelens::test::load;
using ropelens::test::occurrences;
using ropelens::test::xml_parse_error;
using namespace ropelens::render_detail;
using ropelens::test::kLlama31;

namespace {

TableReport llama_at(const ropelens::Model& model, std::int64_t target) {
  TableRequest request;
  request.target_tokens = target;
  return ropelens::build_table_report(model, request);
}

}  // namespace

TEST_CASE("wavelength chart: Llama-3.1-8B as the seed article draws it", "[render][svg]") {
  const auto model = load(kLlama31);
  const TableReport report = llama_at(model, 262144);
  const auto& st = report.setups.at(0);
  const std::string svg = wavelength_chart(report, st).element();
  CHECK(occurrences(svg, "class=\"pt base\"") == 64);
  CHECK(occurrences(svg, "class=\"pt effective ") == 64);
  // 29 pairs kept, 6 interpolated (pairs 29–34), 29 divided by 8 (seed 004).
  CHECK(occurrences(svg, "band-kept") == 29);
  CHECK(occurrences(svg, "band-interpolated") == 6);
  CHECK(occurrences(svg, "band-scaled") == 29);
  CHECK(occurrences(svg, "<rect class=\"oor\"") == 25);  // pairs 39–63 at 262144 tokens
  CHECK(occurrences(svg, ">target 262144<") == 2);       // the line's label and the legend
  CHECK(occurrences(svg, ">trained 8192<") == 2);
  CHECK(occurrences(svg, ">extended = declared 131072<") == 2);
  std::vector<double> base, effective;
  for (const auto& row : st.rows)
    base.push_back(*row.base_wavelength_tokens), effective.push_back(*row.wavelength_tokens);
  CHECK(chart_values(svg, "base") == base);
  CHECK(chart_values(svg, "effective") == effective);
  CHECK(chart_values(svg, "base").at(40) == Approx(22911).epsilon(1e-4));  // "pair 40's wavelength is about 22911"
  CHECK(xml_parse_error("<?xml version=\"1.0\"?>" + svg) == "");
}

TEST_CASE("angle chart: seen and needed per pair, unseen arcs only where out of range", "[render][svg]") {
  const auto model = load(kLlama31);
  const TableReport report = llama_at(model, 262144);
  const auto& st = report.setups.at(0);
  const std::string svg = angle_chart(report, st).element();
  std::vector<double> seen, needed;
  for (const auto& row : st.rows) seen.push_back(row.audit->seen_deg), needed.push_back(row.audit->needed_deg);
  CHECK(chart_values(svg, "seen") == seen);
  CHECK(chart_values(svg, "needed") == needed);
  CHECK(occurrences(svg, "<rect class=\"unseen\"") == 25);
  CHECK(occurrences(svg, ">one turn (360°)<") == 1);

  const TableReport within = llama_at(model, 8192);
  const std::string calm = angle_chart(within, within.setups.at(0)).element();
  CHECK(occurrences(calm, "<rect class=\"unseen\"") == 0);
  CHECK(occurrences(calm, "<rect class=\"oor\"") == 0);
  CHECK(occurrences(calm, "class=\"pt seen\"") == 64);
}

TEST_CASE("table --format svg: hostile names stay text in well-formed SVG", "[render][svg]") {
  auto model = load(kLlama31);
  model.source = "evil</title><script>alert(1)</script>&\x01\x1b[31m\xFF.json";
  model.model_type.value = "]]><svg onload=alert(1)>\"'";
  model.setups.at(0).name = "<g>";
  std::ostringstream out;
  ropelens::render_table_svg(llama_at(model, 131072), out);
  const std::string svg = out.str();
  CHECK(xml_parse_error(svg) == "");
  CHECK(svg.find("<script") == std::string::npos);
  CHECK(svg.find("<svg onload") == std::string::npos);
  CHECK(svg.find('\x01') == std::string::npos);
  CHECK(svg.find('\x1b') == std::string::npos);
  CHECK(svg.find("&lt;script&gt;alert(1)&lt;/script&gt;&amp;[31m\xEF\xBF\xBD.json") != std::string::npos);

  ropelens::Model no_rope = load("testdata/configs/bloom/bloom-176b.json");
  no_rope.source = "<bloom>";
  std::ostringstream alibi;
  ropelens::render_table_svg(ropelens::build_table_report(no_rope, {}), alibi);
  CHECK(xml_parse_error(alibi.str()) == "");
  CHECK(alibi.str().find("&lt;bloom&gt;: no rotary layers (positional scheme alibi)") != std::string::npos);
}
