#include "render/writers/json_writer.hpp"

#include <array>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>

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
// A break is copied as kBreakCopy bytes whatever its length, which the compiler does without a call.
constexpr std::size_t kBreakCopy = 2 + kIndentMax;
constexpr auto kBreak = [] {
  std::array<char, 1 + kBreakCopy> text{};
  text.fill(' ');
  text[0] = ',';
  text[1] = '\n';
  return text;
}();

constexpr std::size_t kLongestPlainText = 96;  // longer strings (and those that need escapes) go piece by piece
constexpr std::size_t kLongestToken = kBreakCopy + kLongestPlainText + 8;
static_assert(kLongestToken <= JsonWriter::kStagedBytes);

bool is_plain(std::string_view text) { return text.size() <= kLongestPlainText && plain_run(text, 0) == text.size(); }

}  // namespace

JsonWriter::~JsonWriter() {
  assert((staged_size_ == 0 || std::uncaught_exceptions() > 0) && "a JsonWriter writes whole documents");
  flush();
}

void JsonWriter::flush() {
  out_.append(staged_.data(), staged_size_);
  staged_size_ = 0;
}

char* JsonWriter::room(std::size_t bytes) {
  assert(bytes <= kStagedBytes);
  if (staged_size_ + bytes > kStagedBytes) flush();
  return staged_.data() + staged_size_;
}

void JsonWriter::stage(std::string_view text) {
  if (text.size() > kStagedBytes) {
    flush();
    out_.append(text);
    return;
  }
  std::memcpy(room(text.size()), text.data(), text.size());
  staged_size_ += text.size();
}

void JsonWriter::stage(char c) {
  *room(1) = c;
  ++staged_size_;
}

void JsonWriter::document_may_be_complete() {
  if (open_.empty()) flush();
}

JsonWriter& JsonWriter::begin_object() { return open('{', true); }

JsonWriter& JsonWriter::begin_array() { return open('[', false); }

JsonWriter& JsonWriter::open(char bracket, bool object) {
  stage_break_before_value();
  stage(bracket);
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
  if (is_plain(name)) return plain_key(name);
  stage_line_break(start_member(name), open_.size());
  write_string(name);
  stage(": ");
  return *this;
}

JsonWriter& JsonWriter::plain_key(std::string_view name) {
  assert(is_plain(name));
  stage_line_break(start_member(name), open_.size());
  char* at = room(name.size() + 4);
  *at = '"';
  std::memcpy(at + 1, name.data(), name.size());
  std::memcpy(at + 1 + name.size(), "\": ", 3);
  staged_size_ += name.size() + 4;
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
  stage_break_before_value();
  if (is_plain(text)) {
    char* at = room(text.size() + 2);
    *at = '"';
    std::memcpy(at + 1, text.data(), text.size());
    at[1 + text.size()] = '"';
    staged_size_ += text.size() + 2;
  } else {
    write_string(text);
  }
  document_may_be_complete();
  return *this;
}

template <class Integer> void JsonWriter::stage_integer(Integer number) {
  constexpr std::size_t kDigits = 24;  // a sign and 20 digits
  char* at = room(kDigits);
  staged_size_ += static_cast<std::size_t>(std::to_chars(at, at + kDigits, number).ptr - at);
}

JsonWriter& JsonWriter::value(std::int64_t number) {
  stage_break_before_value();
  stage_integer(number);
  document_may_be_complete();
  return *this;
}

JsonWriter& JsonWriter::value(double number) {
  stage_break_before_value();
  if (!std::isfinite(number)) {
    stage("null");
  } else {
    // The function nlohmann's serializer prints doubles with (its Grisu2, "1.0" for integral values), called
    // directly: json(number).dump() cost an allocation and a serializer per number. The writer's test compares
    // whole documents with dump(2), so a change in it would show.
    constexpr std::size_t kRoom = 64;
    char* at = room(kRoom);
    staged_size_ += static_cast<std::size_t>(nlohmann::detail::to_chars(at, at + kRoom, number) - at);
  }
  document_may_be_complete();
  return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
  stage_break_before_value();
  stage(flag ? "true" : "false");
  document_may_be_complete();
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
      stage_break_before_value();
      stage_integer(document.get<std::uint64_t>());
      break;
    default:
      stage_break_before_value();
      stage(document.dump());  // null (and binary, which configs never hold)
      break;
  }
  document_may_be_complete();
  return *this;
}

void JsonWriter::stage_break_before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (open_.empty()) return;
  Frame& frame = open_.back();
  assert(!frame.object);
  stage_line_break(frame.members++ > 0, open_.size());
}

void JsonWriter::stage_line_break(bool comma, std::size_t depth) {
  const std::size_t indent = static_cast<std::size_t>(base_indent_) + 2 * depth;
  const std::size_t size = indent + (comma ? 2 : 1);
  if (indent <= kIndentMax) {
    std::memcpy(room(kBreakCopy), kBreak.data() + (comma ? 0 : 1), kBreakCopy);
    staged_size_ += size;
    return;
  }
  // Deeper than any output of ropelens' own, but value(json) prints whatever a config holds.
  if (comma) stage(',');
  stage('\n');
  for (std::size_t i = 0; i < indent; ++i) stage(' ');
}

void JsonWriter::close(char bracket) {
  const bool empty = open_.back().members == 0;
  open_.pop_back();
  if (!empty) stage_line_break(false, open_.size());
  stage(bracket);
  document_may_be_complete();
}

// As nlohmann escapes with ensure_ascii off; a byte that is not UTF-8 (nlohmann would throw) becomes U+FFFD.
void JsonWriter::write_string(std::string_view text) {
  stage('"');
  for (std::size_t i = 0; i < text.size(); ++i) {
    const std::size_t plain = plain_run(text, i);
    if (plain > 0) {
      stage(text.substr(i, plain));
      i += plain - 1;
      continue;
    }
    const auto byte = static_cast<unsigned char>(text[i]);
    switch (byte) {
      case '"': stage("\\\""); continue;
      case '\\': stage("\\\\"); continue;
      case '\b': stage("\\b"); continue;
      case '\f': stage("\\f"); continue;
      case '\n': stage("\\n"); continue;
      case '\r': stage("\\r"); continue;
      case '\t': stage("\\t"); continue;
      default: break;
    }
    if (byte < 0x20) {
      std::array<char, 6> escape{};
      fmt::format_to(escape.data(), "\\u{:04x}", byte);
      stage({escape.data(), escape.size()});
    } else if (byte < 0x80) {
      stage(static_cast<char>(byte));
    } else {
      const std::size_t length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 0;
      bool valid = length > 0 && byte < 0xF5 && i + length <= text.size();
      for (std::size_t k = 1; valid && k < length; ++k)
        valid = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
      if (valid) {
        stage(text.substr(i, length));
        i += length - 1;
      } else {
        stage("\xEF\xBF\xBD");
      }
    }
  }
  stage('"');
}

}  // namespace ropelens::render_detail
