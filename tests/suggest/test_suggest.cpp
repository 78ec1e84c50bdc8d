// suggest: the change per method, its verification by a second audit, and Qwen's own recipe for Qwen3-8B.
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "ropelens/engines/deployment.hpp"
#include "ropelens/engines/stack.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/suggest/suggest.hpp"
#include "support.hpp"

using namespace ropelens;
using nlohmann::json;
using ropelens::test::kQwen3;
using ropelens::test::run_cli;
using ropelens::test::source_path;

namespace {

SuggestReport suggest(const std::string& relative, std::int64_t target, std::optional<std::int64_t> original = {},
                      const std::vector<std::string>& stack = {}) {
  SuggestRequest request;
  request.target_tokens = target;
  request.original_tokens = original;
  if (!stack.empty()) request.deployment = resolve_deployment(parse_stack(stack, "--stack"), "--stack");
  return suggest_changes(source_path(relative), request);
}

const Suggestion& method(const SuggestReport& report, SuggestMethod wanted) {
  for (const auto& s : report.suggestions)
    if (s.method == wanted) return s;
  FAIL("no suggestion for " << to_string(wanted));
  return report.suggestions.front();
}

// The engine's snippet whose versions say `versions` (the first of the engine's with ""): for vLLM and SGLang the
// rope_parameters form first, the rope_scaling one only under a stack that pins an older release.
const EngineSnippet& snippet(const Suggestion& s, Engine engine, const std::string& versions = "") {
  for (const auto& snip : s.snippets)
    if (snip.engine == engine && snip.versions.find(versions) != std::string::npos) return snip;
  FAIL("no snippet for " << to_string(engine));
  return s.snippets.front();
}

}  // namespace

TEST_CASE("suggest: Qwen3-8B with --original 32768 reproduces Qwen's YaRN recipe") {
  const auto report = suggest(kQwen3, 131072, 32768);
  CHECK(report.original_tokens == 32768);
  CHECK(report.original_from == "derived: --trained-length");
  CHECK(report.trained_sentence == "trained length 32768 (--trained-length)");
  CHECK_FALSE(report.out_of_range_before.empty());
  const auto& yarn = method(report, SuggestMethod::yarn);
  CHECK(yarn.value == 4.0);
  CHECK(yarn.verified);
  // The edit is complete: it declares the length it reaches (Qwen's card: 32768 × 4 = 131072), so CTX202 holds.
  CHECK(yarn.config_fragment.dump() ==
        R"({"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768},)"
        R"("max_position_embeddings":131072})");
  // A config path names no model a server can load: the commands carry a shell-safe placeholder, never <model>.
  CHECK(snippet(yarn, Engine::llama_cpp).command ==
        "llama-server -m MODEL.gguf -c 131072 --rope-scaling yarn --rope-scale 4 --yarn-orig-ctx 32768");
  // vLLM ≥ 0.12 copies rope_scaling into rope_parameters before applying --hf-overrides, so only a rope_parameters
  // override takes effect; it replaces the dict whole, so rope_theta must be in it. It is the only vLLM form printed
  // when no older release is pinned, and it names the versions it is for.
  CHECK(yarn.snippets.size() == 3);  // one per server
  const EngineSnippet& vllm = snippet(yarn, Engine::vllm);
  CHECK(vllm.versions == "≥ 0.12 (reads rope_parameters, PR #28542)");
  CHECK(vllm.command ==
        R"(vllm serve MODEL --hf-overrides '{"rope_parameters":{"rope_type":"yarn","rope_theta":1000000.0,)"
        R"("factor":4.0,"original_max_position_embeddings":32768},"max_position_embeddings":131072}' )"
        "--max-model-len 131072");
  const EngineSnippet& sglang = snippet(yarn, Engine::sglang);
  CHECK(sglang.versions == "≥ 0.5.16 (transformers v5, rope_parameters)");
  CHECK(sglang.command.find(
            R"(--json-model-override-args '{"rope_parameters":{"rope_type":"yarn","rope_theta":1000000.0)") !=
        std::string::npos);
  CHECK(sglang.command.find("--context-length 131072") != std::string::npos);
  CHECK(yarn.check_command ==
        "ropelens check '" + ropelens::shown_path(source_path(kQwen3)) +
            "' --target 131072 --trained-length 32768 --set "
            R"('/rope_scaling={"factor":4.0,"original_max_position_embeddings":32768,"rope_type":"yarn"}' )"
            "--set '/max_position_embeddings=131072'");
  // Static scaling: pairs 24-63 slowed by up to 4x at every length, magnitude 1.1386.
  CHECK(yarn.short_inputs.pairs_changed == 40);
  CHECK(yarn.short_inputs.max_ratio == Approx(4.0));
  CHECK(yarn.short_inputs.magnitude_after == Approx(1.1386).epsilon(1e-4));
}

TEST_CASE("suggest: a stack pinning vLLM 0.11 and SGLang 0.5.15 adds the rope_scaling form, named for them") {
  const auto report = suggest(kQwen3, 131072, 32768, {"vllm@0.11.0", "sglang@0.5.15"});
  const auto& yarn = method(report, SuggestMethod::yarn);
  const EngineSnippet& old_vllm = snippet(yarn, Engine::vllm, "≤ 0.11");
  CHECK(old_vllm.versions == "≤ 0.11 (reads rope_scaling)");
  CHECK(old_vllm.command ==
        "vllm serve MODEL --hf-overrides '" + yarn.config_fragment.dump() + "' --max-model-len 131072");
  CHECK(snippet(yarn, Engine::vllm, "≥ 0.12").command.find(R"({"rope_parameters":)") != std::string::npos);
  CHECK(snippet(yarn, Engine::sglang, "before 0.5.16").command.find(R"('{"rope_scaling":)") != std::string::npos);
  // Under @main the old form is not printed at all.
  const auto latest = suggest(kQwen3, 131072, 32768, {"vllm@main", "sglang@main", "llama.cpp@main"});
  for (const auto& snip : method(latest, SuggestMethod::yarn).snippets)
    CHECK(snip.command.find(R"('{"rope_scaling":)") == std::string::npos);
}

TEST_CASE("suggest: --original 32768 gives factor 2 for 65536") {
  const auto report = suggest(kQwen3, 65536, 32768);
  const auto& yarn = method(report, SuggestMethod::yarn);
  CHECK(yarn.value == 2.0);
  CHECK(yarn.verified);
  CHECK(snippet(yarn, Engine::llama_cpp).command.find("--rope-scale 2 --yarn-orig-ctx 32768") != std::string::npos);
}

TEST_CASE("suggest: without --original the declared length is the trained one") {
  const auto report = suggest(kQwen3, 131072);
  CHECK(report.original_tokens == 40960);
  CHECK(report.original_from == "/max_position_embeddings");
  REQUIRE_FALSE(report.notes.empty());
  const auto& yarn = method(report, SuggestMethod::yarn);
  CHECK(yarn.value == 4.0);  // ceil(131072 / 40960)
  CHECK(yarn.verified);
}

TEST_CASE("suggest: the NTK-aware base is verified too, linear names what remains") {
  const auto report = suggest(kQwen3, 131072, 32768);
  const auto& linear = method(report, SuggestMethod::linear);
  CHECK(linear.value == 4.0);
  CHECK_FALSE(linear.verified);
  REQUIRE_FALSE(linear.remaining.empty());
  CHECK(linear.remaining.front().code == "CTX202");
  CHECK(linear.short_inputs.pairs_changed == 64);  // every pair, pair 0 included
  const auto& ntk = method(report, SuggestMethod::ntk_base);
  CHECK(ntk.verified);
  CHECK(ntk.value > 1e6);
  REQUIRE(ntk.edits.size() == 2);
  CHECK(ntk.edits.front().pointer == "/rope_theta");
  CHECK(ntk.edits.back().pointer == "/max_position_embeddings");
  CHECK(snippet(ntk, Engine::llama_cpp).command.find("--rope-freq-base") != std::string::npos);
  // The NTK base keeps pair 0 and slows the rest at every length.
  CHECK(ntk.short_inputs.pairs_changed == 63);
}

TEST_CASE("suggest: nothing to change when every pair is in range") {
  const auto report = suggest(kQwen3, 32768);
  CHECK(report.suggestions.empty());
  REQUIRE(report.notes.size() == 1);
}

TEST_CASE("suggest: a nested v5 config edits text_config/rope_parameters and keeps rope_theta") {
  const auto report = suggest("testdata/configs/qwen/lightonocr-2-1b.json", 65536);
  const auto& yarn = method(report, SuggestMethod::yarn);
  CHECK(yarn.verified);
  REQUIRE(yarn.edits.size() == 2);
  CHECK(yarn.edits.front().pointer == "/text_config/rope_parameters");
  CHECK(yarn.edits.back().pointer == "/text_config/max_position_embeddings");
  CHECK(yarn.config_fragment["text_config"]["rope_parameters"]["rope_theta"] == 1000000.0);
  CHECK(yarn.config_fragment["text_config"]["rope_parameters"]["original_max_position_embeddings"] == 16384);
  CHECK(snippet(yarn, Engine::vllm).command.find(R"({"text_config":{"rope_parameters")") != std::string::npos);
}

TEST_CASE("suggest CLI: text and JSON") {
  auto text = run_cli("suggest " + kQwen3 + " --target 131072 --original 32768 --engine llama.cpp");
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("      llama-server -m MODEL.gguf -c 131072 --rope-scaling yarn --rope-scale 4 \\\n"
                      "        --yarn-orig-ctx 32768\n") != std::string::npos);
  CHECK(text.out.find("<model>") == std::string::npos);
  CHECK(text.out.find("vllm serve") == std::string::npos);
  CHECK(text.out.find("verified") != std::string::npos);
  auto out = run_cli("suggest " + kQwen3 + " --target 65536 --original 32768 --format json");
  CHECK(out.exit_code == 0);
  const json doc = json::parse(out.out);
  CHECK(doc["suggestions"][0]["method"] == "yarn");
  CHECK(doc["suggestions"][0]["value"] == 2.0);
  CHECK(doc["suggestions"][0]["verified"] == true);
  CHECK(run_cli("suggest " + kQwen3 + " --target 65536 --engine tgi").exit_code == 2);
  // stdin is read once, so every verification re-run works on it too.
  auto piped = run_cli("suggest - --target 65536 --original 32768 --format json",
                       ropelens::test::read_file(source_path(kQwen3)));
  CHECK(piped.exit_code == 0);
  CHECK(json::parse(piped.out)["suggestions"][0]["verified"] == true);
}

TEST_CASE("suggest: vLLM runs any scaling of an MLA model as deepseek_yarn, so no linear snippet for it") {
  const auto report = suggest("testdata/configs/deepseek/deepseek-v3.json", 2 * 163840);
  const auto& linear = method(report, SuggestMethod::linear);
  const auto& vllm = snippet(linear, Engine::vllm);
  CHECK(vllm.command.empty());
  REQUIRE(vllm.notes.size() == 1);
  CHECK(vllm.notes.front().find("deepseek_yarn") != std::string::npos);
  CHECK_FALSE(snippet(method(report, SuggestMethod::yarn), Engine::vllm).command.empty());
}

TEST_CASE("suggest: per-layer-type RoPE is overridden per layer type under transformers v5") {
  const auto report = suggest("testdata/configs/gemma/medgemma-27b-it.json", 4 * 131072);
  const auto& yarn = method(report, SuggestMethod::yarn);
  const std::string& command = snippet(yarn, Engine::vllm).command;
  const auto json_start = command.find('{');
  const auto override = json::parse(command.substr(json_start, command.rfind('}') - json_start + 1));
  INFO(command);
  const auto& params = override["text_config"]["rope_parameters"];
  CHECK(params["full_attention"]["rope_type"] == "yarn");
  CHECK(params["sliding_attention"]["rope_type"] == "default");
  CHECK(params["sliding_attention"]["rope_theta"] == 10000.0);
  CHECK(params["full_attention"]["rope_theta"] == 1000000.0);
}

TEST_CASE("suggest: Llama 3.1 at 512k raises the llama3 factor from 8 to 32 with the same original length") {
  const auto report = suggest("testdata/configs/llama/llama-3.1-8b-instruct-bnb8bit-finetune.json", 524288);
  const auto& llama3 = method(report, SuggestMethod::llama3_factor);
  CHECK(llama3.value == 32.0);
  CHECK(llama3.change == "llama3 factor 8 → 32, the same original length and bands");
  // The whole dict, since an engine's rope_scaling override replaces it.
  CHECK(llama3.config_fragment.dump() ==
        R"({"rope_scaling":{"rope_type":"llama3","factor":32.0,"low_freq_factor":1.0,"high_freq_factor":4.0,)"
        R"("original_max_position_embeddings":8192},"max_position_embeddings":524288})");
  CHECK(llama3.verified);
  CHECK(llama3.still_out_of_range.empty());
  // No runtime flag changes llama.cpp's rope_freqs: the snippet runs a file converted from the edited config.
  const auto& llama_cpp = snippet(llama3, Engine::llama_cpp);
  CHECK(llama_cpp.command == "llama-server -m MODEL.gguf -c 524288");
  REQUIRE(llama_cpp.notes.size() == 1);
  // A model without llama3 scaling gets no such suggestion.
  for (const auto& s : suggest(kQwen3, 131072).suggestions) CHECK(s.method != SuggestMethod::llama3_factor);
}

TEST_CASE("suggest snapshots: text and JSON") {
  struct Case {
    std::string snapshot;
    std::string arguments;
  };
  for (const Case& c : {Case{"qwen3-8b-131072.txt", kQwen3 + " --target 128k"},
                        Case{"qwen3-8b-131072.json", kQwen3 + " --target 128k --format json"},
                        Case{"llama-3.1-8b-524288.txt",
                             "testdata/configs/llama/llama-3.1-8b-instruct-bnb8bit-finetune.json --target 512k"}}) {
    const auto run = run_cli("suggest " + c.arguments);
    REQUIRE(run.exit_code == 0);
    CHECK(ropelens::test::compare_snapshot("testdata/snapshots/suggest/" + c.snapshot, run.out) == "");
  }
}

TEST_CASE("suggest: YaRN on a longrope model overrides with a yarn dict, not an empty longrope one") {
  // Phi-3.5-mini's model class reads longrope: a dict built from the edited model would say "longrope" with empty
  // factor lists. The override is the suggestion's own dict, with rope_theta.
  const auto report = suggest("testdata/configs/phi/phi-3.5-mini-instruct.json", 524288);
  const auto& yarn = method(report, SuggestMethod::yarn);
  for (Engine engine : {Engine::vllm, Engine::sglang}) {
    const std::string& command = snippet(yarn, engine).command;
    INFO(command);
    CHECK(command.find(R"('{"rope_parameters":{"rope_type":"yarn","rope_theta":10000.0,"factor":128.0,)"
                       R"("original_max_position_embeddings":4096},"max_position_embeddings":524288}')") !=
          std::string::npos);
    CHECK(command.find("longrope") == std::string::npos);
    CHECK(command.find("[]") == std::string::npos);
  }
}
