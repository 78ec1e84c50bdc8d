// `python -m sglang.launch_server --model-path MODEL …` as SGLang reads it (docs/engines.md, "Launch lines"):
// - the flags are those of python/sglang/srt/server_args.py @8905cbd4 (launch_flags.inc), through argparse with
//   allow_abbrev, so a unique prefix (--tp) stands for its flag (--tp-size);
// - --json-model-override-args is a JSON dict applied by config.update() right after the config is parsed
//   (python/sglang/srt/utils/hf_transformers/config.py:256 @8905cbd4), before get_context_length reads it;
// - get_context_length (python/sglang/srt/configs/model_config.py _derive_context_length @8905cbd4) ignores the
//   YaRN factor when the rope dict has original_max_position_embeddings (the view's length rule), and a longer
//   --context-length raises ValueError unless SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN is set;
// - `kt run MODEL …` (KTransformers) is read by kt_run.cpp into these flags;
// - --mem-fraction-static has no fixed default: SGLang computes it per GPU at start-up (sglang_memory_share, which
//   SRV505 reads through engine_budget as fit does).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ropelens/engines/launch.hpp"
#include "sglang.hpp"

namespace ropelens::engine_detail {
namespace sglang_launch {

using namespace launch_detail;

namespace {

constexpr FlagRelease kFlags[] = {
#include "launch_flags.inc"
};

constexpr std::string_view kVariableNames[] = {
#include "variables.inc"
};
constexpr EngineVariables kVariables[] = {
    {"SGLANG_", kVariableNames, "the SGLANG_* names of python/sglang at 0.4.6, 0.5.6 and 8905cbd4", ""},
    {"SGL_", kVariableNames, "the SGL_* names of python/sglang at 0.4.6, 0.5.6 and 8905cbd4", ""}};

void override_args(Launch& launch, const std::string& flag, const std::string& text) {
  nlohmann::json overrides;
  try {
    overrides = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
  }
  if (!overrides.is_object()) {
    launch.problems.push_back({LaunchProblemKind::unknown_flag, flag,
                               fmt::format("{} is not a JSON object: SGLang's json.loads and config.update fail", flag),
                               R"(write it as a JSON object: '{"rope_scaling":{…}}')"});
    return;
  }
  for (const auto& [key, value] : overrides.items()) apply_config_override(launch, key, value);
}

bool parse_flag(Launch& launch, const std::vector<std::string>& words, const std::string& flag, std::size_t& i) {
  if (flag == "--model-path" || flag == "--model") {
    if (auto value = value_of(words, i, flag, launch)) launch.model = *value;
  } else if (flag == "--context-length") {
    launch.length_flag = flag;
    if (auto value = value_of(words, i, flag, launch)) launch.asked_tokens = token_value(launch, flag, *value, false);
  } else if (flag == "--json-model-override-args") {
    if (auto value = value_of(words, i, flag, launch)) override_args(launch, flag, *value);
  } else if (flag == "--mem-fraction-static") {
    launch.memory_flag = flag;
    if (auto value = value_of(words, i, flag, launch)) launch.memory_fraction = number_value(launch, flag, *value);
  } else if (flag == "--tp-size" || flag == "--tensor-parallel-size") {
    if (auto value = value_of(words, i, flag, launch))
      if (auto n = token_value(launch, flag, *value, false)) {
        launch.tensor_parallel = *n;
        launch.tensor_parallel_flag = flag;
      }
  } else if (flag == "--max-total-tokens") {
    launch.pool_flag = flag;
    if (auto value = value_of(words, i, flag, launch)) launch.pool_tokens = token_value(launch, flag, *value, false);
  } else if (flag == "--kv-cache-dtype") {
    if (auto value = value_of(words, i, flag, launch)) {
      if (value->starts_with("fp8")) launch.kv_dtype = KvDtype::fp8;
      else if (*value == "bf16" || *value == "bfloat16") launch.kv_dtype = KvDtype::bf16;
    }
  } else {
    return false;
  }
  return true;
}

}  // namespace

void read_flags(const std::vector<std::string>& words, std::size_t start, Launch& launch) {
  const FlagSyntax syntax{kFlags, {}, "SGLang", false, true, false, true};
  walk_flags(words, start, syntax, launch,
             [&](const std::string& flag, std::size_t& i) { return parse_flag(launch, words, flag, i); });
}

// `python -m sglang.launch_server …`, and `sglang serve [MODEL] …` (python/sglang/cli/serve.py @8905cbd4, which
// passes the rest to the same parser).
bool parse_sglang(const ShellCommand& command, Launch& launch) {
  if (parse_kt_run(command, launch)) {
    check_variables(command, kVariables, launch);
    return true;
  }
  const auto& w = command.words;
  const auto program = [](const std::string& word) { return program_name(word); };
  std::size_t start = 0;
  if (w.size() >= 3 && program(w[0]).starts_with("python") && w[1] == "-m" && w[2] == "sglang.launch_server") start = 3;
  else if (w.size() >= 2 && program(w[0]) == "sglang" && w[1] == "serve") start = 2;
  else return false;
  if (start == 2 && w.size() > 2 && !w[2].starts_with("-")) launch.model = w[start++];  // sglang serve MODEL
  read_flags(w, start, launch);
  check_variables(command, kVariables, launch);
  return true;
}

void fragment_sglang(const ShellCommand& command, Launch& launch) {
  read_flags(command.words, 0, launch);
  check_variables(command, kVariables, launch);
}

// --max-total-tokens caps the KV pool (kv_cache_configurator.py _apply_token_constraints: min(profiled, the flag)),
// and get_worker_info (managers/tp_worker.py @8905cbd4) takes max_req_len = min(context_len − 1, pool − 1): a
// request's input must stay below max_req_len − 5 (managers/utils.py validate_input_length), else it is aborted
// (--allow-auto-truncate cuts it instead).
void resolve_sglang(Launch& launch, const Model& /*run*/, const Model& /*as_read*/) {
  if (!launch.pool_tokens || *launch.pool_tokens >= launch.served_tokens) return;
  const std::int64_t pool = *launch.pool_tokens;
  const std::int64_t context = launch.served_tokens;
  const std::string pool_words = launch.pool_flag.empty() ? fmt::format("kt run's default --max-total-tokens {}", pool)
                                                          : fmt::format("{} {}", launch.pool_flag, pool);
  const std::string why = fmt::format(
      "{} caps SGLang's KV pool at {} tokens for every request together, so a request's input stops below "
      "min({} − 1, {} − 1) − 5 = {} tokens and a longer one is aborted (managers/tp_worker.py get_worker_info, "
      "managers/utils.py validate_input_length @8905cbd4)",
      pool_words, pool, context, pool, pool - 6);
  launch.served_tokens = pool;
  if (!launch.asked_tokens) {
    launch.notes.push_back(fmt::format("{}; the audit runs at {}", why, pool));
    return;
  }
  launch.problems.push_back(
      {LaunchProblemKind::slot_below_asked, launch.length_flag,
       fmt::format("{} {} asks for more than the pool holds: {}", launch.length_flag, *launch.asked_tokens, why),
       fmt::format("give --max-total-tokens {} (memory permitting), or ask for at most {} "
                   "tokens",
                   *launch.asked_tokens, pool)});
}

}  // namespace sglang_launch

const LaunchSyntax kSglangLaunch = {.parse = sglang_launch::parse_sglang,
                                    .fragment = sglang_launch::fragment_sglang,
                                    .file = nullptr,
                                    .resolve = sglang_launch::resolve_sglang,
                                    .variables = sglang_launch::kVariables};

}  // namespace ropelens::engine_detail
