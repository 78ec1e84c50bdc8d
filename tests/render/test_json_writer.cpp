#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "render/check/check_renderers.hpp"
#include "render/writers/json_writer.hpp"

using nlohmann::json;
using ropelens::render_detail::indent_json;
using ropelens::render_detail::JsonWriter;

namespace {

std::string written(const json& document, int base_indent = 0) {
  std::string out;
  JsonWriter writer(out, base_indent);
  writer.value(document);
  return out;
}

const json kSample = json::parse(R"({
  "audit": {"setups": [{"layers": [0, 1, 2], "out_of_range": [], "pretrain_tokens": 4096,
                        "seen_deg": 27.1, "needed_deg": 54.19999999999999}]},
  "empty_object": {}, "empty_array": [], "nested": [[], [{}], [1, [2, [3]]]],
  "text": "quote \" backslash \\ newline \n tab \t bell \u0007 unicode θ° 🙂",
  "numbers": [0, -1, 18446744073709551615, 1.0, -0.0, 1e-7, 123456789012345680000.0, 0.1, 2.5e-5, 1e15, 1e16,
              131.5695111919553, 365.7036081764028, 5e-324, 1.7976931348623157e308],
  "flags": [true, false, null]
})");

}  // namespace

TEST_CASE("JsonWriter prints what nlohmann's dump(2) prints", "[render]") {
  CHECK(written(kSample) == kSample.dump(2));
  CHECK(written(json::object()) == "{}");
  CHECK(written(json::array()) == "[]");
  CHECK(written(3.0) == "3.0");
  CHECK(written(std::nan("")) == "null");
}

// Short plain strings go out with their line break in one piece; long ones, those with escapes and indents
// deeper than the break buffer go piece by piece. Both ways must print the same.
TEST_CASE("JsonWriter prints long strings and deep nesting as dump(2) does", "[render]") {
  json deep = {{"leaf", 1.5}, {"list", {1, 2}}};
  for (int depth = 0; depth < 40; ++depth) deep = {{std::string(depth % 7 * 20, 'k') + "key", deep}, {"n", depth}};
  const json sample = {{std::string(97, 'a'), std::string(96, 'b')},
                       {std::string(96, 'c'), std::string(300, 'd') + "\"\u00e9"},
                       {"deep", deep},
                       {"plain", std::string(95, 'e') + "\n"}};
  CHECK(written(sample) == sample.dump(2));
  CHECK(written(sample, 4) == indent_json(sample.dump(2), 4));
}

TEST_CASE("JsonWriter writes documents many times longer than its staging buffer", "[render]") {
  json big = json::array();
  for (int i = 0; i < 3000; ++i) big.push_back({{"deg", i * 0.37}, {"pair", i}, {"text", std::string(i % 150, 'x')}});
  const std::string out = written(big, 2);
  CHECK(out.size() > 50 * JsonWriter::kStagedBytes);
  CHECK(out == indent_json(big.dump(2), 2));
}

TEST_CASE("JsonWriter indents nested documents like indent_json", "[render]") {
  CHECK(written(kSample, 4) == indent_json(kSample.dump(2), 4));
}

TEST_CASE("JsonWriter builds documents member by member", "[render]") {
  std::string out;
  JsonWriter w(out);
  w.begin_object()
      .member("a", 1)
      .member("b", std::vector<int>{1, 2})
      .member("c", "x")
      .key("d")
      .begin_object()
      .end_object();
  w.end_object();
  CHECK(out == json({{"a", 1}, {"b", {1, 2}}, {"c", "x"}, {"d", json::object()}}).dump(2));
}

TEST_CASE("JsonWriter replaces bytes that are not UTF-8 instead of failing", "[render]") {
  std::string out;
  JsonWriter(out).value(
      std::string_view("a\xff"
                       "b\xe2\x82"));
  CHECK(out ==
        "\"a\xEF\xBF\xBD"
        "b\xEF\xBF\xBD\xEF\xBF\xBD\"");
}
