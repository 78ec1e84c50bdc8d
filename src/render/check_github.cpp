// GitHub Actions workflow commands: one annotation line per finding.
#include <fmt/format.h>

#include "ropelens/render.hpp"

namespace ropelens {
namespace {

std::string escape_data(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '%') out += "%25";
    else if (c == '\r') out += "%0D";
    else if (c == '\n') out += "%0A";
    else out += c;
  }
  return out;
}

std::string escape_property(const std::string& text) {
  std::string out;
  for (char c : escape_data(text)) {
    if (c == ':') out += "%3A";
    else if (c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

std::string command(Severity severity) {
  switch (severity) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::info: return "notice";
  }
  return "notice";
}

}  // namespace

void render_check_github(const CheckReport& report, std::ostream& out) {
  for (const auto& file : report.files)
    for (const auto& d : file.diagnostics) {
      std::string where = "file=" + escape_property(file.path);
      if (d.where.line) where += fmt::format(",line={}", *d.where.line);
      if (d.where.column) where += fmt::format(",col={}", *d.where.column);
      where += ",title=" + escape_property(fmt::format("{} {}", d.code, d.name));
      std::string message = d.message + (d.help.empty() ? "" : " (help: " + d.help + ")");
      out << fmt::format("::{} {}::{}\n", command(d.severity), where, escape_data(message));
    }
}

}  // namespace ropelens
