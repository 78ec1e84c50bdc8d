// GitHub Actions workflow commands: one annotation line per finding.
#include <fmt/format.h>

#include "render/check/check_renderers.hpp"
#include "render/writers/sarif_common.hpp"
#include "ropelens/render/render.hpp"
#include "ropelens/model/text.hpp"

namespace ropelens {
namespace {

// GitHub's workflow-command escaping (actions/toolkit, packages/core/src/command.ts): % \r \n in data, and
// also : , in properties. Control characters are made visible first (terminal_safe), since the log viewer and
// a local terminal replaying the log would otherwise act on them.
std::string escape_data(const std::string& text) {
  std::string out;
  for (char c : terminal_safe(text)) {
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

std::string render_detail::github_annotation(const std::string& path, const Diagnostic& d) {
  std::string where = "file=" + escape_property(path);
  if (d.where.line) where += fmt::format(",line={}", *d.where.line);
  if (d.where.column) where += fmt::format(",col={}", *d.where.column);
  where += ",title=" + escape_property(fmt::format("{} {}", d.code, d.name));
  std::string message = d.message + (d.help.empty() ? "" : " (help: " + d.help + ")");
  if (!d.help_command.empty()) message += " (command: " + d.help_command + ")";
  return fmt::format("::{} {}::{}\n", command(d.severity), where, escape_data(message));
}

std::string render_detail::github_error(const std::string& path, const std::string& message) {
  return fmt::format("::error file={}::{}\n", escape_property(path), escape_data(message));
}

namespace {

class GithubCheckRenderer : public CheckRenderer {
 public:
  explicit GithubCheckRenderer(std::ostream& out) : out_(out) {}
  std::string render_file(const FileResult& file) const override {
    std::string part;
    const std::string where = file.resolved_file ? render_detail::linked_path(*file.resolved_file) : file.path;
    for (const auto& d : file.diagnostics) part += render_detail::github_annotation(where, d);
    if (file.error) part += render_detail::github_error(file.path, *file.error);
    return part;
  }
  void write_file(const std::string& part) override { out_ << part; }
  void end(const CheckCounts&) override {}

 private:
  std::ostream& out_;
};

}  // namespace

namespace render_detail {
std::unique_ptr<CheckRenderer> make_github_check_renderer(std::ostream& out) {
  return std::make_unique<GithubCheckRenderer>(out);
}
}  // namespace render_detail

}  // namespace ropelens
