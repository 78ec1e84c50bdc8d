// Internal to the HTML report: the subset of Markdown the rule docs use (headings, paragraphs, bullet lists
// with continuation lines, fenced code, inline code) as escaped HTML.
#pragma once

#include <string>
#include <string_view>

namespace ropelens::render_detail {

// Headings are shifted down by `heading_shift` levels (a doc's "#" becomes <h{1+shift}>).
std::string markdown_to_html(std::string_view markdown, int heading_shift);

}  // namespace ropelens::render_detail
