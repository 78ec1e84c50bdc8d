// The rule interface: a rule is metadata plus a pure function of the model, tables and audit.
#pragma once

#include <cstdint>
#include <list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ropelens/audit/audit.hpp"
#include "ropelens/model/diagnostic.hpp"
#include "ropelens/engines/engine_comparison.hpp"
#include "ropelens/engines/gguf_conversion_audit.hpp"
#include "ropelens/memory/kv_cache.hpp"
#include "ropelens/model/model.hpp"
#include "ropelens/engines/deployment.hpp"
#include "ropelens/engines/launch.hpp"
#include "ropelens/rope/rope.hpp"

namespace ropelens {

class Context {
 public:
  Context(const Model& checked, const std::vector<RopeTable>& setup_tables, const Audit& audit_at_target)
      : model(checked), tables(setup_tables), audit(audit_at_target), target_tokens(audit_at_target.target_tokens) {}

  const Model& model;
  const std::vector<RopeTable>& tables;       // one per setup, at the declared length (no sequence length)
  const Audit& audit;                         // at the target
  const std::int64_t target_tokens;           // the audit's target, resolved once (resolve_target)
  const Model* unedited = nullptr;            // the config as written, when --set edits were applied to `model`
  const Model* source = nullptr;              // a GGUF file's: the config.json it was converted from (GGUF rules)
  std::optional<std::int64_t> memory_budget;  // --memory in bytes, one GPU's (CTX210); none: no budget to check
  int tensor_parallel = 1;                    // --tp: the GPUs the model is split over (CTX210)
  std::optional<KvDtype> kv_dtype;            // --kv-dtype; none: the config's dtype
  Deployment deployment;                      // --stack: the engines and versions deployed; none stated: every one
  const Launch* launch = nullptr;             // the launch line checked (SRV rules); none for a plain file

  // The deployment's engine views at the target (deployment_views: for a one-engine stack, the reference version
  // first as the config's meaning), computed on first use and shared by the rules that compare engines.
  const std::vector<EngineView>& engine_views() const;
  // Those views compared pair by pair (compare_views at the default threshold), also computed once.
  const EngineComparison& engine_comparison() const;
  // A GGUF file against what the converter writes for its source config (audit_conversion), computed once; nullptr
  // without a source.
  const ConversionAudit* conversion_audit() const;

 private:
  mutable std::optional<std::vector<EngineView>> engine_views_;
  mutable std::optional<EngineComparison> engine_comparison_;
  mutable std::optional<ConversionAudit> conversion_audit_;
};

// Builder for one finding; the sink stamps code, name and severity.
class Finding {
 public:
  explicit Finding(Diagnostic& diagnostic) : d_(diagnostic) {}
  Finding& help(std::string text);
  Finding& help_command(std::string command_line);  // "" leaves none
  Finding& related(std::string pointer);
  Finding& at_flag(std::string flag);  // the launch flag the finding is about (with an empty pointer)
  Finding& fact(const std::string& key, nlohmann::json value);

 private:
  Diagnostic& d_;
};

// Whether a rule runs when nothing selects rules: like ruff, the default set holds only the rules whose
// findings point at something to act on; the others (facts about a design) run on --select or
// --extend-select.
enum class DefaultSet { included, opt_in };

struct RuleMeta {
  std::string_view code;
  std::string_view name;
  Severity default_severity;
  std::string_view summary;
  DefaultSet default_set = DefaultSet::included;
  // A finding of this rule means the target is out of the model's reach, whatever its severity: suggest
  // never calls an edit verified while one remains.
  bool target_out_of_reach = false;
};

class Sink {
 public:
  explicit Sink(const RuleMeta& meta) : meta_(meta) {}
  const RuleMeta& meta() const { return meta_; }
  Finding report(std::string pointer, std::string message);
  // Reports at a severity other than the rule's default (e.g. CFG004's conflicting keys).
  Finding report_as(Severity severity, std::string pointer, std::string message);
  std::vector<Diagnostic> take() {
    return {std::make_move_iterator(found_.begin()), std::make_move_iterator(found_.end())};
  }

 private:
  const RuleMeta& meta_;
  std::list<Diagnostic> found_;  // keeps each Finding's reference valid as more are added; no allocation while empty
};

using CheckFn = void (*)(const Context&, Sink&);

struct Rule {
  RuleMeta meta;
  CheckFn check;
};

// The catalog, sorted by code (rules/registry.cpp).
const std::vector<const Rule*>& rule_registry();
const Rule* find_rule(std::string_view code_or_name);

}  // namespace ropelens
