#include "support.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "ropelens/engines/registry.hpp"

namespace ropelens::rules {

std::string setup_label(const Model& model, int setup) {
  const RopeSetup& s = model.setups[static_cast<std::size_t>(setup)];
  if (model.setups.size() == 1) return "RoPE";
  return fmt::format("setup {} (layers {})", s.name, index_ranges(s.layers));
}

std::string setup_prefix(const Model& model, int setup) {
  if (model.setups.size() <= 1) return "";
  return fmt::format("{} layers: ", model.setups[static_cast<std::size_t>(setup)].name);
}

std::vector<int> distinct_dict_setups(const Model& model) {
  std::vector<int> out;
  auto same_dict = [](const RopeSetup& a, const RopeSetup& b) {
    return a.pointer == b.pointer && a.type == b.type && a.rope_theta.value == b.rope_theta.value;
  };
  for (std::size_t i = 0; i < model.setups.size(); ++i) {
    const RopeSetup& s = model.setups[i];
    const bool seen = std::any_of(out.begin(), out.end(),
                                  [&](int kept) { return same_dict(model.setups[static_cast<std::size_t>(kept)], s); });
    if (!seen) out.push_back(static_cast<int>(i));
  }
  return out;
}

std::string pointer_or(const Provenance& from, const std::string& fallback) {
  return from.origin == Origin::config ? from.pointer : fallback;
}

void report_launch_problems(const Context& cx, LaunchProblemKind kind, Sink& out) {
  if (!cx.launch) return;
  for (const LaunchProblem& problem : cx.launch->problems)
    if (problem.kind == kind)
      out.report("", problem.message)
          .at_flag(problem.flag)
          .help(problem.help)
          .help_command(problem.command)
          .fact("flag", problem.flag)
          .fact("line", cx.launch->line);
}

std::string past_trained(const Context& cx, std::int64_t limit_tokens) {
  // With scaling, serving past the trained length is what the scaling is for; CTX201 audits the angles then.
  for (const auto& setup : cx.model.setups)
    if (setup.type != RopeType::default_rope) return "";
  const SetupAudit* longest = nullptr;
  std::int64_t trained = 0;
  for (const auto& setup : cx.audit.setups) {
    const std::int64_t tokens = std::max(setup.pretrain_tokens, setup.extension_tokens);
    if (tokens > trained) {
      trained = tokens;
      longest = &setup;
    }
  }
  if (longest == nullptr || limit_tokens <= trained) return "";
  const Provenance& from =
      longest->extension_tokens > longest->pretrain_tokens ? longest->extension_from : longest->pretrain_from;
  const std::string key = from.origin == Origin::config ? from.key() : "";
  return fmt::format(", past the {} tokens the model was trained at{}", trained, key.empty() ? "" : " (" + key + ")");
}

bool deployed(const Context& cx, const EngineView& view) {
  // A launch line names its engine: the other engines' views (the transformers reference among them) are compared
  // with it, but what they would do is not what this line runs.
  if (cx.launch && engine_of(view.version) != cx.launch->engine) return false;
  if (is_current(view.version) || engine_row(engine_of(view.version)).older_versions == OlderVersions::count)
    return true;
  return cx.deployment.pins(view.version);
}

BudgetRequest budget_request(const Context& cx) {
  BudgetRequest request;
  request.gpu_bytes = cx.memory_budget ? static_cast<std::uint64_t>(*cx.memory_budget) : 0;
  request.gpus = std::max(1, cx.tensor_parallel);
  request.kv_dtype = cx.kv_dtype;
  request.deployment = &cx.deployment;
  if (cx.launch) request.share = cx.launch->memory_fraction;
  return request;
}

std::int64_t cached_tokens(const Context& cx) {
  return cx.launch && cx.launch->cache_tokens ? *cx.launch->cache_tokens : cx.target_tokens;
}

bool scales_softmax_by_mscale(const Model& model) {
  return model.qk_nope_head_dim.has_value() || model.model_type.value.rfind("deepseek", 0) == 0;
}

void report_conversion(const Context& cx, ConversionAspect aspect, Sink& out) {
  const ConversionAudit* audit = cx.conversion_audit();
  if (audit == nullptr) return;
  for (const auto& d : audit->differences) {
    if (d.aspect != aspect) continue;
    const std::string config_key = d.config_pointer.empty() ? std::string("the config") : d.config_pointer;
    Finding finding =
        out.report(d.gguf_pointer, fmt::format("{} is {}; convert_hf_to_gguf.py writes {} for {} of {}: {}", d.gguf_key,
                                               d.found, d.written, config_key, cx.source->source, d.consequence));
    finding.help(d.remedy)
        .fact("gguf_key", d.gguf_key)
        .fact("config_key", d.config_pointer)
        .fact("config_file", cx.source->source);
    finding.fact("written", d.written).fact("found", d.found);
    if (!d.config_pointer.empty()) finding.related(d.config_pointer);
  }
}

std::string number(double value) { return fmt::format("{:.7g}", value); }

std::string degrees(double value) { return fmt::format("{:.1f}°", value); }

// The stacks of decoder layers as transformers names them (Llama and kin, multimodal wrappers, GPT-2, GPT-NeoX,
// BLOOM, Falcon, encoder-decoder decoders).
std::optional<LayerTensor> language_layer_tensor(std::string_view name) {
  static constexpr std::string_view kPrefixes[] = {"model.layers.",
                                                   "model.language_model.layers.",
                                                   "language_model.model.layers.",
                                                   "model.text_model.layers.",
                                                   "transformer.h.",
                                                   "gpt_neox.layers.",
                                                   "model.decoder.layers.",
                                                   "transformer.layers.",
                                                   "transformer.blocks.",
                                                   "blk."};  // GGUF
  for (std::string_view prefix : kPrefixes) {
    if (name.substr(0, prefix.size()) != prefix) continue;
    const std::string_view tail = name.substr(prefix.size());
    const std::size_t dot = tail.find('.');
    if (dot == 0 || dot == std::string_view::npos || dot > 6) return std::nullopt;
    int layer = 0;
    for (char digit : tail.substr(0, dot)) {
      if (digit < '0' || digit > '9') return std::nullopt;
      layer = layer * 10 + (digit - '0');
    }
    return LayerTensor{prefix, layer, tail.substr(dot + 1)};
  }
  return std::nullopt;
}

std::string shape_text(const std::vector<std::uint64_t>& shape) { return fmt::format("[{}]", fmt::join(shape, ", ")); }

}  // namespace ropelens::rules
