// Every failure of the command line is one line and exit 2, and says what was expected.
#include <algorithm>
#include <new>
#include <stdexcept>

#include <catch2/catch.hpp>

#include "cli/commands.hpp"
#include "render/writers/terminal_text.hpp"
#include "ropelens/input/input.hpp"
#include "support.hpp"

using Catch::Matchers::Contains;
using ropelens::test::kQwen3;
using ropelens::test::run_cli;
using ropelens::test::run_cli_in;
using ropelens::test::TempDir;
using ropelens::test::write_file;

namespace {

int lines(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

}  // namespace

TEST_CASE("every exception a command throws becomes exit 2 and one line") {
  using ropelens::cli::guarded;
  CHECK(guarded([] { return 0; }) == 0);
  CHECK(guarded([]() -> int { throw ropelens::InputError("x.json", "broken"); }) == 2);
  CHECK(guarded([]() -> int { throw std::invalid_argument("bad value"); }) == 2);
  CHECK(guarded([]() -> int { throw std::bad_alloc(); }) == 2);
  CHECK(guarded([]() -> int { throw std::runtime_error("boom"); }) == 2);
  CHECK(guarded([]() -> int { throw std::out_of_range("index"); }) == 2);
  CHECK(guarded([]() -> int { throw 42; }) == 2);
}

TEST_CASE("a mistyped rule selector is a usage error with the nearest code") {
  auto r = run_cli("check " + kQwen3 + " --select CTX2O1");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("--select: unknown rule code, name or prefix 'CTX2O1' (did you mean 'CTX201'?)"));
  CHECK(lines(r.err) == 1);
  CHECK(run_cli("check " + kQwen3 + " --ignore unseen-angels").err.find("did you mean 'unseen-angles'") !=
        std::string::npos);
  CHECK(run_cli("check " + kQwen3 + " --severity CTX20=info").exit_code == 0);  // a prefix is a selector
  CHECK(run_cli("check " + kQwen3 + " --severity XYZ9=info").exit_code == 2);
  CHECK(run_cli("check " + kQwen3 + " --select ALL --exit-zero").exit_code == 0);
}

TEST_CASE(".ropelens.json: an unknown key or rule selector is an error naming the file and the key") {
  TempDir dir;
  write_file(dir.file(".ropelens.json"), R"({"targte": 131072})");
  auto r = run_cli_in(dir.path(), "check " + ropelens::test::source_path(kQwen3));
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains(".ropelens.json: /targte: unknown setting (did you mean 'target'?)"));

  write_file(dir.file(".ropelens.json"), R"({"ignore": ["CTX205", "CTX2O6"]})");
  r = run_cli_in(dir.path(), "check " + ropelens::test::source_path(kQwen3));
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("/ignore/1: unknown rule code, name or prefix 'CTX2O6' (did you mean 'CTX206'?)"));

  write_file(dir.file(".ropelens.json"), R"({"target": "128k", "select": ["CTX202"]})");
  r = run_cli_in(dir.path(), "check " + ropelens::test::source_path(kQwen3) + " --format json");
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Contains("\"target\": 131072"));

  // A memory budget turns CTX210 on: Qwen3-8B's bf16 KV cache at 131072 tokens is 18 GiB.
  write_file(dir.file(".ropelens.json"), R"({"target": "128k", "memory": "16GiB", "select": ["CTX210"]})");
  r = run_cli_in(dir.path(), "check " + ropelens::test::source_path(kQwen3));
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Contains("KV cache 18.00 GiB at 131072 tokens (bf16) alone exceeds the memory budget 16.00 GiB"));
  // Over two GPUs each holds at least half of it, which fits: what is left for the weights is a warning.
  r = run_cli_in(dir.path(), "check " + ropelens::test::source_path(kQwen3) + " --tp 2");
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Contains("KV cache 18.00 GiB at 131072 tokens (bf16), at least 9.00 GiB per GPU over --tp 2 alone "
                             "leaves 7.00 GiB of the memory budget 16.00 GiB for the weights"));
  // Within the budget the unknown weights are still a warning: what the KV cache alone leaves is all it says.
  r = run_cli_in(dir.path(), "check " + ropelens::test::source_path(kQwen3) + " --memory 40GiB");
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Contains("the weights' size is unknown") && Contains("alone leaves 22.00 GiB of the memory "
                                                                         "budget 40.00 GiB for the weights"));
  r = run_cli_in(dir.path(), "check " + ropelens::test::source_path(kQwen3) + " --memory 40GiB --fail-on error");
  CHECK(r.exit_code == 0);

  write_file(dir.file(".ropelens.json"), R"({"memory": "lots"})");
  r = run_cli_in(dir.path(), "check " + ropelens::test::source_path(kQwen3));
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains(".ropelens.json: /memory:"));
}

TEST_CASE("lengths take 128k, 1M and 1.5M, and a word says 'not a number'") {
  auto r = run_cli("check " + kQwen3 + " --target abc");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("--target: 'abc' is not a number: expected a token count such as 131072, 128k or 1.5M"));
  r = run_cli("check " + kQwen3 + " --target 0");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("--target: '0' is out of range: expected 1 to"));
  r = run_cli("check " + kQwen3 + " --target -128k");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("--target: '-128k' is out of range"));
  r = run_cli("check " + kQwen3 + " --target 1.1k");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("--target: '1.1k' is 1126.4 tokens: a length is a whole number of tokens"));
  CHECK(run_cli("check " + kQwen3 + " --target 128k --select CTX201 --format json").out.find("\"target\": 131072") !=
        std::string::npos);
  CHECK(run_cli("check " + kQwen3 + " --target 1.5M --select CTX201 --format json").out.find("\"target\": 1572864") !=
        std::string::npos);
  CHECK(run_cli("table " + kQwen3 + " --target 1M --pairs 63 --format json").out.find("\"target_tokens\": 1048576") !=
        std::string::npos);
}

TEST_CASE("memory budgets take decimal sizes, and zero or negative ones are usage errors naming --memory") {
  const auto budget_check = [](const std::string& memory) {
    return run_cli("check " + kQwen3 + " --target 128k --select CTX210 --memory " + memory + " --format json");
  };
  // No weights beside this config: the KV cache alone (18 GiB at 131072 tokens) fits, and the finding says what is
  // left for the weights.
  auto r = budget_check("32.5GiB");
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("leaves 14.50 GiB of the memory budget 32.50 GiB") != std::string::npos);
  CHECK(budget_check("24GB").out.find("of the memory budget 22.35 GiB") != std::string::npos);
  CHECK(budget_check("1.5GB").out.find("exceeds the memory budget 1.40 GiB") != std::string::npos);
  for (const std::string bad : {"0B", "0GiB", "-1GiB", "-0.5GB"}) {
    r = budget_check(bad);
    INFO(bad);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("ropelens: error: --memory: '" + bad + "': expected a size above zero such as 80GiB"));
    CHECK(lines(r.err) == 1);
  }
  // A number without a unit is refused, with the unit it most likely lacks.
  r = budget_check("24");
  CHECK(r.exit_code == 2);
  CHECK(r.err == "ropelens: error: --memory: '24' has no unit: write 24GiB\n");
  r = run_cli("fit " + kQwen3 + " --memory 24 --weights 16GB");
  CHECK(r.exit_code == 2);
  CHECK(r.err == "ropelens: error: --memory: '24' has no unit: write 24GiB\n");
}

TEST_CASE("an unknown option, choice or rule names the nearest one") {
  auto r = run_cli("check --taget 128k " + kQwen3);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("unknown option '--taget' (did you mean '--target'?)"));
  CHECK(lines(r.err) == 1);
  CHECK_THAT(run_cli("check " + kQwen3 + " --fail-on=warnign").err,
             Contains("--fail-on: 'warnign' is not one of error, warning, info (did you mean 'warning'?)"));
  CHECK_THAT(run_cli("table " + kQwen3 + " --wdie").err, Contains("unknown option '--wdie' (did you mean '--wide'?)"));
  CHECK_THAT(run_cli("check " + kQwen3 + " --verbsoe").err, Contains("(did you mean '--verbose'?)"));  // a global one
  r = run_cli("check " + kQwen3 + " --format sarf");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("--format: 'sarf' is not one of text, json, sarif, github (did you mean 'sarif'?)"));
  CHECK_THAT(run_cli("table " + kQwen3 + " --engine vlln").err, Contains("(did you mean 'vllm'?)"));
  r = run_cli("explain CTX2O1");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("no rule 'CTX2O1' (did you mean 'CTX201'?)"));
  CHECK_THAT(run_cli("explain unseen-angels").err, Contains("(did you mean 'unseen-angles'?)"));
  CHECK(run_cli("explain unseen-angles").exit_code == 0);
  CHECK_THAT(run_cli("check " + kQwen3 + " --select CTX201,CTX2O2").err,
             Contains("--select: unknown rule code, name or prefix 'CTX2O2' (did you mean 'CTX202'?)"));
}

TEST_CASE("every enumerated value names the nearest valid one, whichever command and option takes it") {
  auto r = run_cli("check " + kQwen3 + " --fail-on warn");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("--fail-on: 'warn' is not one of error, warning, info (did you mean 'warning'?)"));
  CHECK(lines(r.err) == 1);
  r = run_cli("fit " + kQwen3 + " --memory 24GiB --weights 16GiB --kv-dtype bf16,fp9");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("'fp9' is not one of bf16, f16, f32, fp8, q8_0, q4_0 (did you mean 'fp8'?)"));
  r = run_cli("fit " + kQwen3 + " --kv-dtype fp9");  // the wrong value first, not that --memory is missing
  CHECK(r.exit_code == 2);
  CHECK(r.err ==
        "ropelens: error: --kv-dtype: 'fp9' is not one of bf16, f16, f32, fp8, q8_0, q4_0 (did you mean "
        "'fp8'?)\n");
  r = run_cli("check " + kQwen3 + " --severity CTX201=eror");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err,
             Contains("--severity CTX201=eror: 'eror' is not one of error, warning, info (did you mean 'error'?)"));
  CHECK(lines(r.err) == 1);
  CHECK_THAT(run_cli("table " + kQwen3 + " --kv-dtype BF16").err, Contains("(did you mean 'bf16'?)"));
  CHECK_THAT(run_cli("check " + kQwen3 + " --color alwys").err, Contains("(did you mean 'always'?)"));
  CHECK_THAT(run_cli("check " + kQwen3 + " --log-level debg").err, Contains("(did you mean 'debug'?)"));
  CHECK_THAT(run_cli("diff " + kQwen3 + " " + kQwen3 + " --fail-on err").err, Contains("(did you mean 'error'?)"));
}

TEST_CASE("a path that names a file which is not there says so, not that a model id is missing from the caches") {
  for (const char* missing : {"nonexist.json", "models/nonexist.gguf", "/nonexistent/x", "no/such/config.json"}) {
    const auto r = run_cli(std::string("check ") + missing);
    CHECK(r.exit_code == 2);
    CHECK(r.err == "ropelens: error: " + std::string(missing) + ": no such file\n");
    CHECK(r.err.find("cache") == std::string::npos);
    CHECK(r.err.find("models--") == std::string::npos);
  }
}

TEST_CASE("help: `help COMMAND` and `COMMAND --help` print the same text, the program name in its usage line") {
  for (const char* command : {"check", "fit", "suggest", "table", "rules"}) {
    const auto by_help = run_cli(std::string("help ") + command);
    const auto by_flag = run_cli(std::string(command) + " --help");
    CHECK(by_help.exit_code == 0);
    CHECK(by_help.out == by_flag.out);
    CHECK_THAT(by_help.out, Contains(std::string("Usage: ropelens ") + command + " "));
  }
}

TEST_CASE("help and rules, piped, fit 80 columns") {
  for (const char* arguments : {"help", "help check", "help fit", "help suggest", "help report", "rules"}) {
    const auto r = run_cli(arguments);
    CHECK(r.exit_code == 0);
    std::size_t start = 0;
    while (start < r.out.size()) {
      const std::size_t end = std::min(r.out.find('\n', start), r.out.size());
      const std::string line = r.out.substr(start, end - start);
      INFO(arguments << ": " << line);
      // Only a quoted word wider than a line (an example's JSON) may pass 80 columns.
      CHECK((ropelens::render_detail::display_width(line) <= 80 || line.find('\'') != std::string::npos));
      start = end + 1;
    }
  }
}

TEST_CASE("table: pairs outside the model's pairs are an error, not an empty table") {
  auto r = run_cli("table " + kQwen3 + " --pairs 70");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("pair 70 does not exist; the model's pairs are 0–63"));
  CHECK(run_cli("table " + kQwen3 + " --pairs 63").exit_code == 0);
}

TEST_CASE("commands: a typo gets the nearest command, help works as a command, no command prints the usage") {
  auto r = run_cli("chek " + kQwen3);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("unknown command 'chek' (did you mean 'check'?)"));
  r = run_cli("help check");
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("--fail-on"));
  CHECK(run_cli("help").out.find("Subcommands:") != std::string::npos);
  CHECK(run_cli("help chek").err.find("did you mean 'check'?") != std::string::npos);
  r = run_cli("");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("Subcommands:"));
}

TEST_CASE("error messages never carry raw control characters to the terminal") {
  TempDir dir;
  const std::string name = dir.file("bad\x1b]0;x\x07.json");
  write_file(name, "{not json");
  auto r = run_cli("check '" + name + "'");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find('\x1b') == std::string::npos);
  CHECK(r.err.find('\x07') == std::string::npos);
  CHECK_THAT(r.err, Contains("bad\\u001b]0;x\\u0007.json"));
}
