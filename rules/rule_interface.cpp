// The rule interface: the context rules read, the sink they report to, and the catalog lookups.
#include <algorithm>

#include "ropelens/engines/deployment.hpp"
#include "ropelens/rules/rule.hpp"
#include "ropelens/rules/rule_docs.hpp"

namespace ropelens {

const std::vector<EngineView>& Context::engine_views() const {
  if (!engine_views_) engine_views_ = deployment_views(model, deployment, target_tokens);
  return *engine_views_;
}

const EngineComparison& Context::engine_comparison() const {
  if (!engine_comparison_) engine_comparison_ = compare_views(engine_views());
  return *engine_comparison_;
}

const ConversionAudit* Context::conversion_audit() const {
  if (source == nullptr) return nullptr;
  if (!conversion_audit_) conversion_audit_ = audit_conversion(*source, model);
  return &*conversion_audit_;
}

Finding& Finding::help(std::string text) {
  d_.help = std::move(text);
  return *this;
}

Finding& Finding::help_command(std::string command_line) {
  d_.help_command = std::move(command_line);
  return *this;
}

Finding& Finding::at_flag(std::string flag) {
  d_.where.flag = std::move(flag);
  return *this;
}

Finding& Finding::related(std::string pointer) {
  d_.related.push_back({std::move(pointer), {}, {}, {}, {}});
  return *this;
}

Finding& Finding::fact(const std::string& key, nlohmann::json value) {
  d_.facts[key] = std::move(value);
  return *this;
}

Finding Sink::report(std::string pointer, std::string message) {
  return report_as(meta_.default_severity, std::move(pointer), std::move(message));
}

Finding Sink::report_as(Severity severity, std::string pointer, std::string message) {
  Diagnostic d;
  d.code = std::string(meta_.code);
  d.name = std::string(meta_.name);
  d.severity = severity;
  d.message = std::move(message);
  d.where.pointer = std::move(pointer);
  found_.push_back(std::move(d));
  return Finding(found_.back());
}

const Rule* find_rule(std::string_view code_or_name) {
  for (const Rule* rule : rule_registry())
    if (rule->meta.code == code_or_name || rule->meta.name == code_or_name) return rule;
  return nullptr;
}

std::string_view rule_doc(std::string_view code) {
  for (const auto& doc : embedded_rule_docs())
    if (doc.code == code) return doc.markdown;
  return {};
}

}  // namespace ropelens
