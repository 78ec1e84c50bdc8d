// MLX-LM, TensorRT-LLM and ExLlamaV3 views against the figures their own code gives (tools/oracle-engines3, run on
// CPU: docs/engines.md, "MLX-LM, TensorRT-LLM and ExLlamaV3"), and the version aliases that pin them.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <tuple>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "ropelens/engines/deployment.hpp"
#include "ropelens/engines/registry.hpp"
#include "model_support.hpp"
#include "support.hpp"

using namespace ropelens;
using ropelens::test::load;
using ropelens::test::qwen3_yarn4;

namespace {

const char* const kQwen3V5 = "testdata/rules/ENG306/bad-mlx-lm-qwen3-rope-parameters-only/config.json";
const char* const kLlamaV5 = "testdata/rules/ENG307/bad-mlx-lm-rope-parameters-only/config.json";

bool mentions(const std::vector<Note>& notes, const std::string& part) {
  for (const auto& note : notes)
    if (note.text().find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("engines3: ExLlamaV3 runs Qwen3's YaRN x4 on 32768 as factor 1.25") {
  const Model model = qwen3_yarn4();
  const EngineView view = engine_view(model, EngineVersion::exllamav3, 40960);
  REQUIRE(view.setups.size() == 1);
  const EngineSetupView& setup = view.setups.front();
  CHECK(setup.factor == Approx(1.25).epsilon(1e-12));
  CHECK(setup.rope_magnitude == Approx(1.0223143551314211).epsilon(1e-12));  // 0.1·ln 1.25 + 1
  // The oracle's last inverse frequency (float32 in exllamav3): 9.92750e-07.
  CHECK(setup.inv_freq.back() == Approx(9.9275e-07).epsilon(2e-5));
  CHECK(mentions(setup.notes, "max_position_embeddings 40960 / original_max_position_embeddings 32768 = 1.25"));
  CHECK(view.length.default_tokens == 40960);  // TabbyAPI: the raw max_position_embeddings
  CHECK_FALSE(view.length.limit_tokens);
  // transformers v5 runs the stated factor.
  CHECK(engine_view(model, EngineVersion::transformers_v5, 40960).setups.front().rope_magnitude ==
        Approx(1.1386294361119891).epsilon(1e-12));
}

TEST_CASE("engines3: ExLlamaV3 has no dynamic NTK") {
  const Model model = load("testdata/configs/qwen/qwen3-8b.json",
                           {{"/rope_scaling", nlohmann::json{{"rope_type", "dynamic"}, {"factor", 2.0}}}});
  const EngineView view = engine_view(model, EngineVersion::exllamav3, 40960);
  REQUIRE(view.refusal);
  CHECK(view.refusal->find("Unknown rope_type: dynamic") != std::string::npos);
}

TEST_CASE("engines3: MLX-LM cannot load a rope_parameters-only Qwen3, and loses a Llama's scaling") {
  const Model qwen3 = load(kQwen3V5);
  const EngineView mlx = engine_view(qwen3, EngineVersion::mlx_lm, 131072);
  REQUIRE(mlx.refusal);
  CHECK(mlx.refusal->find("'rope_theta'") != std::string::npos);
  CHECK(mlx.refusal->find("qwen3.py reads rope_theta and rope_scaling") != std::string::npos);
  CHECK_FALSE(mlx.length.limit_tokens);  // mlx_lm.server sets no limit

  const Model llama = load(kLlamaV5);
  const EngineView view = engine_view(llama, EngineVersion::mlx_lm, 131072);
  CHECK_FALSE(view.refusal);
  const EngineSetupView& setup = view.setups.front();
  CHECK(setup.method == RopeType::default_rope);
  CHECK(setup.factor == 1.0);
  CHECK(setup.inv_freq.back() == Approx(std::pow(10000.0, -126.0 / 128.0)).epsilon(1e-12));  // θ 10000, unscaled
  CHECK(mentions(setup.notes, "reads rope_scaling, not rope_parameters"));
}

TEST_CASE("engines3: LM Studio caps MLX-LM's context at max_position_embeddings") {
  const Model model = qwen3_yarn4();
  const EngineView view = engine_view(model, EngineVersion::mlx_lm_lmstudio, 131072);
  CHECK(view.length.limit_tokens == 40960);
  CHECK(view.length.beyond == LimitAction::warning);
  CHECK_FALSE(view.length.message.empty());
}

TEST_CASE("engines3: TensorRT-LLM reads rope_parameters from PR #10636 (θ) and #12829 (scaling)") {
  const Model qwen3 = load(kQwen3V5);
  const Model llama = load(kLlamaV5);
  // Before #10636: θ 10000, no scaling.
  const EngineSetupView old = engine_view(llama, EngineVersion::trtllm_before_10636, 131072).setups.front();
  CHECK(old.factor == 1.0);
  CHECK(old.inv_freq.back() == Approx(std::pow(10000.0, -126.0 / 128.0)).epsilon(1e-12));
  // Between: θ 500000, still no scaling.
  const EngineSetupView between = engine_view(llama, EngineVersion::trtllm_before_12829, 131072).setups.front();
  CHECK(between.factor == 1.0);
  CHECK(between.inv_freq.back() == Approx(std::pow(500000.0, -126.0 / 128.0)).epsilon(1e-12));
  // Main: llama3 ×8 as transformers computes it.
  const EngineSetupView main = engine_view(llama, EngineVersion::trtllm_current, 131072).setups.front();
  CHECK(main.factor == 8.0);
  CHECK(main.inv_freq.back() ==
        Approx(engine_view(llama, EngineVersion::transformers_v5, 131072).setups.front().inv_freq.back()));
  // Qwen3's fused QK-norm+RoPE kernel finds no YaRN in a dict, in every version.
  const EngineSetupView fused = engine_view(qwen3, EngineVersion::trtllm_current, 131072).setups.front();
  CHECK(fused.factor == 1.0);
  CHECK(fused.rope_magnitude == 1.0);
  CHECK(mentions(fused.notes, "compute_yarn_parameters"));
}

TEST_CASE("engines3: TensorRT-LLM infers max_seq_len and lowers a longer one") {
  // Linear ×4 multiplies, YaRN does not (model_engine.py _infer_max_seq_len_from_config).
  const Model linear = load("testdata/hub/llama/llama-2-7b-hf.json",
                            {{"/rope_scaling", nlohmann::json{{"type", "linear"}, {"factor", 4.0}}}});
  const EngineView view = engine_view(linear, EngineVersion::trtllm_before_10636, 32768);
  CHECK(view.length.limit_tokens == 16384);
  CHECK(view.length.beyond == LimitAction::warning);
  CHECK(view.length.message ==
        "Specified self.max_seq_len=32768 is larger than what the model can support (16384). Setting max_seq_len "
        "to 16384.");
  CHECK(engine_view(qwen3_yarn4(), EngineVersion::trtllm_current, 40960).length.limit_tokens == 40960);
}

TEST_CASE("engines3: names, version aliases and release placement") {
  CHECK(parse_engine("mlx-lm") == Engine::mlx_lm);
  CHECK(parse_engine("tensorrt-llm") == Engine::trtllm);
  CHECK(parse_engine("exl3") == Engine::exllamav3);
  CHECK(parse_engine("lmstudio") == Engine::mlx_lm);
  CHECK(parse_engine("ktransformers") == Engine::sglang);
  CHECK(parse_stack_entry("lmstudio", "--stack").version == "lmstudio");
  CHECK(parse_stack_entry("kt", "--stack").version == "ktransformers");
  CHECK_THROWS_WITH(parse_stack_entry("lmstudio@0.3", "--stack"), Catch::Contains("names mlx-lm@lmstudio"));
  CHECK(resolve_version(Engine::trtllm, "1.2.0")->version == EngineVersion::trtllm_before_10636);
  CHECK(resolve_version(Engine::trtllm, "1.3.0rc1")->version == EngineVersion::trtllm_before_12829);
  const auto newer = resolve_version(Engine::trtllm, "1.4.0");
  CHECK(newer->version == EngineVersion::trtllm_current);
  CHECK(newer->note);
  CHECK(resolve_version(Engine::mlx_lm, "0.32.0")->version == EngineVersion::mlx_lm);
  CHECK(resolve_version(Engine::exllamav3, "1.4.1")->version == EngineVersion::exllamav3);
}

TEST_CASE("engines3: KTransformers' memory share is kt run's 0.98") {
  const Deployment kt = resolve_deployment(parse_stack({"ktransformers"}, "--stack"), "--stack");
  const Model model = qwen3_yarn4();
  const MemoryShare share = engine_row(Engine::sglang).memory_share({80ULL << 30, 1, &model, &kt, std::nullopt});
  CHECK(share.fraction == 0.98);
  const Deployment plain = resolve_deployment(parse_stack({"sglang"}, "--stack"), "--stack");
  CHECK(engine_row(Engine::sglang).memory_share({80ULL << 30, 1, &model, &plain, std::nullopt}).fraction < 0.98);
}

TEST_CASE("engines3: without a stack the default stack is served, and --engine naming a new engine deploys it alone") {
  const Deployment none = resolve_deployment(Stack{}, "--stack");
  CHECK(none.served() == std::vector<Engine>{Engine::transformers, Engine::vllm, Engine::sglang, Engine::llama_cpp});
  CHECK_FALSE(none.serves(Engine::exllamav3));
  CHECK(with_engine_option(none, "all").served() == none.served());
  CHECK(with_engine_option(none, "vllm").served() == none.served());
  const Deployment exl3 = with_engine_option(none, "exllamav3");
  CHECK(exl3.served() == std::vector<Engine>{Engine::exllamav3});
  CHECK(exl3.viewed("exllamav3") == std::vector<Engine>{Engine::exllamav3});
  // A stated stack is kept: the engine outside it stays an error.
  const Deployment vllm = resolve_deployment(parse_stack({"vllm"}, "--stack"), "--stack");
  CHECK_THROWS_WITH(with_engine_option(vllm, "mlx-lm").viewed("mlx-lm"), Catch::Contains("not in the stack"));
}

namespace {

const char* const kQwen3Yarn4 = "testdata/rules/ENG307/bad-exllamav3-qwen3-yarn/config.json";

}  // namespace

TEST_CASE("engines3 cli: table --engine exllamav3 shows factor 1.25, check --stack exllamav3 reports it") {
  const auto table =
      ropelens::test::run_cli("table " + ropelens::test::source_path(kQwen3Yarn4) + " --engine exllamav3");
  CHECK(table.exit_code == 0);
  CHECK_THAT(table.out, Catch::Contains("factor              1.2500"));
  CHECK_THAT(table.out, Catch::Contains("magnitude           1.0223"));
  const auto check =
      ropelens::test::run_cli("check " + ropelens::test::source_path(kQwen3Yarn4) + " --stack exllamav3");
  CHECK_THAT(check.out, Catch::Contains("ENG307 warning [engine-runs-other-scaling] ExLlamaV3 runs factor 1.25 where "
                                        "the config says 4"));
  // Without a stack ExLlamaV3 is not deployed, so ENG307 does not fire.
  const auto plain = ropelens::test::run_cli("check " + ropelens::test::source_path(kQwen3Yarn4));
  CHECK(plain.out.find("[engine-runs-other-scaling]") == std::string::npos);
}

TEST_CASE("engines3 cli: a rope_parameters-only Qwen3 under --stack mlx-lm and trtllm@1.2.0") {
  const std::string path = ropelens::test::source_path(kQwen3V5);
  const auto mlx = ropelens::test::run_cli("check " + path + " --stack mlx-lm");
  CHECK_THAT(mlx.out, Catch::Contains("ENG306 warning [engine-cannot-load] MLX-LM cannot load this config"));
  CHECK_THAT(mlx.out, Catch::Contains("mlx_lm/models/qwen3.py reads rope_theta and rope_scaling"));
  const auto old = ropelens::test::run_cli("check " + path + " --stack trtllm@1.2.0");
  CHECK_THAT(old.out, Catch::Contains("ENG307 warning [engine-runs-other-scaling] TensorRT-LLM ≤ 1.2 loads this "
                                      "config without its yarn scaling (factor 4)"));
  CHECK_THAT(old.out, Catch::Contains("reads rope_scaling, not rope_parameters"));
  // TensorRT-LLM main reads rope_parameters: no ENG307 for a model without the fused QK-norm kernel.
  const auto llama = ropelens::test::run_cli("check " + ropelens::test::source_path(kLlamaV5) + " --stack trtllm@main");
  CHECK(llama.out.find("[engine-runs-other-scaling]") == std::string::npos);
}

TEST_CASE("engines3 cli: fit --stack trtllm,exllamav3,mlx-lm gives a figure and a command for each") {
  const auto fit = ropelens::test::run_cli("fit " + ropelens::test::source_path(kQwen3Yarn4) +
                                           " --memory 80GiB --weights 16.4GB --stack trtllm,exllamav3,mlx-lm");
  CHECK(fit.exit_code == 0);
  CHECK_THAT(fit.out, Catch::Contains("MLX-LM        bf16             40960  declared"));
  CHECK_THAT(fit.out, Catch::Contains("TensorRT-LLM  bf16             40960  declared"));
  CHECK_THAT(fit.out, Catch::Contains("ExLlamaV3     f16              40960  declared"));
  CHECK_THAT(fit.out, Catch::Contains("0.9 + 0.1 × weights/GPU = 0.9191 of the GPU"));
  CHECK_THAT(fit.out, Catch::Contains("mlx_lm.server --model "));
  CHECK_THAT(fit.out, Catch::Contains("bad-exllamav3-qwen3-yarn --max_seq_len 40960"));
  CHECK_THAT(fit.out, Catch::Contains("bad-exllamav3-qwen3-yarn --max-seq-len 40960 --cache-mode FP16"));
}

// Launch lines (check --serve and launch files) of the three engines, read by each folder's launch.cpp.
namespace {

const char* const kQwen3Weights = "testdata/rules/SRV505/bad-vllm-131072-in-24gib";  // Qwen3-8B, 40960, no scaling

struct Served {
  int exit_code = 0;
  nlohmann::json file;  // the first file's result
  std::string err;
};

// `check --serve - --format json -v` with the command on stdin.
Served serve(const std::string& command, const std::string& extra = "") {
  const auto run = ropelens::test::run_cli("check --serve - --format json -v " + extra, command);
  Served served{run.exit_code, nlohmann::json::object(), run.err};
  if (!run.out.empty()) served.file = nlohmann::json::parse(run.out)["files"][0];
  return served;
}

std::vector<std::string> codes(const Served& served) {
  std::vector<std::string> out;
  for (const auto& d : served.file.value("diagnostics", nlohmann::json::array())) out.push_back(d["code"]);
  return out;
}

std::string message_of(const Served& served, const std::string& code) {
  for (const auto& d : served.file.value("diagnostics", nlohmann::json::array()))
    if (d["code"] == code) return d["message"];
  return "";
}

std::string yarn_folder() {
  return std::filesystem::path(ropelens::test::source_path(kQwen3Yarn4)).parent_path().string();
}

}  // namespace

TEST_CASE("engines3 launch: mlx_lm.server sets no limit, in each of its spellings") {
  const std::string model = yarn_folder();
  for (const char* program :
       {"mlx_lm.server", "python -m mlx_lm server", "mlx_lm server", "python3 -m mlx_lm.server"}) {
    INFO(program);
    const Served served = serve(std::string(program) + " --model " + model);
    CHECK(codes(served) == std::vector<std::string>{"ROPE103"});  // the config's static YaRN, not the launch
    CHECK(served.file["target"] == 40960);
    CHECK_THAT(served.err, Catch::Contains("MLX-LM sets no context limit: mlx_lm.server keeps an unbounded KVCache per "
                                           "request, so the context is whatever the client sends"));
  }
  CHECK_THAT(serve("python -m mlx_lm.server --model " + model).err,
             Catch::Contains("python -m mlx_lm.server prints that calling it directly is deprecated"));
  // v0.32.0's server has no --max-kv-size (mlx_lm.generate has): argparse refuses it.
  const Served refused = serve("mlx_lm.server --model " + model + " --max-kv-size 4096", "--exit-zero");
  CHECK_THAT(message_of(refused, "SRV501"), Catch::Contains("--max-kv-size is not a flag mlx_lm.server takes"));
  // argparse's unique prefix: --adapter for --adapter-path.
  CHECK(serve("mlx_lm.server --model " + model + " --adapter a --port 8080").file["diagnostics"].size() == 1);
}

TEST_CASE("engines3 launch: mlx_lm.generate --max-kv-size is a rotating cache that overwrites, not a refusal") {
  const Served served = serve("mlx_lm.generate --model " + yarn_folder() + " --max-kv-size 4096 -p hello");
  CHECK(codes(served) == std::vector<std::string>{"ROPE103"});
  CHECK_THAT(served.err,
             Catch::Contains("--max-kv-size 4096 makes every layer's cache a RotatingKVCache of 4096 tokens "
                             "(the first 4 kept): once full it overwrites the oldest tokens instead of "
                             "refusing"));
}

TEST_CASE("engines3 launch: trtllm-serve --max_seq_len above the inferred length is lowered to it (SRV504)") {
  const std::string model = yarn_folder();
  const Served clamped = serve("trtllm-serve " + model + " --max_seq_len 131072", "--exit-zero");
  CHECK_THAT(message_of(clamped, "SRV504"),
             Catch::Contains("--max_seq_len 131072 is above the length TensorRT-LLM infers, 40960 "
                             "(max_position_embeddings 40960 (the yarn factor is not multiplied)): it lowers it to "
                             "40960 with a warning"));
  CHECK(clamped.file["target"] == 40960);
  const Served within = serve("trtllm-serve serve " + model + " --max_seq_len 40960 --tp_size 2", "--exit-zero");
  CHECK(message_of(within, "SRV504").empty());  // the view's ENG30x findings on Qwen3's fused kernel stay
  CHECK(within.file["target"] == 40960);
  // click takes the flag as written: --max-seq-len is not --max_seq_len.
  const Served dashed = serve("trtllm-serve " + model + " --max-seq-len 40960", "--exit-zero");
  CHECK_THAT(message_of(dashed, "SRV501"), Catch::Contains("(did you mean --max_seq_len?)"));
}

TEST_CASE("engines3 launch: trtllm-serve's --extra_llm_api_options YAML overwrites the flags") {
  ropelens::test::TempDir dir;
  ropelens::test::write_file(dir.file("extra.yaml"),
                             "kv_cache_config:\n  dtype: fp8\n  free_gpu_memory_fraction: 0.5\nmax_seq_len: 131072\n");
  const Served served =
      serve("trtllm-serve " + yarn_folder() + " --max_seq_len 32768 --extra_llm_api_options " + dir.file("extra.yaml"),
            "--exit-zero");
  CHECK_THAT(message_of(served, "SRV504"),
             Catch::Contains("max_seq_len (" + dir.file("extra.yaml") + ", line 4) 131072 is above the length"));
  CHECK_THAT(served.err, Catch::Contains("kv_cache_config.free_gpu_memory_fraction 0.5"));
  ropelens::test::write_file(dir.file("bad.yaml"), "max_seq_len: [1,\n");
  const Served bad = serve("trtllm-serve " + yarn_folder() + " --config " + dir.file("bad.yaml"), "--exit-zero");
  CHECK_THAT(message_of(bad, "SRV501"), Catch::Contains("yaml.safe_load fails"));
}

TEST_CASE("engines3 launch: TabbyAPI's command line, its cache_size and --config") {
  const std::string model = yarn_folder();
  const std::filesystem::path folder(model);
  const std::string named =
      "python main.py --model-dir " + folder.parent_path().string() + " --model-name " + folder.filename().string();
  const Served limited = serve(named + " --max-seq-len 40960 --cache-size 16384", "--exit-zero");
  CHECK_THAT(message_of(limited, "SRV504"),
             Catch::Contains("--max-seq-len 40960 is above cache_size 16384: TabbyAPI lowers max_seq_len to 16384"));
  CHECK(limited.file["target"] == 16384);
  const Served pages = serve(named + " --cache-size 40000", "--exit-zero");
  CHECK_THAT(message_of(pages, "SRV501"), Catch::Contains("--cache-size 40000 is not a multiple of 256"));
  const Served mode = serve(named + " --cache-mode Q5", "--exit-zero");
  CHECK_THAT(message_of(mode, "SRV501"), Catch::Contains("--cache-mode Q5"));
  // max_seq_len defaults to the raw max_position_embeddings (no factor): 40960.
  CHECK(serve(named).file["target"] == 40960);
  // A main.py that names nothing of TabbyAPI is not read as TabbyAPI.
  CHECK(ropelens::test::run_cli("check --serve 'python main.py --epochs 3'").exit_code == 2);
  // --config FILE: TabbyAPI reads that file alone, and the other flags are ignored.
  ropelens::test::TempDir dir;
  ropelens::test::write_file(dir.file("tabby.yml"), "model:\n  model_dir: " + folder.parent_path().string() +
                                                        "\n  model_name: " + folder.filename().string() +
                                                        "\n  max_seq_len: 32768\n");
  const Served config =
      serve("python main.py --config " + dir.file("tabby.yml") + " --max-seq-len 8192", "--exit-zero");
  CHECK(config.file["target"] == 32768);
  CHECK_THAT(message_of(config, "SRV503"), Catch::Contains("--max-seq-len is ignored: with --config"));
}

TEST_CASE("engines3 launch: a TabbyAPI config.yml is a launch file, its model folder relative to it") {
  ropelens::test::TempDir dir;
  std::filesystem::create_directories(dir.file("tabbyAPI/models/Qwen3-8B"));
  std::filesystem::copy_file(ropelens::test::source_path(kQwen3Yarn4),
                             dir.file("tabbyAPI/models/Qwen3-8B/config.json"));
  ropelens::test::write_file(dir.file("tabbyAPI/config.yml"),
                             "network:\n  host: 127.0.0.1\nmodel:\n  model_dir: models\n  model_name: Qwen3-8B\n"
                             "  max_seq_len: 65536\n  cache_size: 32768\n  cache_mode: FP16\n");
  const auto run = ropelens::test::run_cli("check --format json --exit-zero " + dir.file("tabbyAPI/config.yml"));
  const nlohmann::json file = nlohmann::json::parse(run.out)["files"][0];
  CHECK(file["target"] == 32768);
  bool limited = false;
  for (const auto& d : file["diagnostics"])
    limited |= d["code"] == "SRV504" &&
               d["message"].get<std::string>().find(
                   "model.max_seq_len (config.yml, line 6) 65536 is above cache_size 32768") != std::string::npos;
  CHECK(limited);
}

TEST_CASE(
    "engines3 launch: fit prints TabbyAPI's --model-dir and --model-name, and each printed line passes "
    "check --serve at the memory fit was given") {
  const std::string model = ropelens::test::source_path(kQwen3Weights);
  for (const char* memory : {"20GiB", "80GiB"}) {
    const auto fit = ropelens::test::run_cli("fit " + model + " --memory " + memory +
                                             " --stack trtllm,exllamav3,mlx-lm --format json");
    REQUIRE(fit.exit_code == 0);
    const nlohmann::json engines = nlohmann::json::parse(fit.out)["engines"];
    // mlx_lm.server takes no length: below the declared length fit says so beside its figure, at 20 GiB only.
    const std::string caveats = nlohmann::json::parse(fit.out)["not_counted"].dump();
    CHECK((caveats.find("a cap on MLX-LM's length") != std::string::npos) == (std::string(memory) == "20GiB"));
    for (const char* engine : {"trtllm", "exllamav3", "mlx-lm"}) {
      REQUIRE(engines.contains(engine));
      for (const auto& [dtype, row] : engines[engine].items()) {
        const std::string line = row["serve"];
        const std::int64_t tokens = row["max_tokens"];
        INFO(memory << " " << engine << " " << dtype << ": " << line);
        CHECK(tokens > 0);
        const std::filesystem::path folder(model);
        if (std::string(engine) == "exllamav3")
          CHECK_THAT(line, Catch::StartsWith("python main.py --model-dir " + folder.parent_path().string() +
                                             " --model-name " + folder.filename().string() + " --max-seq-len "));
        // mlx_lm.server takes no length: its line passes only where the declared length fits.
        if (std::string(engine) == "mlx-lm" && tokens < 40960) continue;
        const Served checked = serve(line, std::string("--memory ") + memory + " --stack " + engine);
        CHECK(codes(checked).empty());
        CHECK(checked.exit_code == 0);
        CHECK(checked.file["target"] == tokens);
        if (std::string(engine) == "mlx-lm" || std::string(memory) != "20GiB") continue;
        // One block (TensorRT-LLM: 32 tokens) or page (ExLlamaV3: 256) more does not fit.
        const std::int64_t more = tokens + (std::string(engine) == "trtllm" ? 32 : 256);
        std::string over = line;
        over.replace(over.rfind(std::to_string(tokens)), std::to_string(tokens).size(), std::to_string(more));
        const auto over_codes =
            codes(serve(over, std::string("--memory ") + memory + " --stack " + engine + " --exit-zero"));
        CHECK(std::count(over_codes.begin(), over_codes.end(), "SRV505") == 1);
      }
    }
  }
}

TEST_CASE("engines3 launch: fit config.json in the model's own folder names that folder for TabbyAPI, not '.'") {
  // TabbyAPI takes a folder's name under --model-dir: "." has none, so the folder is named by its absolute path.
  const std::filesystem::path folder =
      std::filesystem::absolute(ropelens::test::source_path(kQwen3Weights)).lexically_normal();
  const auto fit = ropelens::test::run_cli_in(folder.string(),
                                              "fit config.json --memory 80GiB --stack exllamav3 "
                                              "--format json");
  REQUIRE(fit.exit_code == 0);
  const nlohmann::json rows = nlohmann::json::parse(fit.out)["engines"]["exllamav3"];
  REQUIRE_FALSE(rows.empty());
  for (const auto& [dtype, row] : rows.items()) {
    const std::string line = row["serve"];
    INFO(dtype << ": " << line);
    CHECK_THAT(line, Catch::StartsWith("python main.py --model-dir " + folder.parent_path().string() +
                                       " --model-name " + folder.filename().string() + " --max-seq-len "));
    const Served checked = serve(line, "--memory 80GiB --stack exllamav3");
    CHECK(checked.exit_code == 0);
    CHECK(checked.file["target"] == row["max_tokens"]);
  }
}

TEST_CASE("engines3 launch: lms load is LM Studio's MLX engine, its --context-length capped at the declared length") {
  const std::string model = yarn_folder();  // YaRN x4 on 32768, max_position_embeddings 40960
  const Served within = serve("lms load " + model + " --context-length 32768 -y");
  CHECK(codes(within) == std::vector<std::string>{"ROPE103"});
  CHECK(within.file["target"] == 32768);
  const Served short_flag = serve("lms load " + model + " -c 32768");
  CHECK(short_flag.file["target"] == 32768);
  const Served above = serve("lms load " + model + " --context-length 65536", "--exit-zero");
  CHECK(above.file["target"] == 40960);
  CHECK_THAT(message_of(above, "SRV504"),
             Catch::Contains("--context-length 65536 is above max_position_embeddings 40960: LM Studio's mlx-engine "
                             "fits the context to memory and caps it at the model's native limit"));
  // commander refuses an option it does not define.
  CHECK_THAT(message_of(serve("lms load " + model + " --context 8192", "--exit-zero"), "SRV501"),
             Catch::Contains("--context is not a flag lms load takes"));
  CHECK_THAT(serve("lms load " + model).err, Catch::Contains("lms load without --context-length loads the model at "
                                                             "the context LM Studio keeps for it"));
  const Served gguf = serve("lms load lmstudio-community/Qwen3-8B-GGUF -c 8192");
  CHECK(gguf.exit_code == 2);
  CHECK_THAT(gguf.err, Catch::Contains("a GGUF model runs on LM Studio's llama.cpp engine, which ropelens does not "
                                       "model"));
}

TEST_CASE("engines3 launch: kt run is the SGLang KTransformers starts, with kt's 0.98 share and 40000-token pool") {
  const std::string model = ropelens::test::source_path("testdata/configs/qwen/qwen3-8b.json");  // 40960
  const Served defaults = serve("kt run " + model);
  CHECK(codes(defaults).empty());
  CHECK(defaults.file["target"] == 40000);  // the pool caps each request below the derived 40960
  CHECK_THAT(defaults.err, Catch::Contains("kt run starts python -m sglang.launch_server with kt's "
                                           "--mem-fraction-static 0.98 and --max-total-tokens 40000"));
  CHECK_THAT(defaults.err, Catch::Contains("min(40960 − 1, 40000 − 1) − 5 = 39994 tokens"));
  // An SGLang flag passes through; asking past the pool is SRV504.
  const Served asked = serve("kt run " + model + " --context-length 40960", "--exit-zero");
  CHECK(codes(asked) == std::vector<std::string>{"SRV504"});
  CHECK_THAT(message_of(asked, "SRV504"),
             Catch::Contains("--context-length 40960 asks for more than the pool holds: kt run's default "
                             "--max-total-tokens 40000 caps SGLang's KV pool"));
  // kt's own --max-total-tokens lifts it, and kt's --tp reaches SGLang's tensor parallelism.
  const Served pooled = serve("kt run " + model + " --max-total-tokens 65536 --context-length 40960 --tp 2");
  CHECK(codes(pooled).empty());
  CHECK(pooled.file["target"] == 40960);
  CHECK_THAT(pooled.err, !Catch::Contains("defaults to the number of GPUs"));
  // The fork's own flags (written by kt itself) are not refused.
  CHECK(codes(serve("kt run " + model + " --kt-enable-dynamic-expert-update --kt-numa-nodes 0 1")).empty());
  // click hands an unknown option on as an argument, and the first argument is MODEL.
  const Served flag_first = serve("kt run --context-length 32768 " + model, "--exit-zero");
  CHECK_THAT(message_of(flag_first, "SRV501"), Catch::Contains("kt run takes '--context-length' as MODEL"));
  CHECK(flag_first.file["target"] == 32768);  // audited as the line means it
}

TEST_CASE("sglang launch: --max-total-tokens below the asked length caps each request (SRV504)") {
  const std::string model = ropelens::test::source_path("testdata/configs/qwen/qwen3-8b.json");
  const Served capped =
      serve("python -m sglang.launch_server --model-path " + model + " --context-length 32768 --max-total-tokens 16384",
            "--exit-zero");
  CHECK(codes(capped) == std::vector<std::string>{"SRV504"});
  CHECK(capped.file["target"] == 16384);
  CHECK_THAT(message_of(capped, "SRV504"), Catch::Contains("min(32768 − 1, 16384 − 1) − 5 = 16378 tokens"));
  const Served roomy = serve("python -m sglang.launch_server --model-path " + model + " --max-total-tokens 65536");
  CHECK(codes(roomy).empty());
  CHECK(roomy.file["target"] == 40960);
}

TEST_CASE("engines3 launch: fit --stack kt,lmstudio prints kt run and lms load, and check --serve passes each") {
  const std::string model = ropelens::test::source_path(kQwen3Weights);
  for (const char* memory : {"20GiB", "80GiB"}) {
    const auto fit =
        ropelens::test::run_cli("fit " + model + " --memory " + memory + " --stack kt,lmstudio --format json");
    REQUIRE(fit.exit_code == 0);
    const nlohmann::json engines = nlohmann::json::parse(fit.out)["engines"];
    for (const auto& [engine, stack, program] :
         {std::tuple{"sglang", "kt", "kt run "}, std::tuple{"mlx-lm", "lmstudio", "lms load "}}) {
      REQUIRE(engines.contains(engine));
      for (const auto& [dtype, row] : engines[engine].items()) {
        const std::string line = row["serve"];
        const std::int64_t tokens = row["max_tokens"];
        INFO(memory << " " << stack << " " << dtype << ": " << line);
        CHECK_THAT(line, Catch::StartsWith(program + model + " --context-length " + std::to_string(tokens)));
        // kt run's 40000-token pool would cap the length: the line sizes it.
        if (std::string(stack) == "kt")
          CHECK_THAT(line, Catch::EndsWith("--max-total-tokens " + std::to_string(tokens)));
        const Served checked = serve(line, std::string("--memory ") + memory + " --stack " + stack);
        CHECK(codes(checked).empty());
        CHECK(checked.exit_code == 0);
        CHECK(checked.file["target"] == tokens);
      }
    }
  }
}
