// Internal to renderers: text safe to put inside XML and HTML (SVG charts, the HTML report).
#pragma once

#include <string>
#include <string_view>

namespace ropelens::render_detail {

// Escapes & < > " ' and makes the text valid XML 1.0 whatever a config file held: control characters
// (other than tab and newline) are dropped and bytes that are not UTF-8 become U+FFFD.
std::string xml_escape(std::string_view text);

}  // namespace ropelens::render_detail
