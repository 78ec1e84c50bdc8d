// Finds the line and column of the value a JSON pointer names, for SARIF and GitHub annotations.
// Debian's nlohmann 3.11 keeps no source positions, so this walks the text once more.
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "ropelens/input/input.hpp"

namespace ropelens {
namespace {

std::vector<std::string> split_pointer(const std::string& pointer) {
  std::vector<std::string> tokens;
  std::size_t i = 0;
  while (i < pointer.size() && pointer[i] == '/') {
    auto next = pointer.find('/', i + 1);
    std::string token = pointer.substr(i + 1, next == std::string::npos ? std::string::npos : next - i - 1);
    std::string unescaped;
    for (std::size_t k = 0; k < token.size(); ++k) {
      if (token[k] == '~' && k + 1 < token.size()) {
        unescaped += token[k + 1] == '1' ? '/' : '~';
        ++k;
      } else {
        unescaped += token[k];
      }
    }
    tokens.push_back(unescaped);
    if (next == std::string::npos) break;
    i = next;
  }
  return tokens;
}

class Scanner {
 public:
  explicit Scanner(const std::string& text) : text_(text) {}

  std::size_t find(const std::vector<std::string>& tokens) {
    skip_space();
    std::size_t best = pos_;
    for (const auto& token : tokens) {
      if (!descend(token)) return best;
      best = pos_;
    }
    return best;
  }

 private:
  bool descend(const std::string& token) {
    if (at('{')) return descend_object(token);
    if (at('[')) return descend_array(token);
    return false;
  }

  bool descend_object(const std::string& token) {
    ++pos_;
    for (int guard = 0; guard < 1'000'000; ++guard) {
      skip_space();
      if (!at('"')) return false;
      const bool matches = read_string_equal_to(token);
      skip_space();
      if (!at(':')) return false;
      ++pos_;
      skip_space();
      if (matches) return true;
      if (!skip_value()) return false;
      skip_space();
      if (!at(',')) return false;
      ++pos_;
    }
    return false;
  }

  bool descend_array(const std::string& token) {
    std::size_t index = 0;
    for (char c : token) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return false;
      index = index * 10 + static_cast<std::size_t>(c - '0');
      if (index > 100'000'000) return false;
    }
    ++pos_;
    for (std::size_t i = 0;; ++i) {
      skip_space();
      if (i == index) return !at(']');
      if (!skip_value()) return false;
      skip_space();
      if (!at(',')) return false;
      ++pos_;
    }
  }

  bool skip_value() {
    skip_space();
    if (at('"')) {
      skip_string();
      return true;
    }
    if (at('{') || at('[')) {
      int depth = 0;
      while (pos_ < text_.size()) {
        char c = text_[pos_];
        if (c == '"') {
          skip_string();
          continue;
        }
        if (c == '{' || c == '[') ++depth;
        if (c == '}' || c == ']') {
          if (--depth == 0) {
            ++pos_;
            return true;
          }
        }
        ++pos_;
      }
      return false;
    }
    while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '}' && text_[pos_] != ']') ++pos_;
    return pos_ < text_.size();
  }

  // Reads the string at pos_ and says whether it spells `expected`; compares in place, without a copy.
  bool read_string_equal_to(const std::string& expected) {
    std::size_t matched = 0;
    bool equal = true;
    ++pos_;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_];
      if (c == '\\' && pos_ + 1 < text_.size()) {
        char e = text_[pos_ + 1];
        c = (e == 'n') ? '\n' : (e == 't') ? '\t' : e;
        pos_ += 2;
      } else {
        ++pos_;
      }
      equal = equal && matched < expected.size() && expected[matched] == c;
      ++matched;
    }
    ++pos_;
    return equal && matched == expected.size();
  }

  void skip_string() {
    ++pos_;
    while (pos_ < text_.size() && text_[pos_] != '"') pos_ += (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ? 2 : 1;
    ++pos_;
  }

  void skip_space() {
    while (pos_ < text_.size() && is_json_space(text_[pos_])) ++pos_;
  }
  static bool is_json_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
  bool at(char c) const { return pos_ < text_.size() && text_[pos_] == c; }

  const std::string& text_;
  std::size_t pos_ = 0;
};

}  // namespace

bool locate_pointer(const std::string& text, const std::string& pointer, TextPosition& out) {
  if (text.empty()) return false;
  Scanner scanner(text);
  std::size_t offset = scanner.find(split_pointer(pointer));
  out = {};
  const std::string_view before = std::string_view(text).substr(0, offset);
  std::size_t line_start = 0;
  for (auto newline = before.find('\n'); newline != std::string_view::npos; newline = before.find('\n', line_start)) {
    ++out.line;
    line_start = newline + 1;
  }
  out.column = static_cast<int>(before.size() - line_start) + 1;
  return true;
}

}  // namespace ropelens
