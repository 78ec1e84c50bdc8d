// `llama-server -m MODEL.gguf …`, `llama serve …` (the unified binary, PR #23459) and `llama-cli …` as the llama.cpp
// build the launch runs reads them (docs/engines.md, "Launch lines"; common/arg.cpp @145b6280):
// - the RoPE flags replace the GGUF keys the loader would read (llama-context.cpp, as gguf_flags.cpp writes them):
//   --rope-scaling → {arch}.rope.scaling.type, --rope-scale N → the factor N, --rope-freq-scale S → the factor 1/S,
//   --yarn-orig-ctx → rope.scaling.original_context_length, --rope-freq-base → rope.freq_base; --override-kv
//   KEY=TYPE:VALUE rewrites any key (int, float, bool, str), so ARCH.context_length=int:N raises n_ctx_train;
// - -c N is the KV cache of every slot together: llama-server gives each of its -np slots N / np tokens; -c 0 (and,
//   with --fit, an omitted -c) is n_ctx_train; each slot is capped at n_ctx_train (from commit cd5e3b57), which
//   PR #28030 (2026-08-30) re-adjusts for YaRN flags and --override-kv lifts in every build;
// - -np left out (the server's -1, auto) is 4 slots sharing one unified KV pool, each request up to all of -c
//   (PR #16736; build b7079 starts 4 slots, issue #17300): not a split; an explicit -np N splits unless -kvu;
// - -fa takes on|off|auto (and 1|0|-1, true|false) from build b6327 (flash_attn_type), so a bare -fa
//   takes the next word as its value and refuses a flag there; before, -fa was a switch;
// - --fit (on by default since PR #16653) adjusts only what the command leaves unset: an omitted -c (or -c 0, before
//   PR #19070 kept an explicit 0) may be lowered to what fits the devices' memory, never below --fit-ctx; an explicit
//   -c N is kept;
// - -ctk/--cache-type-k and -ctv/--cache-type-v take f32, f16, bf16, q8_0, q4_0, …;
// - a "--" flag is read with '_' as '-' (common_params_parse_ex).
#include <fmt/format.h>

#include "llama_cpp.hpp"
#include "ropelens/engines/launch.hpp"
#include "ropelens/engines/versions.hpp"
#include "ropelens/model/text.hpp"
#include "ropelens/model/units.hpp"

namespace ropelens::engine_detail {

bool ollama_command(const ShellCommand& command, Launch& launch);  // ollama_launch.cpp
void resolve_ollama(Launch& launch, const Model& run);

namespace llama_cpp_launch {

using namespace launch_detail;

// The RoPE, context, cache, slot, memory, model and common serving flags of common/arg.cpp @145b6280, not every flag
// (a flag it does not hold is reported only when it is one edit from one it holds); none was removed in the builds
// ropelens places, and their build numbers are not placed (every build takes them). What changed in place is in
// parse_flag: -fa's value (b6327), -np's default (b7079).
constexpr FlagRelease kFlags[] = {
    {"-m", "", ""},
    {"--model", "", ""},
    {"-hf", "", ""},
    {"-hfr", "", ""},
    {"--hf-repo", "", ""},
    {"-hff", "", ""},
    {"--hf-file", "", ""},
    {"-hft", "", ""},
    {"--hf-token", "", ""},
    {"-mu", "", ""},
    {"--model-url", "", ""},
    {"-c", "", ""},
    {"--ctx-size", "", ""},
    {"-np", "", ""},
    {"--parallel", "", ""},
    {"-kvu", "", ""},
    {"--kv-unified", "", ""},
    {"-cb", "", ""},
    {"--cont-batching", "", ""},
    {"-nocb", "", ""},
    {"--no-cont-batching", "", ""},
    {"--rope-scaling", "", ""},
    {"--rope-scale", "", ""},
    {"--rope-freq-base", "", ""},
    {"--rope-freq-scale", "", ""},
    {"--yarn-orig-ctx", "", ""},
    {"--yarn-ext-factor", "", ""},
    {"--yarn-attn-factor", "", ""},
    {"--yarn-beta-slow", "", ""},
    {"--yarn-beta-fast", "", ""},
    {"--override-kv", "", ""},
    {"-ctk", "", ""},
    {"--cache-type-k", "", ""},
    {"-ctv", "", ""},
    {"--cache-type-v", "", ""},
    {"-ngl", "", ""},
    {"--gpu-layers", "", ""},
    {"--n-gpu-layers", "", ""},
    {"-t", "", ""},
    {"--threads", "", ""},
    {"-tb", "", ""},
    {"--threads-batch", "", ""},
    {"--threads-http", "", ""},
    {"--host", "", ""},
    {"--port", "", ""},
    {"-fa", "", ""},
    {"--flash-attn", "", ""},
    {"--jinja", "", ""},
    {"--no-jinja", "", ""},
    {"-b", "", ""},
    {"--batch-size", "", ""},
    {"-ub", "", ""},
    {"--ubatch-size", "", ""},
    {"--mlock", "", ""},
    {"--no-mmap", "", ""},
    {"--mmap", "", ""},
    {"-sm", "", ""},
    {"--split-mode", "", ""},
    {"-ts", "", ""},
    {"--tensor-split", "", ""},
    {"-mg", "", ""},
    {"--main-gpu", "", ""},
    {"-dev", "", ""},
    {"--device", "", ""},
    {"--temp", "", ""},
    {"--top-p", "", ""},
    {"--top-k", "", ""},
    {"--min-p", "", ""},
    {"-n", "", ""},
    {"--n-predict", "", ""},
    {"-a", "", ""},
    {"--alias", "", ""},
    {"--api-key", "", ""},
    {"--api-key-file", "", ""},
    {"--chat-template", "", ""},
    {"--chat-template-file", "", ""},
    {"--metrics", "", ""},
    {"--slots", "", ""},
    {"--no-slots", "", ""},
    {"--props", "", ""},
    {"--no-webui", "", ""},
    {"-v", "", ""},
    {"--verbose", "", ""},
    {"-lv", "", ""},
    {"--verbosity", "", ""},
    {"--log-file", "", ""},
    {"--log-disable", "", ""},
    {"-s", "", ""},
    {"--seed", "", ""},
    {"-p", "", ""},
    {"--prompt", "", ""},
    {"-f", "", ""},
    {"--file", "", ""},
    {"-i", "", ""},
    {"--interactive", "", ""},
    {"-cnv", "", ""},
    {"--conversation", "", ""},
    {"-no-cnv", "", ""},
    {"--no-conversation", "", ""},
    {"-st", "", ""},
    {"--single-turn", "", ""},
    {"--keep", "", ""},
    {"--mmproj", "", ""},
    {"--mmproj-url", "", ""},
    {"--no-mmproj", "", ""},
    {"-md", "", ""},
    {"--model-draft", "", ""},
    {"--draft-max", "", ""},
    {"--draft-min", "", ""},
    {"--draft-p-min", "", ""},
    {"-ngld", "", ""},
    {"--gpu-layers-draft", "", ""},
    {"-cd", "", ""},
    {"--ctx-size-draft", "", ""},
    {"--reasoning-format", "", ""},
    {"--reasoning-budget", "", ""},
    {"-nkvo", "", ""},
    {"--no-kv-offload", "", ""},
    {"--cache-reuse", "", ""},
    {"--ctx-checkpoints", "", ""},
    {"--embedding", "", ""},
    {"--embeddings", "", ""},
    {"--rerank", "", ""},
    {"--reranking", "", ""},
    {"--pooling", "", ""},
    {"--lora", "", ""},
    {"--lora-scaled", "", ""},
    {"--numa", "", ""},
    {"--no-warmup", "", ""},
    {"--swa-full", "", ""},
    {"--grammar", "", ""},
    {"--grammar-file", "", ""},
    {"--json-schema", "", ""},
    {"--repeat-penalty", "", ""},
    {"--repeat-last-n", "", ""},
    {"--presence-penalty", "", ""},
    {"--frequency-penalty", "", ""},
    {"-to", "", ""},
    {"--timeout", "", ""},
    {"-ot", "", ""},
    {"--override-tensor", "", ""},
    {"--cpu-moe", "", ""},
    {"-cmoe", "", ""},
    {"--n-cpu-moe", "", ""},
    {"-ncmoe", "", ""},
    {"-fit", "", ""},
    {"--fit", "", ""},
    {"--path", "", ""},
    {"--api-prefix", "", ""},
    {"--ssl-key-file", "", ""},
    {"--ssl-cert-file", "", ""},
    {"--slot-save-path", "", ""},
    {"--prio", "", ""},
    {"--prio-batch", "", ""},
    {"--poll", "", ""},
    {"-C", "", ""},
    {"--cpu-mask", "", ""},
    {"-e", "", ""},
    {"--escape", "", ""},
    {"--no-escape", "", ""},
    {"-r", "", ""},
    {"--reverse-prompt", "", ""},
    {"-sp", "", ""},
    {"--special", "", ""},
    {"--no-perf", "", ""},
    {"-dt", "", ""},
    {"--defrag-thold", "", ""},
    {"-sys", "", ""},
    {"--system-prompt", "", ""},
    {"--check-tensors", "", ""},
    {"--no-op-offload", "", ""},
    {"--spec-replace", "", ""},
    {"-hfd", "", ""},
    {"--hf-repo-draft", "", ""},
    {"-hfv", "", ""},
    {"--hf-repo-v", "", ""},
    {"--tools", "", ""},
    {"--models-dir", "", ""},
    {"--models-max", "", ""},
    {"--no-models-autoload", "", ""},
    {"--sleep-idle-seconds", "", ""},
    {"--webui", "", ""},
    {"--offline", "", ""},
    {"-kvo", "", ""},
    {"--kv-offload", "", ""},
    {"--ctx-shift", "", ""},
    {"--no-context-shift", "", ""},
    {"--context-shift", "", ""},
    {"-dio", "", ""},
    {"--direct-io", "", ""},
    {"-h", "", ""},
    {"--help", "", ""},
    {"--version", "", ""},
    {"--cache-ram", "", ""},
    {"-cram", "", ""},
    {"--swa-checkpoints", "", ""},
    {"--no-kv-unified", "", ""},
    {"-no-kvu", "", ""},
    {"--repack", "", ""},
    {"-nr", "", ""},
    {"--no-repack", "", ""},
    {"--no-host", "", ""},
    {"-ns", "", ""},
    {"--sequences", "", ""},
    {"-mm", "", ""},
    {"-mmu", "", ""},
    {"--mmproj-auto", "", ""},
    {"--no-mmproj-auto", "", ""},
    {"--mmproj-offload", "", ""},
    {"--no-mmproj-offload", "", ""},
    {"-dr", "", ""},
    {"--docker-repo", "", ""},
    {"-hfrd", "", ""},
    {"-hffv", "", ""},
    {"--hf-file-v", "", ""},
    {"-hfrv", "", ""},
    {"--rpc", "", ""},
    {"--perf", "", ""},
    {"--show-timings", "", ""},
    {"--no-show-timings", "", ""},
    {"-co", "", ""},
    {"--color", "", ""},
    {"--usage", "", ""},
    {"-cl", "", ""},
    {"--cache-list", "", ""},
    {"-Cr", "", ""},
    {"--cpu-range", "", ""},
    {"--cpu-strict", "", ""},
    {"-Cb", "", ""},
    {"--cpu-mask-batch", "", ""},
    {"-Crb", "", ""},
    {"--cpu-range-batch", "", ""},
    {"--cpu-strict-batch", "", ""},
    {"--poll-batch", "", ""},
    {"--override-tensor-draft", "", ""},
    {"-otd", "", ""},
    {"--cpu-moe-draft", "", ""},
    {"-cmoed", "", ""},
    {"--n-cpu-moe-draft", "", ""},
    {"-ncmoed", "", ""},
    {"--list-devices", "", ""},
    {"--op-offload", "", ""},
    {"--predict", "", ""},
    {"-fitt", "", ""},
    {"--fit-target", "", ""},
    {"-fitc", "", ""},
    {"--fit-ctx", "", ""},
    {"--control-vector", "", ""},
    {"--control-vector-scaled", "", ""},
    {"--control-vector-layer-range", "", ""},
    {"--verbose-prompt", "", ""},
    {"--display-prompt", "", ""},
    {"--no-display-prompt", "", ""},
    {"--warmup", "", ""},
    {"--attention", "", ""},
    {"--grp-attn-n", "", ""},
    {"-gan", "", ""},
    {"--grp-attn-w", "", ""},
    {"-gaw", "", ""},
    {"--ignore-eos", "", ""},
    {"--samplers", "", ""},
    {"--sampling-seq", "", ""},
    {"--load-mode", "", ""},
    {"-lm", "", ""},
    {"--spec-type", "", ""},
    {"--spec-draft-n-max", "", ""},
    {"--no-log-prefix", "", ""},
    {"--no-log-timestamps", "", ""},
    {"--log-verbosity", "", ""},
};

// Builds where a flag's meaning changed in place.
constexpr std::string_view kFirstFlashAttnValue = "b6327";  // -fa [on|off|auto]; before, a switch
constexpr std::string_view kFirstAutoSlots = "b7079";       // -np -1 (auto): 4 slots, one unified KV pool
constexpr std::string_view kFirstSlotCap = "b6925";         // cd5e3b575 (PR #16736): a slot capped at n_ctx_train

GgufValue text_value(const std::string& text) {
  GgufValue value;
  value.type = GgufType::string;
  value.data = text;
  value.string_bytes = text.size();
  return value;
}

GgufValue float_value(double number) {
  GgufValue value;
  value.type = GgufType::float32;
  value.data = GgufScalar{static_cast<double>(static_cast<float>(number))};
  return value;
}

GgufValue int_value(std::int64_t number) {
  GgufValue value;
  value.type = GgufType::uint32;
  value.data = GgufScalar{static_cast<std::uint64_t>(number)};
  return value;
}

// KEY=TYPE:VALUE (llama_model_kv_override: int, float, bool, str).
void override_kv(Launch& launch, const std::string& spec) {
  const auto eq = spec.find('=');
  const auto colon = spec.find(':', eq == std::string::npos ? 0 : eq);
  if (eq == std::string::npos || colon == std::string::npos) {
    launch.problems.push_back({LaunchProblemKind::unknown_flag, "--override-kv",
                               fmt::format("--override-kv {}: llama.cpp expects KEY=TYPE:VALUE", spec),
                               "write it as KEY=TYPE:VALUE, e.g. qwen3.context_length=int:131072"});
    return;
  }
  const std::string key = spec.substr(0, eq);
  const std::string type = spec.substr(eq + 1, colon - eq - 1);
  const std::string text = spec.substr(colon + 1);
  try {
    if (type == "int") {
      GgufValue value;
      value.type = GgufType::int64;
      value.data = GgufScalar{static_cast<std::int64_t>(std::stoll(text))};
      launch.gguf_keys[key] = value;
    } else if (type == "float") {
      launch.gguf_keys[key] = float_value(std::stod(text));
    } else if (type == "bool") {
      if (text != "true" && text != "false") throw std::invalid_argument("bool");
      GgufValue value;
      value.type = GgufType::boolean;
      value.data = GgufScalar{text == "true"};
      launch.gguf_keys[key] = value;
    } else if (type == "str") {
      launch.gguf_keys[key] = text_value(text);
    } else {
      launch.problems.push_back(
          {LaunchProblemKind::unknown_flag, "--override-kv",
           fmt::format("--override-kv {}: unknown type '{}' (expected int, float, bool or str)", spec, type),
           "write the type as int, float, bool or str"});
    }
  } catch (const std::exception&) {
    launch.problems.push_back({LaunchProblemKind::unknown_flag, "--override-kv",
                               fmt::format("--override-kv {}: '{}' is not a {} value", spec, text, type),
                               "give a value of the type named"});
  }
}

std::optional<KvDtype> cache_type(const std::string& value) {
  if (value == "f16") return KvDtype::f16;
  if (value == "f32") return KvDtype::f32;
  return parse_kv_dtype(value);
}

// -fa as the build reads it: from b6327 it takes a value (common_arg_utils::is_truthy, is_falsey, is_autoy), so a
// bare -fa takes the next word and refuses it when it is none of them ("unknown value for --flash-attn: '-c'").
// What -fa leaves flash attention at: "on", "off" or "auto" (the words the build takes, read as one of these).
std::string flash_attn_state(const std::string& value) {
  if (value == "on" || value == "enabled" || value == "true" || value == "1") return "on";
  if (value == "off" || value == "disabled" || value == "false" || value == "0") return "off";
  return "auto";
}

void flash_attn(Launch& launch, const std::vector<std::string>& words, std::size_t& i, const std::string& flag,
                std::string& state) {
  if (release_before(Engine::llama_cpp, launch.release, kFirstFlashAttnValue)) {  // a switch
    state = "on";
    return;
  }
  const std::string& word = words[i];
  if (const auto eq = word.find('='); eq != std::string::npos && word.starts_with("--")) {
    state = flash_attn_state(word.substr(eq + 1));
    return;
  }
  if (i + 1 >= words.size()) {
    launch.problems.push_back({LaunchProblemKind::unknown_flag, flag,
                               fmt::format("{} takes a value (on, off or auto) since build {}, and the command ends: "
                                           "llama.cpp refuses to start (\"expected value for argument\")",
                                           flag, kFirstFlashAttnValue),
                               fmt::format("write {} on (or auto, the default)", flag)});
    return;
  }
  static constexpr std::string_view kValues[] = {"on",       "enabled", "true", "1",    "off",
                                                 "disabled", "false",   "0",    "auto", "-1"};
  const std::string& value = words[++i];
  if (std::find(std::begin(kValues), std::end(kValues), value) != std::end(kValues)) {
    state = flash_attn_state(value);
    return;
  }
  launch.problems.push_back(
      {LaunchProblemKind::unknown_flag, flag,
       fmt::format("{} takes a value since build {}: a bare {} swallows the next word, '{}', and llama.cpp refuses to "
                   "start (\"unknown value for --flash-attn: '{}'\"){}",
                   flag, kFirstFlashAttnValue, flag, terminal_safe(value), terminal_safe(value),
                   value.starts_with("-") ? fmt::format(", so {} is not read either", terminal_safe(value)) : ""),
       fmt::format("write {} on (or auto, the default since then)", flag)});
  if (value.starts_with("-")) --i;  // the flag it swallowed is not a value: read on from it for the other problems
}

// How the words set the slots (-np's value when given, -kvu / -no-kvu), the cache types and flash attention.
struct ServerFlags {
  bool slots_set = false;
  std::optional<bool> unified;
  std::string cache_k = "f16";  // -ctk as written
  std::string cache_v = "f16";  // -ctv's value
  std::string cache_v_flag;     // -ctv as written (or its LLAMA_ARG_ variable)
  std::string flash_attn = "";  // "on", "off", "auto"; "" when -fa is not given
};

bool parse_flag(Launch& launch, const std::vector<std::string>& words, const std::string& flag, std::size_t& i,
                ServerFlags& flags) {
  bool& slots_set = flags.slots_set;
  std::optional<bool>& unified = flags.unified;
  const std::string arch_key = "{arch}.";
  if (flag == "-m" || flag == "--model") {
    if (auto value = value_of(words, i, flag, launch)) launch.model = *value;
  } else if (flag == "-hf" || flag == "-hfr" || flag == "--hf-repo") {
    if (auto value = value_of(words, i, flag, launch))
      if (launch.model.empty()) launch.model = value->substr(0, value->find(':'));
  } else if (flag == "-c" || flag == "--ctx-size") {
    launch.length_flag = flag;
    if (auto value = value_of(words, i, flag, launch)) {
      auto tokens = token_value(launch, flag, *value, true);
      launch.asked_tokens = tokens && *tokens > 0 ? tokens : std::nullopt;  // -c 0: n_ctx_train
      launch.length_from_model = tokens && *tokens == 0;
    }
  } else if (flag == "-np" || flag == "--parallel") {
    if (auto value = value_of(words, i, flag, launch)) {
      if (*value == "-1") {
        slots_set = false;  // auto, as when left out
      } else if (auto n = token_value(launch, flag, *value, false)) {
        launch.slots = *n;
        slots_set = true;
      }
    }
  } else if (flag == "-kvu" || flag == "--kv-unified") {
    unified = true;
  } else if (flag == "-no-kvu" || flag == "--no-kv-unified") {
    unified = false;
  } else if (flag == "-fa" || flag == "--flash-attn") {
    flash_attn(launch, words, i, flag, flags.flash_attn);
  } else if (flag == "--rope-scaling") {
    if (auto value = value_of(words, i, flag, launch)) {
      if (*value != "none" && *value != "linear" && *value != "yarn") {
        launch.problems.push_back({LaunchProblemKind::unknown_flag, flag,
                                   fmt::format("--rope-scaling {}: llama.cpp takes none, linear or yarn", *value),
                                   "write --rope-scaling yarn (or linear, none)"});
      } else {
        launch.gguf_keys[arch_key + "rope.scaling.type"] = text_value(*value);
        launch.rope_flags = true;
      }
    }
  } else if (flag == "--rope-scale" || flag == "--rope-freq-scale") {
    if (auto value = value_of(words, i, flag, launch))
      if (auto n = number_value(launch, flag, *value); n && *n > 0) {
        launch.gguf_keys[arch_key + "rope.scaling.factor"] = float_value(flag == "--rope-scale" ? *n : 1.0 / *n);
        launch.rope_flags = true;
      }
  } else if (flag == "--yarn-orig-ctx") {
    if (auto value = value_of(words, i, flag, launch))
      if (auto n = token_value(launch, flag, *value, false)) {
        launch.gguf_keys[arch_key + "rope.scaling.original_context_length"] = int_value(*n);
        launch.rope_flags = true;
      }
  } else if (flag == "--rope-freq-base") {
    if (auto value = value_of(words, i, flag, launch))
      if (auto n = number_value(launch, flag, *value)) {
        launch.gguf_keys[arch_key + "rope.freq_base"] = float_value(*n);
        launch.rope_flags = true;
      }
  } else if (flag == "--override-kv") {
    if (auto value = value_of(words, i, flag, launch)) {
      std::size_t start = 0;  // several overrides may be given comma-separated
      for (auto comma = value->find(',');; comma = value->find(',', start)) {
        override_kv(launch, value->substr(start, comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    }
  } else if (flag == "-ctk" || flag == "--cache-type-k") {
    if (auto value = value_of(words, i, flag, launch)) {
      launch.kv_dtype = cache_type(*value);
      flags.cache_k = *value;
    }
  } else if (flag == "-ctv" || flag == "--cache-type-v") {
    if (auto value = value_of(words, i, flag, launch)) {
      flags.cache_v = *value;
      flags.cache_v_flag = flag;
    }
  } else {
    return false;
  }
  return true;
}

// The LLAMA_ARG_* variables of the flags ropelens models (common/arg.cpp's set_env, ggml-org/llama.cpp at 145b6280).
constexpr std::pair<std::string_view, std::string_view> kEnvFlags[] = {
    {"LLAMA_ARG_MODEL", "-m"},
    {"LLAMA_ARG_HF_REPO", "-hf"},
    {"LLAMA_ARG_CTX_SIZE", "-c"},
    {"LLAMA_ARG_N_PARALLEL", "-np"},
    {"LLAMA_ARG_KV_UNIFIED", "-kvu"},
    {"LLAMA_ARG_FLASH_ATTN", "-fa"},
    {"LLAMA_ARG_ROPE_SCALING_TYPE", "--rope-scaling"},
    {"LLAMA_ARG_ROPE_SCALE", "--rope-scale"},
    {"LLAMA_ARG_ROPE_FREQ_BASE", "--rope-freq-base"},
    {"LLAMA_ARG_ROPE_FREQ_SCALE", "--rope-freq-scale"},
    {"LLAMA_ARG_YARN_ORIG_CTX", "--yarn-orig-ctx"},
    {"LLAMA_ARG_CACHE_TYPE_K", "-ctk"},
    {"LLAMA_ARG_CACHE_TYPE_V", "-ctv"},
};

// The variables set in the command's environment, read as their flags. common_params_parse_ex applies them before
// the command line, so a flag given too wins; what they set is named after the variable.
void apply_env_flags(const ShellCommand& command, Launch& launch, ServerFlags& slots) {
  for (const auto& [variable, flag] : kEnvFlags) {
    const auto it = command.env.find(std::string(variable));
    if (it == command.env.end()) continue;
    std::vector<std::string> words{std::string(flag), it->second};
    if (flag == "-kvu") words.pop_back();  // a switch: any value sets it
    const std::size_t problems = launch.problems.size();
    std::size_t i = 0;
    parse_flag(launch, words, words[0], i, slots);
    for (std::size_t p = problems; p < launch.problems.size(); ++p) launch.problems[p].flag = variable;
    if (launch.length_flag == flag) launch.length_flag = variable;
    if (slots.cache_v_flag == flag) slots.cache_v_flag = variable;
  }
}

void read_flags(const std::vector<std::string>& w, std::size_t start, Launch& launch, ServerFlags& slots) {
  const FlagSyntax syntax{kFlags, {}, "llama.cpp", true, false, false, false};
  walk_flags(w, start, syntax, launch,
             [&](const std::string& flag, std::size_t& i) { return parse_flag(launch, w, flag, i, slots); });
}

// The slots the server starts: -np N splits -c over N unless -kvu; left out (or -1), from build b7079 the server
// starts 4 slots on one unified pool (each request up to all of -c), before it one slot.
void settle_slots(Launch& launch, const ServerFlags& slots, bool server) {
  if (!server) {
    launch.slots = 1;
    return;
  }
  const bool auto_slots = !slots.slots_set && !release_before(Engine::llama_cpp, launch.release, kFirstAutoSlots);
  if (!slots.slots_set) launch.slots = auto_slots ? 4 : 1;
  const bool unified = slots.unified.value_or(auto_slots);
  launch.slots_share_pool = unified && launch.slots > 1;
  launch.slots_split_length = !unified;
  if (auto_slots && unified)
    launch.notes.push_back(
        "-np is left out: llama-server starts 4 slots on one unified KV pool (-np -1, auto; "
        "PR #16736), so a request may use all of -c while the others leave room");
}

// A quantized V cache needs flash attention (the non-FA path multiplies by a transposed V, which a quantized type
// cannot be): llama_new_context_with_model refused it ("V cache quantization requires flash_attn", src/llama.cpp,
// ggml-org/llama.cpp#10378 at b4120) while -fa was an off-by-default switch; from b6327 llama_init_from_model turns
// an -fa auto off when the devices have no flash-attention kernel for the K/V pair and then throws "quantized V cache
// was requested, but this requires Flash Attention" (src/llama-context.cpp; #28524). CUDA's kernels take a quantized
// cache only as the matching pairs q4_0/q4_0 and q8_0/q8_0 (unless built with GGML_CUDA_FA_ALL_QUANTS).
bool quantized_cache(std::string_view type) { return type.starts_with("q") || type.starts_with("iq"); }

void check_value_cache(Launch& launch, const ServerFlags& flags) {
  if (!quantized_cache(flags.cache_v)) return;
  const std::string v = flags.cache_v_flag + " " + flags.cache_v;
  if (release_before(Engine::llama_cpp, launch.release, kFirstFlashAttnValue)) {
    if (flags.flash_attn == "on") return;
    launch.problems.push_back(
        {LaunchProblemKind::unknown_flag, flags.cache_v_flag,
         fmt::format("{} without -fa: flash attention is off (-fa is a switch before build {}), and llama.cpp "
                     "refuses a quantized V cache without it (\"V cache quantization requires flash_attn\"): the "
                     "context is not created",
                     v, kFirstFlashAttnValue),
         "add -fa, or leave the V cache at f16 (-ctk alone may stay quantized)"});
    return;
  }
  if (flags.flash_attn == "on") return;
  if (flags.flash_attn == "off") {
    launch.problems.push_back(
        {LaunchProblemKind::unknown_flag, flags.cache_v_flag,
         fmt::format("{} with flash attention off: llama.cpp refuses a quantized V cache without it (\"quantized V "
                     "cache was requested, but this requires Flash Attention\"): the context is not created",
                     v),
         "write -fa on, or leave the V cache at f16"});
    return;
  }
  const bool cuda_pair = flags.cache_k == flags.cache_v && (flags.cache_v == "q4_0" || flags.cache_v == "q8_0");
  if (cuda_pair) return;
  launch.problems.push_back(
      {LaunchProblemKind::unknown_flag, flags.cache_v_flag,
       fmt::format("{} with -ctk {} and -fa auto (the default): CUDA has flash-attention kernels for a quantized "
                   "cache only as matching q4_0 or q8_0 K/V pairs, so -fa auto turns flash attention off, and "
                   "llama.cpp then refuses the quantized V cache (\"quantized V cache was requested, but this "
                   "requires Flash Attention\"): the context is not created",
                   v, flags.cache_k),
       fmt::format("give K the same type (-ctk {} -ctv {}), with q4_0 or q8_0 on CUDA; or leave the V cache at f16",
                   flags.cache_v == "q4_0" ? "q4_0" : "q8_0", flags.cache_v == "q4_0" ? "q4_0" : "q8_0")});
}

bool parse_llama_cpp(const ShellCommand& command, Launch& launch) {
  const auto& w = command.words;
  if (w.empty()) return false;
  const std::string program = program_name(w[0]);
  if (program == "ollama") return ollama_command(command, launch);
  std::size_t start = 1;
  bool server = program == "llama-server";
  if (program == "llama" && w.size() > 1 && w[1] == "serve") {  // the unified binary (PR #23459)
    server = true;
    start = 2;
  } else if (!server && program != "llama-cli") {
    return false;
  }
  launch.capped_at_trained = server && !release_before(Engine::llama_cpp, launch.release, kFirstSlotCap);
  ServerFlags slots;
  apply_env_flags(command, launch, slots);
  read_flags(w, start, launch, slots);
  settle_slots(launch, slots, server);
  check_value_cache(launch, slots);
  if (launch.length_flag.empty()) launch.length_flag = "-c";
  return true;
}

void fragment_llama_cpp(const ShellCommand& command, Launch& launch) {
  launch.capped_at_trained = !release_before(Engine::llama_cpp, launch.release, kFirstSlotCap);
  ServerFlags slots;
  apply_env_flags(command, launch, slots);
  read_flags(command.words, 0, launch, slots);
  settle_slots(launch, slots, true);
  check_value_cache(launch, slots);
  if (launch.length_flag.empty()) launch.length_flag = "-c";
}

std::string scaling_text(const Model& model) {
  if (!model.gguf) return "";
  std::string text = model.gguf->scaling_type.value;
  if (model.gguf->scaling_factor) text += fmt::format(" ×{}", fmt_number(model.gguf->scaling_factor->value));
  if (model.original_max_position_embeddings)
    text += fmt::format(" from {}", model.original_max_position_embeddings->value);
  return text;
}

// PR #28030 (merged 2026-08-30; build b10754 has it, earlier builds are not placed): llama_init_from_model sets
// n_ctx_train = n_ctx_orig_yarn / rope_freq_scale when the flags ask for YaRN with a frequency scale other than the
// file's, so llama-server caps a slot there.
constexpr std::string_view kFirstBuildReadjustingYarn = "b10754";

double applied_factor(const Model& model) {
  return model.gguf && model.gguf->scaling_factor && model.gguf->factor_applies() ? model.gguf->scaling_factor->value
                                                                                  : 1.0;
}

// n_ctx_train as llama_init_from_model re-adjusts it for YaRN flags, as the key it replaces, with a note.
bool readjust_for_yarn(Launch& launch, const Model& run, const Model& as_read) {
  if (!launch.rope_flags || !run.gguf || run.gguf->scaling_type.value != "yarn" ||
      release_before(Engine::llama_cpp, launch.release, kFirstBuildReadjustingYarn))
    return false;
  const double factor = applied_factor(run);
  if (factor == applied_factor(as_read)) return false;
  const std::int64_t original = run.original_max_position_embeddings ? run.original_max_position_embeddings->value
                                                                     : run.max_position_embeddings.value;
  const auto readjusted = static_cast<std::int64_t>(static_cast<double>(original) * factor);
  if (readjusted == run.max_position_embeddings.value) return false;
  launch.gguf_keys["{arch}.context_length"] = int_value(readjusted);
  // n_ctx_orig_yarn was fixed before the re-adjustment: without an original_context_length key (or --yarn-orig-ctx)
  // it is the file's n_ctx_train, not the re-adjusted one, so the key holds it for the file read again.
  launch.gguf_keys.try_emplace("{arch}.rope.scaling.original_context_length", int_value(original));
  launch.notes.push_back(fmt::format(
      "llama.cpp re-adjusts n_ctx_train from {} to {} for the YaRN flags (n_ctx_orig_yarn {} × factor {}; PR #28030, "
      "build b10754 and later): a slot is capped there, and the audit reads the file so",
      run.max_position_embeddings.value, readjusted, original, fmt_number(factor)));
  return true;
}

void resolve_llama_cpp(Launch& launch, const Model& run, const Model& as_read) {
  if (launch.rope_flags && as_read.gguf && as_read.gguf->extends())
    launch.problems.push_back(
        {LaunchProblemKind::double_scaling, "--rope-scaling",
         fmt::format("the file already scales RoPE ({}), and the flags replace it with {}: scaling meant on top of "
                     "the file's is not applied twice, and the file's own is lost",
                     scaling_text(as_read), scaling_text(run)),
         "drop the RoPE flags and keep the file's scaling, or state the whole scaling the model should run with"});
  const std::int64_t trained = run.max_position_embeddings.value;
  if (!launch.asked_tokens && launch.default_by_memory.empty()) {
    if (launch.slots_split_length && launch.slots > 1)
      launch.problems.push_back(
          {LaunchProblemKind::slot_below_asked, launch.length_flag,
           fmt::format(
               "{} is the file's training context, n_ctx_train {}, split over {} slots: each request gets a "
               "{}-token slot, a 1/{} share",
               launch.length_from_model ? launch.length_flag + " 0" : fmt::format("{} left out", launch.length_flag),
               trained, launch.slots, launch.served_tokens, launch.slots),
           fmt::format("give -c {} for {} slots of {} tokens, or -kvu so that one request may use the whole cache, or "
                       "fewer slots",
                       trained * launch.slots, launch.slots, trained)});
    if (launch.runner.empty() && launch.capped_at_trained)
      launch.notes.push_back(fmt::format(
          "{}: the context is n_ctx_train {}; --fit (on by default from PR #16653) may lower it to what the devices' "
          "free memory holds, down to --fit-ctx (4096 by default); an explicit -c N is kept",
          launch.length_from_model ? launch.length_flag + " 0" : fmt::format("{} left out", launch.length_flag),
          trained));
  }
  if (launch.capped_at_trained && trained > 0 && launch.served_tokens > trained) {
    const std::int64_t asked = launch.served_tokens;
    launch.served_tokens = trained;
    if (!launch.default_by_memory.empty()) {  // the engine's own default, lowered: nothing the launch asked for
      launch.notes.push_back(
          fmt::format("Ollama lowers its default num_ctx {} to the file's n_ctx_train {}", asked, trained));
      return;
    }
    launch.problems.push_back(
        {LaunchProblemKind::slot_below_asked, launch.length_flag,
         fmt::format("each request would get {} tokens, but {} caps it at n_ctx_train {}: requests get {} "
                     "tokens",
                     asked, launch.runner.empty() ? "llama-server" : "Ollama", trained, trained),
         launch.runner.empty()
             ? fmt::format("--override-kv {}.context_length=int:{} lifts the cap (after extending RoPE to that length)",
                           run.model_type.value.empty() ? "ARCH" : run.model_type.value, asked)
             : fmt::format("set num_ctx to at most {}, or create the model from a GGUF whose {}.context_length is "
                           "raised (after extending RoPE to that length)",
                           trained, run.model_type.value.empty() ? "ARCH" : run.model_type.value)});
  }
  if (launch.runner == "Ollama") resolve_ollama(launch, run);
}

}  // namespace llama_cpp_launch

std::optional<Launch> ollama_modelfile(const std::string& path, std::string_view text, const LaunchRelease& release);
extern const EngineVariables kLlamaCppVariables[2];

// .devops/*.Dockerfile: the "server" stage's ENTRYPOINT is /app/llama-server and the "light" stage's /app/llama-cli
// (ggml-org/llama.cpp at 00d69466), published as ghcr.io/ggml-org/llama.cpp:server, :server-cuda, :light, ….
constexpr ImageEntrypoint kLlamaCppImages[] = {
    {"ggml-org/llama.cpp", "server", "/app/llama-server"},
    {"ggml-org/llama.cpp", "light", "/app/llama-cli"},
    {"ggerganov/llama.cpp", "server", "/app/llama-server"},  // the images' name before the organisation moved
    {"ggerganov/llama.cpp", "light", "/app/llama-cli"},
    // ollama/ollama's Dockerfile: ENTRYPOINT ["/bin/ollama"], CMD ["serve"] (ollama/ollama at fb307609).
    {"ollama/ollama", "", "/bin/ollama", "serve"},
};

const LaunchSyntax kLlamaCppLaunch = {.parse = llama_cpp_launch::parse_llama_cpp,
                                      .fragment = llama_cpp_launch::fragment_llama_cpp,
                                      .file = ollama_modelfile,
                                      .resolve = llama_cpp_launch::resolve_llama_cpp,
                                      .load_time_keys = llama_cpp_launch::readjust_for_yarn,
                                      .images = kLlamaCppImages,
                                      .variables = kLlamaCppVariables};

}  // namespace ropelens::engine_detail
