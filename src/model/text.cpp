#include "ropelens/model/text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>

#include <fmt/format.h>

#include "ropelens/model/spelling.hpp"

namespace ropelens {

std::string index_ranges(const std::vector<int>& sorted) {
  std::string text;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1) ++j;
    if (!text.empty()) text += ", ";
    text += j == i ? fmt::format("{}", sorted[i]) : fmt::format("{}–{}", sorted[i], sorted[j]);
    i = j + 1;
  }
  return text;
}

std::string group_thousands(std::uint64_t value) {
  const std::string digits = std::to_string(value);
  std::string grouped;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  return grouped;
}

namespace {

bool same_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// The one candidate that begins with `word` ("warn" → "warning"), when exactly one does.
std::optional<std::string> only_completion(std::string_view word, const std::vector<std::string>& candidates) {
  constexpr std::size_t kShortestPrefix = 2;
  if (word.size() < kShortestPrefix) return std::nullopt;
  std::optional<std::string> found;
  for (const auto& candidate : candidates) {
    if (candidate.size() <= word.size() ||
        !same_ignoring_case(std::string_view(candidate).substr(0, word.size()), word))
      continue;
    if (found && *found != candidate) return std::nullopt;
    found = candidate;
  }
  return found;
}

}  // namespace

std::optional<std::string> closest_match(std::string_view word, const std::vector<std::string>& candidates) {
  if (word.empty() || word.size() > kLongestSpelledWord) return std::nullopt;
  for (const auto& candidate : candidates)
    if (same_ignoring_case(word, candidate)) return candidate;
  std::optional<std::string> best;
  std::size_t best_distance = std::max<std::size_t>(1, word.size() / 3) + 1;
  for (const auto& candidate : candidates) {
    const std::size_t distance = spelling_distance_within(word, candidate, best_distance - 1);
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best ? best : only_completion(word, candidates);
}

std::string json_pointer_join(std::string_view base, std::string_view key) {
  std::string out(base);
  out += '/';
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

std::string json_pointer_key(std::string_view pointer) {
  const auto slash = pointer.rfind('/');
  const std::string_view escaped = slash == std::string_view::npos ? pointer : pointer.substr(slash + 1);
  std::string key;
  for (std::size_t i = 0; i < escaped.size(); ++i) {
    const bool escape = escaped[i] == '~' && i + 1 < escaped.size() && (escaped[i + 1] == '0' || escaped[i + 1] == '1');
    if (escape) key += escaped[++i] == '1' ? '/' : '~';
    else key += escaped[i];
  }
  return key;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  auto match = closest_match(word, candidates);
  return match ? fmt::format(" (did you mean '{}'?)", *match) : std::string();
}

namespace {

// The length of the UTF-8 sequence starting at text[i] and its code point, or 0 when it is not valid UTF-8.
std::size_t utf8_sequence(std::string_view text, std::size_t i, char32_t& code_point) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
  if (length == 0 || i + length > text.size()) return 0;
  code_point = length == 1 ? lead : lead & (0x7F >> length);
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code_point = (code_point << 6) | (byte(i + k) & 0x3F);
  }
  static constexpr char32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code_point < kSmallest[length] || code_point > 0x10FFFF || (code_point >= 0xD800 && code_point <= 0xDFFF))
    return 0;  // overlong forms and surrogates hide characters from simple filters
  return length;
}

bool unsafe_on_terminal(char32_t c) {
  return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) || (c >= 0x202A && c <= 0x202E) ||
         (c >= 0x2066 && c <= 0x2069);
}

bool printable_ascii(char c) { return c >= 0x20 && c < 0x7F; }

std::string escaped(std::string_view text, bool keep_line_breaks) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    // Printable ASCII, nearly all of what is printed, is copied a run at a time.
    const auto run_end = std::find_if_not(text.begin() + i, text.end(), printable_ascii);
    if (const auto run = static_cast<std::size_t>(run_end - (text.begin() + i)); run > 0) {
      out.append(text.substr(i, run));
      i += run;
      continue;
    }
    char32_t c = 0;
    const std::size_t length = utf8_sequence(text, i, c);
    if (length == 0) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[i]));
      ++i;
      continue;
    }
    const bool layout = keep_line_breaks && (c == '\n' || c == '\t');
    if (unsafe_on_terminal(c) && !layout) out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(c));
    else out.append(text.substr(i, length));
    i += length;
  }
  return out;
}

}  // namespace

std::string terminal_safe(std::string_view text) { return escaped(text, false); }

std::string terminal_safe_lines(std::string_view text) { return escaped(text, true); }

std::string shell_word(std::string_view text) {
  const auto safe = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("_-./:@%+=,").find(c) != std::string_view::npos;
  };
  if (!text.empty() && std::all_of(text.begin(), text.end(), safe)) return std::string(text);
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

namespace {

// NAME=value, NAME a shell variable name: an assignment when it comes before the program.
std::size_t assignment_name_length(std::string_view word) {
  const std::size_t equals = word.find('=');
  if (equals == 0 || equals == std::string_view::npos) return 0;
  const auto name_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  if (std::isdigit(static_cast<unsigned char>(word[0])) || !std::all_of(word.begin(), word.begin() + equals, name_char))
    return 0;
  return equals;
}

}  // namespace

std::string shell_line(const std::vector<std::string>& words) {
  std::string line;
  bool before_program = true;
  for (const std::string& word : words) {
    if (!line.empty()) line += ' ';
    const std::size_t name = before_program ? assignment_name_length(word) : 0;
    if (name > 0) {
      line += word.substr(0, name + 1) + shell_word(std::string_view(word).substr(name + 1));
      continue;
    }
    before_program = false;
    line += shell_word(word);
  }
  return line;
}

}  // namespace ropelens
