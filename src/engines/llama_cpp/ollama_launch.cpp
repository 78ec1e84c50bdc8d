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
#include "ropelens/model/text.hpp"
#include "ropelens/model/units.hpp"

namespace ropelens::engine_detail {
namespace ollama_launch {

using namespace launch_detail;

// Ollama's num_ctx when neither the Modelfile nor OLLAMA_CONTEXT_LENGTH sets one: by the memory of every GPU summed
// (less OLLAMA_GPU_OVERHEAD each, 0 by default), with thresholds a GiB below 48 and 24 for rounding.
constexpr std::int64_t kGiB = std::int64_t{1} << 30;
const std::vector<MemoryTier> kOllamaDefaultContexts = {{47 * kGiB, 262144}, {23 * kGiB, 32768}, {0, 4096}};
constexpr const char* kOllamaDefaultSource = "Ollama's server/routes.go:2043-2058 at fb307609";

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
void read_environment(const std::map<std::string, std::string>& env, Launch& launch) {
  if (const auto it = env.find("OLLAMA_NUM_PARALLEL"); it != env.end()) read_parallel_variable(launch, it->second);
  if (const auto it = env.find("OLLAMA_KV_CACHE_TYPE"); it != env.end()) read_cache_variable(launch, it->second);
  if (!launch.asked_tokens)
    if (const auto it = env.find("OLLAMA_CONTEXT_LENGTH"); it != env.end() && !it->second.empty())
      read_context_variable(launch, it->second);
}

// Ollama's default num_ctx for the GPUs' memory, when nothing sets one.
void default_context(Launch& launch) {
  if (launch.asked_tokens) return;
  launch.length_flag = "Ollama's default num_ctx";
  launch.default_by_memory = kOllamaDefaultContexts;
  launch.default_by_memory_source = kOllamaDefaultSource;
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

// `ollama serve` with its OLLAMA_* variables (the model comes from the requests: --model names it), and
// `ollama run MODEL`, at the server's defaults and the variables set on the command.
bool ollama_command(const ShellCommand& command, Launch& launch) {
  const auto& w = command.words;
  if (w.size() < 2 || (w[1] != "serve" && w[1] != "run" && w[1] != "start")) return false;
  ollama_launch::as_ollama(launch);
  if (w[1] == "run") {
    if (w.size() < 3 || w[2].starts_with("-")) return false;
    launch.model = "ollama:" + w[2];
  }
  ollama_launch::read_environment(command.env, launch);
  ollama_launch::default_context(launch);
  launch_detail::check_variables(command, std::span(kLlamaCppVariables).subspan(1), launch);
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
