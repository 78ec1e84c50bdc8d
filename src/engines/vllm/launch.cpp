// `vllm serve MODEL …` and `python -m vllm.entrypoints.openai.api_server --model MODEL …` as vLLM reads them
// (docs/engines.md, "Launch lines"):
// - the flags are those of vllm/engine/arg_utils.py and vllm/entrypoints/openai/cli_args.py @9aaf83ef
//   (launch_flags.inc); FlexibleArgumentParser reads --max_model_len as --max-model-len; --rope-scaling and
//   --rope-theta were removed in 0.11.1 (PR #28006);
// - --max-model-len takes human_readable_int_or_auto (vllm/utils/argparse_utils.py): 128k = 128000, 128K = 131072;
// - a dict --hf-overrides is applied by config.update() before patch_rope_parameters
//   (vllm/transformers_utils/config.py:819-828 @9aaf83ef), which on transformers v5 standardizes only
//   rope_parameters: a "rope_scaling" or "rope_theta" key is set on the config and never read, while
//   "rope_parameters" (and "max_position_embeddings", from which vLLM derives the length) take effect; dict values
//   are applied by ModelConfig._apply_dict_overrides (vllm/config/model.py:434 @9aaf83ef): a sub-config key by key;
// - a --max-model-len above the derived length is refused unless VLLM_ALLOW_LONG_MAX_MODEL_LEN is set
//   (vllm/config/model.py _get_and_verify_max_len @9aaf83ef);
// - --gpu-memory-utilization defaults to 0.92 and is checked 0 < x ≤ 1 (vllm/config/cache.py:66 @9aaf83ef); at 1.0
//   start-up fails, since the CUDA context already holds part of the device's memory.
#include <cmath>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ropelens/engines/launch.hpp"
#include "vllm.hpp"

namespace ropelens::engine_detail {
namespace vllm_launch {

using namespace launch_detail;

constexpr std::string_view kFlags[] = {
#include "launch_flags.inc"
};

// human_readable_int: "1k" → 1000, "1K" → 1024, "25.6k" → 25600; "auto" and -1: the derived length.
std::optional<std::int64_t> max_len_value(Launch& launch, const std::string& flag, const std::string& value) {
  if (value == "auto" || value == "-1") return std::nullopt;
  static const std::regex suffixed(R"((\d+(?:\.\d+)?)([kKmMgGtT]))");
  std::smatch match;
  if (std::regex_match(value, match, suffixed)) {
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

void hf_overrides(Launch& launch, const std::string& flag, const std::string& text) {
  nlohmann::json overrides;
  try {
    overrides = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
    launch.problems.push_back({LaunchProblemKind::unknown_flag, flag,
                               fmt::format("{} is not a JSON object (vLLM reads a dict)", flag),
                               R"(write it as JSON: '{"rope_parameters":{…}}')"});
    return;
  }
  if (!overrides.is_object()) {
    launch.problems.push_back({LaunchProblemKind::unknown_flag, flag, fmt::format("{} is not a JSON object", flag),
                               R"(write it as JSON: '{"rope_parameters":{…}}')"});
    return;
  }
  for (const auto& [key, value] : overrides.items()) {
    if (key == "rope_scaling" || key == "rope_theta") {
      launch.problems.push_back(
          {LaunchProblemKind::ignored_override, flag,
           fmt::format("{} \"{}\" is applied after vLLM copied rope_scaling into rope_parameters "
                       "(config.update before patch_rope_parameters, which on transformers v5 reads only "
                       "rope_parameters): the model runs with the RoPE of its config.json",
                       flag, key),
           key == "rope_scaling"
               ? R"(write the dict under "rope_parameters" with "rope_theta" in it, and "max_position_embeddings" for the length: '{"rope_parameters":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768,"rope_theta":1000000},"max_position_embeddings":131072}')"
               : R"(write it inside "rope_parameters": '{"rope_parameters":{"rope_type":"default","rope_theta":…}}')"});
      continue;
    }
    apply_config_override(launch, key, value);
  }
}

bool parse_flag(Launch& launch, const std::vector<std::string>& words, const std::string& flag, std::size_t& i) {
  if (flag == "--model") {
    if (auto value = value_of(words, i, flag, launch)) launch.model = *value;
  } else if (flag == "--max-model-len") {
    launch.length_flag = flag;
    if (auto value = value_of(words, i, flag, launch)) launch.asked_tokens = max_len_value(launch, flag, *value);
  } else if (flag == "--hf-overrides") {
    if (auto value = value_of(words, i, flag, launch)) hf_overrides(launch, flag, *value);
  } else if (flag == "--gpu-memory-utilization") {
    launch.memory_flag = flag;
    if (auto value = value_of(words, i, flag, launch)) launch.memory_fraction = number_value(launch, flag, *value);
  } else if (flag == "--tensor-parallel-size" || flag == "-tp") {
    if (auto value = value_of(words, i, flag, launch))
      if (auto n = token_value(launch, flag, *value, false)) launch.tensor_parallel = *n;
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

bool removed_flag(Launch& launch, const std::string& word) {
  const std::string name = word.substr(0, word.find('='));
  if (name != "--rope-scaling" && name != "--rope-theta" && name != "--rope_scaling" && name != "--rope_theta")
    return false;
  launch.problems.push_back({LaunchProblemKind::unknown_flag, name,
                             fmt::format("{} was removed in vLLM 0.11.1 (PR #28006): vLLM refuses to start", name),
                             R"(use --hf-overrides '{"rope_parameters":{…},"max_position_embeddings":N}')"});
  return true;
}

bool parse_vllm(const ShellCommand& command, EngineVersion, Launch& launch) {
  const auto& w = command.words;
  std::size_t start = 0;
  const auto program = [](const std::string& word) { return word.substr(word.rfind('/') + 1); };
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
  std::vector<std::string> words;
  for (std::size_t i = start; i < w.size(); ++i)
    if (!removed_flag(launch, w[i])) words.push_back(w[i]);
    else if (w[i].find('=') == std::string::npos && i + 1 < w.size() && !w[i + 1].starts_with("-")) ++i;
  const FlagSyntax syntax{kFlags, "vLLM", true, false, true, true};
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
  return true;
}

}  // namespace vllm_launch

// docker/Dockerfile, stage vllm-openai: ENTRYPOINT ["vllm", "serve"] (vllm-project/vllm at dead20ba; earlier
// releases ran python3 -m vllm.entrypoints.openai.api_server, which ropelens reads the same way).
constexpr ImageEntrypoint kVllmImages[] = {{"vllm/vllm-openai", "", "vllm serve"}};

const LaunchSyntax kVllmLaunch = {
    .parse = vllm_launch::parse_vllm, .file = nullptr, .resolve = nullptr, .images = kVllmImages};

}  // namespace ropelens::engine_detail
