// `mlx_lm.server --model M …` and `mlx_lm.generate --model M --max-kv-size N …` as MLX-LM v0.32.0 reads them
// (docs/engines.md, "MLX-LM"): the programs are the console scripts of setup.py (`mlx_lm.server`, `mlx_lm.generate`),
// `python -m mlx_lm server|generate` and `mlx_lm server|generate` (mlx_lm/cli.py), and `python -m mlx_lm.server`
// (which prints that it is deprecated and runs the same main). Both parse with argparse (allow_abbrev on; an unknown
// flag refuses to start) over the flags of mlx_lm/server.py and mlx_lm/generate.py @d78bf58e:
// - mlx_lm.server derives no length and takes no length flag: each request gets an unbounded KVCache
//   (models/cache.py make_prompt_cache), so the context is whatever the client sends;
// - mlx_lm.generate --max-kv-size N makes every layer's cache a RotatingKVCache(max_size=N, keep=4), which overwrites
//   the oldest tokens once full instead of refusing (a model with its own make_cache keeps its cache).
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

bool parse_mlx_lm(const ShellCommand& command, Launch& launch) {
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
  if (launch.version == EngineVersion::mlx_lm_lmstudio) return;
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
