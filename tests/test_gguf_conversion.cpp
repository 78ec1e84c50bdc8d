// A GGUF file checked against the config it was converted from (GGUF005-GGUF008): beside its config.json in a folder,
// or named with --source; the findings name the GGUF key and the config key.
#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "gguf_writer.hpp"
#include "ropelens/check/check.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/normalize/normalize.hpp"
#include "ropelens/engines/gguf_conversion_audit.hpp"
#include "support.hpp"

using ropelens::CheckOptions;
using ropelens::ConversionAspect;
using ropelens::Diagnostic;
using ropelens::test::GgufWriter;
using ropelens::test::qwen3_yarn4_fixture;
using ropelens::test::read_file;
using ropelens::test::run_cli;
using ropelens::test::source_path;
using ropelens::test::TempDir;
using ropelens::test::write_file;

namespace {

// testdata/configs/qwen/qwen3-8b.json with the YaRN ×4 dict Qwen's model card gives for 131072 tokens.
std::string qwen3_yarn4_config() {
  auto config = nlohmann::json::parse(read_file(source_path("testdata/configs/qwen/qwen3-8b.json")));
  config["rope_scaling"] = {{"rope_type", "yarn"}, {"factor", 4.0}, {"original_max_position_embeddings", 32768}};
  return config.dump(2) + "\n";
}

// A model folder: config.json and model.gguf.
std::string folder(const TempDir& dir, const std::string& name, const GgufWriter& gguf,
                   const std::string& config = qwen3_yarn4_config()) {
  std::filesystem::create_directories(dir.file(name));
  write_file(dir.file(name + "/config.json"), config);
  gguf.write(dir.file(name + "/model.gguf"));
  return dir.file(name);
}

std::vector<Diagnostic> conversion_findings(const std::string& path, std::optional<std::string> source = {}) {
  CheckOptions options;
  options.selection.select = {"GGUF005", "GGUF006", "GGUF007", "GGUF008"};
  options.source = std::move(source);
  std::vector<Diagnostic> out;
  for (const auto& file : ropelens::check_paths({path}, options).files) {
    INFO(file.path << (file.error ? ": " + *file.error : ""));
    REQUIRE_FALSE(file.error);
    out.insert(out.end(), file.diagnostics.begin(), file.diagnostics.end());
  }
  return out;
}

}  // namespace

TEST_CASE("conversion: the faithful GGUF of a Qwen3 YaRN x4 config holds what the converter writes",
          "[gguf][conversion]") {
  TempDir dir;
  const std::string path = folder(dir, "faithful", qwen3_yarn4_fixture());
  CHECK(conversion_findings(path + "/model.gguf").empty());
  CHECK(conversion_findings(path).empty());  // the folder: both files, the GGUF checked against the config
}

TEST_CASE("conversion: a GGUF that lost its rope.scaling keys gets GGUF005 naming each key and the config key",
          "[gguf][conversion]") {
  TempDir dir;
  const std::string path = folder(dir, "lossy", qwen3_yarn4_fixture(false));
  const auto found = conversion_findings(path + "/model.gguf");
  REQUIRE(found.size() == 1);
  CHECK(found[0].code == "GGUF005");
  CHECK(found[0].severity == ropelens::Severity::error);
  CHECK(found[0].where.pointer == "gguf:qwen3.rope.scaling.type");
  CHECK(found[0].message ==
        "qwen3.rope.scaling.type is absent (none); convert_hf_to_gguf.py writes yarn for /rope_scaling/rope_type of " +
            path + "/config.json: llama.cpp runs plain RoPE with base 1000000 instead of the config's yarn ×4");
  CHECK(found[0].facts["config_key"] == "/rope_scaling/rope_type");
  REQUIRE(found[0].related.size() == 1);
  CHECK(found[0].related[0].pointer == "/rope_scaling/rope_type");

  // The same with --source naming the config, from anywhere.
  TempDir elsewhere;
  qwen3_yarn4_fixture(false).write(elsewhere.file("model.gguf"));
  const auto named = conversion_findings(elsewhere.file("model.gguf"), path + "/config.json");
  REQUIRE(named.size() == 1);
  CHECK(named[0].code == "GGUF005");
  CHECK(conversion_findings(elsewhere.file("model.gguf")).empty());  // no config beside it, no --source: no audit
}

TEST_CASE(
    "conversion: check exits 1 on the lossy GGUF, beside its config or with --source, and the faithful one "
    "does not get that finding",
    "[gguf][conversion][cli]") {
  TempDir dir;
  const std::string lossy = folder(dir, "lossy", qwen3_yarn4_fixture(false));
  const std::string faithful = folder(dir, "faithful", qwen3_yarn4_fixture());
  // GGUF003 also fires on both: the converter writes Qwen3's context_length 40960 beside factor 4 × 32768.
  const std::string conversion_rules = " --select GGUF005,GGUF006,GGUF007,GGUF008";
  const auto beside = run_cli("check " + lossy + "/model.gguf" + conversion_rules);
  CHECK(beside.exit_code == 1);
  CHECK(beside.out.find("GGUF005 error [conversion-changed-scaling] qwen3.rope.scaling.type is absent") !=
        std::string::npos);
  const auto folder_run = run_cli("check " + lossy + conversion_rules);  // the folder: config.json and model.gguf
  CHECK(folder_run.exit_code == 1);
  CHECK(folder_run.out.find("model.gguf: GGUF005 error") != std::string::npos);
  CHECK(folder_run.out.find("in 2 files") != std::string::npos);
  const auto clean = run_cli("check " + faithful + "/model.gguf" + conversion_rules);
  CHECK(clean.exit_code == 0);
  CHECK(clean.out.find("GGUF005") == std::string::npos);
  TempDir elsewhere;
  qwen3_yarn4_fixture(false).write(elsewhere.file("model.gguf"));
  const auto named = run_cli("check " + elsewhere.file("model.gguf") + " --source " + faithful + "/config.json");
  CHECK(named.exit_code == 1);
  CHECK(named.out.find("GGUF005") != std::string::npos);
  // --source names a GGUF's source: on a config.json it is an error naming the file.
  const auto misused = run_cli("check " + faithful + "/config.json --source " + faithful + "/config.json");
  CHECK(misused.exit_code == 2);
  CHECK(misused.err.find("--source names the config a GGUF file was converted from") != std::string::npos);
}

TEST_CASE("conversion: a freq_base of 10000 under a config of 1e6 is GGUF006 naming 10000", "[gguf][conversion]") {
  TempDir dir;
  const std::string path = folder(dir, "theta", qwen3_yarn4_fixture(true, 10000.0f));
  const auto found = conversion_findings(path + "/model.gguf");
  REQUIRE(found.size() == 1);
  CHECK(found[0].code == "GGUF006");
  CHECK(found[0].where.pointer == "gguf:qwen3.rope.freq_base");
  CHECK(found[0].message ==
        "qwen3.rope.freq_base is 10000; convert_hf_to_gguf.py writes 1000000 for /rope_theta of " + path +
            "/config.json: llama.cpp rotates every layer with base 10000 where the config trained with 1000000: the "
            "slowest pair turns ×93.06 as fast");  // (1e6 / 1e4)^(126/128), the slowest of 64 pairs
  CHECK(found[0].facts["found"] == "10000");
}

TEST_CASE("conversion: context length, factor, original length and yarn_ext_factor each name their key",
          "[gguf][conversion]") {
  TempDir dir;
  GgufWriter changed = qwen3_yarn4_fixture(false, 1000000.0f, 131072);
  changed.str("qwen3.rope.scaling.type", "yarn")
      .f32("qwen3.rope.scaling.factor", 8.0f)
      .f32("qwen3.rope.scaling.yarn_ext_factor", 64.0f);  // ik_llama.cpp #2003 wrote the factor here
  const std::string path = folder(dir, "changed", changed);
  const ropelens::LoadedModel gguf = ropelens::load_model(path + "/model.gguf");
  const ropelens::LoadedModel config = ropelens::load_model(path + "/config.json");
  const auto audit = ropelens::audit_conversion(config.model, gguf.model);
  std::vector<std::string> keys;
  for (const auto& d : audit.differences) keys.push_back(d.gguf_key + " " + d.written + " -> " + d.found);
  CHECK(keys == std::vector<std::string>{
                    "qwen3.context_length 40960 -> 131072",
                    "qwen3.rope.scaling.factor 4 -> 8",
                    "qwen3.rope.scaling.original_context_length 32768 -> absent (llama.cpp uses context_length 131072)",
                    "qwen3.rope.scaling.yarn_ext_factor absent (1) -> 64",
                });
  CHECK(audit.differences[0].aspect == ConversionAspect::context_length);
  CHECK(audit.differences[0].config_pointer == "/max_position_embeddings");
  CHECK(audit.differences[1].config_pointer == "/rope_scaling/factor");
  CHECK(audit.differences[2].config_pointer == "/rope_scaling/original_max_position_embeddings");
}

TEST_CASE("conversion: LongRoPE factor tensors dropped, as for a Phi rope_parameters config (llama.cpp #24820)",
          "[gguf][conversion]") {
  const auto config = ropelens::load_model(source_path("testdata/configs/phi/phi-3-mini-128k-instruct.json"));
  GgufWriter dropped = ropelens::test::llama_like("phi3", 131072, 32, 3072, 32);
  dropped.u32("phi3.attention.head_count_kv", 32)
      .u32("phi3.rope.dimension_count", 96)
      .f32("phi3.rope.freq_base", 10000.0f)
      .u32("phi3.rope.scaling.original_context_length", 4096)
      .f32("phi3.rope.scaling.attn_factor",
           static_cast<float>(std::sqrt(1.0 + std::log(131072.0 / 4096.0) / std::log(4096.0))));
  TempDir dir;
  dropped.write(dir.file("model.gguf"));
  const auto gguf = ropelens::load_model(dir.file("model.gguf"));
  const auto audit = ropelens::audit_conversion(config.model, gguf.model);
  REQUIRE(audit.differences.size() == 2);
  CHECK(audit.differences[0].gguf_key == "rope_factors_long.weight");
  CHECK(audit.differences[0].written == "f32[48]");
  CHECK(audit.differences[0].found == "absent");
  CHECK(audit.differences[0].config_pointer == "/rope_scaling/long_factor");
  CHECK(audit.differences[1].gguf_key == "rope_factors_short.weight");
}

TEST_CASE("conversion: SmolLM3's NoPE layers survive only where llama.cpp hard-codes them (GGUF008)",
          "[gguf][conversion]") {
  const auto config = ropelens::load_model(source_path("testdata/configs/smollm/smollm3-3b.json"));
  const auto layers = config.model.num_layers.value;
  auto smollm3 = ropelens::test::llama_like("smollm3", 65536, static_cast<std::uint32_t>(layers), 2048, 16);
  smollm3.u32("smollm3.attention.head_count_kv", 4).f32("smollm3.rope.freq_base", 5000000.0f);
  auto as_llama = ropelens::test::llama_like("llama", 65536, static_cast<std::uint32_t>(layers), 2048, 16);
  as_llama.u32("llama.attention.head_count_kv", 4).f32("llama.rope.freq_base", 5000000.0f);
  TempDir dir;
  smollm3.write(dir.file("smollm3.gguf"));
  as_llama.write(dir.file("llama.gguf"));
  const auto kept = ropelens::audit_conversion(config.model, ropelens::load_model(dir.file("smollm3.gguf")).model);
  CHECK(kept.differences.empty());
  const auto lost = ropelens::audit_conversion(config.model, ropelens::load_model(dir.file("llama.gguf")).model);
  REQUIRE(lost.differences.size() == 1);
  CHECK(lost.differences[0].aspect == ConversionAspect::layout);
  CHECK(lost.differences[0].config_pointer == "/no_rope_layers");
  CHECK(lost.differences[0].consequence == "llama.cpp rotates all 36 layers, 9 of them trained without positions");
}
