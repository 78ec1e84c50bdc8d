#include "render/writers/xml_text.hpp"

#include <cstdint>

namespace ropelens::render_detail {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The length of the UTF-8 sequence starting at text[at] and its code point, or 0 when it is not valid UTF-8
// (overlong forms, surrogates and values above U+10FFFF included).
std::size_t decode(std::string_view text, std::size_t at, std::uint32_t& code_point) {
  const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(text[i]); };
  const std::uint8_t lead = byte(at);
  std::size_t length = 0;
  if (lead < 0x80) length = 1, code_point = lead;
  else if (lead >= 0xC2 && lead <= 0xDF) length = 2, code_point = lead & 0x1Fu;
  else if (lead >= 0xE0 && lead <= 0xEF) length = 3, code_point = lead & 0x0Fu;
  else if (lead >= 0xF0 && lead <= 0xF4) length = 4, code_point = lead & 0x07u;
  else return 0;
  if (at + length > text.size()) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) return 0;
    code_point = (code_point << 6) | (byte(at + i) & 0x3Fu);
  }
  const bool overlong = (length == 3 && code_point < 0x800) || (length == 4 && code_point < 0x10000);
  const bool surrogate = code_point >= 0xD800 && code_point <= 0xDFFF;
  if (overlong || surrogate || code_point > 0x10FFFF) return 0;
  return length;
}

// Characters XML 1.0 forbids, and the C1 controls and DEL that no reader wants to see.
bool dropped(std::uint32_t c) {
  if (c == '\t' || c == '\n') return false;
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0xFFFE || c == 0xFFFF;
}

}  // namespace

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    std::uint32_t c = 0;
    const std::size_t length = decode(text, at, c);
    if (length == 0) {
      out += kReplacement;
      ++at;
      continue;
    }
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        if (!dropped(c)) out.append(text.substr(at, length));
    }
    at += length;
  }
  return out;
}

}  // namespace ropelens::render_detail
