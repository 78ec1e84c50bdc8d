// `trtllm-serve [serve] MODEL …` as TensorRT-LLM reads it (docs/engines.md, "TensorRT-LLM"): the click command of
// tensorrt_llm/commands/serve.py @00209af1 (DefaultGroup: a first word that is no subcommand is `serve`'s MODEL).
// click takes each option as written (underscores, no abbreviations) and refuses an unknown one; the flag table is
// that commit's, so only a near miss of one of its flags is reported for other releases.
// - --max_seq_len N asks for N tokens; PyTorchModelEngine._init_max_seq_len (_torch/pyexecutor/model_engine.py
//   @1a0dc5f7) lowers a larger one to the length it infers from the config, with a warning (the view's length);
// - --extra_llm_api_options FILE (--config from later releases) is a YAML file whose keys overwrite the flags
//   (update_llm_args_with_extra_dict): max_seq_len, tensor_parallel_size and kv_cache_config.dtype are read here;
// - --kv_cache_free_gpu_memory_fraction (--free_gpu_memory_fraction) is a share of the memory left after the
//   weights, not of the GPU (kv_cache.cpp).
#include <algorithm>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "ropelens/engines/launch.hpp"
#include "ropelens/input/launch_manifest.hpp"
#include "trtllm.hpp"

namespace ropelens::engine_detail {
namespace trtllm_launch {

using namespace launch_detail;

// The options of `serve` in tensorrt_llm/commands/serve.py @00209af1, each spelling click takes.
constexpr FlagRelease kFlags[] = {
    {"--tokenizer", "", ""},
    {"--custom_tokenizer", "", ""},
    {"--host", "", ""},
    {"--port", "", ""},
    {"--backend", "", ""},
    {"--custom_module_dirs", "", ""},
    {"--log_level", "", ""},
    {"--max_beam_width", "", ""},
    {"--max_batch_size", "", ""},
    {"--max_num_tokens", "", ""},
    {"--max_seq_len", "", ""},
    {"--tensor_parallel_size", "", ""},
    {"--tp_size", "", ""},
    {"--pipeline_parallel_size", "", ""},
    {"--pp_size", "", ""},
    {"--context_parallel_size", "", ""},
    {"--cp_size", "", ""},
    {"--moe_expert_parallel_size", "", ""},
    {"--ep_size", "", ""},
    {"--moe_cluster_parallel_size", "", ""},
    {"--cluster_size", "", ""},
    {"--gpus_per_node", "", ""},
    {"--free_gpu_memory_fraction", "", ""},
    {"--kv_cache_free_gpu_memory_fraction", "", ""},
    {"--num_postprocess_workers", "", ""},
    {"--trust_remote_code", "", ""},
    {"--revision", "", ""},
    {"--config", "", ""},
    {"--extra_llm_api_options", "", ""},
    {"--reasoning_parser", "", ""},
    {"--tool_parser", "", ""},
    {"--metadata_server_config_file", "", ""},
    {"--server_role", "", ""},
    {"--fail_fast_on_attention_window_too_large", "", ""},
    {"--otlp_traces_endpoint", "", ""},
    {"--disagg_cluster_uri", "", ""},
    {"--enable_chunked_prefill", "", ""},
    {"--media_io_kwargs", "", ""},
    {"--chat_template", "", ""},
    {"--help", "", ""},
};

void set_tensor_parallel(Launch& launch, const std::string& flag, const std::string& value) {
  if (auto n = token_value(launch, flag, value, false)) {
    launch.tensor_parallel = *n;
    launch.tensor_parallel_flag = flag;
  }
}

void set_length(Launch& launch, const std::string& flag, const std::string& value) {
  launch.length_flag = flag;
  launch.asked_tokens = token_value(launch, flag, value, false);
}

void set_cache_dtype(Launch& launch, const std::string& value) {
  if (value.starts_with("fp8")) launch.kv_dtype = KvDtype::fp8;
  else if (value == "bf16" || value == "bfloat16") launch.kv_dtype = KvDtype::bf16;
  else if (value == "fp16" || value == "float16") launch.kv_dtype = KvDtype::f16;
}

// The YAML of --extra_llm_api_options, whose keys overwrite the flags; a file ropelens cannot open from here is a
// note (the launch may be checked away from the machine that runs it).
void read_extra_options(Launch& launch, const std::string& flag, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    launch.notes.push_back(fmt::format("{} {}: not readable from here, so its keys are not read", flag, path));
    return;
  }
  std::string text(kMaxManifestBytes + 1, '\0');  // one byte more than the reader takes, so a larger file is refused
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  YamlSettings settings;
  try {
    settings = read_yaml_settings(text);
  } catch (const std::invalid_argument& e) {
    launch.problems.push_back(
        {LaunchProblemKind::unknown_flag, flag,
         fmt::format("{} {}: {}: yaml.safe_load fails and trtllm-serve does not start", flag, path, e.what()),
         fmt::format("fix the YAML of {}", path)});
    return;
  }
  const auto key = [&](std::string_view name) -> const YamlSetting* {
    const auto it = settings.find(name);
    return it == settings.end() ? nullptr : &it->second;
  };
  const auto in_file = [&](std::string_view name) {
    return fmt::format("{} ({}, line {})", name, path, key(name)->line);
  };
  if (key("max_seq_len")) set_length(launch, in_file("max_seq_len"), key("max_seq_len")->value);
  if (key("tensor_parallel_size"))
    set_tensor_parallel(launch, in_file("tensor_parallel_size"), key("tensor_parallel_size")->value);
  if (key("kv_cache_config.dtype")) set_cache_dtype(launch, key("kv_cache_config.dtype")->value);
  if (const YamlSetting* fraction = key("kv_cache_config.free_gpu_memory_fraction"))
    launch.notes.push_back(fmt::format(
        "kv_cache_config.free_gpu_memory_fraction {} ({}) is a share of the memory left after the weights; the "
        "memory check budgets with TensorRT-LLM's default 0.9",
        fraction->value, path));
}

bool parse_flag(Launch& launch, const std::vector<std::string>& words, const std::string& flag, std::size_t& i) {
  if (flag == "--max_seq_len") {
    if (auto value = value_of(words, i, flag, launch)) set_length(launch, flag, *value);
  } else if (flag == "--tensor_parallel_size" || flag == "--tp_size") {
    if (auto value = value_of(words, i, flag, launch)) set_tensor_parallel(launch, flag, *value);
  } else if (flag == "--extra_llm_api_options" || flag == "--config") {
    if (auto value = value_of(words, i, flag, launch)) read_extra_options(launch, flag, *value);
  } else if (flag == "--kv_cache_free_gpu_memory_fraction" || flag == "--free_gpu_memory_fraction") {
    if (auto value = value_of(words, i, flag, launch))
      if (auto fraction = number_value(launch, flag, *value))
        launch.notes.push_back(
            fmt::format("{} {} is a share of the memory left after the weights; the memory check "
                        "budgets with TensorRT-LLM's default 0.9",
                        flag, *value));
  } else {
    return false;
  }
  return true;
}

// trtllm-serve MODEL, trtllm-serve serve MODEL, python -m tensorrt_llm.commands.serve [serve] MODEL.
bool parse_trtllm(const ShellCommand& command, Launch& launch) {
  const auto& w = command.words;
  std::size_t start = 0;
  if (!w.empty() && program_name(w[0]) == "trtllm-serve") start = 1;
  else if (w.size() >= 3 && program_name(w[0]).starts_with("python") && w[1] == "-m" &&
           w[2] == "tensorrt_llm.commands.serve")
    start = 3;
  else return false;
  if (start < w.size() && w[start] == "serve") ++start;
  const FlagSyntax syntax{kFlags, {}, "trtllm-serve", false, false, false, false};
  std::vector<std::string> positional =
      walk_flags(w, start, syntax, launch,
                 [&](const std::string& flag, std::size_t& i) { return parse_flag(launch, w, flag, i); });
  if (!positional.empty()) launch.model = positional.front();
  for (std::size_t extra = 1; extra < positional.size(); ++extra)
    launch.problems.push_back({LaunchProblemKind::unknown_flag, positional[extra],
                               fmt::format("trtllm-serve takes one MODEL; '{}' is an extra argument and click refuses "
                                           "to start",
                                           positional[extra]),
                               fmt::format("remove '{}'", positional[extra])});
  return true;
}

// A --max_seq_len above the length TensorRT-LLM infers is lowered to it, with a warning: each request gets the
// inferred length.
void resolve_trtllm(Launch& launch, const Model& run, const Model& /*as_read*/) {
  if (!launch.asked_tokens || !launch.limit_tokens || *launch.asked_tokens <= *launch.limit_tokens) return;
  const EngineView view = trtllm_view(run, launch.version, *launch.asked_tokens);
  launch.served_tokens = *launch.limit_tokens;
  launch.problems.push_back(
      {LaunchProblemKind::slot_below_asked, launch.length_flag,
       fmt::format("{} {} is above the length TensorRT-LLM infers, {} ({}): it lowers it to {} with a warning "
                   "(\"{}\"), so each request gets {} tokens, not {}",
                   launch.length_flag, *launch.asked_tokens, *launch.limit_tokens, view.length.derivation,
                   *launch.limit_tokens, view.length.message, *launch.limit_tokens, *launch.asked_tokens),
       fmt::format("ask for at most {} tokens; to serve more, raise max_position_embeddings in config.json after "
                   "extending RoPE (TensorRT-LLM does not multiply a su, longrope, llama3 or yarn factor)",
                   *launch.limit_tokens)});
}

}  // namespace trtllm_launch

const LaunchSyntax kTrtllmLaunch = {.parse = trtllm_launch::parse_trtllm,
                                    .fragment = nullptr,
                                    .file = nullptr,
                                    .resolve = trtllm_launch::resolve_trtllm};

}  // namespace ropelens::engine_detail
