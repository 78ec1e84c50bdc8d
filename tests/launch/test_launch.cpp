// Launch lines (issue 36): `check --serve 'COMMAND'`, launch scripts and Ollama Modelfiles, checked on Qwen3-8B (a
// Hugging Face cache built here from testdata/configs/qwen/qwen3-8b.json) and on Qwen3 GGUF headers
// (testdata/launch/qwen3-8b.gguf: context_length 40960, no scaling keys).
#include <catch2/catch.hpp>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ropelens/input/shell_words.hpp"
#include "ropelens/model/text.hpp"
#include "gguf_writer.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using nlohmann::json;
using ropelens::test::cache_file;
using ropelens::test::read_file;
using ropelens::test::run_cli;
using ropelens::test::ScopedEnv;
using ropelens::test::source_path;
using ropelens::test::TempDir;
using ropelens::test::write_file;

namespace {

const std::string kHubCommit = "0123456789abcdef0123456789abcdef01234567";
const std::string kQwen3Gguf = "testdata/launch/qwen3-8b.gguf";

// <dir>/hub/models--Qwen--Qwen3-8B holding the Qwen3-8B config at main; HF_HUB_CACHE is set to it by the caller.
void make_qwen3_hub(const TempDir& dir) {
  const fs::path repo = fs::path(dir.file("hub")) / "models--Qwen--Qwen3-8B";
  cache_file(repo, kHubCommit, "config.json", read_file(source_path("testdata/configs/qwen/qwen3-8b.json")));
  write_file((repo / "refs" / "main").string(), kHubCommit);
}

struct Checked {
  int exit_code = 0;
  json diagnostics;  // the first file's
  json file;
  std::string err;
};

// `ropelens check --serve - --format json` with the command on stdin (so it needs no quoting here), and `extra`.
Checked serve(const std::string& command, const std::string& extra = "") {
  const auto run = run_cli("check --serve - --format json " + extra, command);
  Checked checked{run.exit_code, json::array(), json::object(), run.err};
  if (run.out.empty()) return checked;
  const json document = json::parse(run.out);
  if (!document["files"].empty()) {
    checked.file = document["files"][0];
    checked.diagnostics = checked.file["diagnostics"];
  }
  return checked;
}

std::vector<json> with_code(const json& diagnostics, const std::string& code) {
  std::vector<json> found;
  for (const auto& d : diagnostics)
    if (d["code"] == code) found.push_back(d);
  return found;
}

int errors(const json& diagnostics) {
  int n = 0;
  for (const auto& d : diagnostics) n += d["severity"] == "error" ? 1 : 0;
  return n;
}

bool names(const json& diagnostics, const std::string& code, const std::string& text) {
  for (const auto& d : with_code(diagnostics, code))
    if (d["message"].get<std::string>().find(text) != std::string::npos ||
        d["help"].get<std::string>().find(text) != std::string::npos)
      return true;
  return false;
}

}  // namespace

TEST_CASE("shell words: env prefixes, exports, quotes, continuations and several commands", "[launch]") {
  const auto commands = ropelens::split_shell_commands(
      "#!/bin/sh\n"
      "export HF_HOME=/data/hf\n"
      "MODEL=Qwen/Qwen3-8B\n"
      "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve \"$MODEL\" \\\n"
      "  --hf-overrides '{\"a\": 1}' # a comment\n"
      "echo done && llama-server -m ${MODEL}.gguf\n");
  REQUIRE(commands.size() == 3);
  CHECK(commands[0].line == 4);
  CHECK(commands[0].words ==
        std::vector<std::string>{"vllm", "serve", "Qwen/Qwen3-8B", "--hf-overrides", "{\"a\": 1}"});
  CHECK(commands[0].env.at("VLLM_ALLOW_LONG_MAX_MODEL_LEN") == "1");
  CHECK(commands[0].env.at("HF_HOME") == "/data/hf");
  CHECK(commands[0].env.count("MODEL") == 0);  // set, not exported
  CHECK(commands[1].words == std::vector<std::string>{"echo", "done"});
  CHECK(commands[2].line == 6);
  CHECK(commands[2].words == std::vector<std::string>{"llama-server", "-m", "Qwen/Qwen3-8B.gguf"});
  CHECK(commands[2].env.count("VLLM_ALLOW_LONG_MAX_MODEL_LEN") == 0);
  CHECK_THROWS_WITH(ropelens::split_shell_commands("vllm serve 'x\n"), "line 1: unterminated ' quote");
  CHECK(ropelens::shell_word("{\"a\": 1}") == "'{\"a\": 1}'");
  CHECK(ropelens::shell_word("it's") == "'it'\\''s'");
  CHECK(ropelens::shell_word("--max-model-len") == "--max-model-len");
}

TEST_CASE("vllm serve above the derived length: refused without VLLM_ALLOW_LONG_MAX_MODEL_LEN, CTX201 either way",
          "[launch][cli]") {
  TempDir dir;
  make_qwen3_hub(dir);
  ScopedEnv cache("HF_HUB_CACHE", dir.file("hub"));
  const auto refused = serve("vllm serve Qwen/Qwen3-8B --max-model-len 131072");
  CHECK(refused.exit_code == 1);
  CHECK(with_code(refused.diagnostics, "CTX201").size() == 1);
  REQUIRE(with_code(refused.diagnostics, "SRV502").size() == 1);
  CHECK(names(refused.diagnostics, "SRV502", "VLLM_ALLOW_LONG_MAX_MODEL_LEN"));
  CHECK_THAT(with_code(refused.diagnostics, "SRV502")[0]["message"].get<std::string>(),
             Contains("--max-model-len 131072") && Contains("40960"));
  CHECK(refused.file["path"] == "--serve");

  const auto allowed = serve("VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve Qwen/Qwen3-8B --max-model-len 131072");
  CHECK(allowed.exit_code == 1);
  CHECK(with_code(allowed.diagnostics, "SRV502").empty());
  REQUIRE(with_code(allowed.diagnostics, "CTX201").size() == 1);
  CHECK(with_code(allowed.diagnostics, "CTX201")[0]["facts"]["target"] == 131072);

  // --model supplies the model when the one named is not on this machine.
  const auto by_model = serve("vllm serve Org/Absent --max-model-len 131072",
                              "--model " + source_path("testdata/configs/qwen/qwen3-8b.json"));
  CHECK(with_code(by_model.diagnostics, "SRV502").size() == 1);
  CHECK(with_code(by_model.diagnostics, "CTX201").size() == 1);
}

TEST_CASE("YaRN x4 from 32768 in the form each engine honours serves 131072 with no CTX201 and no error",
          "[launch][cli]") {
  TempDir dir;
  make_qwen3_hub(dir);
  ScopedEnv cache("HF_HUB_CACHE", dir.file("hub"));
  const std::string yarn = R"({"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768)";
  SECTION("vLLM --hf-overrides rope_parameters, with the length vLLM main derives") {
    const auto run =
        serve("vllm serve Qwen/Qwen3-8B --max-model-len 131072 --hf-overrides '{\"rope_parameters\":" + yarn +
                  R"(,"rope_theta":1000000},"max_position_embeddings":131072}')",
              "--fail-on error");
    CHECK(with_code(run.diagnostics, "CTX201").empty());
    CHECK(errors(run.diagnostics) == 0);
    CHECK(run.exit_code == 0);
    // vLLM main no longer multiplies the length by the YaRN factor: without max_position_embeddings it derives 40960.
    const auto short_length = serve(
        "vllm serve Qwen/Qwen3-8B --max-model-len 131072 --hf-overrides "
        "'{\"rope_parameters\":" +
            yarn + R"(,"rope_theta":1000000}}')",
        "--stack vllm@main");
    REQUIRE(with_code(short_length.diagnostics, "SRV502").size() == 1);
    CHECK(with_code(short_length.diagnostics, "CTX201").empty());
  }
  SECTION("vLLM --hf-overrides rope_scaling is flagged as ignored, and the model runs without YaRN") {
    const auto run = serve(
        "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve Qwen/Qwen3-8B --max-model-len 131072 "
        "--hf-overrides '{\"rope_scaling\":" +
        yarn + "}}'");
    REQUIRE(with_code(run.diagnostics, "SRV503").size() == 1);
    CHECK(names(run.diagnostics, "SRV503", "rope_parameters"));
    CHECK(with_code(run.diagnostics, "CTX201").size() == 1);
    CHECK(run.exit_code == 1);
  }
  SECTION("SGLang --json-model-override-args with SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1") {
    const std::string command =
        "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --context-length 131072 "
        "--json-model-override-args '{\"rope_scaling\":" +
        yarn + "}}'";
    const auto run = serve("SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 " + command, "--fail-on error");
    CHECK(with_code(run.diagnostics, "CTX201").empty());
    CHECK(errors(run.diagnostics) == 0);
    CHECK(run.exit_code == 0);
    // Without the variable SGLang keeps the 40960 its get_context_length derives, and refuses to start.
    const auto refused = serve(command);
    REQUIRE(with_code(refused.diagnostics, "SRV502").size() == 1);
    CHECK(names(refused.diagnostics, "SRV502", "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN"));
  }
  SECTION("llama-server --rope-scaling yarn --rope-scale 4 --yarn-orig-ctx 32768 --override-kv") {
    const auto run = serve("llama-server -m " + source_path(kQwen3Gguf) +
                               " -c 131072 --rope-scaling yarn --rope-scale 4 --yarn-orig-ctx 32768"
                               " --override-kv qwen3.context_length=int:131072",
                           "--fail-on error");
    CHECK(with_code(run.diagnostics, "CTX201").empty());
    CHECK(with_code(run.diagnostics, "SRV504").empty());
    CHECK(errors(run.diagnostics) == 0);
    CHECK(run.exit_code == 0);
    // Without the rope flags the same line serves 131072 tokens of plain RoPE.
    const auto plain = serve("llama-server -m " + source_path(kQwen3Gguf) +
                             " -c 131072 --override-kv qwen3.context_length=int:131072");
    REQUIRE(with_code(plain.diagnostics, "CTX201").size() == 1);
    CHECK(with_code(plain.diagnostics, "CTX201")[0]["facts"]["target"] == 131072);
    CHECK(plain.exit_code == 1);
  }
}

TEST_CASE("llama-server splits -c over its -np slots, and caps a slot at n_ctx_train", "[launch][cli]") {
  const auto slots = serve("llama-server -m " + source_path(kQwen3Gguf) + " -c 32768 -np 4");
  REQUIRE(with_code(slots.diagnostics, "SRV504").size() == 1);
  CHECK(names(slots.diagnostics, "SRV504", "8192-token slot"));
  CHECK(with_code(slots.diagnostics, "SRV504")[0]["message"] ==
        "-c 32768 is split over 4 slots: each request gets a 8192-token slot, not 32768");

  const auto capped = serve("llama-server -m " + source_path(kQwen3Gguf) + " -c 131072");
  REQUIRE(with_code(capped.diagnostics, "SRV504").size() == 1);
  CHECK(names(capped.diagnostics, "SRV504", "n_ctx_train 40960"));
  CHECK(names(capped.diagnostics, "SRV504", "--override-kv qwen3.context_length=int:131072"));
}

TEST_CASE("llama.cpp from PR #28030 re-adjusts n_ctx_train for YaRN flags, a build pinned before keeps the cap",
          "[launch][cli]") {
  const std::string yarn = "llama-server -m " + source_path(kQwen3Gguf) + " -c 131072 --rope-scaling yarn";
  // n_ctx_orig_yarn 32768 × 4 = 131072: no cap, and the file read so, as --override-kv would make it.
  const auto lifted = serve(yarn + " --rope-scale 4 --yarn-orig-ctx 32768", "--fail-on error");
  CHECK(with_code(lifted.diagnostics, "SRV504").empty());
  CHECK(with_code(lifted.diagnostics, "CTX201").empty());
  CHECK(with_code(lifted.diagnostics, "GGUF003").empty());  // context_length is factor × original once re-adjusted
  CHECK(lifted.file["target"] == 131072);
  CHECK(lifted.exit_code == 0);
  const auto noted = run_cli("check -v --exit-zero --serve -", yarn + " --rope-scale 4 --yarn-orig-ctx 32768");
  CHECK_THAT(noted.err, Contains("llama.cpp re-adjusts n_ctx_train from 40960 to 131072"));

  // × 2 re-adjusts it to 65536, below the 131072 asked for.
  const auto half = serve(yarn + " --rope-scale 2 --yarn-orig-ctx 32768");
  REQUIRE(with_code(half.diagnostics, "SRV504").size() == 1);
  CHECK(names(half.diagnostics, "SRV504", "caps it at n_ctx_train 65536: requests get 65536 tokens"));
  CHECK(half.file["target"] == 65536);

  // b7371 precedes the change: the slot stays at the file's 40960.
  const auto pinned = serve(yarn + " --rope-scale 4 --yarn-orig-ctx 32768", "--stack llama.cpp@b7371");
  REQUIRE(with_code(pinned.diagnostics, "SRV504").size() == 1);
  CHECK(names(pinned.diagnostics, "SRV504", "n_ctx_train 40960"));
  CHECK(serve(yarn + " --rope-scale 4 --yarn-orig-ctx 32768", "--stack llama.cpp@b10754").diagnostics.size() ==
        lifted.diagnostics.size());
}

TEST_CASE("RoPE flags on a GGUF that already scales are a warning at the flag, the file's own scaling is not",
          "[launch][cli]") {
  const TempDir dir;
  const std::string file = dir.file("qwen3-8b-yarn4.gguf");
  ropelens::test::qwen3_yarn4_fixture().write(file);

  const auto flags =
      serve("llama-server -m " + file + " -c 131072 --rope-scaling yarn --rope-scale 2 --yarn-orig-ctx 32768");
  const auto twice = with_code(flags.diagnostics, "SRV503");
  REQUIRE(twice.size() == 1);
  CHECK(twice[0]["severity"] == "warning");
  CHECK(twice[0]["flag"] == "--rope-scaling");
  CHECK(twice[0]["facts"]["flag"] == "--rope-scaling");
  CHECK_THAT(twice[0]["message"].get<std::string>(),
             Contains("the file already scales RoPE (yarn ×4 from 32768), and the flags replace it with yarn ×2"));

  const auto own = serve("llama-server -m " + file + " -c 131072");
  CHECK(with_code(own.diagnostics, "SRV503").empty());
}

TEST_CASE("an unknown launch flag names the nearest one, a removed one says when it went", "[launch][cli]") {
  TempDir dir;
  make_qwen3_hub(dir);
  ScopedEnv cache("HF_HUB_CACHE", dir.file("hub"));
  const auto typo = serve("vllm serve Qwen/Qwen3-8B --max-model-lenn 32768");
  CHECK(typo.exit_code == 1);
  REQUIRE(with_code(typo.diagnostics, "SRV501").size() == 1);
  CHECK(with_code(typo.diagnostics, "SRV501")[0]["message"] ==
        "--max-model-lenn is not a flag vLLM takes (did you mean --max-model-len?): it refuses to start");
  CHECK(with_code(typo.diagnostics, "SRV501")[0]["help"] == "write --max-model-len");

  const auto removed = serve("vllm serve Qwen/Qwen3-8B --rope-scaling '{\"rope_type\":\"yarn\"}'");
  REQUIRE(with_code(removed.diagnostics, "SRV501").size() == 1);
  CHECK(names(removed.diagnostics, "SRV501", "removed in vLLM 0.11.1"));

  const auto underscores = serve("vllm serve Qwen/Qwen3-8B --max_model_len 32768");
  CHECK(with_code(underscores.diagnostics, "SRV501").empty());
  CHECK(underscores.exit_code == 0);
}

TEST_CASE("a launch script and a Modelfile are checked at the length they serve", "[launch][cli]") {
  TempDir dir;
  make_qwen3_hub(dir);
  ScopedEnv cache("HF_HUB_CACHE", dir.file("hub"));
  const auto script = run_cli("check --format json " + source_path("testdata/launch/serve-qwen3-8b.sh"));
  CHECK(script.exit_code == 1);
  const json files = json::parse(script.out)["files"];
  REQUIRE(files.size() == 1);
  const json& diagnostics = files[0]["diagnostics"];
  CHECK(with_code(diagnostics, "SRV502").empty());  // the env prefix lifts vLLM's limit
  REQUIRE(with_code(diagnostics, "CTX201").size() == 1);
  CHECK(with_code(diagnostics, "CTX201")[0]["facts"]["target"] == 131072);
  CHECK(with_code(diagnostics, "CTX201")[0]["line"] == 5);  // the command's first line, after the export

  const auto modelfile = run_cli("check --format json " + source_path("testdata/launch/Modelfile"));
  const json served = json::parse(modelfile.out)["files"][0]["diagnostics"];
  // num_ctx 131072 above the file's n_ctx_train 40960: Ollama lowers it, so the audit runs at 40960, no CTX201.
  CHECK(with_code(served, "CTX201").empty());
  REQUIRE(with_code(served, "SRV504").size() == 1);
  CHECK(names(served, "SRV504", "requests get 40960 tokens"));
  // Ollama has no --override-kv: the help says what works under it.
  CHECK_THAT(with_code(served, "SRV504")[0]["help"].get<std::string>(), Contains("set num_ctx to at most 40960"));
  CHECK(modelfile.exit_code == 1);
}

TEST_CASE("a Modelfile without num_ctx is served at Ollama's default for the GPUs' memory (--memory × --tp)",
          "[launch][cli]") {
  TempDir dir;
  fs::copy_file(source_path("testdata/launch/qwen3-8b.gguf"), dir.file("qwen3-8b.gguf"));
  {
    std::ofstream out(dir.file("Modelfile"));
    out << "FROM ./qwen3-8b.gguf\nPARAMETER temperature 0.6\n";
  }
  const std::string modelfile = dir.file("Modelfile");
  ScopedEnv unset("OLLAMA_CONTEXT_LENGTH", "");
  const auto served = [&](const std::string& options) {
    const auto run = run_cli("check --format json --exit-zero " + modelfile + " " + options);
    REQUIRE(run.exit_code == 0);
    return json::parse(run.out)["files"][0];
  };
  // server/routes.go: 4096 below 23 GiB, 32768 from 23 GiB, 262144 from 47 GiB, the GPUs' memory summed.
  CHECK(served("")["target"] == 4096);
  CHECK(served("--memory 22GiB")["target"] == 4096);
  CHECK(served("--memory 24GiB")["target"] == 32768);
  // 2 × 24 GiB: 262144, which Ollama lowers to the file's n_ctx_train 40960. Its own default: no SRV504.
  const json lowered = served("--memory 24GiB --tp 2");
  CHECK(lowered["target"] == 40960);
  CHECK(with_code(lowered["diagnostics"], "SRV504").empty());
  const auto noted = run_cli("check --exit-zero -v " + modelfile + " --memory 24GiB --tp 2");
  CHECK_THAT(noted.err, Contains("Ollama's default num_ctx is 262144 tokens (for 48.00 GiB of GPU memory") &&
                            Contains("Ollama lowers its default num_ctx 262144 to the file's n_ctx_train 40960"));

  {
    ScopedEnv set("OLLAMA_CONTEXT_LENGTH", "16384");
    CHECK(served("--memory 80GiB")["target"] == 16384);
  }
  {
    ScopedEnv zero("OLLAMA_CONTEXT_LENGTH", "0");  // 0 is Ollama's default
    CHECK(served("--memory 24GiB")["target"] == 32768);
  }
  ScopedEnv suffixed("OLLAMA_CONTEXT_LENGTH", "32k");  // envconfig.Uint reads digits only
  const auto refused = run_cli("check --format json " + modelfile + " --memory 24GiB");
  CHECK(refused.exit_code == 1);
  const json diagnostics = json::parse(refused.out)["files"][0]["diagnostics"];
  REQUIRE(with_code(diagnostics, "SRV501").size() == 1);
  CHECK(names(diagnostics, "SRV501", "OLLAMA_CONTEXT_LENGTH=32k is not a whole number"));
  CHECK(json::parse(refused.out)["files"][0]["target"] == 32768);
}

TEST_CASE("check --serve with a command that starts no engine is a usage error naming the commands it reads",
          "[launch][cli]") {
  const auto run = run_cli("check --serve 'echo hello'");
  CHECK(run.exit_code == 2);
  CHECK_THAT(run.err, Contains("starts no engine ropelens knows") && Contains("vllm serve"));
  const auto none = run_cli("check");
  CHECK(none.exit_code == 2);
}

TEST_CASE("a vLLM launch at fit's length fits --memory, one block more does not: SRV505, fit and CTX210 agree",
          "[launch][cli][fit]") {
  TempDir dir;
  const std::string model = dir.file("qwen3-8b");
  fs::create_directories(model);
  for (const char* name : {"config.json", "model.safetensors.index.json"})
    fs::copy_file(source_path(std::string("testdata/rules/SRV505/bad-vllm-131072-in-24gib/") + name),
                  fs::path(model) / name);
  const auto fit = run_cli("fit " + model + " --memory 22GiB --engine vllm --format json");
  REQUIRE(fit.exit_code == 0);
  const std::int64_t longest = json::parse(fit.out)["engines"]["vllm"]["bf16"]["max_tokens"].get<std::int64_t>();
  CHECK(longest == 36288);  // floor(0.92 × 22 GiB) − 16,381,470,720 weight bytes, over 144 KiB a token, in 16s
  const auto launch = [&](std::int64_t tokens) {
    return serve(fmt::format("VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve {} --max-model-len {}", model, tokens),
                 "--memory 22GiB --select SRV505,CTX210 --stack vllm --exit-zero");
  };
  const Checked fits = launch(longest);
  CHECK(with_code(fits.diagnostics, "SRV505").empty());
  CHECK(with_code(fits.diagnostics, "CTX210").empty());
  const Checked over = launch(longest + 16);
  CHECK(with_code(over.diagnostics, "SRV505").size() == 1);
  CHECK(with_code(over.diagnostics, "CTX210").size() == 1);
}

TEST_CASE("a Compose file and a Kubernetes manifest are read as the images' entrypoints and the commands run them",
          "[launch][cli][manifest]") {
  const std::string llama31 =
      "--model " + source_path("testdata/configs/llama/llama-3.1-8b-instruct-bnb8bit-finetune.json");
  // SGLang's own examples: an entrypoint string with a folded command, and command and args lists.
  for (const std::string file : {"testdata/launch/sglang-compose.yaml", "testdata/launch/sglang-k8s.yaml"}) {
    INFO(file);
    const auto run = run_cli("check --format json " + source_path(file) + " " + llama31);
    INFO(run.err);
    CHECK(run.exit_code == 0);
    const json checked = json::parse(run.out)["files"][0];
    CHECK(checked["model_type"] == "llama");
    CHECK(checked["target"] == 131072);  // SGLang's derived length for Llama 3.1 (llama3 x8 from 8192)
    CHECK(checked["diagnostics"].empty());
  }

  TempDir dir;
  make_qwen3_hub(dir);
  ScopedEnv cache("HF_HUB_CACHE", dir.file("hub"));
  // vllm/vllm-openai runs `vllm serve` and the llama.cpp server image /app/llama-server; LLAMA_ARG_CTX_SIZE is -c.
  const auto compose = run_cli("check --format json " + source_path("testdata/launch/qwen3-compose.yaml") +
                               " --model " + source_path(kQwen3Gguf));
  INFO(compose.err);
  CHECK(compose.exit_code == 1);
  const json diagnostics = json::parse(compose.out)["files"][0]["diagnostics"];
  CHECK(with_code(diagnostics, "SRV502").empty());  // the environment lifts vLLM's limit
  REQUIRE(with_code(diagnostics, "CTX201").size() == 1);
  CHECK(with_code(diagnostics, "CTX201")[0]["line"] == 6);
  CHECK(with_code(diagnostics, "CTX201")[0]["facts"]["target"] == 131072);
  REQUIRE(with_code(diagnostics, "SRV504").size() == 1);
  CHECK(with_code(diagnostics, "SRV504")[0]["line"] == 11);
  CHECK(with_code(diagnostics, "SRV504")[0]["flag"] == "LLAMA_ARG_CTX_SIZE");
  CHECK(with_code(diagnostics, "SRV504")[0]["message"] ==
        "LLAMA_ARG_CTX_SIZE 32768 is split over 4 slots: each request gets a 8192-token slot, not 32768");

  // A container that runs a shell script: `exec vllm serve …` is the server's command.
  const auto deployment = run_cli("check --format json " + source_path("testdata/launch/qwen3-deployment.yaml"));
  INFO(deployment.err);
  CHECK(deployment.exit_code == 1);
  const json deployed = json::parse(deployment.out)["files"][0]["diagnostics"];
  REQUIRE(with_code(deployed, "SRV502").size() == 1);
  CHECK(with_code(deployed, "SRV502")[0]["line"] == 13);
  CHECK(with_code(deployed, "SRV506").size() == 1);
}

TEST_CASE("LLAMA_ARG_* variables are llama.cpp's flags, and a flag on the command line wins", "[launch][cli]") {
  const auto from_env =
      serve("LLAMA_ARG_CTX_SIZE=32768 LLAMA_ARG_N_PARALLEL=4 llama-server -m " + source_path(kQwen3Gguf));
  REQUIRE(with_code(from_env.diagnostics, "SRV504").size() == 1);
  CHECK(with_code(from_env.diagnostics, "SRV504")[0]["flag"] == "LLAMA_ARG_CTX_SIZE");
  const auto flag_wins =
      serve("LLAMA_ARG_CTX_SIZE=32768 llama-server -m " + source_path(kQwen3Gguf) + " -c 16384 -np 4");
  REQUIRE(with_code(flag_wins.diagnostics, "SRV504").size() == 1);
  CHECK(with_code(flag_wins.diagnostics, "SRV504")[0]["message"] ==
        "-c 16384 is split over 4 slots: each request gets a 4096-token slot, not 16384");
  const auto one_slot = serve("LLAMA_ARG_CTX_SIZE=32768 llama-server -m " + source_path(kQwen3Gguf));
  CHECK(with_code(one_slot.diagnostics, "SRV504").empty());
  CHECK(one_slot.file["target"] == 32768);
}

TEST_CASE("a launch manifest that cannot be read, or runs no engine, is one line naming the file and why",
          "[launch][cli][manifest]") {
  const TempDir dir;
  const auto check = [&](const std::string& name, const std::string& text) {
    write_file(dir.file(name), text);
    const auto run = run_cli("check " + dir.file(name));
    CHECK(run.exit_code == 2);
    return run.err;
  };
  CHECK_THAT(check("bad.yaml", "services:\n  a: [\n"),
             Contains("bad.yaml: cannot read it as a Compose file or Kubernetes manifest: line 3, column 1"));
  CHECK_THAT(
      check("redis.yml", "services:\n  cache:\n    image: redis\n"),
      Contains("redis.yml: 1 container and none starts an engine ropelens knows") && Contains("vllm/vllm-openai"));
  CHECK_THAT(
      check("twice.yaml", "services:\n  a:\n    image: vllm/vllm-openai\n    command: vllm serve Qwen/Qwen3-8B\n"),
      Contains("twice.yaml: line 4: service a repeats its image's entrypoint") &&
          Contains("'vllm serve vllm serve …'"));
  CHECK_THAT(check("map.yaml", "services:\n  a:\n    image: x\n    command: {a: 1}\n"),
             Contains("line 4: service a command is neither a string nor a list of strings"));
  // Hostile input: deep nesting is refused before libyaml's time grows with its square; aliases are never expanded.
  CHECK_THAT(check("deep.yaml", std::string(100000, '[') + std::string(100000, ']')),
             Contains("line 1: nested deeper than 64 levels"));
  std::string laughs = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 12; ++i) {
    laughs += fmt::format("a{}: &a{} [", i, i);
    for (int j = 0; j < 9; ++j) laughs += fmt::format("{}*a{}", j ? ", " : "", i - 1);
    laughs += "]\n";
  }
  CHECK_THAT(check("laughs.yaml", laughs), Contains("0 containers and none starts an engine"));
  CHECK_THAT(check("big.yaml", std::string(2u << 20, '#')), Contains("larger than a launch manifest can be"));
}

namespace {

const std::string kCardYarn = R"({"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768})";

std::vector<std::string> codes(const json& diagnostics) {
  std::vector<std::string> out;
  for (const auto& d : diagnostics)
    if (d["severity"] != "info") out.push_back(d["code"]);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string qwen3_config() { return source_path("testdata/configs/qwen/qwen3-8b.json"); }

}  // namespace

TEST_CASE("vLLM's flags by release: --rope-scaling as 0.8.5 serves it, refused from 0.11.1", "[launch][cli][release]") {
  const std::string card = "vllm serve ... --rope-scaling '" + kCardYarn + "' --max-model-len 131072";
  const std::string model = "--model " + qwen3_config();
  // 0.8.5 applies it to the HF config and derives original × factor = 131072: the card's recipe, nothing beyond
  // ROPE103 (no CTX202: the declared length is the one vLLM derives; no ROPE101: no engine of the stack reads the
  // factor as max/original).
  const auto v085 = serve(card, model + " --stack vllm@0.8.5");
  CHECK(codes(v085.diagnostics) == std::vector<std::string>{"ROPE103"});
  CHECK(v085.file["target"] == 131072);
  CHECK(codes(serve(card, model + " --stack vllm@0.11.0").diagnostics) == std::vector<std::string>{"ROPE103"});
  // The legacy "type" key is read as "rope_type"; one that contradicts it refuses to start.
  const std::string legacy = R"({"type":"yarn","factor":4.0,"original_max_position_embeddings":32768})";
  CHECK(codes(serve("vllm serve ... --rope-scaling '" + legacy + "' --max-model-len 131072",
                    model + " --stack vllm@0.8.5")
                  .diagnostics) == std::vector<std::string>{"ROPE103"});
  const auto conflict = serve(R"(vllm serve ... --rope-scaling '{"type":"linear","rope_type":"yarn","factor":4.0}')",
                              model + " --stack vllm@0.8.5");
  CHECK(names(conflict.diagnostics, "SRV501", "Found conflicts between 'rope_type'"));
  // 0.12.0 refuses the flag and says when it went and what to write instead.
  const auto v0120 = serve(card, model + " --stack vllm@0.12.0");
  REQUIRE(with_code(v0120.diagnostics, "SRV501").size() == 1);
  CHECK(with_code(v0120.diagnostics, "SRV501")[0]["message"] ==
        "--rope-scaling was removed in vLLM 0.11.1 (PR #28006): vLLM 0.12.0 refuses to start");
  CHECK(names(v0120.diagnostics, "SRV501", "--hf-overrides"));
  // A flag that came later is refused on an older release; argparse's unique prefix is accepted.
  CHECK(names(serve("vllm serve Qwen/Qwen3-8B --kv-cache-memory-bytes 8G", model + " --stack vllm@0.9.0").diagnostics,
              "SRV501", "came in vLLM"));
  CHECK(with_code(serve("vllm serve Qwen/Qwen3-8B --max-model 32768", model).diagnostics, "SRV501").empty());
}

TEST_CASE("vLLM's --hf-overrides by release: rope_scaling read before transformers v5, rope_parameters from 0.12.0",
          "[launch][cli][release]") {
  const std::string model = "--model " + qwen3_config();
  const std::string scaling =
      "vllm serve M --max-model-len 131072 --hf-overrides '{\"rope_scaling\":" + kCardYarn + "}'";
  // 0.15.0 runs transformers v4: patch_rope_parameters copies rope_scaling, and the length is original × factor.
  CHECK(codes(serve(scaling, model + " --stack vllm@0.15.0").diagnostics) == std::vector<std::string>{"ROPE103"});
  // The newest release ropelens places runs transformers v5: rope_scaling is set and never read.
  CHECK(with_code(serve(scaling, model).diagnostics, "SRV503").size() == 1);
  // rope_parameters came with 0.12.0: 0.11.0 never reads it.
  const std::string parameters =
      "vllm serve M --hf-overrides '{\"rope_parameters\":" + kCardYarn.substr(0, kCardYarn.size() - 1) +
      ",\"rope_theta\":1000000}}'";
  CHECK(names(serve(parameters, model + " --stack vllm@0.11.0").diagnostics, "SRV503", "rope_parameters came with"));
  CHECK(with_code(serve(parameters, model + " --stack vllm@0.12.0").diagnostics, "SRV503").empty());
  // FlexibleArgumentParser's dotted form sets one key.
  const auto dotted = serve("vllm serve M --hf-overrides.max_position_embeddings 65536", model);
  CHECK(dotted.file["target"] == 65536);
}

TEST_CASE("the default vLLM version is the newest release ropelens places, and vllm@main is an explicit choice",
          "[launch][cli][release]") {
  // vLLM's own context-extension docs (9aaf83ef): YaRN through rope_parameters and no max_position_embeddings.
  const std::string docs =
      "vllm serve Qwen/Qwen3-0.6B --hf-overrides '{\"rope_parameters\": {\"factor\": 4.0, "
      "\"original_max_position_embeddings\": 32768, \"rope_theta\": 1000000, \"rope_type\": "
      "\"yarn\"}}' --max-model-len 131072";
  const std::string model = "--model " + source_path("testdata/launch/corpus/models/Qwen--Qwen3-0.6B/config.json");
  // Releases up to 0.29 derive original × factor = 131072: the docs' line starts.
  CHECK(codes(serve(docs, model).diagnostics) == std::vector<std::string>{"ROPE103"});
  // vLLM main (PR #56446) derives max_position_embeddings, 40960, and refuses it.
  CHECK(with_code(serve(docs, model + " --stack vllm@main").diagnostics, "SRV502").size() == 1);
}

TEST_CASE("the Qwen3 card's SGLang recipe, with or without its variable, comes out with nothing beyond ROPE103",
          "[launch][cli]") {
  const std::string card =
      "python -m sglang.launch_server ... --json-model-override-args '{\"rope_scaling\":" + kCardYarn + "}'";
  const std::string model = "--model " + qwen3_config();
  const auto plain = serve(card, model);
  CHECK(codes(plain.diagnostics) == std::vector<std::string>{"ROPE103"});
  CHECK(plain.file["target"] == 40960);  // get_context_length drops the factor when original is given
  const auto allowed = serve("SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 " + card + " --context-length 131072", model);
  CHECK(codes(allowed.diagnostics) == std::vector<std::string>{"ROPE103"});
  CHECK(allowed.file["target"] == 131072);
  // ROPE103 quotes Qwen3's measurement for Qwen3 only.
  CHECK(names(plain.diagnostics, "ROPE103", "Arena-Hard"));
}

TEST_CASE("a docker run of the vLLM image, a systemd unit and ollama serve are checked at the length they serve",
          "[launch][cli][forms]") {
  TempDir dir;
  make_qwen3_hub(dir);
  ScopedEnv cache("HF_HUB_CACHE", dir.file("hub"));
  const auto docker = serve(
      "docker run --runtime nvidia --gpus all -v ~/.cache/huggingface:/root/.cache/huggingface \\\n"
      "  --env \"VLLM_ALLOW_LONG_MAX_MODEL_LEN=1\" -p 8000:8000 --ipc=host vllm/vllm-openai:v0.8.5 \\\n"
      "  --model Qwen/Qwen3-8B --rope-scaling '" +
      kCardYarn + "' --max-model-len 131072");
  INFO(docker.err);
  CHECK(codes(docker.diagnostics) == std::vector<std::string>{"ROPE103"});  // the tag's release: 0.8.5
  CHECK(docker.file["target"] == 131072);

  write_file(dir.file("vllm.service"),
             "[Unit]\nDescription=vLLM\n\n[Service]\nEnvironment=\"MODEL=Qwen/Qwen3-8B\" HF_HUB_OFFLINE=1\n"
             "ExecStart=/opt/venv/bin/vllm serve ${MODEL} \\\n  --max-model-len 32768 \\\n"
             "  --gpu-memory-utilization 0.9\nRestart=always\n");
  const auto unit = run_cli("check --format json " + dir.file("vllm.service"));
  INFO(unit.err);
  CHECK(unit.exit_code == 0);
  CHECK(json::parse(unit.out)["files"][0]["target"] == 32768);

  const std::string gguf = "--model " + source_path(kQwen3Gguf);
  const auto ollama = serve("OLLAMA_CONTEXT_LENGTH=8192 OLLAMA_NUM_CTX=4096 ollama serve", gguf);
  CHECK(ollama.file["target"] == 8192);
  REQUIRE(with_code(ollama.diagnostics, "SRV507").size() == 1);
  CHECK_THAT(with_code(ollama.diagnostics, "SRV507")[0]["message"].get<std::string>(),
             Contains("OLLAMA_NUM_CTX is not a variable Ollama reads"));
  // OLLAMA_NUM_PARALLEL keeps num_ctx per request and multiplies the cache llama-server holds.
  const auto parallel = run_cli("check -v --exit-zero --serve - " + gguf,
                                "OLLAMA_NUM_PARALLEL=4 OLLAMA_CONTEXT_LENGTH=8192 ollama serve");
  CHECK_THAT(parallel.err, Contains("Ollama asks llama-server for -c 32768 -np 4"));
  const auto unread = serve("VLLM_ALLOW_LONG_MAX_LEN=1 vllm serve Qwen/Qwen3-8B --max-model-len 32768");
  CHECK(names(unread.diagnostics, "SRV507", "did you mean VLLM_ALLOW_LONG_MAX_MODEL_LEN?"));
}

TEST_CASE("Ollama releases under --stack ollama@RELEASE: num_ctx's default and the variables each reads",
          "[launch][cli][ollama]") {
  const std::string gguf = "--model " + source_path(kQwen3Gguf);
  const auto target = [&](const std::string& line, const std::string& stack) {
    return serve(line, gguf + " --stack " + stack).file["target"];
  };
  // api/types.go DefaultOptions NumCtx 2048 before v0.5.13; envconfig's 2048 until v0.6.6, 4096 from v0.6.7; tiers
  // by the GPUs' memory from v0.15.5 (4096 without --memory).
  CHECK(target("ollama serve", "ollama@0.1.26") == 2048);
  CHECK(target("ollama serve", "ollama@0.6.6") == 2048);
  CHECK(target("ollama serve", "ollama@0.6.7") == 4096);
  CHECK(target("ollama serve", "ollama@0.15.4 --memory 24GiB") == 4096);
  CHECK(target("ollama serve", "ollama@0.15.5 --memory 24GiB") == 32768);
  CHECK(target("ollama serve", "ollama --memory 24GiB") == 32768);  // the newest release
  const auto noted = run_cli("check -v --exit-zero --serve - " + gguf + " --stack ollama@0.3.11", "ollama serve");
  CHECK_THAT(noted.err, Contains("Ollama's default num_ctx is 2048 tokens (Ollama's default before v0.5.13: "
                                 "api/types.go DefaultOptions"));

  // OLLAMA_CONTEXT_LENGTH came in 0.5.13: 0.5.12 ignores it, and says so.
  const std::string line = "OLLAMA_CONTEXT_LENGTH=8192 ollama serve";
  CHECK(target(line, "ollama@0.5.13") == 8192);
  const auto old = serve(line, gguf + " --stack ollama@0.5.12");
  CHECK(old.file["target"] == 2048);
  REQUIRE(with_code(old.diagnostics, "SRV507").size() == 1);
  CHECK(names(old.diagnostics, "SRV507", "OLLAMA_CONTEXT_LENGTH is not a variable Ollama 0.5.12 reads"));
  CHECK(names(old.diagnostics, "SRV507", "came in Ollama 0.5.13"));
  // OLLAMA_NUM_CTX (ollama/ollama#9519) stands for it: no did-you-mean of a variable the release lacks.
  const auto num_ctx = serve("OLLAMA_NUM_CTX=8192 ollama serve", gguf + " --stack ollama@0.5.12");
  CHECK(num_ctx.file["target"] == 2048);
  CHECK(names(num_ctx.diagnostics, "SRV507",
              "OLLAMA_CONTEXT_LENGTH, the variable OLLAMA_NUM_CTX stands for, came "
              "in Ollama 0.5.13"));
  // OLLAMA_NUM_PARALLEL came in 0.1.33.
  CHECK(with_code(serve("OLLAMA_NUM_PARALLEL=2 ollama serve", gguf + " --stack ollama@0.1.33").diagnostics, "SRV507")
            .empty());
  CHECK(with_code(serve("OLLAMA_NUM_PARALLEL=2 ollama serve", gguf + " --stack ollama@0.1.26").diagnostics, "SRV507")
            .size() == 1);

  // The stack is written back as given, and a release that is not one is refused.
  const auto bad = run_cli("check --serve - " + gguf + " --stack ollama@b4000", "ollama serve");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Contains("'ollama@b4000' names no ollama release"));
}

TEST_CASE("ollama run and ollama launch are clients: a server variable on their line is never read",
          "[launch][cli][ollama]") {
  const std::string gguf = "--model " + source_path(kQwen3Gguf);
  for (const std::string line : {"OLLAMA_CONTEXT_LENGTH=64000 ollama run qwen3:8b",
                                 "OLLAMA_CONTEXT_LENGTH=64000 ollama launch codex --model qwen3:8b"}) {
    INFO(line);
    const auto client = serve(line, gguf);
    CHECK(client.file["target"] == 4096);  // the server's default (no --memory: the smallest tier)
    REQUIRE(with_code(client.diagnostics, "SRV501").size() == 1);
    CHECK(names(client.diagnostics, "SRV501", "is a client of the server already running"));
    CHECK(names(client.diagnostics, "SRV501", "OLLAMA_CONTEXT_LENGTH=64000 ollama serve"));
  }
  // OLLAMA_HOST is the client's own: nothing to say.
  const auto host = serve("OLLAMA_HOST=127.0.0.1:11500 ollama run qwen3:8b", gguf);
  CHECK(host.diagnostics.empty());
  CHECK(host.exit_code == 0);
  // The server's own line reads it.
  CHECK(serve("OLLAMA_CONTEXT_LENGTH=16384 ollama serve", gguf).file["target"] == 16384);
}

TEST_CASE("ollama serve takes no flags: llama-server's flags after it are refused, not read", "[launch][cli][ollama]") {
  const std::string gguf = "--model " + source_path(kQwen3Gguf);
  const auto flags = serve("ollama serve --model qwen3:8b --ctx-size 2048 --parallel", gguf);
  REQUIRE(with_code(flags.diagnostics, "SRV501").size() == 1);
  CHECK(with_code(flags.diagnostics, "SRV501")[0]["message"].get<std::string>().starts_with(
      "ollama serve takes no arguments and no flags"));
  CHECK(names(flags.diagnostics, "SRV501", "unknown flag: --model"));
  CHECK(names(flags.diagnostics, "SRV501", "--model, --ctx-size, --parallel are llama-server's flags"));
  CHECK(flags.exit_code == 1);
  // Without --model on the ropelens line, the refused --model names the model the line means (from the Ollama store).
  CHECK(serve("ollama serve", gguf).diagnostics.empty());
}

TEST_CASE("the Ollama image, uv run -m, and launch files known by their first line are read as launches",
          "[launch][cli][forms]") {
  TempDir dir;
  const std::string gguf = "--model " + source_path(kQwen3Gguf);
  // ollama/ollama's ENTRYPOINT /bin/ollama with its CMD serve: a docker run without arguments serves.
  ScopedEnv unset("OLLAMA_CONTEXT_LENGTH", "");
  const auto image = serve("docker run -d -e OLLAMA_CONTEXT_LENGTH=8192 -p 11434:11434 ollama/ollama", gguf);
  INFO(image.err);
  CHECK(image.file["target"] == 8192);
  // A drop-in quoted without its [Service] header and with a name that says nothing: still a unit.
  write_file(dir.file("override.conf"), "Environment=\"OLLAMA_NUM_CTX=4096\"\n");
  const auto drop_in = run_cli("check --format json " + dir.file("override.conf") + " " + gguf);
  INFO(drop_in.out);
  CHECK(names(json::parse(drop_in.out)["files"][0]["diagnostics"], "SRV507", "OLLAMA_NUM_CTX"));
  // A zsh script is a script by its #! line.
  write_file(dir.file("run.zsh"), "#!/usr/bin/env zsh\nllama-server -m x.gguf -c 4096\n");
  const auto script = run_cli("check --format json " + dir.file("run.zsh") + " " + gguf);
  INFO(script.out);
  CHECK(json::parse(script.out)["files"][0]["target"] == 4096);
  // SGLang 0.4.10 served a longer --context-length by default (SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN true).
  const std::string qwen = "--model " + source_path("testdata/configs/qwen/qwen3-8b.json");
  const auto sglang = serve("uv run -m sglang.launch_server --model-path Qwen/Qwen3-8B --context-length 131072",
                            qwen + " --stack sglang@0.4.10 --exit-zero");
  CHECK(with_code(sglang.diagnostics, "SRV502").empty());
  CHECK(with_code(sglang.diagnostics, "CTX202").size() == 1);
  const auto refused = serve("python -m sglang.launch_server --model-path Qwen/Qwen3-8B --context-length 131072",
                             qwen + " --stack sglang@0.5.2 --exit-zero");
  CHECK(with_code(refused.diagnostics, "SRV502").size() == 1);
}

TEST_CASE("llama-server's slots: -c 0 -np 4 names the per-slot share, -np left out shares one pool",
          "[launch][cli][llama.cpp]") {
  const std::string gguf = source_path(kQwen3Gguf);
  const auto zero = serve("llama-server -m " + gguf + " -c 0 -np 4");
  REQUIRE(with_code(zero.diagnostics, "SRV504").size() == 1);
  CHECK(with_code(zero.diagnostics, "SRV504")[0]["message"] ==
        "-c 0 is the file's training context, n_ctx_train 40960, split over 4 slots: each request gets a "
        "10240-token slot, a 1/4 share");
  CHECK(zero.file["target"] == 10240);
  // Left out, -np is auto: 4 slots on one unified pool, each request up to all of -c (PR #16736).
  const auto pool = serve("llama-server -m " + gguf + " -c 32768");
  CHECK(with_code(pool.diagnostics, "SRV504").empty());
  CHECK(pool.file["target"] == 32768);
  // … before build b7079 one slot, the same length.
  CHECK(serve("llama-server -m " + gguf + " -c 32768", "--stack llama.cpp@b6000").file["target"] == 32768);
  CHECK(with_code(serve("llama-server -m " + gguf + " -c 32768 -np 4 -kvu").diagnostics, "SRV504").empty());
}

TEST_CASE("llama.cpp's -fa takes a value from b6327: a bare -fa swallows the next flag", "[launch][cli][llama.cpp]") {
  const std::string line = "llama-server -m " + source_path(kQwen3Gguf) + " -fa -ub 1024 -c 8192";
  const auto now = serve(line);
  REQUIRE(with_code(now.diagnostics, "SRV501").size() == 1);
  CHECK_THAT(with_code(now.diagnostics, "SRV501")[0]["message"].get<std::string>(),
             Contains("a bare -fa swallows the next word, '-ub'") && Contains("unknown value for --flash-attn"));
  CHECK(with_code(serve(line, "--stack llama.cpp@b5000").diagnostics, "SRV501").empty());
  CHECK(
      with_code(serve("llama-server -m " + source_path(kQwen3Gguf) + " -fa on -c 8192").diagnostics, "SRV501").empty());
  // The unified binary's `llama serve` is llama-server.
  CHECK(serve("llama serve -m " + source_path(kQwen3Gguf) + " -c 8192").file["target"] == 8192);
}

TEST_CASE("llama.cpp refuses a quantized V cache without flash attention: off, a switch left out, or auto on CUDA",
          "[launch][cli][llama.cpp]") {
  const std::string server = "llama-server -m " + source_path(kQwen3Gguf) + " -c 8192 ";
  const auto refused = [&](const std::string& flags, const std::string& extra = "") {
    return with_code(serve(server + flags, extra).diagnostics, "SRV501");
  };
  // Before b6327 -fa is an off-by-default switch: -ctv q8_0 alone is refused, with -fa it is not (#10378, b4120).
  const auto old = refused("-ctk q8_0 -ctv q8_0", "--stack llama.cpp@b4120");
  REQUIRE(old.size() == 1);
  CHECK_THAT(old[0]["message"].get<std::string>(),
             Contains("-ctv q8_0 without -fa") && Contains("V cache quantization requires flash_attn"));
  CHECK(refused("-ctk q8_0 -ctv q8_0 -fa", "--stack llama.cpp@b4120").empty());
  CHECK(refused("-ctk q8_0", "--stack llama.cpp@b4120").empty());  // a quantized K alone needs no flash attention
  // From b6327 -fa auto: a matching q8_0 (or q4_0) pair keeps flash attention on CUDA, an f16 K with a q4_0 V
  // turns it off (#28524), and -fa off refuses any quantized V.
  CHECK(refused("-ctk q8_0 -ctv q8_0").empty());
  const auto asymmetric = refused("--cache-type-v q4_0");
  REQUIRE(asymmetric.size() == 1);
  CHECK_THAT(asymmetric[0]["message"].get<std::string>(),
             Contains("--cache-type-v q4_0 with -ctk f16 and -fa auto") && Contains("turns flash attention off"));
  CHECK_THAT(asymmetric[0]["help"].get<std::string>(), Contains("-ctk q4_0 -ctv q4_0"));
  CHECK(refused("--cache-type-v q4_0 -fa on").empty());
  REQUIRE(refused("-ctk q8_0 -ctv q8_0 -fa off").size() == 1);
  CHECK_THAT(refused("-ctk q8_0 -ctv q8_0 -fa off")[0]["message"].get<std::string>(),
             Contains("quantized V cache was requested, but this requires Flash Attention"));
}

TEST_CASE("llama-server caps a slot at n_ctx_train from build b6925 (cd5e3b575), not before",
          "[launch][cli][llama.cpp]") {
  const std::string line = "llama-server -m " + source_path(kQwen3Gguf) + " -c 131072";
  const auto capped = serve(line, "--stack llama.cpp@b6925");
  CHECK(with_code(capped.diagnostics, "SRV504").size() == 1);
  CHECK(capped.file["target"] == 40960);
  const auto before = serve(line, "--stack llama.cpp@b4112");
  CHECK(with_code(before.diagnostics, "SRV504").empty());
  CHECK(before.file["target"] == 131072);  // one slot (-np 1 then) of all of -c, past the training context
  CHECK(!with_code(before.diagnostics, "CTX201").empty());
}

TEST_CASE("YaRN flags without --yarn-orig-ctx on a file without the original key: no CTX201",
          "[launch][cli][llama.cpp]") {
  // n_ctx_orig_yarn is the file's n_ctx_train, 40960, fixed before PR #28030 re-adjusts n_ctx_train to 163840: the
  // re-adjusted length is not YaRN's original.
  const auto run = serve("llama-server -m " + source_path(kQwen3Gguf) + " -c 131072 --rope-scaling yarn --rope-scale 4",
                         "--fail-on error");
  CHECK(with_code(run.diagnostics, "CTX201").empty());
  CHECK(with_code(run.diagnostics, "SRV504").empty());
  CHECK(run.file["target"] == 131072);
  CHECK(run.exit_code == 0);
}

TEST_CASE("a placeholder model or a flag-only fragment is checked with --model and --stack", "[launch][cli][forms]") {
  const auto placeholder = run_cli("check --serve 'vllm serve <model> --max-model-len 32768'");
  CHECK(placeholder.exit_code == 2);
  CHECK_THAT(placeholder.err, Contains("'<model>', is a recipe's placeholder: give check --model PATH|ID"));
  const auto fragment =
      serve("--max-model-len 32768 --gpu-memory-utilization 0.9", "--stack vllm --model " + qwen3_config());
  CHECK(fragment.exit_code == 0);
  CHECK(fragment.file["target"] == 32768);
  const auto unknown = run_cli("check --serve '--max-model-len 32768' --model " + qwen3_config());
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err, Contains("is a flag-only fragment: give --stack ENGINE"));
}

TEST_CASE("every format is a valid document when a --serve command cannot be read, and the error is plain text",
          "[launch][cli][output]") {
  const auto as_json = run_cli("check --serve 'foo bar' --format json");
  CHECK(as_json.exit_code == 2);
  const json document = json::parse(as_json.out);
  REQUIRE(document["files"].size() == 1);
  CHECK_THAT(document["files"][0]["error"].get<std::string>(), Contains("'foo bar' starts no engine ropelens knows"));
  const auto as_sarif = run_cli("check --serve 'foo bar' --format sarif");
  CHECK(as_sarif.exit_code == 2);
  CHECK(json::parse(as_sarif.out)["runs"].is_array());
  CHECK_THAT(as_sarif.out, Contains("starts no engine ropelens knows"));
  const auto lines = run_cli("check --serve - --format json", "foo \\\n  bar\nbaz");
  CHECK(lines.exit_code == 2);
  CHECK(lines.out.find("\\u000a") == std::string::npos);
  CHECK(lines.err.find("\\u000a") == std::string::npos);
  // A systemd override not named as one is not "not valid JSON at byte 2".
  TempDir dir;
  write_file(dir.file("override.conf"), "[Service]\nEnvironment=\"OLLAMA_NUM_CTX=4096\"\n");
  const auto override_file = run_cli("check " + dir.file("override.conf"));
  CHECK(override_file.exit_code == 2);
  CHECK(override_file.err.find("not valid JSON at byte") == std::string::npos);
  // Its first line says it is a unit's drop-in: read as one (ollama serve, whose model --model names).
  CHECK_THAT(override_file.err, Contains("give check --model"));
}

TEST_CASE("check --serve on fit's printed vLLM line passes at the memory fit was given, --tp 2 in the line",
          "[launch][cli][fit]") {
  TempDir dir;
  const std::string model = dir.file("qwen3-8b");
  fs::create_directories(model);
  for (const char* name : {"config.json", "model.safetensors.index.json"})
    fs::copy_file(source_path(std::string("testdata/rules/SRV505/bad-vllm-131072-in-24gib/") + name),
                  fs::path(model) / name);
  const auto fit = run_cli("fit " + model + " --memory 10GiB --tp 2 --engine vllm --format json");
  REQUIRE(fit.exit_code == 0);
  const json bf16 = json::parse(fit.out)["engines"]["vllm"]["bf16"];
  const std::string line = bf16["serve"];
  CHECK_THAT(line, Contains("--tensor-parallel-size 2"));
  const auto fits = serve(line, "--memory 10GiB --stack vllm");
  INFO(line);
  CHECK(with_code(fits.diagnostics, "CTX210").empty());
  CHECK(with_code(fits.diagnostics, "SRV505").empty());
  CHECK(fits.exit_code == 0);
  // One block more does not fit, and both rules say so from the one budget.
  const std::int64_t longest = bf16["max_tokens"];
  std::string over = line;
  over.replace(over.find(std::to_string(longest)), std::to_string(longest).size(), std::to_string(longest + 16));
  const auto too_long = serve(over, "--memory 10GiB --stack vllm --exit-zero");
  CHECK(with_code(too_long.diagnostics, "CTX210").size() == 1);
  CHECK(with_code(too_long.diagnostics, "SRV505").size() == 1);
}

TEST_CASE("an Ollama Modelfile's RoPE parameters and unknown parameters are refused as ollama create refuses them",
          "[launch][cli][ollama]") {
  TempDir dir;
  fs::copy_file(source_path(kQwen3Gguf), dir.file("qwen3-8b.gguf"));
  write_file(dir.file("Modelfile"),
             "FROM ./qwen3-8b.gguf\nPARAMETER num_ctx 16384\nPARAMETER rope_frequency_base 1000000\n"
             "PARAMETER temprature 0.6\nPARAMETER mirostat 1\n");
  ScopedEnv unset("OLLAMA_CONTEXT_LENGTH", "");
  const auto run = run_cli("check --format json " + dir.file("Modelfile"));
  const json checked = json::parse(run.out)["files"][0];
  CHECK(checked["target"] == 16384);
  CHECK(names(checked["diagnostics"], "SRV501", "Ollama removed its RoPE parameters"));
  CHECK(names(checked["diagnostics"], "SRV501", "did you mean temperature?"));
  CHECK(names(checked["diagnostics"], "SRV503", "PARAMETER mirostat is deprecated"));
}

TEST_CASE("a launch line is judged by its engine's views: no transformers ENG302, angles from vLLM's dynamic NTK",
          "[launch][cli][engine-views]") {
  const std::string llama31 =
      "--model " + source_path("testdata/configs/llama/llama-3.1-8b-instruct-bnb8bit-finetune.json");
  // vllm#10537: --rope-scaling replaces Llama 3.1's llama3 scaling by dynamic NTK x8. vLLM 0.6.4 runs it static at
  // max_position_embeddings × 8, so the slow pairs at 120000 stay within the angles training saw; transformers'
  // dynamic NTK would leave them unscaled below 131072 (CTX201), and its frequencies differ from vLLM's (ENG302), but
  // this line runs vLLM only.
  const std::string line =
      R"(python -m vllm.entrypoints.openai.api_server --max-model-len 120000 --rope-scaling '{"factor": 8.0, "type": "dynamic"}')";
  const auto launched = serve(line, llama31 + " --stack vllm@0.6.4");
  INFO(launched.err);
  CHECK(codes(launched.diagnostics) == std::vector<std::string>{"ENG305", "ROPE104"});
  CHECK(launched.file["target"] == 120000);
  // The comparison is still shown, as information: transformers' view is compared, not deployed.
  REQUIRE(with_code(launched.diagnostics, "ENG302").size() == 1);
  CHECK(with_code(launched.diagnostics, "ENG302")[0]["severity"] == "info");
  // The same dict on the config, checked for the default stack (transformers among it), keeps both findings.
  const auto config = run_cli("check --format json --target 120000 " +
                              source_path("testdata/configs/llama/llama-3.1-8b-instruct-bnb8bit-finetune.json") +
                              R"( --set '/rope_scaling={"rope_type":"dynamic","factor":8.0}')");
  INFO(config.err);
  const json config_findings = json::parse(config.out)["files"][0]["diagnostics"];
  CHECK(with_code(config_findings, "CTX201").size() == 1);
  CHECK(with_code(config_findings, "ENG302").size() == 1);
  CHECK(with_code(config_findings, "ENG302")[0]["severity"] == "warning");
}

TEST_CASE("CTX201 on a launch line names the engine whose frequencies it follows when they are not transformers'",
          "[launch][cli][engine-views]") {
  // vLLM's recipe for Qwen3.5/3.6: YaRN x4 on 262144 through --hf-overrides. vLLM's MRoPE + YaRN computes the
  // correction range on 4 x 262144 tokens, so pairs 22-23 stay unscaled and at 1010000 tokens leave their angles.
  const std::string overrides =
      R"('{"text_config": {"rope_parameters": {"mrope_interleaved": true, "mrope_section": [11, 11, 10], )"
      R"("rope_type": "yarn", "rope_theta": 10000000, "partial_rotary_factor": 0.25, "factor": 4.0, )"
      R"("original_max_position_embeddings": 262144}}}')";
  const auto launched = serve("vllm serve Qwen/Qwen3.6-27B --max-model-len 1010000 --hf-overrides " + overrides,
                              "--model " + source_path("testdata/hub/qwen/qwen3.6-27b.json"));
  INFO(launched.err);
  const auto unseen = with_code(launched.diagnostics, "CTX201");
  REQUIRE(unseen.size() == 1);
  CHECK(unseen[0]["facts"]["out_of_range_pairs"] == json::array({22, 23}));
  CHECK_THAT(unseen[0]["message"].get<std::string>(), Catch::Contains("(with vLLM "));
  // Where vLLM computes transformers' frequencies (Qwen3's YaRN card recipe), the message names no engine.
  const auto card = serve(
      R"(vllm serve Qwen/Qwen3-8B --max-model-len 262144 --hf-overrides '{"rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}')",
      "--model " + source_path("testdata/configs/qwen/qwen3-8b.json"));
  INFO(card.err);
  for (const json& finding : with_code(card.diagnostics, "CTX201"))
    CHECK_THAT(finding["message"].get<std::string>(), !Catch::Contains("(with "));
}

TEST_CASE("a vLLM line whose tensor parallelism does not divide the attention heads cannot load: ENG306",
          "[launch][cli][parallel]") {
  const std::string gemma = "--model " + source_path("testdata/hub/gemma/gemma-3-27b-it.json") + " --stack vllm@0.8.5";
  // gpustack#2259: Gemma 3 27B has 32 attention heads; ModelConfig.verify_with_parallel_config refuses TP 3.
  const auto tp3 = serve("vllm serve m --max-model-len 8192 --tensor-parallel-size 3", gemma);
  REQUIRE(with_code(tp3.diagnostics, "ENG306").size() == 1);
  CHECK(with_code(tp3.diagnostics, "ENG306")[0]["flag"] == "--tensor-parallel-size");
  CHECK(names(tp3.diagnostics, "ENG306",
              "Total number of attention heads (32) must be divisible by tensor parallel "
              "size (3)"));
  CHECK(names(tp3.diagnostics, "ENG306", "1, 2, 4, 8, 16, 32"));
  CHECK(with_code(serve("vllm serve m --max-model-len 8192 -tp 4", gemma).diagnostics, "ENG306").empty());
  CHECK(with_code(serve("vllm serve m --max-model-len 8192", gemma).diagnostics, "ENG306").empty());
}

TEST_CASE("vLLM's flags back to its first releases: --engine-use-ray taken by 0.3.0, refused from 0.6.3",
          "[launch][cli][release]") {
  const std::string mistral = "--model " + source_path("testdata/configs/mistral/mistral-7b-instruct-v0.2.json");
  const std::string line =
      "python -m vllm.entrypoints.openai.api_server --host=0.0.0.0 --port=5000 "
      "--tensor-parallel-size 2 --engine-use-ray --download-dir=/data";
  CHECK(with_code(serve(line, mistral + " --stack vllm@0.3.0").diagnostics, "SRV501").empty());
  CHECK(with_code(serve(line, mistral + " --stack vllm@0.2.7").diagnostics, "SRV501").empty());
  const auto v080 = serve(line, mistral + " --stack vllm@0.8.0");
  REQUIRE(with_code(v080.diagnostics, "SRV501").size() == 1);
  CHECK(names(v080.diagnostics, "SRV501", "--engine-use-ray was removed in vLLM 0.6.3"));
  // --kv-cache-dtype came in 0.3.0 (vllm/engine/arg_utils.py @1af090b57): 0.2.7 refuses it.
  CHECK(names(serve("vllm serve m --kv-cache-dtype fp8_e5m2", mistral + " --stack vllm@0.2.7").diagnostics, "SRV501",
              "came in vLLM 0.3.0"));
}

TEST_CASE("production-stack Helm values are read as the chart renders each modelSpec into vllm serve",
          "[launch][cli][manifest]") {
  const std::string corpus = source_path("testdata/launch/corpus/files/");
  // Qwen2.5-7B-Instruct with its index (metadata.total_size 15231233024, the shards absent): the weights' size known.
  TempDir dir;
  write_file(dir.file("qwen/config.json"), read_file(source_path("testdata/hub/qwen/qwen2.5-7b-instruct.json")));
  write_file(
      dir.file("qwen/model.safetensors.index.json"),
      R"({"metadata": {"total_size": 15231233024}, "weight_map": {"lm_head.weight": "model-00004-of-00004.safetensors"}})");
  const std::string qwen = " --model " + dir.file("qwen");
  // values-25: repository:tag v0.8.5, tensorParallelSize 2, maxModelLen 8192, gpuMemoryUtilization 0.9 on 16 GiB
  // per GPU: the chart's --tensor-parallel-size 2 --max-model-len 8192 --gpu_memory_utilization 0.9 fit, clean.
  const auto tp2 = run_cli("check --format json " + corpus + "values-25-v100-multi-gpu-tp2.yaml" + qwen +
                           " --stack vllm@0.8.5 --memory 16GiB");
  INFO(tp2.err);
  CHECK(tp2.exit_code == 0);
  const json served = json::parse(tp2.out)["files"][0];
  CHECK(served["target"] == 8192);
  CHECK(served["diagnostics"].empty());
  // With half the memory the two ranks cannot hold the weights and the cache: the chart's TP 2 and 0.9 are read.
  const auto small = run_cli("check --format json " + corpus + "values-25-v100-multi-gpu-tp2.yaml" + qwen +
                             " --stack vllm@0.8.5 --memory 6GiB");
  CHECK(!with_code(json::parse(small.out)["files"][0]["diagnostics"], "SRV505").empty());
  // values-02: extraArgs are appended verbatim; --disable-log-requests is gone from today's image (latest).
  const auto basic = run_cli("check --format json " + corpus + "values-02-basic-config.yaml --model " +
                             source_path("testdata/configs/llama/llama-3.1-8b-instruct-bnb8bit-finetune.json"));
  INFO(basic.err);
  CHECK(basic.exit_code == 1);
  const json basic_file = json::parse(basic.out)["files"][0];
  CHECK(basic_file["target"] == 4096);
  REQUIRE(with_code(basic_file["diagnostics"], "SRV501").size() == 1);
  CHECK(with_code(basic_file["diagnostics"], "SRV501")[0]["flag"] == "--disable-log-requests");
}
