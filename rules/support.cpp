#include "support.hpp"

#include <fmt/format.h>

namespace ropelens::rules {

void report_problems(const Context& cx, Sink& out, std::string_view help) {
  for (const auto& problem : cx.model.problems) {
    if (problem.code != out.meta().code) continue;
    Severity severity = problem.is_error ? Severity::error : out.meta().default_severity;
    out.report_as(severity, problem.pointer, problem.message).help(std::string(help));
  }
}

std::string index_ranges(const std::vector<int>& sorted) {
  std::string text;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1) ++j;
    if (!text.empty()) text += ", ";
    text += j == i ? fmt::format("{}", sorted[i]) : fmt::format("{}–{}", sorted[i], sorted[j]);
    i = j + 1;
  }
  return text;
}

std::string setup_label(const Model& model, int setup) {
  const RopeSetup& s = model.setups[static_cast<std::size_t>(setup)];
  if (model.setups.size() == 1) return "RoPE";
  return fmt::format("setup {} (layers {})", s.name, index_ranges(s.layers));
}

}  // namespace ropelens::rules
