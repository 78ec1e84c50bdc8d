// Lengths and sizes as people write them, "did you mean", text made safe for a terminal, and JSON pointers.
#include <catch2/catch.hpp>

#include "ropelens/model/model.hpp"
#include "ropelens/model/text.hpp"
#include "ropelens/model/units.hpp"

using namespace ropelens;
using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

TEST_CASE("token counts take k, M and G as powers of 1024") {
  CHECK(parse_token_count("131072") == 131072);
  CHECK(parse_token_count("128k") == 131072);
  CHECK(parse_token_count("128K") == 131072);
  CHECK(parse_token_count("1M") == 1048576);
  CHECK(parse_token_count("1G") == 1073741824);
  CHECK(parse_token_count("0", 0) == 0);
}

TEST_CASE("token counts take decimals that come out whole") {
  CHECK(parse_token_count("1.5M") == 1'572'864);
  CHECK(parse_token_count("0.5k") == 512);
  CHECK(parse_token_count("1.25k") == 1280);
  CHECK(parse_token_count("131072.0") == 131072);
  CHECK(parse_token_count(".5k") == 512);
  CHECK_THROWS_WITH(parse_token_count("1.1k"), Contains("'1.1k' is 1126.4 tokens: a length is a whole number"));
  CHECK_THROWS_WITH(parse_token_count("12.5"), Contains("is 12.5 tokens"));
  CHECK_THROWS_WITH(parse_token_count("1.0000001M"), Contains("more than 6 decimals"));
}

TEST_CASE("a token count that is not a number says so, one out of range says that") {
  CHECK_THROWS_WITH(parse_token_count("abc"), Contains("'abc' is not a number: expected a token count such as 131072"));
  CHECK_THROWS_WITH(parse_token_count("."), Contains("not a number"));
  CHECK_THROWS_WITH(parse_token_count("-5"), Contains("'-5' is out of range: expected 1 to"));
  CHECK_THROWS_WITH(parse_token_count("128q"), Contains("unknown unit 'q'"));
  CHECK_THROWS_WITH(parse_token_count("0"), Contains("out of range"));
  CHECK_THROWS_WITH(parse_token_count("99999999999999999999"), Contains("out of range"));
  CHECK_THROWS_WITH(parse_token_count("2000000000M"), Contains("out of range"));
  CHECK_THROWS_WITH(parse_token_count("9007199254740991G"), Contains("out of range"));
}

TEST_CASE("byte sizes: binary and decimal units, with decimals") {
  CHECK(parse_byte_size("80GiB") == 85'899'345'920LL);
  CHECK(parse_byte_size("80G") == 85'899'345'920LL);
  CHECK(parse_byte_size("512MB") == 512'000'000LL);
  CHECK(parse_byte_size("24GB") == 24'000'000'000LL);
  CHECK(parse_byte_size("1TB") == 1'000'000'000'000LL);
  CHECK(parse_byte_size("1024B") == 1024);
  CHECK_THROWS_WITH(parse_byte_size("24"), Equals("'24' has no unit: write 24GiB"));
  CHECK(parse_byte_size("32.5GiB") == 34'896'609'280LL);  // 32.5 · 2^30
  CHECK(parse_byte_size("1.5TB") == 1'500'000'000'000LL);
  CHECK(parse_byte_size("0.1KiB") == 102);  // 102.4 bytes, to the nearest byte
  CHECK(parse_byte_size("0.6B") == 1);
  CHECK_THROWS_WITH(parse_byte_size("80 parsecs"), Contains("unknown unit ' parsecs'"));
  CHECK_THROWS_WITH(parse_byte_size("GiB"), Contains("'GiB' is not a number"));
}

TEST_CASE("a byte size of zero or below is refused, saying what is expected") {
  CHECK_THROWS_WITH(parse_byte_size("0B"), Contains("'0B': expected a size above zero such as 80GiB"));
  CHECK_THROWS_WITH(parse_byte_size("0GiB"), Contains("above zero"));
  CHECK_THROWS_WITH(parse_byte_size("-1GiB"), Contains("'-1GiB': expected a size above zero"));
  CHECK_THROWS_WITH(parse_byte_size("0.4B"), Contains("above zero"));
  CHECK_THROWS_WITH(parse_byte_size("99999999999TiB"), Contains("out of range"));
}

TEST_CASE("byte sizes print in binary units") {
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
