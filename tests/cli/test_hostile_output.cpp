// A config from the internet must not drive the terminal: keys and values holding ESC, BEL, CSI, OSC, C1, DEL and
// bidirectional controls reach every text output (check text and GitHub annotations, diff text and markdown,
// table, inspect, suggest, the -v log) only as visible escapes such as \u001b and \u202e.
#include <catch2/catch.hpp>

#include <string>

#include "support.hpp"

using namespace ropelens::test;

namespace {

const std::string kHostile = "testdata/hostile/control-characters.json";

// "" when `text` holds nothing a terminal would act on, else what and where. \n (and \t) are the renderers' own.
std::string first_raw_control(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    if ((b < 0x20 && b != '\n' && b != '\t') || b == 0x7f)
      return "byte " + std::to_string(b) + " at " + std::to_string(i);
    if (b == 0xc2 && i + 1 < text.size()) {  // C1 controls U+0080–U+009F
      const auto next = static_cast<unsigned char>(text[i + 1]);
      if (next >= 0x80 && next <= 0x9f) return "C1 control at " + std::to_string(i);
    }
    if (b == 0xe2 && i + 2 < text.size()) {  // U+202A–U+202E, U+2066–U+2069
      const auto b1 = static_cast<unsigned char>(text[i + 1]), b2 = static_cast<unsigned char>(text[i + 2]);
      if (b1 == 0x80 && b2 >= 0xaa && b2 <= 0xae) return "bidi override at " + std::to_string(i);
      if (b1 == 0x81 && b2 >= 0xa6 && b2 <= 0xa9) return "bidi isolate at " + std::to_string(i);
    }
  }
  return "";
}

void require_escaped(const RunResult& r, const std::string& visible) {
  INFO(r.out << r.err);
  CHECK(first_raw_control(r.out).empty());
  CHECK(first_raw_control(r.err).empty());
  CHECK((r.out + r.err).find(visible) != std::string::npos);
}

}  // namespace

TEST_CASE("check text escapes keys, values and pointers from the config") {
  const RunResult r = run_cli("check " + kHostile + " --exit-zero");
  CHECK(r.exit_code == 0);
  require_escaped(r, "key 'foo\\u001b]0;title\\u0007\\u001b[31m'");
  CHECK(r.out.find("at /rope_scaling/bar\\u202e\\u2066\\u2067\\u2068\\u2069\\u007f\\u009b31m\\u000d\\u000a") !=
        std::string::npos);
  CHECK(r.out.find("unknown rope type 'linear\\u0007'") != std::string::npos);
}

TEST_CASE("check text with colour escapes the config's text but keeps its own styles") {
  const RunResult r = run_cli("check " + kHostile + " --exit-zero --color always");
  INFO(r.out);
  CHECK(r.out.find("foo\\u001b]0;title") != std::string::npos);
  CHECK(r.out.find("\x1b]0;") == std::string::npos);  // no OSC reaches the terminal
  CHECK(r.out.find("\x07") == std::string::npos);
}

TEST_CASE("GitHub annotations escape control characters and the workflow-command syntax") {
  const RunResult r = run_cli("check " + kHostile + " --format github --exit-zero");
  CHECK(r.exit_code == 0);
  require_escaped(r, "key 'foo\\u001b]0;title\\u0007\\u001b[31m'");
  // Every annotation is one line starting with the command: nothing in a key ends it or starts another.
  std::size_t lines = 0;
  for (std::size_t start = 0, end; (end = r.out.find('\n', start)) != std::string::npos; start = end + 1, ++lines)
    CHECK(r.out.compare(start, 2, "::") == 0);
  CHECK(lines >= 5);
}

TEST_CASE("GitHub annotations escape %, : and , in a file name") {
  TempDir dir;
  const std::string path = dir.path() + "/a%b,c:d\x1b[31m.json";
  write_file(path, read_file(source_path(kHostile)));
  const RunResult r = run_program({binary(), "check", path, "--format", "github", "--exit-zero"});
  require_escaped(r, "a%25b%2Cc%3Ad\\u001b[31m.json");
}

TEST_CASE("inspect, table and suggest text escape the config's text") {
  require_escaped(run_cli("inspect " + kHostile), "llama\\u001b[2J\\u202e");
  require_escaped(run_cli("table " + kHostile), "llama\\u001b[2J\\u202e");
  require_escaped(run_cli("suggest " + kHostile + " --target 16384"), "llama\\u001b[2J\\u202e");
}

TEST_CASE("diff text and markdown escape the config's text") {
  const std::string old_config = "testdata/configs/synthetic/bad-values.json";
  require_escaped(run_cli("diff " + old_config + " " + kHostile), "foo\\u001b]0;title");
  require_escaped(run_cli("diff " + old_config + " " + kHostile + " --format markdown"), "foo\\u001b]0;title");
  require_escaped(run_cli("diff " + old_config + " " + kHostile + " --format github"), "foo\\u001b]0;title");
}

TEST_CASE("the -v log escapes paths and values from the config") {
  TempDir dir;
  const std::string path = dir.path() + "/x\x1b]0;t\x07.json";
  write_file(path, read_file(source_path(kHostile)));
  const RunResult r = run_program({binary(), "-vv", "check", path, "--exit-zero"});
  INFO(r.err);
  CHECK(first_raw_control(r.err).empty());
  CHECK(r.err.find("x\\u001b]0;t\\u0007.json") != std::string::npos);
}

TEST_CASE("an error naming a hostile path escapes it") {
  const RunResult r = run_program({binary(), "check", "/nonexistent/\x1b[31m\xe2\x80\xae.json"});
  CHECK(r.exit_code == 2);
  require_escaped(r, "\\u001b[31m\\u202e.json");
}
