// Text output on a terminal: colour only on a TTY (NO_COLOR, FORCE_COLOR and --color decide otherwise), `table`
// fitted to the window with the rest named, `check` help wrapped, and -q. A pseudo-terminal comes from
// `script`, its size from `stty`.
#include <set>
#include <sstream>

#include <catch2/catch.hpp>

#include "render/writers/terminal_text.hpp"
#include "support.hpp"

using ropelens::render_detail::display_width;
using ropelens::test::binary;
using ropelens::test::kLlama31;
using ropelens::test::kQwen3;
using ropelens::test::occurrences;
using ropelens::test::run_cli;
using ropelens::test::run_shell;

namespace {

// Runs ropelens on a pseudo-terminal of `columns` columns (0: a terminal that reports no size), with the
// environment given; returns stdout without the terminal's carriage returns.
std::string on_terminal(int columns, const std::string& environment, const std::string& arguments) {
  const auto run = run_shell("cd '" + ropelens::test::source_path("") + "' && script -qec \"stty cols " +
                             std::to_string(columns) + " rows 50; env -u NO_COLOR -u FORCE_COLOR -u COLUMNS " +
                             environment + " " + binary() + " " + arguments + "\" /dev/null");
  std::string out;
  for (char c : run.out)
    if (c != '\r') out += c;
  return out;
}

bool has_colour(const std::string& text) { return text.find("\x1b[") != std::string::npos; }

int widest_line(const std::string& text) {
  std::istringstream lines(text);
  int widest = 0;
  for (std::string line; std::getline(lines, line);) widest = std::max(widest, display_width(line));
  return widest;
}

const std::string kCheck = "check " + kLlama31 + " --target 262144";

}  // namespace

TEST_CASE("check: colour on a terminal only, unless NO_COLOR, FORCE_COLOR or --color say otherwise",
          "[cli][terminal]") {
  const std::string tty = on_terminal(80, "", kCheck);
  CHECK(has_colour(tty));
  CHECK(tty.find("\x1b[1m\x1b[91merror\x1b[0m") != std::string::npos);  // fmt's bold bright red
  CHECK_FALSE(has_colour(on_terminal(80, "NO_COLOR=1", kCheck)));
  CHECK_FALSE(has_colour(on_terminal(80, "", kCheck + " --color never")));
  CHECK_FALSE(has_colour(on_terminal(80, "TERM=dumb", kCheck)));
  CHECK(has_colour(on_terminal(80, "NO_COLOR=", kCheck)));  // an empty NO_COLOR does not count (no-color.org)

  const std::string piped = " " + binary() + " " + kCheck + " | cat";
  const std::string in_source = "cd '" + ropelens::test::source_path("") + "' && env -u NO_COLOR -u FORCE_COLOR ";
  CHECK_FALSE(has_colour(run_shell(in_source + piped).out));
  CHECK(has_colour(run_shell(in_source + "FORCE_COLOR=1" + piped).out));
  CHECK_FALSE(has_colour(run_shell(in_source + "FORCE_COLOR=0" + piped).out));
  CHECK_FALSE(has_colour(run_shell(in_source + "FORCE_COLOR=1 NO_COLOR=1" + piped).out));
  CHECK(has_colour(run_cli(kCheck + " --color always").out));
  CHECK_FALSE(has_colour(run_cli(kCheck).out));
}

TEST_CASE("table on an 80-column terminal prints no line wider than 80 and names what it left out", "[cli][terminal]") {
  for (const std::string& arguments : std::vector<std::string>{
           kLlama31 + " --target 262144", kQwen3 + " --target 131072", "testdata/configs/gemma/medgemma-27b-it.json",
           "testdata/configs/gemma/gemma-4-31b-it.json --target 1000000",
           "testdata/configs/gpt-oss/gpt-oss-20b.json --target 131072",
           "testdata/configs/phi/phi-3-mini-128k-instruct.json --target 131072"}) {
    INFO(arguments);
    const std::string out = on_terminal(80, "", "table " + arguments);
    CHECK(widest_line(out) <= 80);
    CHECK(widest_line(out) >= 60);
  }
  const std::string llama = on_terminal(80, "NO_COLOR=1", "table " + kLlama31 + " --target 262144");
  CHECK(llama.find("pair scale wavelength turns@train turns@target band           seen°   needed°\n"
                   "                             8192       262144\n") != std::string::npos);
  CHECK(llama.find("  63 8.000  2.047e+07    0.000400       0.0128 scaled         2.305     4.609 !\n") !=
        std::string::npos);

  const std::string wide = on_terminal(80, "", "table " + kLlama31 + " --target 262144 --wide");
  CHECK(widest_line(wide) > 80);
  CHECK(wide.find("--wide prints") == std::string::npos);
  // No window size: COLUMNS, else 80.
  CHECK(widest_line(on_terminal(0, "COLUMNS=60", "table " + kQwen3 + " --target 131072")) <= 60);
  CHECK(widest_line(on_terminal(0, "", "table " + kQwen3 + " --target 131072")) <= 80);
}

TEST_CASE("table piped keeps every column, each header named once", "[cli][terminal]") {
  const std::string llama = run_cli("table " + kLlama31 + " --target 262144").out;
  const auto header_at = llama.find("\npair  ");
  REQUIRE(header_at != std::string::npos);
  const std::string header = llama.substr(header_at + 1, llama.find('\n', header_at + 1) - header_at - 1);
  CHECK(header ==
        "pair       base θ  effective θ  scale  wavelength  turns@train 8192  turns@declared 131072  "
        "turns@target 262144  band            seen°    needed°  unseen°");
  CHECK(llama.find("--wide") == std::string::npos);
  // Declared and original length are the same for Qwen3-8B: one column, not two named 40960.
  const std::string qwen = run_cli("table " + kQwen3 + " --target 131072").out;
  CHECK(occurrences(qwen, "turns@train 40960") == 1);
  CHECK(occurrences(qwen, "turns@target 131072") == 1);
  CHECK(occurrences(qwen, "turns@declared") == 0);
}

TEST_CASE("check on a terminal wraps messages and help, path and code stay on the first line", "[cli][terminal]") {
  const std::string out = on_terminal(80, "NO_COLOR=1", kCheck);
  // 73 columns of position and the code fill the first line; the severity and rule name wrap whole.
  CHECK(out.find(kLlama31 + ":19:30: CTX201\n"
                            "    error [unseen-angles] at 262144 tokens pairs 39–63 (25 of 64) rotate beyond\n") == 0);
  CHECK(out.find("  help: keep inputs within 131072 tokens, or raise the scaling to cover 262144\n"
                 "        tokens and evaluate at that length\n") != std::string::npos);
  CHECK(out.find("  setup layers   trained  attended  pairs out of range worst (seen° → needed°)\n"
                 "  all   0–31      131072    262144  39–63 (25)         pair 42: 170.8 → 341.7\n") !=
        std::string::npos);
  CHECK(widest_line(out) <= 80);
  // 120 columns hold the whole headline.
  CHECK(on_terminal(120, "NO_COLOR=1", kCheck).find(kLlama31 + ":19:30: CTX201 error [unseen-angles] at 262144") == 0);
}

TEST_CASE("check -q prints only the findings and the summary", "[cli][terminal]") {
  const std::string full = run_cli(kCheck + " --select ALL").out;
  const std::string quiet = run_cli(kCheck + " --select ALL -q").out;
  CHECK(full.find("audit of ") != std::string::npos);
  CHECK(quiet.find("audit of ") == std::string::npos);
  CHECK(occurrences(quiet, ": CTX2") == 4);
  CHECK(quiet.find("4 findings (1 error, 1 warning, 2 info) in 1 file\n") != std::string::npos);
  CHECK(run_cli(kCheck + " --select ALL -q --engine all").out == quiet);
}

namespace {

std::vector<std::string> words_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) {  // without the punctuation a list puts around it: "θ," is "θ"
    word.erase(0, std::min(word.find_first_not_of('('), word.size()));
    word.erase(word.find_last_not_of(",;)") + 1);
    if (!word.empty()) words.push_back(word);
  }
  return words;
}

// Words that only a terminal prints: table's note on the columns it left out, check's audit table stacked.
bool terminal_only(const std::string& word) {
  for (const char* allowed :
       {"not", "shown", "to", "fit", "columns:", "--wide", "prints", "every", "column", "!", "marks", "pairs", "out",
        "of", "range", "\\"})  // the command printer's continuation: commands are one line piped
    if (word == allowed) return true;
  return word.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

TEST_CASE("every command's text fits an 80- and a 120-column terminal, breaking lines only between words",
          "[cli][terminal]") {
  for (const std::string& arguments : std::vector<std::string>{
           kCheck, kCheck + " --engine all", "check " + kQwen3 + " --target 131072 --memory 24GiB",
           "table " + kLlama31 + " --target 262144", "table " + kLlama31 + " --target 262144 --engine all",
           "table " + kQwen3 + " --engine all --target 131072",
           "table testdata/configs/phi/phi-3-mini-128k-instruct.json --engine all",
           "inspect " + kLlama31 + " --target 131072", "inspect " + kQwen3 + " --target 131072 --kv-dtype fp8",
           "diff " + kLlama31 + " " + kQwen3 + " --target 131072", "suggest " + kLlama31 + " --target 262144",
           "fit " + kLlama31 + " --memory 24GiB --weights 15GiB"}) {
    const std::string piped = run_cli(arguments).out;
    REQUIRE_FALSE(piped.empty());
    std::set<std::string> piped_words;
    for (const auto& word : words_of(piped)) piped_words.insert(word);
    for (int columns : {80, 120}) {
      INFO(arguments << " on " << columns << " columns");
      const std::string out = on_terminal(columns, "NO_COLOR=1", arguments);
      std::istringstream lines(out);
      for (std::string line; std::getline(lines, line);) {
        INFO(line);
        // suggest prints each edit as one quoted JSON word to paste (up to 210 columns), never split: the command
        // printer puts it on a line with its option only.
        const bool json_word = arguments.rfind("suggest", 0) == 0 && line.find('\'') != std::string::npos &&
                               line.find('{') != std::string::npos;
        CHECK((display_width(line) <= columns || json_word));
      }
      for (const auto& word : words_of(out)) {  // a word broken in two would be two words the pipe never prints
        INFO(word);
        // suggest's config.json fragment is JSON, no command: it breaks after commas to fit the width it is given.
        const bool fragment_piece = arguments.rfind("suggest", 0) == 0 && (word[0] == '{' || word[0] == '"');
        CHECK((piped_words.count(word) == 1 || terminal_only(word) || fragment_piece));
      }
      CHECK(occurrences(out, "tokens") == occurrences(piped, "tokens"));
    }
  }
}

TEST_CASE("help on a narrow terminal puts each description under its option, within the width", "[cli][terminal]") {
  const std::string out = on_terminal(40, "", "help fit");
  CHECK(out.find("  --memory TEXT REQUIRED\n      SIZE (e.g. 24GiB, 80GB): one GPU's\n") != std::string::npos);
  const std::string options = out.substr(0, out.find("Examples:"));
  std::istringstream lines(options);
  for (std::string line; std::getline(lines, line);) {
    INFO(line);
    CHECK((display_width(line) <= 40 || words_of(line).size() == 1));  // only a word wider than a line passes
  }
  CHECK(widest_line(on_terminal(80, "", "help fit")) <= 80);  // 60 columns and more: descriptions in their column
  CHECK(on_terminal(80, "", "help fit").find("  --memory TEXT REQUIRED      SIZE") != std::string::npos);
}
