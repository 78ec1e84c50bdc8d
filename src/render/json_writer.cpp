#include "json_writer.hpp"

#include <array>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <fmt/format.h>

namespace ropelens::render_detail {

namespace {

constexpr std::uint64_t kEveryByte = 0x0101010101010101ULL;
constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;

// Whether any of the 8 bytes in `word` is a control character, non-ASCII, '"' or '\\' (bit tricks that test the
// bytes of a word together: a config's messages and paths are long runs that need no escaping).
bool word_needs_care(std::uint64_t word) {
  const auto has_zero_byte = [](std::uint64_t v) { return (v - kEveryByte) & ~v & kHighBits; };
  const std::uint64_t below_space = (word - kEveryByte * 0x20) & ~word & kHighBits;
  return (below_space | (word & kHighBits) | has_zero_byte(word ^ (kEveryByte * '"')) |
          has_zero_byte(word ^ (kEveryByte * '\\'))) != 0;
}

bool byte_needs_care(unsigned char byte) { return byte < 0x20 || byte >= 0x80 || byte == '"' || byte == '\\'; }

// How many bytes from `from` on need no escaping and are ASCII (appended in one piece).
std::size_t plain_run(std::string_view text, std::size_t from) {
  std::size_t end = from;
  for (std::uint64_t word = 0; end + sizeof word <= text.size(); end += sizeof word) {
    std::memcpy(&word, text.data() + end, sizeof word);
    if (word_needs_care(word)) break;
  }
  while (end < text.size() && !byte_needs_care(static_cast<unsigned char>(text[end]))) ++end;
  return end - from;
}

constexpr std::size_t kIndentMax = 64;

// ",\n" and up to kIndentMax spaces: every line break is a slice of it, starting at its first or second byte.
// Tokens copy kBreakCopy bytes from there whatever the slice's length, which the compiler does without a call.
constexpr std::size_t kBreakCopy = 2 + kIndentMax;
constexpr auto kBreak = [] {
  std::array<char, 1 + kBreakCopy> text{};
  text.fill(' ');
  text[0] = ',';
  text[1] = '\n';
  return text;
}();

// One token and the line break before it, put together on the stack and appended to the output at once: a JSON
// scan writes millions of tokens, and every append to a string is a capacity check and a call to memcpy.
class Token {
 public:
  static constexpr std::size_t kCapacity = 192;
  static constexpr std::size_t kLongestText = 96;  // longer strings (and those that need escapes) go piecewise

  // Starts with `line_break`, a slice of kBreak or nothing.
  explicit Token(std::string_view line_break) : size_(line_break.size()) {
    if (line_break.empty()) return;
    assert(line_break.data() >= kBreak.data() && line_break.data() + kBreakCopy <= kBreak.data() + kBreak.size());
    std::memcpy(data_.data(), line_break.data(), kBreakCopy);
  }

  void add(std::string_view text) {
    assert(size_ + text.size() <= kCapacity);
    std::memcpy(data_.data() + size_, text.data(), text.size());
    size_ += text.size();
  }
  void add(char c) {
    assert(size_ < kCapacity);
    data_[size_++] = c;
  }
  // Where a number is printed to; at least 64 bytes are free after a line break.
  char* tail() { return data_.data() + size_; }
  char* end() { return data_.data() + data_.size(); }
  void grow_to(const char* tail) { size_ = static_cast<std::size_t>(tail - data_.data()); }
  void append_to(std::string& out) const { out.append(data_.data(), size_); }

 private:
  std::array<char, kCapacity> data_;
  std::size_t size_ = 0;
};

bool fits_in_token(std::string_view text) {
  return text.size() <= Token::kLongestText && plain_run(text, 0) == text.size();
}

}  // namespace

JsonWriter& JsonWriter::begin_object() { return open('{', true); }

JsonWriter& JsonWriter::begin_array() { return open('[', false); }

JsonWriter& JsonWriter::open(char bracket, bool object) {
  Token token(break_before_value());
  token.add(bracket);
  token.append_to(out_);
  open_.push_back({object, 0, {}});
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  assert(!open_.empty() && open_.back().object && !after_key_);
  close('}');
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  assert(!open_.empty() && !open_.back().object);
  close(']');
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  if (fits_in_token(name)) return plain_key(name);
  out_ += line_break(start_member(name), open_.size());
  write_string(name);
  out_ += ": ";
  return *this;
}

JsonWriter& JsonWriter::plain_key(std::string_view name) {
  assert(fits_in_token(name));
  Token token(line_break(start_member(name), open_.size()));
  token.add('"');
  token.add(name);
  token.add("\": ");
  token.append_to(out_);
  return *this;
}

bool JsonWriter::start_member(std::string_view name) {
  assert(!open_.empty() && open_.back().object && !after_key_);
  Frame& frame = open_.back();
#ifndef NDEBUG
  assert(frame.members == 0 || frame.last_key < name);
  frame.last_key = std::string(name);
#else
  (void)name;
#endif
  after_key_ = true;
  return frame.members++ > 0;
}

JsonWriter& JsonWriter::value(std::string_view text) {
  Token token(break_before_value());
  if (!fits_in_token(text)) {
    token.append_to(out_);
    write_string(text);
    return *this;
  }
  token.add('"');
  token.add(text);
  token.add('"');
  token.append_to(out_);
  return *this;
}

JsonWriter& JsonWriter::value(std::int64_t number) {
  Token token(break_before_value());
  token.grow_to(std::to_chars(token.tail(), token.end(), number).ptr);
  token.append_to(out_);
  return *this;
}

JsonWriter& JsonWriter::value(double number) {
  Token token(break_before_value());
  if (!std::isfinite(number)) {
    token.add("null");
  } else {
    // The function nlohmann's serializer prints doubles with (its Grisu2, "1.0" for integral values), called
    // directly: json(number).dump() cost an allocation and a serializer per number. The writer's test compares
    // whole documents with dump(2), so a change in it would show.
    token.grow_to(nlohmann::detail::to_chars(token.tail(), token.end(), number));
  }
  token.append_to(out_);
  return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
  Token token(break_before_value());
  token.add(flag ? "true" : "false");
  token.append_to(out_);
  return *this;
}

JsonWriter& JsonWriter::value(const nlohmann::json& document) {
  switch (document.type()) {
    // The containers themselves rather than nlohmann's iterators: facts hold lists of hundreds of pair indices.
    case nlohmann::json::value_t::object:
      begin_object();
      for (const auto& [name, item] : document.get_ref<const nlohmann::json::object_t&>()) key(name).value(item);
      return end_object();
    case nlohmann::json::value_t::array:
      begin_array();
      for (const auto& item : document.get_ref<const nlohmann::json::array_t&>()) {
        // (get_ptr alone would also read an unsigned number as a signed one)
        if (item.type() == nlohmann::json::value_t::number_integer)
          value(*item.get_ptr<const nlohmann::json::number_integer_t*>());
        else value(item);
      }
      return end_array();
    case nlohmann::json::value_t::string: return value(document.get_ref<const std::string&>());
    case nlohmann::json::value_t::number_float: return value(document.get<double>());
    case nlohmann::json::value_t::boolean: return value(document.get<bool>());
    case nlohmann::json::value_t::number_integer: return value(document.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned:
      out_ += break_before_value();
      fmt::format_to(std::back_inserter(out_), "{}", document.get<std::uint64_t>());
      return *this;
    default:
      out_ += break_before_value();
      out_ += document.dump();  // null (and binary, which configs never hold)
      return *this;
  }
}

std::string_view JsonWriter::break_before_value() {
  if (after_key_) {
    after_key_ = false;
    return {};
  }
  if (open_.empty()) return {};
  Frame& frame = open_.back();
  assert(!frame.object);
  return line_break(frame.members++ > 0, open_.size());
}

std::string_view JsonWriter::line_break(bool comma, std::size_t depth) {
  const std::size_t indent = static_cast<std::size_t>(base_indent_) + 2 * depth;
  if (indent <= kIndentMax) return {kBreak.data() + (comma ? 0 : 1), indent + (comma ? 2 : 1)};
  // Deeper than any output ropelens writes itself, but value(json) prints whatever a config holds.
  if (comma) out_ += ',';
  out_ += '\n';
  out_.append(indent, ' ');
  return {};
}

void JsonWriter::close(char bracket) {
  const bool empty = open_.back().members == 0;
  open_.pop_back();
  Token token(empty ? std::string_view() : line_break(false, open_.size()));
  token.add(bracket);
  token.append_to(out_);
}

// As nlohmann escapes with ensure_ascii off; a byte that is not UTF-8 (nlohmann would throw) becomes U+FFFD.
void JsonWriter::write_string(std::string_view text) {
  out_ += '"';
  for (std::size_t i = 0; i < text.size(); ++i) {
    const std::size_t plain = plain_run(text, i);
    if (plain > 0) {
      out_.append(text.substr(i, plain));
      i += plain - 1;
      continue;
    }
    const auto byte = static_cast<unsigned char>(text[i]);
    switch (byte) {
      case '"': out_ += "\\\""; continue;
      case '\\': out_ += "\\\\"; continue;
      case '\b': out_ += "\\b"; continue;
      case '\f': out_ += "\\f"; continue;
      case '\n': out_ += "\\n"; continue;
      case '\r': out_ += "\\r"; continue;
      case '\t': out_ += "\\t"; continue;
      default: break;
    }
    if (byte < 0x20) {
      fmt::format_to(std::back_inserter(out_), "\\u{:04x}", byte);
    } else if (byte < 0x80) {
      out_ += static_cast<char>(byte);
    } else {
      const std::size_t length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 0;
      bool valid = length > 0 && byte < 0xF5 && i + length <= text.size();
      for (std::size_t k = 1; valid && k < length; ++k)
        valid = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
      if (valid) {
        out_.append(text.substr(i, length));
        i += length - 1;
      } else {
        out_ += "\xEF\xBF\xBD";
      }
    }
  }
  out_ += '"';
}

}  // namespace ropelens::render_detail
