// Ollama, which runs GGUF models in an upstream llama-server subprocess (ollama/ollama at fb307609,
// llm/llama_server.go:369-376: `-c num_ctx×num_parallel -np num_parallel`, no RoPE flags; docs/engines.md, "Launch
// lines"): `ollama serve` with its OLLAMA_* environment, `ollama run MODEL`, and Modelfiles.
// - num_ctx is the context every request gets: PARAMETER num_ctx, else OLLAMA_CONTEXT_LENGTH (envconfig.Uint:
//   decimal digits), else Ollama's default by the GPUs' memory (server/routes.go); above the file's n_ctx_train it
//   is lowered to it ("requested context size too large for model", llm/server.go:111-116);
// - OLLAMA_NUM_PARALLEL (1 by default; 1 for the families server/sched.go:507 lists) multiplies the context asked of
//   llama-server, so the KV cache holds num_ctx × num_parallel tokens while each request still gets num_ctx;
// - OLLAMA_KV_CACHE_TYPE is llama-server's --cache-type-k and --cache-type-v (f16 by default);
// - a Modelfile PARAMETER is one of api.Options' json names (api/types.go:568-596), else `ollama create` refuses
//   it ("unknown parameter", api/types.go:1292) — rope_frequency_base and rope_frequency_scale among them since
//   be517e49 ("no rope parameters", 2024-04-05) — or a deprecated one it warns about and drops
//   (parser/parser.go:43-53); of the rest only num_ctx, num_batch, num_gpu, main_gpu, use_mmap, num_thread,
//   num_keep and draft_num_predict reach llama-server's command line.
// Modelfile lines are instruction and arguments; `#` starts a comment; a value may be quoted, and """ starts a
// block that ends at the next """.
#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "llama_cpp.hpp"
#include "ropelens/engines/launch.hpp"
#include "ropelens/engines/versions.hpp"
#include "ropelens/model/text.hpp"
#include "ropelens/model/units.hpp"

namespace ropelens::engine_detail {
namespace ollama_launch {

using namespace launch_detail;

// The Ollama release a launch runs: `--stack ollama@RELEASE` pins llama.cpp as "ollama@RELEASE" ("" for the newest,
// as for an unpinned stack or a plain llama.cpp one).
std::string_view ollama_release(const Launch& launch) {
  const auto pin = runner_pin(launch.release);
  return pin ? pin->release : std::string_view();
}

// Whether the release the launch runs comes before `first` (false for the newest, and when `first` is "").
bool before(const Launch& launch, std::string_view first) {
  const std::string_view release = ollama_release(launch);
  return !release.empty() && !first.empty() && dotted_release_before(release, first);
}

// Ollama's num_ctx when neither the Modelfile nor OLLAMA_CONTEXT_LENGTH sets one, by release (ollama/ollama, each
// tag read with git): from v0.15.5 by the memory of every GPU summed (less OLLAMA_GPU_OVERHEAD each, 0 by default),
// with thresholds a GiB below 48 and 24 for rounding; before it one number.
constexpr std::int64_t kGiB = std::int64_t{1} << 30;
struct DefaultContext {
  std::string_view first_release;  // "" for the oldest
  std::vector<MemoryTier> tiers;   // largest first
  std::string_view source;
};
const DefaultContext kDefaultContexts[] = {
    {"0.15.5",
     {{47 * kGiB, 262144}, {23 * kGiB, 32768}, {0, 4096}},
     "Ollama's server/routes.go:2043-2058 at fb307609; the tiers came with 0334ffa62, first in v0.15.5"},
    {"0.6.7",
     {{0, 4096}},
     "Ollama's default from v0.6.7 to v0.15.4: envconfig.ContextLength's 4096 (44b466eeb, envconfig/config.go)"},
    {"0.5.13",
     {{0, 2048}},
     "Ollama's default from v0.5.13 to v0.6.6: envconfig.ContextLength's 2048 (314573bfe, envconfig/config.go:172)"},
    {"",
     {{0, 2048}},
     "Ollama's default before v0.5.13: api/types.go DefaultOptions, NumCtx 2048 (v0.1.26, v0.3.0, v0.5.12)"},
};

const DefaultContext& default_context_of(const Launch& launch) {
  for (const DefaultContext& row : kDefaultContexts)
    if (!before(launch, row.first_release)) return row;
  return kDefaultContexts[std::size(kDefaultContexts) - 1];
}

// The OLLAMA_* names Ollama's Go sources read at fb307609 (envconfig/config.go and the rest, tests left out).
constexpr std::string_view kVariableNames[] = {"OLLAMA_AGENT_DISABLE_SHELL",
                                               "OLLAMA_AGENT_DISABLE_WEBSEARCH",
                                               "OLLAMA_API_KEY",
                                               "OLLAMA_APP_DB_PATH",
                                               "OLLAMA_AUTH",
                                               "OLLAMA_CLOUD_BASE_URL",
                                               "OLLAMA_CONTEXT_LENGTH",
                                               "OLLAMA_CORS",
                                               "OLLAMA_DEBUG",
                                               "OLLAMA_DEBUG_LOG_REQUESTS",
                                               "OLLAMA_DOT_COM_URL",
                                               "OLLAMA_EDITOR",
                                               "OLLAMA_EXPERIMENT",
                                               "OLLAMA_FLASH_ATTENTION",
                                               "OLLAMA_GO_TEMPLATE",
                                               "OLLAMA_GPU_OVERHEAD",
                                               "OLLAMA_HOST",
                                               "OLLAMA_IGPU_ENABLE",
                                               "OLLAMA_KEEP_ALIVE",
                                               "OLLAMA_KV_CACHE_TYPE",
                                               "OLLAMA_LAUNCH_DSH_API_KEY",
                                               "OLLAMA_LIBRARY_PATH",
                                               "OLLAMA_LLAMA_CPP_COMPAT",
                                               "OLLAMA_LLM_LIBRARY",
                                               "OLLAMA_LOAD_TIMEOUT",
                                               "OLLAMA_MAX_LOADED_MODELS",
                                               "OLLAMA_MAX_QUEUE",
                                               "OLLAMA_MAX_TRANSFER_STREAMS",
                                               "OLLAMA_MODELS",
                                               "OLLAMA_NOHISTORY",
                                               "OLLAMA_NOPRUNE",
                                               "OLLAMA_NO_CLOUD",
                                               "OLLAMA_NUM_PARALLEL",
                                               "OLLAMA_ORIGINS",
                                               "OLLAMA_REMOTES",
                                               "OLLAMA_SCHED_SPREAD",
                                               "OLLAMA_SKILLS",
                                               "OLLAMA_VULKAN"};

// The first release that reads each variable, where ropelens has placed it (`git log -S'"NAME"'` on ollama/ollama,
// the first tag holding that commit). A name not listed here is taken as read by every release.
constexpr std::pair<std::string_view, std::string_view> kVariableFirstReleases[] = {
    {"OLLAMA_CONTEXT_LENGTH", "0.5.13"},   // 314573bfe
    {"OLLAMA_DEBUG", "0.1.21"},            // fedd705ae
    {"OLLAMA_EXPERIMENT", "0.6.0"},        // e2252d0fc
    {"OLLAMA_FLASH_ATTENTION", "0.1.39"},  // 38255d2af
    {"OLLAMA_GPU_OVERHEAD", "0.3.10"},     // b05c9e83d
    {"OLLAMA_KEEP_ALIVE", "0.1.29"},       // 47cfe58af
    {"OLLAMA_KV_CACHE_TYPE", "0.5.0"},     // 1bdab9fdb
    {"OLLAMA_LLM_LIBRARY", "0.1.21"},      // d88c527be
    {"OLLAMA_LOAD_TIMEOUT", "0.3.10"},     // 671909764
    {"OLLAMA_MAX_LOADED_MODELS", "0.1.33"},
    {"OLLAMA_MAX_QUEUE", "0.1.34"},     // 20f6c0656
    {"OLLAMA_MODELS", "0.1.6"},         // 5c3491f42
    {"OLLAMA_NOHISTORY", "0.1.39"},     // 105186aa1
    {"OLLAMA_NOPRUNE", "0.0.19"},       // e7e91cd71
    {"OLLAMA_NUM_PARALLEL", "0.1.33"},  // 34b9db5af
    {"OLLAMA_ORIGINS", "0.0.14"},       // 7e26a8df3
    {"OLLAMA_SCHED_SPREAD", "0.1.45"},  // 5e8ff556c
};

std::string_view first_release(std::string_view name) {
  for (const auto& [variable, release] : kVariableFirstReleases)
    if (variable == name) return release;
  return "";
}

bool reads_variable(const Launch& launch, std::string_view name) { return !before(launch, first_release(name)); }

// The variables only the server reads: what `ollama serve --help` lists (cmd/cmd.go:2009-2026 at v0.15.6), less
// OLLAMA_HOST and OLLAMA_DEBUG, which the client commands read too (`ollama run` lists OLLAMA_HOST and
// OLLAMA_NOHISTORY, cmd/cmd.go:2007).
constexpr std::string_view kServerVariables[] = {
    "OLLAMA_CONTEXT_LENGTH", "OLLAMA_KEEP_ALIVE",      "OLLAMA_MAX_LOADED_MODELS", "OLLAMA_MAX_QUEUE",
    "OLLAMA_MODELS",         "OLLAMA_NUM_PARALLEL",    "OLLAMA_NOPRUNE",           "OLLAMA_ORIGINS",
    "OLLAMA_SCHED_SPREAD",   "OLLAMA_FLASH_ATTENTION", "OLLAMA_KV_CACHE_TYPE",     "OLLAMA_LLM_LIBRARY",
    "OLLAMA_GPU_OVERHEAD",   "OLLAMA_LOAD_TIMEOUT"};

// api.Options' json names (api/types.go:568-596 at fb307609): what `ollama create` takes after PARAMETER.
constexpr std::string_view kParameters[] = {"num_keep",    "seed",           "num_predict",      "top_k",
                                            "top_p",       "min_p",          "typical_p",        "repeat_last_n",
                                            "temperature", "repeat_penalty", "presence_penalty", "frequency_penalty",
                                            "stop",        "num_ctx",        "num_batch",        "num_gpu",
                                            "main_gpu",    "use_mmap",       "num_thread",       "draft_num_predict"};
// Taken with a warning and dropped (parser/parser.go:43-53).
constexpr std::string_view kDeprecatedParameters[] = {"penalize_newline", "low_vram",     "f16_kv",
                                                      "logits_all",       "vocab_only",   "use_mlock",
                                                      "mirostat",         "mirostat_tau", "mirostat_eta"};
// Removed from api.Options by be517e49 (2024-04-05, "no rope parameters"), with what a Modelfile can do instead.
constexpr std::string_view kRopeParameters[] = {"rope_frequency_base", "rope_frequency_scale"};

// The families Ollama serves one request at a time whatever OLLAMA_NUM_PARALLEL says (server/sched.go:507).
constexpr std::string_view kSingleRequestFamilies[] = {"mllama",     "qwen3vl",        "qwen3vlmoe",     "qwen35",
                                                       "qwen35moe",  "qwen3next",      "lfm2",           "lfm2moe",
                                                       "nemotron_h", "nemotron_h_moe", "nemotron_h_omni"};

bool is_modelfile(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  return name == "Modelfile" || name.ends_with(".Modelfile") || name.starts_with("Modelfile.");
}

std::string unquoted(std::string value) {
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') return value.substr(1, value.size() - 2);
  return value;
}

std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return "";
  const auto last = text.find_last_not_of(" \t\r");
  return std::string(text.substr(first, last - first + 1));
}

bool digits_only(std::string_view value) {
  return !value.empty() && std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// OLLAMA_CONTEXT_LENGTH as envconfig.Uint reads it (envconfig/config.go:259-271): decimal digits, else a warning in
// the server's log and the default; 0 is the default too.
void read_context_variable(Launch& launch, std::string_view value) {
  const bool digits = digits_only(value);
  if (digits && value.find_first_not_of('0') == std::string_view::npos) return;  // 0: Ollama's default
  std::string problem =
      "is not a whole number: Ollama logs \"invalid environment variable, using default\" and "
      "serves its default num_ctx instead";
  if (digits) {
    try {
      launch.asked_tokens = parse_token_count(value);
      launch.length_flag = "OLLAMA_CONTEXT_LENGTH";
      return;
    } catch (const std::invalid_argument& e) {
      problem = e.what();
    }
  }
  launch.problems.push_back({LaunchProblemKind::unknown_flag, "OLLAMA_CONTEXT_LENGTH",
                             fmt::format("OLLAMA_CONTEXT_LENGTH={} {}", terminal_safe(std::string(value)), problem),
                             "write the number of tokens in digits, e.g. OLLAMA_CONTEXT_LENGTH=32768"});
}

// OLLAMA_NUM_PARALLEL (envconfig.Uint, 1 by default; 0 counts as 1, server/sched.go:497).
void read_parallel_variable(Launch& launch, std::string_view value) {
  if (!digits_only(value) || value.size() > 6) {
    launch.problems.push_back({LaunchProblemKind::unknown_flag, "OLLAMA_NUM_PARALLEL",
                               fmt::format("OLLAMA_NUM_PARALLEL={} is not a whole number: Ollama logs \"invalid "
                                           "environment variable, using default\" and serves 1 request at a time",
                                           terminal_safe(std::string(value))),
                               "write the number of parallel requests in digits, e.g. OLLAMA_NUM_PARALLEL=4"});
    return;
  }
  launch.slots = std::max<std::int64_t>(1, std::stoll(std::string(value)));
}

// OLLAMA_KV_CACHE_TYPE: llama-server's cache types (f16 by default; q8_0 and q4_0 quantize the cache).
void read_cache_variable(Launch& launch, std::string_view value) {
  std::string type(value);
  std::transform(type.begin(), type.end(), type.begin(), [](unsigned char c) { return std::tolower(c); });
  if (type.empty() || type == "f16") return;
  if (auto dtype = parse_kv_dtype(type)) launch.kv_dtype = dtype;
}

// The server's environment: the command's (`OLLAMA_CONTEXT_LENGTH=8192 ollama serve`), read as Ollama reads it.
// A variable the release does not read yet is left alone here (the variable check names it).
void read_environment(const std::map<std::string, std::string>& env, Launch& launch) {
  const auto set = [&](std::string_view name) {
    const auto it = env.find(std::string(name));
    return it != env.end() && reads_variable(launch, name) ? &it->second : nullptr;
  };
  if (const auto* value = set("OLLAMA_NUM_PARALLEL")) read_parallel_variable(launch, *value);
  if (const auto* value = set("OLLAMA_KV_CACHE_TYPE")) read_cache_variable(launch, *value);
  if (!launch.asked_tokens)
    if (const auto* value = set("OLLAMA_CONTEXT_LENGTH"); value && !value->empty())
      read_context_variable(launch, *value);
}

// Ollama's default num_ctx for the GPUs' memory, when nothing sets one.
void default_context(Launch& launch) {
  if (launch.asked_tokens) return;
  const DefaultContext& row = default_context_of(launch);
  launch.length_flag = "Ollama's default num_ctx";
  launch.default_by_memory = row.tiers;
  launch.default_by_memory_source = std::string(row.source);
}

Launch& as_ollama(Launch& launch) {
  launch.engine = Engine::llama_cpp;
  launch.runner = "Ollama";
  launch.capped_at_trained = true;
  launch.slots_split_length = false;  // llama-server gets num_ctx × num_parallel: each request has num_ctx
  return launch;
}

void parameter(Launch& launch, int line, const std::string& name, const std::string& value) {
  const auto in = [&](std::span<const std::string_view> list) {
    return std::find(list.begin(), list.end(), name) != list.end();
  };
  if (name == "num_ctx") {
    try {
      launch.asked_tokens = parse_token_count(value);
    } catch (const std::invalid_argument& e) {
      launch.problems.push_back(
          {LaunchProblemKind::unknown_flag, "PARAMETER num_ctx",
           fmt::format("line {}: PARAMETER num_ctx {}: {} (expected a number of tokens)", line, value, e.what()),
           "give num_ctx a whole number of tokens, e.g. 131072"});
    }
    return;
  }
  if (in(kParameters)) return;
  if (in(kDeprecatedParameters)) {
    launch.problems.push_back({LaunchProblemKind::ignored_override, "PARAMETER " + name,
                               fmt::format("line {}: PARAMETER {} is deprecated: ollama create prints \"warning: "
                                           "parameter {} is deprecated\" and drops it",
                                           line, name, name),
                               fmt::format("remove PARAMETER {}", name)});
    return;
  }
  if (in(kRopeParameters)) {
    launch.problems.push_back(
        {LaunchProblemKind::unknown_flag, "PARAMETER " + name,
         fmt::format("line {}: PARAMETER {}: Ollama removed its RoPE parameters in 2024 (be517e49, \"no rope "
                     "parameters\"), so ollama create refuses it (\"unknown parameter '{}'\"), and the llama-server "
                     "Ollama starts takes no RoPE flags (llm/llama_server.go)",
                     line, name, name),
         "remove it; to run a model with other RoPE scaling, write the scaling into the GGUF (convert it from a "
         "config.json that has it) and create the model FROM that file"});
    return;
  }
  const std::vector<std::string> known(std::begin(kParameters), std::end(kParameters));
  const auto meant = closest_match(name, known);
  launch.problems.push_back(
      {LaunchProblemKind::unknown_flag, "PARAMETER " + name,
       fmt::format("line {}: PARAMETER {}: ollama create refuses it (\"unknown parameter "
                   "'{}'\"){}",
                   line, name, name, meant ? fmt::format("; did you mean {}?", *meant) : ""),
       meant ? fmt::format("write PARAMETER {} {}", *meant, value) : fmt::format("remove PARAMETER {}", name)});
}

}  // namespace ollama_launch

using ollama_launch::is_modelfile;

// The num_ctx parameter's name as a variable, which Ollama never read (the variable is OLLAMA_CONTEXT_LENGTH;
// ollama/ollama#9519).
constexpr std::pair<std::string_view, std::string_view> kMeant[] = {{"OLLAMA_NUM_CTX", "OLLAMA_CONTEXT_LENGTH"},
                                                                    {"OLLAMA_CTX_SIZE", "OLLAMA_CONTEXT_LENGTH"}};

// Each runner's variables: llama-server's LLAMA_ARG_* (read through its flags, so not listed here), Ollama's OLLAMA_*.
extern const EngineVariables kLlamaCppVariables[2] = {
    {"LLAMA_ARG_", {}, "common/arg.cpp set_env @145b6280", "llama-server"},
    {"OLLAMA_", ollama_launch::kVariableNames, "the OLLAMA_* names of ollama/ollama at fb307609", "ollama serve",
     kMeant}};

namespace ollama_launch {

// The OLLAMA_* variables of the command that the release does not read, named (SRV507): the list of the newest
// release less what came later, each of those said to come later.
void check_ollama_variables(const ShellCommand& command, Launch& launch) {
  const EngineVariables& all = kLlamaCppVariables[1];
  std::vector<std::string_view> names;
  for (std::string_view name : all.names)
    if (reads_variable(launch, name)) names.push_back(name);
  std::vector<std::pair<std::string_view, std::string_view>> meant;
  for (const auto& pair : all.meant)
    if (reads_variable(launch, pair.second)) meant.push_back(pair);
  EngineVariables known = all;
  known.names = names;
  known.meant = meant;
  const std::size_t first = launch.problems.size();
  check_variables(command, std::span(&known, 1), launch);
  const std::string release(ollama_release(launch));
  for (std::size_t p = first; p < launch.problems.size(); ++p) {
    LaunchProblem& problem = launch.problems[p];
    std::string_view later = first_release(problem.flag);
    std::string_view stands_for;
    for (const auto& [written, read] : all.meant)
      if (written == problem.flag && !reads_variable(launch, read)) {
        stands_for = read;
        later = first_release(read);
      }
    if (later.empty()) continue;
    problem.message = fmt::format(
        "{} is not a variable Ollama {} reads: {}{} came in Ollama {}, so this release ignores it, silently, and "
        "serves its default",
        problem.flag, release, stands_for.empty() ? "it" : std::string(stands_for),
        stands_for.empty() ? "" : fmt::format(", the variable {} stands for,", problem.flag), later);
    problem.help = fmt::format(
        "set the context with PARAMETER num_ctx in a Modelfile (or the request's options.num_ctx), or upgrade "
        "to Ollama {} or later for {}",
        later, stands_for.empty() ? problem.flag : std::string(stands_for));
  }
}

// A server variable on a client command (`OLLAMA_CONTEXT_LENGTH=64000 ollama run …`): the client sends requests to
// the server already running, which read its environment when it started (ollama/ollama#14191).
void client_variables(const ShellCommand& command, Launch& launch, const std::string& verb) {
  for (const auto& [name, value] : command.env) {
    if (std::find(std::begin(kServerVariables), std::end(kServerVariables), name) == std::end(kServerVariables))
      continue;
    launch.problems.push_back(
        {LaunchProblemKind::unknown_flag, name,
         fmt::format("{}={} on `ollama {}`: ollama {} is a client of the server already running (it sends its "
                     "requests to OLLAMA_HOST), and the server read its own environment when it started, so this "
                     "{} is never read: requests get the server's {}",
                     name, terminal_safe(value), verb, verb, name,
                     name == "OLLAMA_CONTEXT_LENGTH" ? "num_ctx" : "setting"),
         fmt::format("set it where the server starts: {}={} ollama serve, or an Environment= line of the service "
                     "(systemctl edit ollama)",
                     name, shell_word(value))});
  }
}

// `ollama serve` takes no arguments and no flags of its own (cmd/cmd.go serveCmd: `Args: cobra.ExactArgs(0)`,
// unchanged from 36c88cb9d, 2023-10-18, to v0.15.6): cobra stops at the first word ("unknown flag: --model").
// llama-server's flags written after it are named; a --model among them names the model the line means to serve.
void serve_arguments(const std::vector<std::string>& w, Launch& launch) {
  std::vector<std::string> refused;
  for (std::size_t i = 2; i < w.size(); ++i) {
    if (w[i] == "-h" || w[i] == "--help") continue;
    if ((w[i] == "--model" || w[i] == "-m") && i + 1 < w.size() && !w[i + 1].starts_with("-") && launch.model.empty())
      launch.model = "ollama:" + w[i + 1];
    if (w[i].starts_with("-") || refused.empty()) refused.push_back(terminal_safe(w[i]));
  }
  if (refused.empty()) return;
  const bool flag = refused.front().starts_with("-");
  launch.problems.push_back(
      {LaunchProblemKind::unknown_flag, refused.front(),
       fmt::format("ollama serve takes no arguments and no flags ({}): it stops at {} (\"{}\") and the server "
                   "does not start; {} are llama-server's flags, and Ollama sets llama-server's from its own "
                   "settings",
                   "cmd/cmd.go serveCmd, cobra.ExactArgs(0)", refused.front(),
                   flag ? "unknown flag: " + refused.front() : "accepts 0 arg(s)", fmt::join(refused, ", ")),
       "start it as `ollama serve` alone; set the context with OLLAMA_CONTEXT_LENGTH=N on the server (or PARAMETER "
       "num_ctx in a Modelfile), the parallel requests with OLLAMA_NUM_PARALLEL, and name the model in the request "
       "(ollama run MODEL)"});
}

// `ollama launch INTEGRATION [--model MODEL]` (cmd/config/integrations.go:344 at v0.15.6; from v0.15.0, aae6ecbaf):
// starts a coding tool against the running server.
void launch_model(const std::vector<std::string>& w, Launch& launch) {
  for (std::size_t i = 2; i < w.size(); ++i) {
    if (w[i] == "--") break;
    if (w[i] == "--model" && i + 1 < w.size()) launch.model = "ollama:" + w[i + 1];
    if (w[i].starts_with("--model=")) launch.model = "ollama:" + w[i].substr(8);
  }
}

}  // namespace ollama_launch

// `ollama serve` with its OLLAMA_* variables (the model comes from the requests: --model names it), and the client
// commands `ollama run MODEL` and `ollama launch INTEGRATION --model MODEL`, served at the running server's defaults
// (the variables on a client's line never reach the server).
bool ollama_command(const ShellCommand& command, Launch& launch) {
  const auto& w = command.words;
  if (w.size() < 2 || (w[1] != "serve" && w[1] != "run" && w[1] != "start" && w[1] != "launch")) return false;
  ollama_launch::as_ollama(launch);
  const bool client = w[1] == "run" || w[1] == "launch";
  if (w[1] == "run") {
    if (w.size() < 3 || w[2].starts_with("-")) return false;
    launch.model = "ollama:" + w[2];
  } else if (w[1] == "launch") {
    ollama_launch::launch_model(w, launch);
  } else {
    ollama_launch::serve_arguments(w, launch);
  }
  if (client) {
    ollama_launch::client_variables(command, launch, w[1]);
  } else {
    ollama_launch::read_environment(command.env, launch);
    ollama_launch::check_ollama_variables(command, launch);
  }
  ollama_launch::default_context(launch);
  return true;
}

std::optional<Launch> ollama_modelfile(const std::string& path, std::string_view text, const LaunchRelease& release) {
  if (!is_modelfile(path) && launch_text_kind(text) != LaunchText::modelfile) return std::nullopt;
  Launch launch;
  launch.version = release.version;
  launch.release = release.release;
  ollama_launch::as_ollama(launch);
  launch.length_flag = "PARAMETER num_ctx";
  int line = 0;
  bool in_block = false;
  std::size_t at = 0;
  while (at <= text.size()) {
    const auto end = std::min(text.find('\n', at), text.size());
    const std::string current = ollama_launch::trimmed(text.substr(at, end - at));
    at = end + 1;
    ++line;
    const auto quotes = [&] {
      int n = 0;
      for (auto p = current.find(R"(""")"); p != std::string::npos; p = current.find(R"(""")", p + 3)) ++n;
      return n;
    }();
    if (in_block) {
      if (quotes % 2 == 1) in_block = false;
      continue;
    }
    if (quotes % 2 == 1) in_block = true;
    if (current.empty() || current[0] == '#') continue;
    const auto space = current.find_first_of(" \t");
    std::string instruction = current.substr(0, space);
    for (char& c : instruction) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const std::string rest = space == std::string::npos ? "" : ollama_launch::trimmed(current.substr(space));
    if (instruction == "FROM") {
      launch.line = line;
      launch.command = current;
      std::string model = ollama_launch::unquoted(rest);
      const bool file_like = model.starts_with(".") || model.starts_with("/") || model.starts_with("~") ||
                             model.ends_with(".gguf") || model.ends_with(".GGUF");
      if (file_like && !model.starts_with("/")) {
        const auto folder = std::filesystem::path(path).parent_path();
        model = (folder.empty() ? std::filesystem::path(model) : folder / model).lexically_normal().string();
      } else if (!file_like) {
        model = "ollama:" + model;
      }
      launch.model = model;
    } else if (instruction == "PARAMETER") {
      const auto gap = rest.find_first_of(" \t");
      std::string name = rest.substr(0, gap);
      std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
      const std::string value =
          gap == std::string::npos ? "" : ollama_launch::unquoted(ollama_launch::trimmed(rest.substr(gap)));
      ollama_launch::parameter(launch, line, name, value);
    }
  }
  // The server that runs the Modelfile's model is this machine's: its OLLAMA_* variables, as ropelens sees them.
  std::map<std::string, std::string> env;
  for (const char* name : {"OLLAMA_CONTEXT_LENGTH", "OLLAMA_NUM_PARALLEL", "OLLAMA_KV_CACHE_TYPE"})
    if (const char* value = std::getenv(name); value && *value) env[name] = value;
  ollama_launch::read_environment(env, launch);
  ollama_launch::default_context(launch);
  if (launch.command.empty()) launch.command = "(a Modelfile without FROM)";
  return launch;
}

// What Ollama does with the model it loads: the families it serves one request at a time, and the KV cache
// llama-server holds for num_ctx × num_parallel (after the cap at n_ctx_train).
void resolve_ollama(Launch& launch, const Model& run) {
  if (launch.slots > 1 &&
      std::find(std::begin(ollama_launch::kSingleRequestFamilies), std::end(ollama_launch::kSingleRequestFamilies),
                run.model_type.value) != std::end(ollama_launch::kSingleRequestFamilies)) {
    launch.notes.push_back(
        fmt::format("Ollama serves {} one request at a time whatever OLLAMA_NUM_PARALLEL says "
                    "(server/sched.go:507)",
                    run.model_type.value));
    launch.slots = 1;
  }
  if (launch.slots > 1) {
    launch.cache_tokens = launch.served_tokens * launch.slots;
    launch.notes.push_back(
        fmt::format("OLLAMA_NUM_PARALLEL {}: Ollama asks llama-server for -c {} -np {}, a KV cache "
                    "of {} tokens, {} for each request",
                    launch.slots, *launch.cache_tokens, launch.slots, *launch.cache_tokens, launch.served_tokens));
  }
}

}  // namespace ropelens::engine_detail
