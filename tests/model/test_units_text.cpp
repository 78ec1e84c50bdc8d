// Lengths and sizes as people write them, "did you mean", text made safe for a terminal, and JSON pointers.
#include <catch2/catch.hpp>

#include "ropelens/model/model.hpp"
#include "ropelens/model/text.hpp"
#include "ropelens/model/units.hpp"

using namespace ropelens;
using Catch::Matchers::Contains;

TEST_CASE("token counts take k, M and G as powers of 1024") {
  CHECK(parse_token_count("131072") == 131072);
  CHECK(parse_token_count("128k") == 131072);
  CHECK(parse_token_count("128K") == 131072);
  CHECK(parse_token_count("1M") == 1048576);
  CHECK(parse_token_count("1G") == 1073741824);
  CHECK(parse_token_count("0", 0) == 0);
}

TEST_CASE("a token count that is not a number says so, one out of range says that") {
  CHECK_THROWS_WITH(parse_token_count("abc"), Contains("not an integer"));
  CHECK_THROWS_WITH(parse_token_count("12.5"), Contains("not an integer"));
  CHECK_THROWS_WITH(parse_token_count("-5"), Contains("not an integer"));
  CHECK_THROWS_WITH(parse_token_count("128q"), Contains("not an integer"));
  CHECK_THROWS_WITH(parse_token_count("0"), Contains("out of range"));
  CHECK_THROWS_WITH(parse_token_count("99999999999999999999"), Contains("out of range"));
  CHECK_THROWS_WITH(parse_token_count("2000000000M"), Contains("out of range"));
}

TEST_CASE("byte sizes: binary and decimal units") {
  CHECK(parse_byte_size("80GiB") == 85'899'345'920LL);
  CHECK(parse_byte_size("80G") == 85'899'345'920LL);
  CHECK(parse_byte_size("512MB") == 512'000'000LL);
  CHECK(parse_byte_size("1TB") == 1'000'000'000'000LL);
  CHECK(parse_byte_size("1024") == 1024);
  CHECK_THROWS_WITH(parse_byte_size("80 parsecs"), Contains("unknown unit"));
  CHECK_THROWS_WITH(parse_byte_size("GiB"), Contains("not an integer"));
  CHECK(format_bytes(17'179'869'184LL) == "16.00 GiB");
  CHECK(format_bytes(512) == "512 B");
  CHECK(format_bytes(1536) == "1.50 KiB");
}

TEST_CASE("closest_match finds the intended word, and nothing for a word far from all") {
  const std::vector<std::string> codes = {"CTX201", "CTX202", "CFG001", "unseen-angles"};
  CHECK(closest_match("CTX2O1", codes) == std::optional<std::string>("CTX201"));
  CHECK(closest_match("unseen-angels", codes) == std::optional<std::string>("unseen-angles"));
  CHECK_FALSE(closest_match("zzzz", codes).has_value());
  CHECK(closest_match("chek", {"check", "table", "inspect"}) == std::optional<std::string>("check"));
  CHECK(did_you_mean("targte", {"target", "select"}) == " (did you mean 'target'?)");
  CHECK(did_you_mean("qqqqqq", {"target", "select"}).empty());
}

TEST_CASE("terminal_safe escapes control characters, bidi overrides and invalid UTF-8, and keeps the rest") {
  CHECK(terminal_safe("\x1b]0;title\x07\x1b[31m") == "\\u001b]0;title\\u0007\\u001b[31m");
  CHECK(terminal_safe("a\u202Eb") == "a\\u202eb");
  CHECK(terminal_safe("a\u2066b\u2069") == "a\\u2066b\\u2069");
  CHECK(terminal_safe("\xc2\x9b") == "\\u009b");  // C1 CSI
  CHECK(terminal_safe("\x7f") == "\\u007f");
  CHECK(terminal_safe("\xff\xfe") == "\\xff\\xfe");
  CHECK(terminal_safe("\xc0\x9b") == "\\xc0\\x9b");  // an overlong ESC is not let through
  CHECK(terminal_safe("line\nnext") == "line\\u000anext");
  CHECK(terminal_safe("27.1° pairs 0–2, θ") == "27.1° pairs 0–2, θ");
}

TEST_CASE("JSON pointers: a key joined with its escapes, and the last key read back unescaped") {
  CHECK(json_pointer_join("", "rope_scaling") == "/rope_scaling");
  CHECK(json_pointer_join("/rope_scaling", "a/b~c") == "/rope_scaling/a~1b~0c");
  CHECK(json_pointer_key("/rope_scaling/a~1b~0c") == "a/b~c");
  CHECK(json_pointer_key("/text_config/seq_length") == "seq_length");
  CHECK(json_pointer_key("/layer_types/3") == "3");
  CHECK(json_pointer_key("") == "");
  CHECK(json_pointer_key("/a~2b~") == "a~2b~");  // not an escape: kept as written
  CHECK(Provenance::at("/text_config/max_position_embeddings").key() == "max_position_embeddings");
}
