// The default rule set (opt-in rules run on --select / --extend-select / extend_select), and configs whose
// head_dim cannot be derived: no pair figure comes from a made-up value.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "support.hpp"

using nlohmann::json;
using ropelens::test::run_cli;
using ropelens::test::run_cli_in;
using ropelens::test::TempDir;
using ropelens::test::write_file;

namespace {

const std::string kLlama31Finetune = "testdata/configs/llama/llama-3.1-8b-instruct-bnb8bit-finetune.json";

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("CTX205 is opt-in: off by default, on with --select ALL, --select CTX205 or --extend-select") {
  const auto plain = run_cli("check " + kLlama31Finetune);
  CHECK(plain.exit_code == 0);
  CHECK(count_of(plain.out, "CTX205") == 0);
  CHECK(plain.out.find("0 findings (0 errors, 0 warnings, 0 info) in 1 file") != std::string::npos);

  for (const char* selection : {"--select ALL", "--select CTX205", "--extend-select CTX205", "--extend-select CTX2"}) {
    INFO(selection);
    const auto run = run_cli("check " + kLlama31Finetune + " " + selection);
    CHECK(count_of(run.out, "CTX205 info [low-coverage-pairs] pairs 39–63 (25 of 64)") == 1);
  }
  // --select narrows to what it names, --extend-select adds to it.
  const auto narrowed = run_cli("check " + kLlama31Finetune + " --select CFG --extend-select CTX205");
  CHECK(count_of(narrowed.out, "CTX205") == 1);
  CHECK(narrowed.out.find("1 finding (0 errors, 0 warnings, 1 info) in 1 file") != std::string::npos);
}

TEST_CASE("an unknown --extend-select code is a usage error naming the nearest rule") {
  const auto run = run_cli("check " + kLlama31Finetune + " --extend-select CTX2O5");
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("--extend-select: unknown rule code, name or prefix 'CTX2O5' (did you mean 'CTX205'?)") !=
        std::string::npos);
}

TEST_CASE(".ropelens.json extend_select adds opt-in rules, an unknown code there names the nearest") {
  TempDir dir;
  write_file(dir.file("config.json"), ropelens::test::read_file(ropelens::test::source_path(kLlama31Finetune)));
  write_file(dir.file(".ropelens.json"), R"({"extend_select": ["low-coverage-pairs"]})");
  const auto run = run_cli_in(dir.path(), "check config.json");
  CHECK(count_of(run.out, "CTX205 info") == 1);

  write_file(dir.file(".ropelens.json"), R"({"extend_select": ["CTX2O5"]})");
  const auto bad = run_cli_in(dir.path(), "check config.json");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("/extend_select/0: unknown rule code, name or prefix 'CTX2O5' (did you mean 'CTX205'?)") !=
        std::string::npos);
}

TEST_CASE("ropelens rules shows which rules are on by default") {
  const auto listing = json::parse(run_cli("rules --format json").out);
  int opt_in = 0;
  for (const auto& rule : listing["rules"]) {
    if (rule["code"] == "CTX205" || rule["code"] == "CTX203" || rule["code"] == "CTX206" || rule["code"] == "CTX208" ||
        rule["code"] == "ROPE107")
      CHECK(rule["on_by_default"] == false);
    else CHECK(rule["on_by_default"] == true);
    opt_in += rule["on_by_default"] == false ? 1 : 0;
  }
  CHECK(opt_in == 5);
  const auto text = run_cli("rules").out;
  CHECK(text.find("CTX205   info    opt-in  low-coverage-pairs") != std::string::npos);
  CHECK(text.find("CTX201   error   default unseen-angles") != std::string::npos);
  CHECK(run_cli("rules --format markdown")
            .out.find("| [CTX205](#CTX205-low-coverage-pairs) | low-coverage-pairs | "
                      "info | opt-in |") != std::string::npos);
}

TEST_CASE("without a derivable head_dim no pair figure is reported: the audit says what is missing") {
  TempDir dir;
  for (const char* config : {R"({"model_type": "llama"})", R"({"rope_theta": NaN})"}) {
    INFO(config);
    write_file(dir.file("config.json"), config);
    for (const char* target : {"", " --target 100000"}) {
      INFO(target);
      const auto run = run_cli_in(dir.path(), std::string("check config.json --select ALL") + target);
      CHECK(count_of(run.out, "CFG003 error") == 1);
      CHECK(count_of(run.out, "CTX205") == 0);
      CHECK(count_of(run.out, "CTX201") == 0);
      CHECK(count_of(run.out, "ROPE103") == 0);
      CHECK(count_of(run.out, "ENG302") == 0);
      CHECK(count_of(run.out, "pairs ") == 0);
      CHECK(run.out.find("audit of config.json not computed: head_dim: no head_dim, and no hidden_size with "
                         "num_attention_heads") != std::string::npos);
    }
    const auto as_json = json::parse(run_cli_in(dir.path(), "check config.json --format json --target 100000").out);
    const auto& setup = as_json["files"][0]["audit"]["setups"][0];
    CHECK(setup["missing"] == "head_dim: no head_dim, and no hidden_size with num_attention_heads");
    CHECK(setup["out_of_range_pairs"].empty());

    const auto table = run_cli_in(dir.path(), "table config.json");
    CHECK(table.exit_code == 2);
    CHECK(table.out.empty());
    CHECK(table.err.find("config.json: no RoPE table: head_dim: no head_dim") != std::string::npos);
  }
}

// Found by the fuzz campaigns (testdata/fuzz/regressions/): settings whose frequencies are undefined, where
// transformers itself computes NaN, get no pair figure and no engine comparison built on NaN.
TEST_CASE("a zero factor, or YaRN over rope_theta 1, leaves the frequencies undefined: the audit says why") {
  TempDir dir;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
           "rope_scaling": {"rope_type": "yarn", "factor": 0.0,
           "original_max_position_embeddings": 4096}})",
       "factor: 0 at /rope_scaling/factor is not positive, so the scaled frequencies are undefined"},
      {R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 1.0,
           "rope_scaling": {"rope_type": "yarn", "factor": 4.0,
           "original_max_position_embeddings": 4096}})",
       "frequencies: yarn with rope_theta 1 gives frequencies that are not finite numbers"}};
  for (const auto& [config, missing] : cases) {
    INFO(config);
    write_file(dir.file("config.json"), config);
    const auto run = run_cli_in(dir.path(), "check config.json --select ALL --engine all --target 65536");
    CHECK(run.out.find("audit of config.json not computed: " + missing) != std::string::npos);
    CHECK(count_of(run.out, "CTX201") == 0);
    CHECK(count_of(run.out, "ENG302") == 0);
    CHECK(count_of(run.out, "nan") == 0);
    CHECK(run_cli_in(dir.path(), "table config.json --engine all").err.find("no RoPE table: " + missing) !=
          std::string::npos);
  }
  write_file(dir.file("config.json"), cases.front().first);
  CHECK(count_of(run_cli_in(dir.path(), "check config.json").out, "factor 0 is below 1") == 0);
}

TEST_CASE("a head_dim derived above the limit is refused, not used to size the pair tables") {
  TempDir dir;
  write_file(dir.file("config.json"), R"({"model_type": "llama", "hidden_size": 81812, "num_attention_heads": 1})");
  const auto run = run_cli_in(dir.path(), "check config.json");
  CHECK(run.out.find("head_dim (hidden_size // num_attention_heads) 81812 is implausibly large (limit 2048)") !=
        std::string::npos);
  CHECK(run.out.find("audit of config.json not computed: head_dim") != std::string::npos);
  CHECK(
      run.out.find("cannot derive head_dim: hidden_size // num_attention_heads gives 81812, above the maximum 2048") !=
      std::string::npos);
  CHECK(run.out.find("no hidden_size with num_attention_heads") == std::string::npos);
}

TEST_CASE("the text output ends with one summary line, the audit table only when a pair is out of range") {
  const auto in_range = run_cli("check " + kLlama31Finetune);
  CHECK(count_of(in_range.out, "audit of") == 0);
  CHECK(count_of(in_range.out, " in 1 file") == 1);
  CHECK(in_range.out.substr(in_range.out.rfind('\n', in_range.out.size() - 2) + 1) ==
        "0 findings (0 errors, 0 warnings, 0 info) in 1 file\n");

  const auto beyond = run_cli("check " + kLlama31Finetune + " --target 1M");
  CHECK(count_of(beyond.out, "audit of " + kLlama31Finetune + " at 1048576 tokens (pairs out of range):") == 1);
  CHECK(count_of(beyond.out, " in 1 file") == 1);
  CHECK(beyond.out.back() == '\n');
  CHECK(beyond.out.substr(beyond.out.rfind('\n', beyond.out.size() - 2) + 1).find(" in 1 file\n") != std::string::npos);
}
