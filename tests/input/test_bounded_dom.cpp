// The quick reader and nlohmann's parser give the same document (value types included) or the same error, for
// hand-made cases of every kind the quick reader reads or leaves to nlohmann, and for every config and fuzz input
// kept in testdata.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "input/bounded_dom.hpp"
#include "ropelens/input/input.hpp"
#include "support.hpp"

using nlohmann::json;
using ropelens::input_detail::BoundedParse;
using ropelens::input_detail::parse_bounded;
using ropelens::input_detail::parse_bounded_by_nlohmann;
using ropelens::input_detail::read_quickly;
namespace fs = std::filesystem;

namespace {

void check_same_parse(const std::string& text, int max_depth = ropelens::kMaxJsonDepth) {
  const BoundedParse quick = parse_bounded(text, max_depth);
  const BoundedParse reference = parse_bounded_by_nlohmann(text, max_depth);
  CHECK(quick.syntax_error == reference.syntax_error);
  CHECK(quick.error_byte == reference.error_byte);
  CHECK(quick.error_message == reference.error_message);
  CHECK(quick.cut_pointers == reference.cut_pointers);
  CHECK(ropelens::input_detail::identical_values(quick.root, reference.root));
}

}  // namespace

TEST_CASE("the quick JSON reader gives nlohmann's document, value types included", "[input]") {
  const std::string cases[] = {
      R"({"a": 1, "b": -1, "c": 0, "d": -0, "e": 1.5, "f": -2.5e-3, "g": 1E5, "h": 1e+2, "i": 0.0, "j": -0.0})",
      R"({"max": 18446744073709551615, "over": 18446744073709551616, "min": -9223372036854775808,
          "under": -9223372036854775809, "long": 123456789012345678901234567890, "tiny": 4.9e-324})",
      R"({"s": "plain", "e": "q\"b\\s\/b\bf\fn\nr\rt\t", "u": "\u0041\u00e9\u20ac\u0000", "": ""})",
      R"({"t": true, "f": false, "n": null, "a": [], "o": {}, "x": [[], {}, [1, [2, [3]]], {"k": {"k": []}}]})",
      " \t\r\n{ \"a\" : [ 1 , 2 ] , \"b\" : { } } \n ",
      R"({"dup": 1, "dup": 2})",
      "[1, 2, 3]",
      "\"top\"",
      "42",
  };
  for (const auto& text : cases) {
    INFO(text);
    BoundedParse quick;
    CHECK(read_quickly(text, ropelens::kMaxJsonDepth, quick));
    check_same_parse(text);
  }
  BoundedParse types;
  REQUIRE(read_quickly(cases[1], ropelens::kMaxJsonDepth, types));
  CHECK(types.root["max"].is_number_unsigned());
  CHECK(types.root["over"].is_number_float());
  CHECK(types.root["min"].is_number_integer());
  CHECK(types.root["under"].is_number_float());
}

TEST_CASE("the quick JSON reader leaves non-ASCII text, surrogates, a BOM, overflow and every error to nlohmann",
          "[input]") {
  const std::string cases[] = {
      "\xEF\xBB\xBF{\"bom\": 1}",
      R"({"pair": "\ud83d\ude00", "lone": "x"})",
      R"({"lone": "\udc00"})",
      "{\"utf8\": \"\xC3\xA9\"}",
      "{\"bad utf8\": \"\xC3\"}",
      "{\"control\": \"a\x01\"}",
      R"({"overflow": 1e400})",
      // errors
      "",
      " ",
      "{",
      "}",
      "[1,]",
      "{\"a\":}",
      "{\"a\" 1}",
      "{\"a\":1,}",
      "{a:1}",
      "[01]",
      "[-]",
      "[1.]",
      "[.5]",
      "[1e]",
      "[+1]",
      "[1x]",
      "{\"a\":1}x",
      "[tru]",
      "[nul]",
      "[\"\\x\"]",
      "[\"\\u12\"]",
      "[\"unterminated",
      "{\"a\":1}{",
      "[1 2]",
      std::string("{\"nul\": 1}\0", 11),
  };
  for (const auto& text : cases) {
    INFO(text);
    BoundedParse quick;
    CHECK_FALSE(read_quickly(text, ropelens::kMaxJsonDepth, quick));
    check_same_parse(text);
  }
  // 1e-400 is 0 to nlohmann's strtod; whichever reads it, the value is the same.
  check_same_parse(R"({"underflow": 1e-400})");
}

TEST_CASE("the quick JSON reader cuts values nested past the limit where nlohmann's parse does", "[input]") {
  check_same_parse(R"({"a": {"b": {"c": [1, {"d": 2}]}}, "e": [[[[]]]], "f": 1})", 2);
  check_same_parse(R"({"a": {"b": {"c": [1, {"d": 2}]}}, "e": [[[[]]]], "f": 1})", 3);
  check_same_parse(std::string(100000, '[') + std::string(100000, ']'));
  const BoundedParse cut = parse_bounded(R"({"a": {"b": {"c": 1}}, "f": 1})", 2);
  CHECK(cut.cut_pointers == std::vector<std::string>{"/a/b"});
  CHECK(cut.root["f"] == 1);
}

TEST_CASE("the quick JSON reader agrees with nlohmann on every config and fuzz input kept in testdata", "[input]") {
  std::size_t files = 0;
  for (const char* folder : {"testdata/configs", "testdata/fuzz/config", "testdata/fuzz/check", "testdata/fuzz/diff",
                             "testdata/fuzz/suggest", "testdata/fuzz/table", "testdata/fuzz/regressions"}) {
    for (const auto& entry : fs::recursive_directory_iterator(ropelens::test::source_path(folder))) {
      if (!entry.is_regular_file()) continue;
      INFO(entry.path().string());
      check_same_parse(ropelens::test::read_file(entry.path().string()));
      ++files;
    }
  }
  CHECK(files > 4000);  // the configs and every kept fuzz input, minimized with -merge=1
  // Every published and synthetic config is read by the quick reader.
  for (const auto& entry : fs::recursive_directory_iterator(ropelens::test::source_path("testdata/configs"))) {
    if (entry.path().extension() != ".json") continue;
    INFO(entry.path().string());
    BoundedParse quick;
    CHECK(read_quickly(ropelens::test::read_file(entry.path().string()), ropelens::kMaxJsonDepth, quick));
  }
}
