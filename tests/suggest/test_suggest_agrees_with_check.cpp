// One story: what suggest calls verified, check passes. Every suggestion for every published config at 2×,
// 4× and 8× its declared length is run through check's own code path with the suggestion's edits (what
// `check --set …` runs) at the default rules and --fail-on, and the printed commands are run as printed.
#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "ropelens/check/check.hpp"
#include "ropelens/suggest/suggest.hpp"
#include "support.hpp"

using namespace ropelens;
using ropelens::test::binary;
using ropelens::test::run_cli;
using ropelens::test::run_shell;
using ropelens::test::source_path;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> published_configs() {
  std::vector<std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(source_path("testdata/configs"))) {
    const std::string path = entry.path().string();
    if (entry.path().extension() == ".json" && path.find("/synthetic/") == std::string::npos) out.push_back(path);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// What `ropelens check PATH --target T --set …` counts, with no settings file and no options.
CheckCounts check_counts(const std::string& path, const Suggestion& suggestion, std::int64_t target) {
  CheckOptions options;
  options.target_tokens = target;
  CheckCounts counts;
  counts.add(check_model(load_model(path, suggestion.edits), options));
  return counts;
}

// The commands of a text report, each joined from its backslash-continued lines, by their first word.
std::vector<std::string> printed_commands(const std::string& text, const std::string& program) {
  std::vector<std::string> commands;
  std::istringstream lines(text);
  std::string line;
  std::string current;
  bool continuing = false;
  while (std::getline(lines, line)) {
    const auto first = line.find_first_not_of(' ');
    if (first == std::string::npos) continue;
    const std::string content = line.substr(first);
    if (!continuing && !current.empty()) {
      commands.push_back(current);
      current.clear();
    }
    if (!continuing && content.rfind(program + " ", 0) != 0) {
      if (!current.empty()) commands.push_back(current);
      current.clear();
      continue;
    }
    current += (current.empty() ? "" : "\n") + line;
    continuing =
        !content.empty() && (content.back() == '\\' || std::count(current.begin(), current.end(), '\'') % 2 == 1);
  }
  if (!current.empty()) commands.push_back(current);
  return commands;
}

}  // namespace

TEST_CASE("every suggestion suggest calls verified passes check at the default rules and --fail-on", "[suggest]") {
  int suggestions = 0;
  int verified = 0;
  for (const auto& path : published_configs()) {
    const Model model = load_model(path).model;
    if (model.setups.empty()) continue;
    for (int multiple : {2, 4, 8}) {
      SuggestRequest request;
      request.target_tokens = model.max_position_embeddings.value * multiple;
      const SuggestReport report = suggest_changes(path, request);
      for (const Suggestion& s : report.suggestions) {
        const CheckCounts counts = check_counts(path, s, request.target_tokens);
        INFO(path << " at " << request.target_tokens << ": " << to_string(s.method) << "\n" << s.check_command);
        const bool exits_zero = counts.unreadable_files == 0 && counts.errors == 0 && counts.warnings == 0;
        if (s.verified) CHECK(exits_zero);
        CHECK(s.verified == (exits_zero && s.still_out_of_range.empty()));
        // Not verified: every finding that fails it is named, and nothing else.
        CHECK(static_cast<int>(s.remaining.size()) == counts.errors + counts.warnings);
        ++suggestions;
        verified += s.verified ? 1 : 0;
      }
    }
  }
  // 3 methods for nearly every RoPE config at 3 lengths; linear is never verified (the declared length stays
  // the pre-scaling one, so CTX202, ENG301 and ROPE103 remain), YaRN and the NTK base nearly always are.
  CHECK(suggestions > 300);
  CHECK(verified >= 170);
}

TEST_CASE("the linear suggestion declares the pre-scaling length, so no engine multiplies the factor twice",
          "[suggest]") {
  const std::string qwen3 = "testdata/configs/qwen/qwen3-8b.json";
  SuggestRequest request;
  request.target_tokens = 131072;
  const SuggestReport report = suggest_changes(source_path(qwen3), request);
  const Suggestion& linear = report.suggestions.at(1);
  REQUIRE(linear.method == SuggestMethod::linear);
  CHECK(linear.config_fragment.dump() ==
        R"({"rope_scaling":{"rope_type":"linear","factor":3.2},"original_max_position_embeddings":40960})");
  CHECK_FALSE(linear.verified);
  std::vector<std::string> codes;
  for (const auto& finding : linear.remaining) codes.push_back(finding.code);
  // No double scaling (ROPE102); what remains is the declared length and llama.cpp's unscaled n_ctx_train.
  CHECK(codes == std::vector<std::string>{"CTX202", "ENG301", "ROPE103"});
  REQUIRE(linear.engine_limits.size() >= 3);
  for (const auto& [label, tokens] : linear.engine_limits)
    if (label.rfind("vLLM", 0) == 0 || label == "SGLang") CHECK(tokens == 131072);  // 40960 × 3.2, once
}

TEST_CASE("suggest's printed check commands run as printed: exit 0 when verified, 1 with the named findings",
          "[suggest][cli]") {
  for (const std::string& relative :
       {std::string("testdata/configs/qwen/qwen3-8b.json"), std::string("testdata/configs/gemma/medgemma-27b-it.json"),
        std::string("testdata/configs/llama/llama-3.1-8b-instruct-bnb8bit-finetune.json")}) {
    const auto text = run_cli("suggest " + relative + " --target 512k");
    REQUIRE(text.exit_code == 0);
    const auto document = nlohmann::json::parse(run_cli("suggest " + relative + " --target 512k --format json").out);
    const std::vector<std::string> commands = printed_commands(text.out, "ropelens check");
    REQUIRE(commands.size() == document["suggestions"].size());
    for (std::size_t i = 0; i < commands.size(); ++i) {
      const auto& suggestion = document["suggestions"][i];
      INFO(relative << "\n" << commands[i]);
      const auto run = run_shell("cd " + source_path("") + " && " + binary() +
                                 commands[i].substr(commands[i].find("ropelens") + 8) + " -q");
      CHECK(run.exit_code == (suggestion["verified"] == true ? 0 : 1));
      for (const auto& finding : suggestion["remaining"])
        CHECK(run.out.find(finding["code"].get<std::string>() + " ") != std::string::npos);
    }
  }
}

// Columns of a line without wide characters: its UTF-8 code points.
int columns(const std::string& line) {
  return static_cast<int>(std::count_if(line.begin(), line.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// A line that is one shell word, or an option and its word, which the text never splits (so that a command pastes
// as printed): "        --set '/rope_scaling={...}' \".
bool one_shell_word(const std::string& line) {
  static const std::regex word(R"re(^ *(--?[a-z-]+ )?'[^']*'( \\)?$)re");
  return std::regex_match(line, word);
}

TEST_CASE("suggest's text fits 80 columns, but for a shell word it cannot split", "[suggest][cli]") {
  for (const std::string& arguments : {std::string("testdata/configs/qwen/qwen3-8b.json --target 128k"),
                                       std::string("testdata/configs/gemma/medgemma-27b-it.json --target 512k")}) {
    const auto run = run_cli("suggest " + arguments);
    REQUIRE(run.exit_code == 0);
    std::istringstream lines(run.out);
    std::string line;
    int widest = 0;
    while (std::getline(lines, line)) {
      INFO(line);
      if (one_shell_word(line)) continue;
      CHECK(columns(line) <= 80);
      widest = std::max(widest, columns(line));
    }
    CHECK(widest > 70);  // the text uses the width it has
  }
}

TEST_CASE(
    "suggest's printed commands for a Hugging Face id name it (check commands with its short revision) and run "
    "as printed",
    "[suggest][cli][locator]") {
  ropelens::test::TempDir dir;
  const std::string commit = "9c925d64d7270123456789abcdef0123456789ab";
  const fs::path repo = fs::path(dir.file("hub")) / "models--Qwen--Qwen3-8B";
  ropelens::test::write_file((repo / "snapshots" / commit / "config.json").string(),
                             ropelens::test::read_file(source_path("testdata/configs/qwen/qwen3-8b.json")));
  ropelens::test::write_file((repo / "refs" / "main").string(), commit);
  const std::string env = "HF_HUB_CACHE='" + dir.file("hub") + "' ";
  const auto text = run_shell(env + binary() + " suggest Qwen/Qwen3-8B --target 128k");
  REQUIRE(text.exit_code == 0);
  const auto document = nlohmann::json::parse(run_shell(env + binary() +
                                                        " suggest Qwen/Qwen3-8B --target 128k "
                                                        "--format json")
                                                  .out);
  // The engine commands name the model by its id, as the servers load it from the Hub; no placeholder is left.
  CHECK(text.out.find("      vllm serve Qwen/Qwen3-8B \\\n") != std::string::npos);
  CHECK(text.out.find("      python -m sglang.launch_server --model-path Qwen/Qwen3-8B \\\n") != std::string::npos);
  CHECK(text.out.find("<model>") == std::string::npos);
  CHECK(text.out.find("MODEL ") == std::string::npos);
  const std::vector<std::string> commands = printed_commands(text.out, "ropelens check");
  REQUIRE(commands.size() == 3);
  for (std::size_t i = 0; i < commands.size(); ++i) {
    INFO(commands[i]);
    CHECK(commands[i].find("ropelens check 'Qwen/Qwen3-8B@9c925d64d727' --target 131072") != std::string::npos);
    const auto run = run_shell(env + binary() + commands[i].substr(commands[i].find("ropelens") + 8) + " -q");
    INFO(run.err);
    CHECK(run.exit_code == (document["suggestions"][i]["verified"] == true ? 0 : 1));
  }
}
