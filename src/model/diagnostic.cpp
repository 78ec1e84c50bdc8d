#include "ropelens/diagnostic.hpp"

namespace ropelens {

std::string_view to_string(Severity severity) {
  switch (severity) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::info: return "info";
  }
  return "info";
}

std::optional<Severity> parse_severity(std::string_view name) {
  if (name == "error") return Severity::error;
  if (name == "warning") return Severity::warning;
  if (name == "info") return Severity::info;
  return std::nullopt;
}

}  // namespace ropelens
