// One story: what suggest calls verified, check passes. Every suggestion for every published config at 2×,
// 4× and 8× its declared length is run through check with the suggestion's edits (what `check --set …`
// runs), and the two must agree.
#include <filesystem>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "ropelens/check/check.hpp"
#include "ropelens/suggest/suggest.hpp"
#include "support.hpp"

using namespace ropelens;
using ropelens::test::run_cli;
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

bool check_passes(const FileResult& checked) {
  for (const Diagnostic& d : checked.diagnostics)
    if (d.severity == Severity::error || d.code == "CTX201" || d.code == "CTX202") return false;
  return true;
}

std::string set_flags(const Suggestion& suggestion) {
  std::string flags;
  for (const auto& edit : suggestion.edits) flags += " --set '" + edit.pointer + "=" + edit.value.dump() + "'";
  return flags;
}

}  // namespace

TEST_CASE("suggest calls a change verified exactly when check of the edited config passes") {
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
        CheckOptions options;
        options.target_tokens = request.target_tokens;
        const FileResult checked = check_model(load_model(path, s.edits), options);
        INFO(path << " at " << request.target_tokens << ": " << to_string(s.method) << "\n" << s.check_command);
        CHECK(s.verified == check_passes(checked));
        CHECK(s.not_verified_because.empty() == s.verified);
        ++suggestions;
        verified += s.verified ? 1 : 0;
      }
    }
  }
  // Nearly every RoPE model can be extended by some change; a handful cannot be verified (a config error).
  CHECK(suggestions > 300);
  CHECK(verified > suggestions * 9 / 10);
}

TEST_CASE("suggest's check command, run as a user would, passes for a verified change and fails otherwise") {
  const std::string qwen3 = "testdata/configs/qwen/qwen3-8b.json";
  SuggestRequest request;
  request.target_tokens = 131072;
  const SuggestReport report = suggest_changes(source_path(qwen3), request);
  REQUIRE(report.suggestions.size() == 3);
  for (const Suggestion& s : report.suggestions) {
    INFO(s.check_command);
    REQUIRE(s.verified);
    const auto run = run_cli("check " + qwen3 + " --target 131072 --format json" + set_flags(s));
    const auto document = nlohmann::json::parse(run.out);
    // The edit changes what runs, not how the model was trained: Qwen3-8B's 40960 tokens stay L_P.
    const auto& audit = document["files"][0]["audit"];
    CHECK(audit["training_history"]["before_edits"] == true);
    CHECK(audit["training_history"]["source"] == qwen3);
    for (const auto& setup : audit["setups"]) CHECK(setup["pretrain_tokens"] == 40960);
    for (const auto& d : document["files"][0]["diagnostics"]) {
      CHECK(d["severity"] != "error");
      CHECK(d["code"] != "CTX201");
      CHECK(d["code"] != "CTX202");
    }
  }
  // The config as it is fails at the same target: the test can tell the two apart.
  const auto unedited = run_cli("check " + qwen3 + " --target 131072");
  CHECK(unedited.exit_code == 1);
  CHECK(unedited.out.find("before its --set edits") == std::string::npos);
  const auto edited = run_cli("check " + qwen3 + " --target 131072 --set '/rope_theta=2000000'");
  CHECK(edited.out.find("trained lengths read from " + qwen3 + " as written, before its --set edits") !=
        std::string::npos);
}
