// The command printer: breaks only between shell words, " \" at the end of every continued line, a quoted word
// whole however long, an option with its value.
#include <catch2/catch.hpp>

#include "ropelens/model/text.hpp"
#include "ropelens/render/command_text.hpp"

using ropelens::command_text;
using ropelens::CommandLayout;
using ropelens::shell_line;
using ropelens::shell_line_words;

namespace {

const std::string kJson = R"('{"rope_parameters":{"rope_type":"yarn","factor":4.0,"rope_theta":1000000}}')";
const std::string kServe =
    "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve Qwen/Qwen3-8B --hf-overrides " + kJson + " --max-model-len 131072";

// The words of the laid-out text, continuations removed: what a shell reads.
std::vector<std::string> pasted_words(const std::string& text) {
  std::string joined;
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (text.compare(at, 2, "\\\n") == 0) {
      ++at;
      continue;
    }
    joined += text[at];
  }
  return shell_line_words(joined);
}

}  // namespace

TEST_CASE("shell_line_words splits where a POSIX shell splits, keeping each word as written") {
  CHECK(shell_line_words("a  'b c' \"d e\" f\\ g h'i j'k") ==
        std::vector<std::string>{"a", "'b c'", "\"d e\"", "f\\ g", "h'i j'k"});
  CHECK(shell_line_words("x 'unterminated y") == std::vector<std::string>{"x", "'unterminated y"});
  CHECK(shell_line_words("").empty());
}

TEST_CASE("shell_line quotes each word, a leading assignment's value only") {
  CHECK(shell_line({"A=1", "B=x y", "vllm", "serve", "my model", "--x", "it's", "C=2"}) ==
        "A=1 B='x y' vllm serve 'my model' --x 'it'\\''s' C=2");
  CHECK(shell_line({"ropelens", "check", "", "--set", "/a={\"b\":1}"}) == "ropelens check '' --set '/a={\"b\":1}'");
}

TEST_CASE("a command that fits, or printed without a width, stays on one line") {
  CHECK(command_text("ropelens check config.json --target 131072", {80, 2, 2}) ==
        "  ropelens check config.json --target 131072\n");
  CHECK(command_text(kServe, {std::nullopt, 0, 2}) == kServe + "\n");
}

TEST_CASE("a long command breaks between words, every continued line ends in a backslash") {
  for (int width : {40, 80, 120}) {
    INFO("width " << width);
    const std::string text = command_text(kServe, {width, 4, 2});
    CHECK(pasted_words(text) == shell_line_words(kServe));
    std::size_t start = 0;
    int lines = 0;
    while (start < text.size()) {
      const std::size_t end = text.find('\n', start);
      const std::string line = text.substr(start, end - start);
      const bool last = end + 1 == text.size();
      CHECK(line.ends_with(" \\") != last);
      // Only the quoted JSON, with its option, may pass the width.
      if (static_cast<int>(line.size()) > width) CHECK(line.find(kJson) != std::string::npos);
      CHECK(line.starts_with(lines == 0 ? "    " : "      "));
      start = end + 1;
      ++lines;
    }
    CHECK(lines > 1);
  }
}

TEST_CASE("an option keeps its value on its line, and the JSON word is never split") {
  const std::string text = command_text(kServe, {40, 0, 2});
  CHECK(text.find("--hf-overrides " + kJson) != std::string::npos);
  CHECK(text.find("--max-model-len 131072") != std::string::npos);
  CHECK(command_text(kServe, {80, 0, 2}).find("VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve Qwen/Qwen3-8B \\\n") == 0);
}
