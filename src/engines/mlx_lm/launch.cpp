// `mlx_lm.server --model M …` and `mlx_lm.generate --model M --max-kv-size N …` as MLX-LM v0.32.0 reads them
// (docs/engines.md, "MLX-LM"): the programs are the console scripts of setup.py (`mlx_lm.server`, `mlx_lm.generate`),
// `python -m mlx_lm server|generate` and `mlx_lm server|generate` (mlx_lm/cli.py), and `python -m mlx_lm.server`
// (which prints that it is deprecated and runs the same main). Both parse with argparse (allow_abbrev on; an unknown
// flag refuses to start) over the flags of mlx_lm/server.py and mlx_lm/generate.py @d78bf58e:
// - mlx_lm.server derives no length and takes no length flag: each request gets an unbounded KVCache
//   (models/cache.py make_prompt_cache), so the context is whatever the client sends;
// - mlx_lm.generate --max-kv-size N makes every layer's cache a RotatingKVCache(max_size=N, keep=4), which overwrites
//   the oldest tokens once full instead of refusing (a model with its own make_cache keeps its cache);
// - `lms load MODEL --context-length N` is LM Studio's (an MLX model runs MLX-LM's model files in mlx-engine).
#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <fmt/format.h>

#include "mlx_lm.hpp"
#include "ropelens/engines/launch.hpp"

namespace ropelens::engine_detail {
namespace mlx_lm_launch {

using namespace launch_detail;

// mlx_lm/server.py main() @d78bf58e.
constexpr FlagRelease kServerFlags[] = {
    {"--model", "", ""},
    {"--adapter-path", "", ""},
    {"--host", "", ""},
    {"--port", "", ""},
    {"--allowed-origins", "", ""},
    {"--draft-model", "", ""},
    {"--num-draft-tokens", "", ""},
    {"--trust-remote-code", "", ""},
    {"--log-level", "", ""},
    {"--chat-template", "", ""},
    {"--use-default-chat-template", "", ""},
    {"--temp", "", ""},
    {"--top-p", "", ""},
    {"--top-k", "", ""},
    {"--min-p", "", ""},
    {"--max-tokens", "", ""},
    {"--chat-template-args", "", ""},
    {"--decode-concurrency", "", ""},
    {"--prompt-concurrency", "", ""},
    {"--prefill-step-size", "", ""},
    {"--prompt-cache-size", "", ""},
    {"--prompt-cache-bytes", "", ""},
    {"--pipeline", "", ""},
    {"--help", "", ""},
    {"-h", "", ""},
};

// mlx_lm/generate.py setup_arg_parser() @d78bf58e.
constexpr FlagRelease kGenerateFlags[] = {
    {"--model", "", ""},
    {"--trust-remote-code", "", ""},
    {"--adapter-path", "", ""},
    {"--extra-eos-token", "", ""},
    {"--system-prompt", "", ""},
    {"--prompt", "", ""},
    {"-p", "", ""},
    {"--prefill-response", "", ""},
    {"--max-tokens", "", ""},
    {"-m", "", ""},
    {"--temp", "", ""},
    {"--top-p", "", ""},
    {"--min-p", "", ""},
    {"--top-k", "", ""},
    {"--xtc-probability", "", ""},
    {"--xtc-threshold", "", ""},
    {"--min-tokens-to-keep", "", ""},
    {"--seed", "", ""},
    {"--ignore-chat-template", "", ""},
    {"--use-default-chat-template", "", ""},
    {"--chat-template-config", "", ""},
    {"--verbose", "", ""},
    {"--max-kv-size", "", ""},
    {"--prompt-cache-file", "", ""},
    {"--quantize-activations", "", ""},
    {"-qa", "", ""},
    {"--kv-bits", "", ""},
    {"--kv-group-size", "", ""},
    {"--quantized-kv-start", "", ""},
    {"--draft-model", "", ""},
    {"--num-draft-tokens", "", ""},
    {"--help", "", ""},
    {"-h", "", ""},
};

// lms load's options: src/subcommands/load.ts, createClient.ts and logLevel.ts of lmstudio-ai/lms @07b7252d.
constexpr FlagRelease kLmsLoadFlags[] = {
    {"--gpu", "", ""},
    {"--context-length", "", ""},
    {"-c", "", ""},
    {"--parallel", "", ""},
    {"--ttl", "", ""},
    {"--speculative-draft-mtp", "", ""},
    {"--no-speculative-draft-mtp", "", ""},
    {"--speculative-draft-simple", "", ""},
    {"--speculative-draft-model", "", ""},
    {"--speculative-draft-max-tokens", "", ""},
    {"--speculative-draft-min-tokens", "", ""},
    {"--speculative-draft-min-continue-probability", "", ""},
    {"--exact", "", ""},
    {"--local", "", ""},
    {"--identifier", "", ""},
    {"--estimate-only", "", ""},
    {"--yes", "", ""},
    {"-y", "", ""},
    {"--host", "", ""},
    {"--port", "", ""},
    {"--log-level", "", ""},
    {"--quiet", "", ""},
    {"--verbose", "", ""},
    {"--help", "", ""},
    {"-h", "", ""},
};
// The options of lms load that take no value: the word after one is the model key.
constexpr std::string_view kLmsSwitches[] = {"--speculative-draft-mtp",
                                             "--no-speculative-draft-mtp",
                                             "--speculative-draft-simple",
                                             "--exact",
                                             "--local",
                                             "--estimate-only",
                                             "--yes",
                                             "-y",
                                             "--quiet",
                                             "--verbose",
                                             "--help",
                                             "-h"};

constexpr std::int64_t kRotatingKeep = 4;  // make_prompt_cache: RotatingKVCache(max_size=max_kv_size, keep=4)

enum class Program { none, server, generate };

// The program a command runs and the index of its first argument.
Program program_of(const std::vector<std::string>& w, std::size_t& start) {
  if (w.empty()) return Program::none;
  const std::string first = program_name(w[0]);
  const auto named = [](std::string_view sub) {
    return sub == "server" ? Program::server : sub == "generate" ? Program::generate : Program::none;
  };
  if (first == "mlx_lm.server" || first == "mlx_lm.generate") {
    start = 1;
    return named(std::string_view(first).substr(7));
  }
  if (first == "mlx_lm" && w.size() >= 2) {
    start = 2;
    return named(w[1]);
  }
  if (first.starts_with("python") && w.size() >= 3 && w[1] == "-m") {
    if (w[2] == "mlx_lm.server" || w[2] == "mlx_lm.generate") {
      start = 3;
      return named(std::string_view(w[2]).substr(7));
    }
    if (w[2] == "mlx_lm" && w.size() >= 4) {
      start = 4;
      return named(w[3]);
    }
  }
  return Program::none;
}

bool parse_flag(Launch& launch, const std::vector<std::string>& words, const std::string& flag, std::size_t& i) {
  if (flag == "--model") {
    if (auto value = value_of(words, i, flag, launch)) launch.model = *value;
  } else if (flag == "--max-kv-size") {
    if (auto value = value_of(words, i, flag, launch))
      if (auto tokens = token_value(launch, flag, *value, false)) {
        launch.cache_tokens = *tokens;
        launch.notes.push_back(fmt::format(
            "--max-kv-size {} makes every layer's cache a RotatingKVCache of {} tokens (the first {} kept): once "
            "full it overwrites the oldest tokens instead of refusing, so a longer conversation loses its start "
            "silently while positions keep counting (mlx_lm/models/cache.py make_prompt_cache @d78bf58e)",
            *tokens, *tokens, kRotatingKeep));
      }
  } else {
    return false;
  }
  return true;
}

bool is_lms_switch(const std::string& flag) {
  return std::find(std::begin(kLmsSwitches), std::end(kLmsSwitches), flag) != std::end(kLmsSwitches);
}

bool names_gguf(std::string model) {
  std::transform(model.begin(), model.end(), model.begin(), [](unsigned char c) { return std::tolower(c); });
  return model.find("gguf") != std::string::npos;
}

// `lms load [MODEL-KEY] --context-length N …`: LM Studio's CLI asks the running app to load the model (commander.js:
// an unknown option is an error). An MLX model runs on lmstudio-ai/mlx-engine, that is MLX-LM's model files; a GGUF
// model runs on LM Studio's llama.cpp engine, which ropelens does not model.
bool parse_lms_load(const ShellCommand& command, Launch& launch) {
  const auto& w = command.words;
  if (w.size() < 2 || program_name(w[0]) != "lms" || w[1] != "load") return false;
  launch.version = EngineVersion::mlx_lm_lmstudio;
  if (launch.form.empty()) launch.form = "lms load (LM Studio)";
  const FlagSyntax syntax{kLmsLoadFlags, {}, "lms load", false, false, false, true};
  const auto positional = walk_flags(w, 2, syntax, launch, [&](const std::string& flag, std::size_t& i) {
    if (flag == "--context-length" || flag == "-c") {
      launch.length_flag = flag;
      if (auto value = value_of(w, i, flag, launch)) launch.asked_tokens = token_value(launch, flag, *value, false);
      return true;
    }
    return is_lms_switch(flag);
  });
  if (!positional.empty()) launch.model = positional.front();
  for (std::size_t extra = 1; extra < positional.size(); ++extra)
    launch.notes.push_back(fmt::format("lms load takes one model key; '{}' is left over", positional[extra]));
  if (names_gguf(launch.model))
    throw std::invalid_argument(fmt::format(
        "lms load {}: a GGUF model runs on LM Studio's llama.cpp engine, which ropelens does not model (check the "
        "file with llama-server -c N, the engine it builds on); ropelens reads lms load for MLX models",
        launch.model));
  if (!launch.asked_tokens)
    launch.notes.push_back(
        "lms load without --context-length loads the model at the context LM Studio keeps for it (its app "
        "settings); give --context-length N to audit N");
  return true;
}

// LM Studio's batched MLX path fits the context to the Mac's memory and caps it at max_position_embeddings
// (mlx_engine/model_kit/batched_vision/context_fit.py @08f0c075).
void resolve_lmstudio(Launch& launch, const Model& run) {
  const std::int64_t declared = run.max_position_embeddings.value;
  if (!launch.asked_tokens || *launch.asked_tokens <= declared) return;
  launch.served_tokens = declared;
  launch.problems.push_back(
      {LaunchProblemKind::slot_below_asked, launch.length_flag,
       fmt::format("{} {} is above max_position_embeddings {}: LM Studio's mlx-engine fits the context to memory "
                   "and caps it at the model's native limit (model_kit/batched_vision/context_fit.py @08f0c075), "
                   "so a request gets at most {} tokens, not {}",
                   launch.length_flag, *launch.asked_tokens, declared, declared, *launch.asked_tokens),
       fmt::format("ask for at most {} tokens", declared)});
}

bool parse_mlx_lm(const ShellCommand& command, Launch& launch) {
  if (parse_lms_load(command, launch)) return true;
  std::size_t start = 0;
  const Program program = program_of(command.words, start);
  if (program == Program::none) return false;
  const FlagSyntax syntax{program == Program::server ? std::span<const FlagRelease>(kServerFlags)
                                                     : std::span<const FlagRelease>(kGenerateFlags),
                          {},
                          program == Program::server ? "mlx_lm.server" : "mlx_lm.generate",
                          false,
                          true,
                          false,
                          true};
  const auto positional =
      walk_flags(command.words, start, syntax, launch,
                 [&](const std::string& flag, std::size_t& i) { return parse_flag(launch, command.words, flag, i); });
  for (const std::string& word : positional)
    launch.problems.push_back(
        {LaunchProblemKind::unknown_flag, word,
         fmt::format("{} takes no positional argument ('{}'): argparse refuses to start", syntax.engine_name, word),
         fmt::format("name the model with --model {}", shell_word(word))});
  if (program == Program::server && command.words.size() > 2 && command.words[1] == "-m" &&
      command.words[2] == "mlx_lm.server")
    launch.notes.push_back(
        "python -m mlx_lm.server prints that calling it directly is deprecated (use mlx_lm.server or python -m "
        "mlx_lm server) and runs the same server");
  return true;
}

// What the served length means for MLX-LM: nothing bounds it.
void resolve_mlx_lm(Launch& launch, const Model& run, const Model& /*as_read*/) {
  if (launch.version == EngineVersion::mlx_lm_lmstudio) return resolve_lmstudio(launch, run);
  if (launch.cache_tokens) {
    launch.notes.push_back(
        fmt::format("mlx_lm.generate audits at {} tokens (max_position_embeddings): the rotating "
                    "cache bounds what is attended to, not the positions",
                    launch.served_tokens));
    return;
  }
  launch.notes.push_back(fmt::format(
      "MLX-LM sets no context limit: mlx_lm.server keeps an unbounded KVCache per request, so the context is "
      "whatever the client sends; the audit runs at max_position_embeddings {}",
      run.max_position_embeddings.value));
}

}  // namespace mlx_lm_launch

const LaunchSyntax kMlxLmLaunch = {.parse = mlx_lm_launch::parse_mlx_lm,
                                   .fragment = nullptr,
                                   .file = nullptr,
                                   .resolve = mlx_lm_launch::resolve_mlx_lm};

}  // namespace ropelens::engine_detail
