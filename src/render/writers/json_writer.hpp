// Internal: writes JSON text exactly as nlohmann's dump(2) prints it, without building a document first.
// The check output of a directory scan is the one place where building and freeing a DOM per file cost
// more than the check itself.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ropelens::render_detail {

// A whole document as dump(2) prints it. Strings from a config may hold bytes that are not UTF-8: they print as
// U+FFFD rather than ending the run (nlohmann throws on them by default).
inline std::string pretty_json(const nlohmann::json& document) {
  return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Moves every member of the object `part` into `document`, as update() would copy them: a model's layer list
// can be 100,000 objects.
inline void move_members(nlohmann::json& document, nlohmann::json&& part) {
  for (auto& [key, value] : part.items()) document[key] = std::move(value);
}

class JsonWriter {
 public:
  // Appends to `out`; lines after the first are indented by `base_indent` spaces more than dump(2) would.
  // The text goes to `out` when the document is complete (its outermost bracket closed, or a lone value written).
  explicit JsonWriter(std::string& out, int base_indent = 0) : out_(out), base_indent_(base_indent) {}
  ~JsonWriter();
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  // Tokens are put together here and appended to `out` in blocks: a JSON scan writes millions of them, and an
  // append to a string is a capacity check and a call to memcpy.
  static constexpr std::size_t kStagedBytes = 4096;

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  // Keys must come in sorted order, as nlohmann's std::map keeps them (checked in debug builds).
  JsonWriter& key(std::string_view name);
  // A key spelled in ropelens' own code: printable ASCII that needs no escapes, so it is not scanned for them.
  template <std::size_t N> JsonWriter& key(const char (&name)[N]) { return plain_key({name, N - 1}); }

  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  JsonWriter& value(std::int64_t number);
  JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
  JsonWriter& value(double number);
  JsonWriter& value(bool flag);
  JsonWriter& value(const nlohmann::json& document);
  template <class T> JsonWriter& value(const std::vector<T>& items) {
    begin_array();
    for (const auto& item : items) value(item);
    return end_array();
  }

  // key(name).value(v)
  template <class T> JsonWriter& member(std::string_view name, const T& v) { return key(name).value(v); }
  template <std::size_t N, class T> JsonWriter& member(const char (&name)[N], const T& v) { return key(name).value(v); }

 private:
  struct Frame {
    bool object = false;
    int members = 0;
    std::string last_key;  // debug builds only
  };
  JsonWriter& open(char bracket, bool object);
  JsonWriter& plain_key(std::string_view name);
  bool start_member(std::string_view name);  // whether a comma goes before it
  void close(char bracket);
  // What goes before the next value: nothing after a key, else the line break of its container.
  void stage_break_before_value();
  void stage_line_break(bool comma, std::size_t depth);  // [","] "\n" and the indent of `depth` open brackets
  void write_string(std::string_view text);

  char* room(std::size_t bytes);  // where the next `bytes` bytes go (count them in staged_size_)
  void stage(std::string_view text);
  void stage(char c);
  template <class Integer> void stage_integer(Integer number);
  void flush();
  void document_may_be_complete();

  std::string& out_;
  int base_indent_;
  std::array<char, kStagedBytes> staged_;
  std::size_t staged_size_ = 0;
  std::vector<Frame> open_;
  bool after_key_ = false;
};

}  // namespace ropelens::render_detail
