// Internal to the text renderers: display widths, word wrapping and fmt text styles, all decided by the
// TextOptions the command line passes (renderers never look at the terminal themselves).
#pragma once

#include <optional>
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

// `prefix` then `text`, word-wrapped to `width` with each further line indented to where `text` began, so that the
// text stays in its column (a table's last column, a value after its name); when that column leaves fewer than
// 24 columns, further lines are indented two past the prefix's own indent instead. Without a width, as is.
std::string hanging(std::string_view prefix, std::string_view text, std::optional<int> width);

// Every line of `text` that is wider than `width` word-wrapped at spaces, its further lines indented `hang` columns
// past the line's own indent; a line that fits, and the whole text when there is no width (a pipe), stay byte for
// byte as they are. The shared last step of every text renderer on a terminal.
std::string fit_lines(std::string_view text, std::optional<int> width, int hang = 4);

// `text` in `style` when colour is on, else as is.
std::string styled(std::string_view text, fmt::text_style style, bool color);

// The styles every text renderer uses.
fmt::text_style error_style();
fmt::text_style warning_style();
fmt::text_style info_style();
fmt::text_style heading_style();
fmt::text_style out_of_range_style();

}  // namespace ropelens::render_detail
