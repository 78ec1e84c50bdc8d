// `vllm serve MODEL …` and `python -m vllm.entrypoints.openai.api_server --model MODEL …` as the vLLM release the
// launch runs reads them (docs/engines.md, "Launch lines" and "Launch flags by release"):
// - the flags each release takes are launch_flags.inc, read from the argument parser's source at each release;
//   FlexibleArgumentParser reads --max_model_len as --max-model-len, argparse's allow_abbrev takes a unique prefix
//   (--max-model for --max-model-len), -O3 is --optimization-level 3, and --hf-overrides.KEY VALUE sets one key;
// - --rope-scaling and --rope-theta (releases before 0.11.1, PR #28006) set rope_scaling and rope_theta in the HF
//   config (vllm/config.py ModelConfig.__init__ @20e489ea: hf_overrides_kw, then hf_config.update); a "type" key is
//   read as "rope_type" and one that contradicts it refuses to start (patch_rope_scaling_dict);
// - --max-model-len takes human_readable_int (from 0.8.4, PR #16181): 128k = 128000, 128K = 131072; "auto" and -1:
//   the derived length;
// - a dict --hf-overrides is applied by config.update() before vLLM reads the RoPE. Releases before 0.12.0 read
//   rope_scaling and rope_theta (a "rope_parameters" key is set and never read); from 0.12.0 (PR #28542)
//   patch_rope_parameters copies rope_scaling and rope_theta into rope_parameters under transformers v4, which
//   vLLM required until PR #30566 (2026-04-16); under transformers v5 (releases from 0.22.0, the first placed after
//   it) it standardizes rope_parameters only, so a "rope_scaling" or "rope_theta" key is set and never read
//   (vllm/transformers_utils/config.py:819-828 @9aaf83ef); dict values are applied by
//   ModelConfig._apply_dict_overrides (vllm/config/model.py:434 @9aaf83ef): a sub-config key by key;
// - a --max-model-len above the derived length is refused unless VLLM_ALLOW_LONG_MAX_MODEL_LEN is set
//   (vllm/config/model.py _get_and_verify_max_len @9aaf83ef);
// - --gpu-memory-utilization defaults to 0.92 and is checked 0 < x ≤ 1 (vllm/config/cache.py:66 @9aaf83ef); at 1.0
//   start-up fails, since the CUDA context already holds part of the device's memory.
#include <cmath>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ropelens/engines/launch.hpp"
#include "ropelens/engines/versions.hpp"
#include "vllm.hpp"

namespace ropelens::engine_detail {
namespace vllm_launch {

using namespace launch_detail;

constexpr FlagRelease kFlags[] = {
#include "launch_flags.inc"
};

constexpr std::string_view kHfOverridesHelp =
    R"(use --hf-overrides '{"rope_parameters":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768,"rope_theta":1000000},"max_position_embeddings":131072}')";

constexpr FlagChange kChanges[] = {
    {"--rope-scaling", "PR #28006", kHfOverridesHelp},
    {"--rope-theta", "PR #28006", kHfOverridesHelp},
};

constexpr std::string_view kVariableNames[] = {
#include "variables.inc"
};
constexpr EngineVariables kVariables[] = {
    {"VLLM_", kVariableNames, "the VLLM_* names of vllm/ at 0.8.5, 0.11.0, 0.15.0 and 9aaf83ef", ""}};

// The releases whose config handling differs for overrides: the RoPE keys a dict --hf-overrides sets.
constexpr std::string_view kFirstRopeParameters = "0.12.0";      // PR #28542: patch_rope_parameters
constexpr std::string_view kFirstTransformersV5 = "0.22.0";      // PR #30566 (2026-04-16), first release placed after
constexpr std::string_view kFirstHumanReadableLength = "0.8.4";  // PR #16181 (2025-04-07)

bool release_before(const Launch& launch, std::string_view release) {
  return ropelens::release_before(Engine::vllm, launch.release, release);
}

// human_readable_int: "1k" → 1000, "1K" → 1024, "25.6k" → 25600; "auto" and -1: the derived length.
std::optional<std::int64_t> max_len_value(Launch& launch, const std::string& flag, const std::string& value) {
  if (value == "auto" || value == "-1") return std::nullopt;
  static const std::regex suffixed(R"((\d+(?:\.\d+)?)([kKmMgGtT]))");
  std::smatch match;
  if (std::regex_match(value, match, suffixed)) {
    if (release_before(launch, kFirstHumanReadableLength)) {
      launch.problems.push_back(
          {LaunchProblemKind::unknown_flag, flag,
           fmt::format("{} {}: vLLM {} reads a plain integer (k/K suffixes came in 0.8.4, PR #16181) and refuses to "
                       "start",
                       flag, value, launch.release),
           fmt::format("write the number of tokens in digits")});
      return std::nullopt;
    }
    const char suffix = match[2].str()[0];
    const double number = match[1].length() > 15 ? HUGE_VAL : std::stod(match[1].str());
    const bool decimal = std::islower(static_cast<unsigned char>(suffix)) != 0;
    const int power = std::string_view("kmgt").find(static_cast<char>(std::tolower(suffix))) + 1;
    if (!decimal && match[1].str().find('.') != std::string::npos) {
      launch.problems.push_back(
          {LaunchProblemKind::unknown_flag, flag,
           fmt::format("{} {}: vLLM refuses decimals with binary suffixes like {}", flag, value, suffix),
           fmt::format("write {}{}", match[1].str(), static_cast<char>(std::tolower(suffix)))});
      return std::nullopt;
    }
    const double tokens = number * std::pow(decimal ? 1000.0 : 1024.0, power);
    if (!(tokens >= 1.0 && tokens < 9.0e15)) {
      launch.problems.push_back({LaunchProblemKind::unknown_flag, flag,
                                 fmt::format("{} {}: not a number of tokens vLLM can serve", flag, value),
                                 fmt::format("give {} a number of tokens such as 131072 or 128k", flag)});
      return std::nullopt;
    }
    return static_cast<std::int64_t>(tokens);
  }
  return token_value(launch, flag, value, false);
}

std::optional<nlohmann::json> json_object(Launch& launch, const std::string& flag, const std::string& text) {
  nlohmann::json value;
  try {
    value = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
  }
  if (value.is_object()) return value;
  launch.problems.push_back({LaunchProblemKind::unknown_flag, flag,
                             fmt::format("{} is not a JSON object (vLLM reads a dict): it refuses to start", flag),
                             R"(write it as JSON: '{"rope_type":"yarn","factor":4.0,…}')"});
  return std::nullopt;
}

// A rope_scaling dict as patch_rope_scaling_dict reads it: "type" is "rope_type", the two must agree, one is needed.
std::optional<nlohmann::json> rope_scaling_dict(Launch& launch, const std::string& flag, nlohmann::json dict) {
  const bool modern = dict.contains("rope_type");
  const bool legacy = dict.contains("type");
  if (modern && legacy && dict["rope_type"] != dict["type"]) {
    launch.problems.push_back(
        {LaunchProblemKind::unknown_flag, flag,
         fmt::format("{} gives rope_type {} and type {}: vLLM raises \"Found conflicts between 'rope_type' (modern "
                     "field) and 'type' (legacy field)\" and refuses to start",
                     flag, dict["rope_type"].dump(), dict["type"].dump()),
         "give one of them"});
    return std::nullopt;
  }
  if (!modern && !legacy) {
    launch.problems.push_back({LaunchProblemKind::unknown_flag, flag,
                               fmt::format("{} has no \"rope_type\" (nor the legacy \"type\"): vLLM raises "
                                           "\"rope_scaling should have a 'rope_type' key\" and refuses to start",
                                           flag),
                               R"(add "rope_type": "yarn" (or the method meant))"});
    return std::nullopt;
  }
  if (!modern) dict["rope_type"] = dict["type"];
  return dict;
}

void ignored_rope_key(Launch& launch, const std::string& flag, const std::string& key, const std::string& why,
                      std::string help) {
  launch.problems.push_back(
      {LaunchProblemKind::ignored_override, flag,
       fmt::format("{} \"{}\" {}: the model runs with the RoPE of its config.json", flag, key, why), std::move(help)});
}

void hf_override(Launch& launch, const std::string& flag, const std::string& key, const nlohmann::json& value) {
  const bool reads_rope_parameters = !release_before(launch, kFirstRopeParameters);
  const bool transformers_v5 = !release_before(launch, kFirstTransformersV5);
  if ((key == "rope_scaling" || key == "rope_theta") && transformers_v5) {
    ignored_rope_key(
        launch, flag, key,
        "is applied after vLLM copied rope_scaling into rope_parameters (config.update before "
        "patch_rope_parameters, which on transformers v5 reads only rope_parameters)",
        key == "rope_scaling"
            ? R"(write the dict under "rope_parameters" with "rope_theta" in it, and "max_position_embeddings" for the length: '{"rope_parameters":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768,"rope_theta":1000000},"max_position_embeddings":131072}')"
            : R"(write it inside "rope_parameters": '{"rope_parameters":{"rope_type":"default","rope_theta":…}}')");
    return;
  }
  if (key == "rope_parameters" && !reads_rope_parameters) {
    ignored_rope_key(
        launch, flag, key,
        fmt::format("is set on the config, which vLLM {} never reads: it reads rope_scaling and "
                    "rope_theta (rope_parameters came with PR #28542, in 0.12.0)",
                    launch.release),
        R"(write the dict as "rope_scaling" (and "rope_theta" beside it): '{"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768}}')");
    return;
  }
  if (key == "rope_scaling" && value.is_object()) {
    if (auto dict = rope_scaling_dict(launch, flag, value)) apply_config_override(launch, key, *dict);
    return;
  }
  apply_config_override(launch, key, value);
}

void hf_overrides(Launch& launch, const std::string& flag, const std::string& text) {
  const auto overrides = json_object(launch, flag, text);
  if (!overrides) return;
  for (const auto& [key, value] : overrides->items()) hf_override(launch, flag, key, value);
}

// --hf-overrides.KEY.SUB VALUE: FlexibleArgumentParser nests the dotted keys into the dict (the value read as JSON
// when it parses, else as a string).
void dotted_override(Launch& launch, const std::string& word, const std::string& value) {
  std::vector<std::string> keys;
  std::size_t at = std::string("--hf-overrides.").size();
  while (at <= word.size()) {
    const auto dot = std::min(word.find('.', at), word.size());
    keys.push_back(word.substr(at, dot - at));
    at = dot + 1;
  }
  nlohmann::json parsed;
  try {
    parsed = nlohmann::json::parse(value);
  } catch (const nlohmann::json::exception&) {
    parsed = value;
  }
  for (std::size_t i = keys.size(); i-- > 1;) parsed = nlohmann::json{{keys[i], parsed}};
  hf_override(launch, "--hf-overrides", keys.front(), parsed);
}

void rope_scaling_flag(Launch& launch, const std::string& flag, const std::string& text) {
  if (auto dict = json_object(launch, flag, text))
    if (auto read = rope_scaling_dict(launch, flag, *dict)) apply_config_override(launch, "rope_scaling", *read);
}

bool parse_flag(Launch& launch, const std::vector<std::string>& words, const std::string& flag, std::size_t& i) {
  if (flag == "--model") {
    if (auto value = value_of(words, i, flag, launch)) launch.model = *value;
  } else if (flag == "--max-model-len") {
    launch.length_flag = flag;
    if (auto value = value_of(words, i, flag, launch)) launch.asked_tokens = max_len_value(launch, flag, *value);
  } else if (flag == "--hf-overrides") {
    if (auto value = value_of(words, i, flag, launch)) hf_overrides(launch, flag, *value);
  } else if (flag == "--rope-scaling") {
    if (auto value = value_of(words, i, flag, launch)) rope_scaling_flag(launch, flag, *value);
  } else if (flag == "--rope-theta") {
    if (auto value = value_of(words, i, flag, launch))
      if (auto theta = number_value(launch, flag, *value)) apply_config_override(launch, "rope_theta", *theta);
  } else if (flag == "--gpu-memory-utilization") {
    launch.memory_flag = flag;
    if (auto value = value_of(words, i, flag, launch)) launch.memory_fraction = number_value(launch, flag, *value);
  } else if (flag == "--tensor-parallel-size" || flag == "-tp") {
    if (auto value = value_of(words, i, flag, launch))
      if (auto n = token_value(launch, flag, *value, false)) {
        launch.tensor_parallel = *n;
        launch.tensor_parallel_flag = flag;
      }
  } else if (flag == "--limit-mm-per-prompt") {
    // JSON only from PR #20969 (1e36c8687, 0.10.0): `image=4,audio=1` fails json.loads in argparse.
    if (auto value = value_of(words, i, flag, launch); value && !release_before(launch, "0.10.0"))
      if (!nlohmann::json::accept(*value))
        launch.problems.push_back(
            {LaunchProblemKind::unknown_flag, flag,
             fmt::format("{} {} is not JSON: vLLM reads it with json.loads from 0.10.0 (PR #20969) and refuses to "
                         "start",
                         flag, *value),
             R"(write it as JSON: '{"image": 4, "audio": 1}')"});
  } else if (flag == "--kv-cache-dtype") {
    if (auto value = value_of(words, i, flag, launch)) {
      if (value->starts_with("fp8")) launch.kv_dtype = KvDtype::fp8;
      else if (*value == "bfloat16") launch.kv_dtype = KvDtype::bf16;
      else if (*value == "float16" || *value == "half") launch.kv_dtype = KvDtype::f16;
    }
  } else {
    return false;
  }
  return true;
}

// Words FlexibleArgumentParser rewrites before argparse sees them: -O3 / -O 3 (--optimization-level) and dotted
// dict keys (--hf-overrides.max_position_embeddings 131072, --compilation-config.level 3).
std::vector<std::string> preprocessed(Launch& launch, const std::vector<std::string>& w, std::size_t start) {
  std::vector<std::string> words;
  for (std::size_t i = start; i < w.size(); ++i) {
    const std::string& word = w[i];
    if (word.starts_with("-O") && !word.starts_with("--")) {
      if (word == "-O" && i + 1 < w.size() && !w[i + 1].starts_with("-")) ++i;
      continue;
    }
    const auto dot = word.find('.');
    if (word.starts_with("--") && dot != std::string::npos && dot < word.find('=')) {
      const auto eq = word.find('=');
      const std::string key = word.substr(0, eq);
      std::optional<std::string> value;
      if (eq != std::string::npos) value = word.substr(eq + 1);
      else if (i + 1 < w.size()) value = w[++i];
      if (key.starts_with("--hf-overrides.") || key.starts_with("--hf_overrides.")) {
        if (value) dotted_override(launch, "--hf-overrides." + key.substr(key.find('.') + 1), *value);
      } else {
        words.push_back(key.substr(0, dot));  // checked as the flag it extends; its value is the dict key's
        words.push_back("{}");
      }
      continue;
    }
    words.push_back(word);
  }
  return words;
}

void read_flags(const std::vector<std::string>& w, std::size_t start, Launch& launch) {
  const std::vector<std::string> words = preprocessed(launch, w, start);
  const FlagSyntax syntax{kFlags, kChanges, "vLLM", true, true, true, true};
  walk_flags(words, 0, syntax, launch,
             [&](const std::string& flag, std::size_t& i) { return parse_flag(launch, words, flag, i); });
  if (launch.memory_fraction && *launch.memory_fraction >= 1.0)
    launch.problems.push_back(
        {LaunchProblemKind::memory_fraction_refused, launch.memory_flag,
         fmt::format("{} {:g}: vLLM asks for the whole device, and the CUDA context already holds part of it, so the "
                     "start-up memory check fails{}",
                     launch.memory_flag, *launch.memory_fraction,
                     *launch.memory_fraction > 1.0 ? " (above 1 it is refused outright: 0 < x ≤ 1)" : ""),
         fmt::format("leave {} at its default {:g}, or give at most about 0.95", launch.memory_flag,
                     vllm_memory_share({}).fraction)});
}

bool parse_vllm(const ShellCommand& command, Launch& launch) {
  const auto& w = command.words;
  std::size_t start = 0;
  const auto program = [](const std::string& word) { return program_name(word); };
  if (w.size() >= 2 && program(w[0]) == "vllm" && w[1] == "serve") {
    start = 2;
    if (w.size() > 2 && !w[2].starts_with("-")) {
      launch.model = w[2];
      start = 3;
    }
  } else if (w.size() >= 3 && program(w[0]).starts_with("python") && w[1] == "-m" &&
             w[2] == "vllm.entrypoints.openai.api_server") {
    start = 3;
  } else {
    return false;
  }
  read_flags(w, start, launch);
  check_variables(command, kVariables, launch);
  return true;
}

// A recipe's flags without the program (`--max-model-len 131072 --hf-overrides …`), read as `vllm serve`'s.
void fragment_vllm(const ShellCommand& command, Launch& launch) {
  // "-m vllm.entrypoints.openai.api_server --model …": the interpreter's arguments, quoted without the interpreter.
  const auto& w = command.words;
  const bool module = w.size() >= 2 && w[0] == "-m" && w[1] == "vllm.entrypoints.openai.api_server";
  read_flags(w, module ? 2 : 0, launch);
  check_variables(command, kVariables, launch);
}

// ModelConfig.verify_with_parallel_config (vllm/config/model.py:1150-1161 @28be48fa; vllm/config.py:190-196
// @2e0b6e775, 0.2.7) raises before any weight loads when the attention heads do not split evenly over the
// tensor-parallel ranks.
void resolve_vllm(Launch& launch, const Model& run, const Model&) {
  if (launch.tensor_parallel_flag.empty() || !run.num_attention_heads || launch.tensor_parallel < 1) return;
  const std::int64_t heads = run.num_attention_heads->value;
  if (heads <= 0 || heads % launch.tensor_parallel == 0) return;
  std::vector<std::string> divisors;
  for (std::int64_t d = 1; d <= heads; ++d)
    if (heads % d == 0) divisors.push_back(std::to_string(d));
  launch.problems.push_back(
      {LaunchProblemKind::parallelism_refused, launch.tensor_parallel_flag,
       fmt::format("{} {}: the model has {} attention heads, which {} ranks cannot split, so vLLM stops before loading "
                   "it (\"Total number of attention heads ({}) must be divisible by tensor parallel size ({})\")",
                   launch.tensor_parallel_flag, launch.tensor_parallel, heads, launch.tensor_parallel, heads,
                   launch.tensor_parallel),
       fmt::format("give {} a divisor of {} ({}), or use pipeline parallelism for the rest",
                   launch.tensor_parallel_flag, heads, fmt::join(divisors, ", "))});
}

}  // namespace vllm_launch

// docker/Dockerfile, stage vllm-openai: ENTRYPOINT ["vllm", "serve"] (vllm-project/vllm at dead20ba; earlier
// releases ran python3 -m vllm.entrypoints.openai.api_server, which ropelens reads the same way). The tag names the
// release (v0.8.5).
constexpr ImageEntrypoint kVllmImages[] = {{"vllm/vllm-openai", "", "vllm serve"}};

const LaunchSyntax kVllmLaunch = {.parse = vllm_launch::parse_vllm,
                                  .fragment = vllm_launch::fragment_vllm,
                                  .file = nullptr,
                                  .resolve = vllm_launch::resolve_vllm,
                                  .images = kVllmImages,
                                  .variables = vllm_launch::kVariables};

}  // namespace ropelens::engine_detail
