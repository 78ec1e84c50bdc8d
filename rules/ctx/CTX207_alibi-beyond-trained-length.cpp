#include <fmt/format.h>

#include "ropelens/schemes/schemes.hpp"
#include "../support.hpp"

namespace ropelens::rules {
namespace ctx207 {

// "the steepest head 16 (slope 0.8408964) adds -13776.41 and the shallowest head 15 (slope 0.00390625) -63.99609"
static std::string bias_clause(const AlibiBiasAtTarget& at) {
  return fmt::format(
      "the steepest head {} (slope {}) adds {} to the logit and the shallowest head {} (slope {}) "
      "adds {}",
      at.steepest_head, number(at.steepest_slope), number(at.steepest_bias), at.shallowest_head,
      number(at.shallowest_slope), number(at.shallowest_bias));
}

static void check(const Context& cx, Sink& out) {
  const Model& model = cx.model;
  if (!model.alibi || model.scheme != PositionScheme::alibi) return;
  const std::int64_t target = cx.target_tokens;
  const auto& declared = model.max_position_embeddings;
  const bool known = declared.value > 0;
  if (target < 2 || (known && target <= declared.value)) return;

  const AlibiInfo& alibi = *model.alibi;
  std::optional<AlibiBiasAtTarget> at_target, at_trained;
  if (alibi.num_heads >= 1) {
    const auto slopes = alibi_slopes(alibi);
    at_target = alibi_bias_at_target(slopes, target);
    if (known) at_trained = alibi_bias_at_target(slopes, declared.value);
  }
  const std::int64_t farthest = target - 1;

  std::string message, help;
  std::string pointer;
  if (known) {
    const std::string key = length_key_name(declared.from);
    const std::string source =
        declared.from.origin == Origin::config ? "" : fmt::format(" ({})", declared.from.describe());
    message = fmt::format("target {} exceeds the declared training length {} ({}{}) of this ALiBi model", target,
                          declared.value, key, source);
    if (at_target && at_trained)
      message += fmt::format(": at distance {} {}, against {} and {} at the longest trained distance {}", farthest,
                             bias_clause(*at_target), number(at_trained->steepest_bias),
                             number(at_trained->shallowest_bias), declared.value - 1);
    else message += fmt::format(": distances {}–{} were never seen in training", declared.value, farthest);
    help = fmt::format(
        "ALiBi has no hard limit, so nothing fails past {} tokens; evaluate the model at {} tokens "
        "(loss by position, retrieval at depth) before relying on it, or keep inputs within {}",
        declared.value, target, declared.value);
    pointer = pointer_or(declared.from, model.scheme_from.origin == Origin::config ? model.scheme_from.pointer : "");
  } else {
    message = fmt::format(
        "the config does not state a training length for this ALiBi model ({}), so it is unknown "
        "whether {} tokens go beyond it",
        model.model_type.value, target);
    if (at_target) message += fmt::format(": at distance {} {}", farthest, bias_clause(*at_target));
    help = fmt::format(
        "look up the training sequence length on the model card; if it is shorter than {} tokens, "
        "evaluate the model at {} tokens before relying on it",
        target, target);
    pointer =
        model.scheme_from.origin == Origin::config ? model.scheme_from.pointer : pointer_or(model.model_type.from, "");
  }

  Finding finding = known ? out.report(pointer, message) : out.report_as(Severity::info, pointer, message);
  finding.help(help).fact("target", target).fact("heads", alibi.num_heads).fact("alibi_bias_max", alibi.bias_max.value);
  if (known) finding.fact("trained_length", declared.value);
  else finding.fact("trained_length", nullptr);
  if (at_target) {
    finding.fact("farthest_distance", farthest)
        .fact("steepest_head", at_target->steepest_head)
        .fact("steepest_slope", at_target->steepest_slope)
        .fact("steepest_bias", at_target->steepest_bias)
        .fact("shallowest_head", at_target->shallowest_head)
        .fact("shallowest_slope", at_target->shallowest_slope)
        .fact("shallowest_bias", at_target->shallowest_bias);
  }
  if (at_trained) {
    finding.fact("trained_steepest_bias", at_trained->steepest_bias)
        .fact("trained_shallowest_bias", at_trained->shallowest_bias);
  }
  if (model.scheme_from.origin == Origin::config && model.scheme_from.pointer != pointer)
    finding.related(model.scheme_from.pointer);
}

}  // namespace ctx207

extern const Rule CTX207{{"CTX207", "alibi-beyond-trained-length", Severity::warning,
                          "The target is beyond the training length of an ALiBi model, or the config states none"},
                         &ctx207::check};

}  // namespace ropelens::rules
