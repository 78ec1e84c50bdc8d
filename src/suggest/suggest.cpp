// suggest: audit at the target, build one change per method, verify each by running check on the config
// loaded with its edits, and describe what the change does to short inputs and to each engine.
#include "ropelens/suggest/suggest.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "ropelens/audit/known_bases.hpp"
#include "ropelens/engines/engine_comparison.hpp"
#include "ropelens/engines/registry.hpp"
#include "ropelens/input/model_locator.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/normalize/normalize.hpp"
#include "ropelens/rules/rule.hpp"
#include "suggesting.hpp"

namespace ropelens {

std::string_view to_string(SuggestMethod method) {
  switch (method) {
    case SuggestMethod::yarn: return "yarn";
    case SuggestMethod::linear: return "linear";
    case SuggestMethod::ntk_base: return "ntk_base";
    case SuggestMethod::llama3_factor: return "llama3_factor";
  }
  return "yarn";
}

namespace suggest_detail {

TrainingHistory verification_history(const Plan& plan) {
  TrainingHistory history{plan.model, {}};
  history.overrides.trained_length = plan.requested_original;
  history.overrides.trained_length_from = plan.requested_original_from;
  return history;
}

CheckOptions verification_options(const Plan& plan) {
  CheckOptions options;
  options.target_tokens = plan.target_tokens;
  options.training = verification_history(plan).overrides;
  options.deployment = *plan.deployment;  // the user's stack: its views give the engine limits and snippets
  options.engines = plan.deployment->compared_engines();
  return options;  // the default rules, as `ropelens check` runs them
}

std::vector<int> still_out_of_range(const Plan& plan, const Audit& edited) {
  std::vector<int> out;
  for (int index : plan.setups)
    if (static_cast<std::size_t>(index) < edited.setups.size())
      for (int pair : edited.setups[static_cast<std::size_t>(index)].out_of_range_pairs) out.push_back(pair);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string length_pointer(const Model& model) {
  if (model.max_position_embeddings.from.origin == Origin::config) return model.max_position_embeddings.from.pointer;
  return model.text_pointer + "/max_position_embeddings";
}

namespace {

ShortInputEffect short_input_effect(const Plan& plan, const Model& edited) {
  ShortInputEffect effect;
  const int index = plan.setups.front();
  const RopeTable before = compute_rope_table(plan.model->setups[static_cast<std::size_t>(index)]);
  const RopeTable after = compute_rope_table(edited.setups[static_cast<std::size_t>(index)]);
  effect.pairs_total = static_cast<int>(before.inv_freq.size());
  effect.magnitude_before = before.attention_factor;
  effect.magnitude_after = after.attention_factor;
  for (std::size_t i = 0; i < std::min(before.inv_freq.size(), after.inv_freq.size()); ++i) {
    if (relative_difference(before.inv_freq[i], after.inv_freq[i]) <= 1e-9 || after.inv_freq[i] == 0.0) continue;
    ++effect.pairs_changed;
    const double ratio = before.inv_freq[i] / after.inv_freq[i];
    effect.max_ratio = std::max(effect.max_ratio, std::max(ratio, 1.0 / ratio));
  }
  return effect;
}

// 'a'\''b': one shell word whatever the JSON holds.
std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string check_command(const Plan& plan, const Suggestion& suggestion) {
  std::string command =
      fmt::format("ropelens check {} --target {}",
                  plan.document->path == "<stdin>" ? "-" : shell_quoted(plan.document->path), plan.target_tokens);
  if (plan.requested_original) command += fmt::format(" --trained-length {}", *plan.requested_original);
  if (plan.deployment->stated()) command += " --stack " + shell_quoted(plan.deployment->stack_option());
  for (const auto& edit : suggestion.edits) command += " --set " + shell_quoted(edit.pointer + "=" + edit.value.dump());
  return command;
}

// `ropelens check` fails at its default --fail-on (warning) on any error or warning; unreadable is an error too.
bool check_fails(const CheckCounts& counts) {
  return counts.unreadable_files > 0 || counts.errors > 0 || counts.warnings > 0;
}

std::vector<RemainingFinding> findings_that_fail(const FileResult& checked) {
  std::vector<RemainingFinding> out;
  if (checked.error) out.push_back({"", Severity::error, "", *checked.error});
  for (const Diagnostic& d : checked.diagnostics)
    if (d.severity != Severity::info)
      out.push_back({d.code, d.severity, d.where.pointer.empty() ? "/" : d.where.pointer, d.message});
  return out;
}

// Without pair figures there is nothing to verify against, whatever check counts.
bool pair_figures_missing(const FileResult& checked) {
  for (const SetupAudit& setup : checked.audit.setups)
    if (setup.missing) return true;
  return false;
}

// The suggestion as runtime flags of the engine that loads GGUF files, each with the metadata key it stands for.
std::vector<GgufFlag> gguf_flags(const Plan& plan, const Suggestion& suggestion) {
  return gguf_engine().gguf->flags(*plan.gguf, *plan.model, rope_change(plan, suggestion));
}

// The flags change what llama.cpp runs, not the file: rope_freqs divisors that are a llama3 closed form at the file's
// own base are no misfit because --rope-freq-base moved the base (llama.cpp still divides by them, as the model does).
void keep_the_files_own_rope_freqs_reading(const Model& file, Model& flagged) {
  const auto misfit = [](const ConfigIssue& issue) {
    return std::holds_alternative<UnrecoverableRopeFreqs>(issue.detail);
  };
  if (std::none_of(file.issues.begin(), file.issues.end(), misfit)) std::erase_if(flagged.issues, misfit);
}

// What check reads for the file as its engine runs it with the suggestion's flags (load_model's GGUF path), the
// file as it is being the configuration the weights were trained with.
LoadedModel gguf_with_flags(const Plan& plan, const Suggestion& suggestion) {
  GgufFile edited = *plan.gguf;
  for (const GgufFlag& flag : gguf_flags(plan, suggestion))
    if (!flag.key.empty()) edited.kv[flag.key] = flag.value;
  LoadedModel loaded;
  loaded.model = model_from_gguf(edited);
  keep_the_files_own_rope_freqs_reading(*plan.model, loaded.model);
  loaded.as_trained = *plan.model;
  loaded.gguf = gguf_metadata(edited);
  for (Model* model : {&loaded.model, &*loaded.as_trained}) model->source = plan.model->source;
  return loaded;
}

EngineSnippet gguf_snippet(const Plan& plan, const Suggestion& suggestion) {
  const EngineRow& engine = gguf_engine();
  return {engine.engine, "", engine.gguf->command(shell_quoted(plan.gguf_path), gguf_flags(plan, suggestion)), {}};
}

void complete(const Plan& plan, Suggestion& suggestion) {
  if (plan.gguf) {
    suggestion.edits.clear();
    suggestion.config_fragment = nlohmann::ordered_json::object();
  }
  const FileResult checked =
      check_model(plan.gguf ? gguf_with_flags(plan, suggestion) : load_document(*plan.document, suggestion.edits),
                  verification_options(plan));
  CheckCounts counts;
  counts.add(checked);
  if (!plan.gguf) suggestion.check_command = check_command(plan, suggestion);
  suggestion.remaining = findings_that_fail(checked);
  suggestion.verified = !check_fails(counts) && !pair_figures_missing(checked);
  suggestion.still_out_of_range = still_out_of_range(plan, checked.audit);
  suggestion.short_inputs = short_input_effect(plan, checked.model);
  static const std::vector<EngineView> no_views;  // check builds none when the pair figures are undefined
  const auto& views = checked.engines ? checked.engines->views : no_views;
  for (const auto& view : views)
    if (view.length.limit_tokens && (!plan.gguf || engine_of(view.version) == gguf_engine().engine))
      suggestion.engine_limits.emplace_back(view.label, *view.length.limit_tokens);  // a GGUF runs in its engine
  if (plan.gguf) suggestion.snippets = {gguf_snippet(plan, suggestion)};
  else suggestion.snippets = engine_snippets(plan, suggestion, checked.model, views);
}

std::vector<int> setups_out_of_range(const Audit& audit) {
  std::vector<int> setups;
  for (const auto& s : audit.setups)
    if (!s.out_of_range_pairs.empty()) setups.push_back(s.setup);
  return setups;
}

std::vector<int> pairs_of(const Audit& audit, const std::vector<int>& setups) {
  std::vector<int> pairs;
  for (int s : setups)
    for (int p : audit.setups[static_cast<std::size_t>(s)].out_of_range_pairs) pairs.push_back(p);
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

}  // namespace
}  // namespace suggest_detail

namespace {

SuggestReport suggest_for(const Model& model, suggest_detail::Plan& plan, const SuggestRequest& request);

}  // namespace

SuggestReport suggest_changes(const std::string& path, const SuggestRequest& request) {
  const LocatedModel located = locate_model(path, request.revision);
  if (located.path != "-" && looks_like_gguf(located.path)) {
    GgufFile file = read_gguf(located.path);
    if (located.reference) file.path = located.shown;
    Model model = model_from_gguf(file);
    suggest_detail::Plan plan;
    plan.gguf = &file;
    plan.gguf_path = located.path;
    return suggest_for(model, plan, request);
  }
  Document document = read_config(located.path);
  if (located.reference) document.path = located.shown;
  const Model model = load_document(document, {}).model;  // as check loads it: vocabulary and identity too
  suggest_detail::Plan plan;
  plan.document = &document;
  plan.served_model = served_model_word(located.path, located.reference);
  return suggest_for(model, plan, request);
}

SuggestReport suggest_changes(const FileBytes& file, const SuggestRequest& request) {
  InputFile input = read_input_bytes(file);
  if (input.gguf) {
    GgufFile gguf = read_gguf_bytes(file);
    Model model = model_from_gguf(gguf);
    suggest_detail::Plan plan;
    plan.gguf = &gguf;
    plan.gguf_path = file.shown;
    return suggest_for(model, plan, request);
  }
  return suggest_changes(parse_config(std::move(input.shown), std::move(input.text)), request);
}

SuggestReport suggest_changes(const Document& document, const SuggestRequest& request) {
  const Model model = load_document(document, {}).model;  // as check loads it: vocabulary and identity too
  suggest_detail::Plan plan;
  plan.document = &document;
  plan.served_model = served_model_word(document.path, std::nullopt);
  return suggest_for(model, plan, request);
}

namespace {

// With no scaling, the declared length is the trained one unless something says otherwise: the known base's card
// when it names a shorter native length, else a reminder that the user can state it.
std::optional<std::string> declared_length_note(const Model& model) {
  const BaseMatch match = match_known_base(model);
  if (match.candidates.empty() || match.ambiguous())
    return "with no scaling in the config the declared length is taken as the trained one; pass "
           "--trained-length N when the model card names a shorter one";
  const KnownBase& base = *match.candidates.front();
  if (base.native >= base.declared) return std::nullopt;
  return fmt::format(
      "the known base {}'s card states {} tokens native of {} declared ({}); --trained-length {} audits against "
      "the native length",
      match.names(), base.native, base.declared, base.card, base.native);
}

SuggestReport suggest_for(const Model& model, suggest_detail::Plan& plan, const SuggestRequest& request) {
  using namespace suggest_detail;
  SuggestReport report;
  report.source = model.source;
  report.model_type = model.model_type.value;
  report.target_tokens = request.target_tokens;

  plan.model = &model;
  plan.target_tokens = request.target_tokens;
  plan.requested_original = request.original_tokens;
  plan.requested_original_from = request.original_from;
  plan.deployment = &request.deployment;
  plan.engines = plan.gguf ? std::vector<Engine>{gguf_engine().engine} : request.engines;
  plan.trained = audit_model(model, request.target_tokens, verification_history(plan));
  plan.setups = setups_out_of_range(plan.trained);
  report.out_of_range_before = pairs_of(plan.trained, plan.setups);
  if (plan.setups.empty()) {
    report.notes.push_back(model.setups.empty() ? "no rotary layers: nothing to change"
                                                : "every pair already stays within the angles seen in training");
    return report;
  }
  const SetupAudit& first = plan.trained.setups[static_cast<std::size_t>(plan.setups.front())];
  plan.original_tokens = first.pretrain_tokens;
  report.original_tokens = plan.original_tokens;
  report.original_from = first.pretrain_from.describe();
  report.trained_sentence = first.trained_sentence;
  if (!request.original_tokens && first.pretrain_from.origin != Origin::derived &&
      model.setups[static_cast<std::size_t>(plan.setups.front())].type == RopeType::default_rope)
    if (auto note = declared_length_note(model)) report.notes.push_back(*note);
  if (plan.gguf)
    report.notes.push_back(
        "a GGUF file: each change is llama.cpp flags, verified by check on the file's "
        "metadata with the keys those flags stand for");

  if (has_llama3_setup(plan) && plan.gguf)
    report.notes.push_back(
        "llama.cpp holds llama3 scaling in the rope_freqs tensor, which no flag changes: to raise the llama3 "
        "factor, convert the model again from a config.json with the larger rope_scaling.factor (suggest on "
        "that config.json gives it)");
  for (auto build : {yarn_change, linear_change, ntk_base_change, llama3_factor_change}) {
    if (build == llama3_factor_change && (plan.gguf || !has_llama3_setup(plan))) continue;
    Suggestion suggestion = build(plan);
    complete(plan, suggestion);
    report.suggestions.push_back(std::move(suggestion));
  }
  return report;
}

}  // namespace
}  // namespace ropelens
