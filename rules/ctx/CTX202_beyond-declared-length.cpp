#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace ctx202 {

// What the declared length is: the longest context the config declares, or the shortest of several length keys
// (vLLM serves the minimum), or a default and where it came from.
static std::string what_it_is(const Model& model, const Field<std::int64_t>& declared) {
  if (declared.from.origin != Origin::config)
    return fmt::format(" ({}), the longest context the config declares", declared.from.describe());
  if (declared.value >= model.max_position_embeddings.value) return ", the longest context the config declares";
  return fmt::format(
      ", the shortest of the config's length keys (transformers reads max_position_embeddings {}; vLLM "
      "serves the shortest key)",
      model.max_position_embeddings.value);
}

// The launch's own RoPE override (`--hf-overrides`, `--json-model-override-args`, `--rope-scaling`, llama.cpp's YaRN
// flags) scales a static method from its original length by a factor whose span, original x factor, reaches the
// target: the length the launch declares is that span, whatever the engine derives from max_position_embeddings
// (an engine that refuses it is SRV502's finding, not this one).
static bool launch_scaling_spans(const Context& cx) {
  if (cx.launch->config_edits.empty() && !cx.launch->rope_flags) return false;
  for (const RopeSetup& setup : cx.model.setups) {
    const bool static_method =
        setup.type == RopeType::yarn || setup.type == RopeType::linear || setup.type == RopeType::longrope;
    if (!static_method || !setup.factor || !setup.original_max_position_embeddings) continue;
    const double span = setup.factor->value * static_cast<double>(setup.original_max_position_embeddings->value);
    if (setup.factor->value > 1.0 && span >= static_cast<double>(cx.target_tokens)) return true;
  }
  return false;
}

// A launch is within what it declares when the engine, with the launch's overrides, derives a length that reaches
// the target, the overrides' scaling spans it, or the launch sets the variable that lifts the derived length (CTX201
// then judges the angles).
static bool launch_declares(const Context& cx) {
  if (!cx.launch) return false;
  return cx.launch->allow_longer_set || (cx.launch->limit_tokens && cx.target_tokens <= *cx.launch->limit_tokens) ||
         launch_scaling_spans(cx);
}

static void check(const Context& cx, Sink& out) {
  const Field<std::int64_t> declared = cx.model.declared_length();
  if (declared.value <= 0 || cx.target_tokens <= declared.value || launch_declares(cx)) return;
  const std::string key = length_key_name(declared.from);
  const std::string source = what_it_is(cx.model, declared);
  const bool fixed_table =
      cx.model.scheme == PositionScheme::learned_absolute || cx.model.scheme == PositionScheme::sinusoidal;
  if (fixed_table && declared.value == cx.model.max_position_embeddings.value) {
    const char* kind = cx.model.scheme == PositionScheme::learned_absolute ? "learned" : "sinusoidal";
    out.report_as(
           Severity::error, declared.from.pointer,
           fmt::format("target {} exceeds {} {}{}: the {} position table of {} has {} rows, so position {} "
                       "has no row",
                       cx.target_tokens, key, declared.value, declared.from.origin == Origin::config ? "" : source,
                       kind, cx.model.model_type.value, declared.value, declared.value + 1))
        .help(fmt::format("keep inputs within {} tokens (truncate or chunk them): a fixed position table cannot be "
                          "extended without training new rows",
                          declared.value))
        .fact("target", cx.target_tokens)
        .fact("declared", declared.value)
        .fact("scheme", std::string(to_string(cx.model.scheme)));
    return;
  }
  out.report(declared.from.pointer,
             fmt::format("target {} exceeds {} {}{}", cx.target_tokens, key, declared.value, source))
      .help(fmt::format("keep inputs within {} tokens, or configure and evaluate RoPE scaling for {} tokens and "
                        "declare that length",
                        declared.value, cx.target_tokens))
      .fact("target", cx.target_tokens)
      .fact("declared", declared.value)
      .fact("scheme", std::string(to_string(cx.model.scheme)));
}

}  // namespace ctx202

extern const Rule CTX202{
    {"CTX202", "beyond-declared-length", Severity::warning,
     "The target is longer than the maximum length the config declares", DefaultSet::included, true},
    &ctx202::check};

}  // namespace ropelens::rules
