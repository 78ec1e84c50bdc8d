#include "render/writers/markdown_html.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "render/writers/xml_text.hpp"

namespace ropelens::render_detail {
namespace {

// `code` spans become <code>; everything else is escaped text.
std::string inline_html(std::string_view text) {
  std::string out;
  bool in_code = false;
  std::size_t from = 0;
  for (std::size_t tick = text.find('`'); tick != std::string_view::npos; tick = text.find('`', from)) {
    out += xml_escape(text.substr(from, tick - from));
    out += in_code ? "</code>" : "<code>";
    in_code = !in_code;
    from = tick + 1;
  }
  out += xml_escape(text.substr(from));
  if (in_code) out += "</code>";
  return out;
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t from = 0;
  while (from <= text.size()) {
    const std::size_t end = std::min(text.find('\n', from), text.size());
    lines.push_back(text.substr(from, end - from));
    from = end + 1;
  }
  return lines;
}

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

class MarkdownConverter {
 public:
  explicit MarkdownConverter(int heading_shift) : heading_shift_(heading_shift) {}

  void line(std::string_view line) {
    if (in_fence_) return fenced(line);
    if (starts_with(line, "```")) {
      close_blocks();
      in_fence_ = true;
      out_ += "<pre><code>";
      return;
    }
    if (line.find_first_not_of(' ') == std::string_view::npos) return close_blocks();
    if (starts_with(line, "#")) return heading(line);
    if (starts_with(line, "- ")) return list_item(line.substr(2));
    if (in_list_ && starts_with(line, "  ")) return append(line);  // an item's continuation line
    if (in_list_) close_blocks();
    if (!in_paragraph_) out_ += "<p>", in_paragraph_ = true;
    append(line);
  }

  std::string finish() {
    if (in_fence_) out_ += "</code></pre>\n";
    in_fence_ = false;
    close_blocks();
    return std::move(out_);
  }

 private:
  void fenced(std::string_view line) {
    if (starts_with(line, "```")) {
      out_ += "</code></pre>\n";
      in_fence_ = false;
      return;
    }
    out_ += xml_escape(line);
    out_ += '\n';
  }

  void heading(std::string_view line) {
    close_blocks();
    const std::size_t level = std::min<std::size_t>(line.find_first_not_of('#'), line.size());
    const int tag = std::min(6, static_cast<int>(level) + heading_shift_);
    std::string_view text = line.substr(level);
    text.remove_prefix(std::min(text.find_first_not_of(' '), text.size()));
    out_ += fmt::format("<h{0}>{1}</h{0}>\n", tag, inline_html(text));
  }

  void list_item(std::string_view text) {
    if (in_paragraph_) close_blocks();
    if (!in_list_) out_ += "<ul>\n", in_list_ = true;
    else out_ += "</li>\n";
    out_ += "<li>";
    out_ += inline_html(text);
  }

  void append(std::string_view line) {
    if (out_.back() != '>') out_ += ' ';
    line.remove_prefix(std::min(line.find_first_not_of(' '), line.size()));
    out_ += inline_html(line);
  }

  void close_blocks() {
    if (in_paragraph_) out_ += "</p>\n";
    if (in_list_) out_ += "</li>\n</ul>\n";
    in_paragraph_ = in_list_ = false;
  }

  int heading_shift_;
  std::string out_;
  bool in_fence_ = false;
  bool in_paragraph_ = false;
  bool in_list_ = false;
};

}  // namespace

std::string markdown_to_html(std::string_view markdown, int heading_shift) {
  MarkdownConverter converter(heading_shift);
  for (auto line : lines_of(markdown)) converter.line(line);
  return converter.finish();
}

}  // namespace ropelens::render_detail
