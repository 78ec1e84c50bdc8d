// Internal to the text renderers: display widths, word wrapping and fmt text styles, all decided by the
// TextOptions the command line passes (renderers never look at the terminal themselves).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <fmt/color.h>

namespace ropelens::render_detail {

// Columns the text takes on a terminal: ANSI escape sequences take none, combining marks none, East Asian
// wide characters and emoji two, every other code point one.
int display_width(std::string_view text);

// Word-wraps `text` to `width` columns; lines after the first start with `indent` spaces. A word longer than a
// line (a path, a URL) is never broken: it gets a line of its own. The first `unbreakable_prefix` bytes stay
// together on the first line (e.g. a finding's path and code).
std::vector<std::string> wrap(std::string_view text, int width, int indent, std::size_t unbreakable_prefix = 0);
// The same, joined with newlines (no final newline).
std::string wrapped(std::string_view text, int width, int indent, std::size_t unbreakable_prefix = 0);

// `text` in `style` when colour is on, else as is.
std::string styled(std::string_view text, fmt::text_style style, bool color);

// The styles every text renderer uses.
fmt::text_style error_style();
fmt::text_style warning_style();
fmt::text_style info_style();
fmt::text_style heading_style();
fmt::text_style out_of_range_style();

}  // namespace ropelens::render_detail
