#include "render/check/check_renderers.hpp"

#include <stdexcept>

#include "ropelens/render/formats.hpp"

namespace ropelens {

std::unique_ptr<CheckRenderer> make_check_renderer(std::string_view format, std::ostream& out,
                                                   const TextOptions& text) {
  return find_format(check_formats(), format, "check")(out, text);
}

namespace {

void render_all(const CheckReport& report, std::string_view format, std::ostream& out) {
  auto renderer = make_check_renderer(format, out);
  renderer->begin();
  for (const auto& file : report.files) renderer->file(file);
  renderer->end(report.counts());
}

}  // namespace

void render_check_text(const CheckReport& report, std::ostream& out) { render_all(report, "text", out); }
void render_check_json(const CheckReport& report, std::ostream& out) { render_all(report, "json", out); }
void render_check_sarif(const CheckReport& report, std::ostream& out) { render_all(report, "sarif", out); }
void render_check_github(const CheckReport& report, std::ostream& out) { render_all(report, "github", out); }

namespace render_detail {

std::string indent_json(const std::string& dumped, int spaces) {
  const std::string pad(static_cast<std::size_t>(spaces), ' ');
  std::string out;
  out.reserve(dumped.size() + dumped.size() / 4);
  std::size_t from = 0;
  for (auto newline = dumped.find('\n'); newline != std::string::npos; newline = dumped.find('\n', from)) {
    out.append(dumped, from, newline + 1 - from).append(pad);
    from = newline + 1;
  }
  out.append(dumped, from);
  return out;
}

}  // namespace render_detail
}  // namespace ropelens
