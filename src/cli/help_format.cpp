#include "help_format.hpp"

#include <algorithm>

#include "commands.hpp"
#include "output.hpp"
#include "render/writers/terminal_text.hpp"
#include "ropelens/render/command_text.hpp"

namespace ropelens::cli {
namespace {

constexpr std::size_t kOptionColumn = 30;  // CLI11's column_width: where descriptions start
constexpr int kNarrowestColumn = 30;       // a description column narrower than this goes under its option
constexpr int kDescriptionIndent = 6;      // the description's indent there
constexpr int kExampleIndent = 2;

// A row CLI11 wrote as a name padded to the option column and its description ("  --target TOKENS   target …"),
// or a description alone on the line below a long name.
bool described_row(const std::string& line) {
  return line.size() > kOptionColumn && line[kOptionColumn - 1] == ' ' && line[kOptionColumn] != ' ' &&
         line.starts_with("  ");
}

// On a narrow terminal (under 60 columns) the option's name on its line and the description wrapped below it.
std::string described_row_below(const std::string& line, int width) {
  const std::string name = line.substr(0, line.find_last_not_of(' ', kOptionColumn - 1) + 1);
  const std::string description = render_detail::wrapped(
      std::string(kDescriptionIndent, ' ') + line.substr(kOptionColumn), width, kDescriptionIndent);
  return name.find_first_not_of(' ') == std::string::npos ? description : name + "\n" + description;
}

std::string fitted_line(const std::string& line, int width) {
  if (render_detail::display_width(line) <= width) return line;
  if (described_row(line)) {
    if (width - static_cast<int>(kOptionColumn) < kNarrowestColumn) return described_row_below(line, width);
    return render_detail::hanging(line.substr(0, kOptionColumn), line.substr(kOptionColumn), width);
  }
  if (line.starts_with("Usage: ")) {
    // "Usage: ropelens check [OPTIONS] PATH...": the rest hangs after the command's name.
    const std::size_t name_end = line.find(" [");
    const std::size_t prefix = name_end == std::string::npos ? 7 : name_end + 1;
    return render_detail::hanging(line.substr(0, prefix), line.substr(prefix), width);
  }
  return render_detail::fit_lines(line, width, 2);
}

std::string fitted_text(const std::string& text, int width) {
  std::string out;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    out += fitted_line(text.substr(start, end - start), width);
    if (end < text.size()) out += '\n';
    start = end + 1;
  }
  return out;
}

// The command's examples, each through the command printer.
std::string examples_text(const CLI::App* app, int width) {
  if (app->get_parent() == nullptr) return "";
  for (const Command& command : commands()) {
    if (app->get_name() != command.name || command.examples.empty()) continue;
    std::string out = "\nExamples:\n";
    for (const Example& example : command.examples) {
      out += render_detail::fit_lines(std::string(kExampleIndent, ' ') + example.what + ":", width, 2) + "\n";
      out += command_text(example.command, {width, kExampleIndent * 2, 2});
    }
    return out;
  }
  return "";
}

class FittedFormatter : public CLI::Formatter {
 public:
  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override {
    const int width = help_width();
    std::string text = fitted_text(CLI::Formatter::make_help(app, std::move(name), mode), width);
    const std::string examples = examples_text(app, width);
    if (examples.empty()) return text;
    return text.substr(0, text.find_last_not_of('\n') + 1) + "\n" + examples;  // one blank line before them
  }
};

}  // namespace

std::shared_ptr<CLI::Formatter> fitted_help_formatter() { return std::make_shared<FittedFormatter>(); }

}  // namespace ropelens::cli
