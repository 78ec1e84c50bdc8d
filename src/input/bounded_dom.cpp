#include "bounded_dom.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <system_error>
#include <vector>

#include "ropelens/model/text.hpp"

namespace ropelens::input_detail {
namespace {

using nlohmann::json;

class BoundedDomBuilder {
 public:
  BoundedDomBuilder(BoundedParse& out, int max_depth) : out_(out), max_depth_(max_depth) {}

  bool null() { return value(nullptr); }
  bool boolean(bool v) { return value(v); }
  bool number_integer(json::number_integer_t v) { return value(v); }
  bool number_unsigned(json::number_unsigned_t v) { return value(v); }
  bool number_float(json::number_float_t v, const std::string&) { return value(v); }
  bool string(std::string& v) { return value(std::move(v)); }
  bool binary(json::binary_t& v) { return value(json::binary(std::move(v))); }

  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(std::string& k) {
    if (skipping_ == 0) pending_key_ = std::move(k);  // the lexer clears its buffer before the next token
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) {
    out_.syntax_error = true;
    out_.error_byte = position;
    out_.error_message = e.what();
    return false;
  }

 private:
  // Where the next value goes. The key (or index) of each open container is kept so the pointer of a cut
  // value can be spelled out; pointers are only built for cut values.
  json* place(json&& v) {
    if (stack_.empty()) {
      out_.root = std::move(v);
      return &out_.root;
    }
    Frame& parent = stack_.back();
    if (auto* object = parent.node->get_ptr<json::object_t*>()) {
      // The key moves into the object (no copy); the frame points at it, which stays put in the map.
      auto [child, added] = object->try_emplace(std::move(pending_key_), std::move(v));
      if (!added) child->second = std::move(v);  // a repeated key: the last value wins, as in nlohmann's parser
      pending_key_.clear();
      parent.child_key = &child->first;
      return &child->second;
    }
    parent.child_index = parent.node->size();
    parent.node->push_back(std::move(v));
    return &parent.node->back();
  }

  std::string pointer_of_last_child() const {
    std::string pointer;
    for (const auto& frame : stack_)
      pointer =
          json_pointer_join(pointer, frame.node->is_object() ? *frame.child_key : std::to_string(frame.child_index));
    return pointer;
  }

  template <class T> bool value(T&& v) {
    if (skipping_ == 0) place(json(std::forward<T>(v)));
    return true;
  }

  bool open(json&& container) {
    if (skipping_ > 0) {
      ++skipping_;
      return true;
    }
    if (static_cast<int>(stack_.size()) >= max_depth_) {
      place(json(kDeepValueMarker));
      out_.cut_pointers.push_back(pointer_of_last_child());
      skipping_ = 1;
      return true;
    }
    json* node = place(std::move(container));
    stack_.push_back({node, nullptr, 0});
    return true;
  }

  bool close() {
    if (skipping_ > 0) --skipping_;
    else stack_.pop_back();
    return true;
  }

  struct Frame {
    json* node;
    const std::string* child_key = nullptr;  // key of the child most recently placed (objects), in the object
    std::size_t child_index = 0;             // its index (arrays)
  };
  BoundedParse& out_;
  int max_depth_;
  std::vector<Frame> stack_;
  std::string pending_key_;
  long skipping_ = 0;  // depth inside a cut value
};

// A strict reader for the JSON that configs hold, driving the same builder as nlohmann's SAX parser: nlohmann's
// lexer copies every byte it reads into its error context, about 120 instructions per byte of config. It reads a
// subset of what nlohmann accepts and yields the same values: strings of printable ASCII and their escapes (\u
// outside the surrogates), and numbers converted as nlohmann converts them. On anything else it gives up, and
// nlohmann parses the text again, so every error and every rarer input is nlohmann's.
class QuickReader {
 public:
  QuickReader(std::string_view text, BoundedDomBuilder& builder) : text_(text), builder_(builder) {}

  // False when the text holds something this reader leaves to nlohmann (and then what was built is discarded).
  bool read() {
    std::vector<char> open;  // '{' or '[' of each container being read
    skip_space();
    bool at_value = true;
    for (;;) {
      if (at_value) {
        if (at_end()) return false;
        const char c = text_[pos_];
        if (c == '{' || c == '[') {
          ++pos_;
          bool at_first_value = false;
          if (!opened(c, open, at_first_value)) return false;
          if (at_first_value) continue;
        } else if (!scalar()) {
          return false;
        }
      }
      at_value = false;
      skip_space();
      if (open.empty()) return at_end();
      if (at_end()) return false;
      const char c = text_[pos_++];
      if (c == ',') {
        skip_space();
        if (open.back() == '{' && !member_key()) return false;
        at_value = true;
      } else if (c == closing(open.back())) {
        close(open.back());
        open.pop_back();
      } else {
        return false;
      }
    }
  }

 private:
  static char closing(char opening) { return opening == '{' ? '}' : ']'; }
  bool at_end() const { return pos_ >= text_.size(); }
  void skip_space() {
    while (!at_end() && (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\r' || text_[pos_] == '\t'))
      ++pos_;
  }
  void close(char opening) { opening == '{' ? builder_.end_object() : builder_.end_array(); }

  // After '{' or '[': an empty container is closed at once; otherwise it is pushed and the reader stands at its
  // first value (past the first key of an object), which `at_first_value` says.
  bool opened(char opening, std::vector<char>& open, bool& at_first_value) {
    opening == '{' ? builder_.start_object(std::size_t(-1)) : builder_.start_array(std::size_t(-1));
    skip_space();
    if (!at_end() && text_[pos_] == closing(opening)) {
      ++pos_;
      close(opening);
      return true;
    }
    open.push_back(opening);
    at_first_value = true;
    return opening == '[' || member_key();
  }

  // "key" ':' and the space around them.
  bool member_key() {
    if (at_end() || text_[pos_] != '"' || !string_token()) return false;
    builder_.key(token_);
    skip_space();
    if (at_end() || text_[pos_] != ':') return false;
    ++pos_;
    skip_space();
    return true;
  }

  bool scalar() {
    const char c = text_[pos_];
    if (c == '"') return string_token() && builder_.string(token_);
    if (c == 't') return literal("true") && builder_.boolean(true);
    if (c == 'f') return literal("false") && builder_.boolean(false);
    if (c == 'n') return literal("null") && builder_.null();
    return number();
  }

  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  // A string into token_, its escapes decoded. Gives up on bytes outside printable ASCII and on \u surrogates.
  bool string_token() {
    token_.clear();
    std::size_t run = ++pos_;
    for (; !at_end(); ++pos_) {
      const auto c = static_cast<unsigned char>(text_[pos_]);
      if (c == '"') {
        token_.append(text_.substr(run, pos_ - run));
        ++pos_;
        return true;
      }
      if (c < 0x20 || c >= 0x80) return false;
      if (c != '\\') continue;
      token_.append(text_.substr(run, pos_ - run));
      if (!escape()) return false;
      run = pos_ + 1;
    }
    return false;
  }

  // At the backslash; leaves pos_ on the escape's last character.
  bool escape() {
    if (++pos_ >= text_.size()) return false;
    switch (text_[pos_]) {
      case '"': token_ += '"'; return true;
      case '\\': token_ += '\\'; return true;
      case '/': token_ += '/'; return true;
      case 'b': token_ += '\b'; return true;
      case 'f': token_ += '\f'; return true;
      case 'n': token_ += '\n'; return true;
      case 'r': token_ += '\r'; return true;
      case 't': token_ += '\t'; return true;
      case 'u': return unicode_escape();
      default: return false;
    }
  }

  bool unicode_escape() {
    unsigned code = 0;
    if (pos_ + 4 >= text_.size()) return false;
    const auto hex = text_.substr(pos_ + 1, 4);
    if (std::from_chars(hex.data(), hex.data() + 4, code, 16).ptr != hex.data() + 4 || hex[0] == '-' || hex[0] == '+')
      return false;
    if (code >= 0xD800 && code <= 0xDFFF) return false;  // surrogate pairs: nlohmann's
    pos_ += 4;
    if (code < 0x80) {
      token_ += static_cast<char>(code);
    } else if (code < 0x800) {
      token_ += static_cast<char>(0xC0 | (code >> 6));
      token_ += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      token_ += static_cast<char>(0xE0 | (code >> 12));
      token_ += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      token_ += static_cast<char>(0x80 | (code & 0x3F));
    }
    return true;
  }

  bool digits() {
    const std::size_t first = pos_;
    while (!at_end() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    return pos_ > first;
  }

  // JSON's number grammar. Integers become unsigned when written without '-', signed with it, and a double when
  // they do not fit 64 bits, as nlohmann's strtoull/strtoll/strtod give them (from_chars rounds as strtod does).
  bool number() {
    const std::size_t start = pos_;
    const bool negative = text_[pos_] == '-';
    if (negative) ++pos_;
    if (!at_end() && text_[pos_] == '0') ++pos_;
    else if (!digits()) return false;
    bool integer = true;
    if (!at_end() && text_[pos_] == '.') {
      ++pos_;
      if (!digits()) return false;
      integer = false;
    }
    if (!at_end() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (!at_end() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (!digits()) return false;
      integer = false;
    }
    const char* first = text_.data() + start;
    const char* last = text_.data() + pos_;
    if (integer && negative) {
      std::int64_t value = 0;
      if (std::from_chars(first, last, value).ec == std::errc()) return builder_.number_integer(value);
    } else if (integer) {
      std::uint64_t value = 0;
      if (std::from_chars(first, last, value).ec == std::errc()) return builder_.number_unsigned(value);
    }
    double value = 0;
    const auto parsed = std::from_chars(first, last, value);
    if (parsed.ec != std::errc() || parsed.ptr != last || !std::isfinite(value)) return false;
    return builder_.number_float(value, token_);
  }

  std::string_view text_;
  BoundedDomBuilder& builder_;
  std::size_t pos_ = 0;
  std::string token_;
};

}  // namespace

BoundedParse parse_bounded_by_nlohmann(const std::string& text, int max_depth) {
  BoundedParse out;
  BoundedDomBuilder builder(out, max_depth);
  json::sax_parse(text, &builder);
  return out;
}

bool read_quickly(const std::string& text, int max_depth, BoundedParse& out) {
  BoundedDomBuilder builder(out, max_depth);
  return QuickReader(text, builder).read();
}

BoundedParse parse_bounded(const std::string& text, int max_depth) {
  BoundedParse out;
  if (read_quickly(text, max_depth, out)) return out;
  return parse_bounded_by_nlohmann(text, max_depth);
}

bool identical_values(const json& a, const json& b) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case json::value_t::object: {
      if (a.size() != b.size()) return false;
      for (auto x = a.begin(), y = b.begin(); x != a.end(); ++x, ++y)
        if (x.key() != y.key() || !identical_values(*x, *y)) return false;
      return true;
    }
    case json::value_t::array: {
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i)
        if (!identical_values(a[i], b[i])) return false;
      return true;
    }
    case json::value_t::number_float: {
      const double x = a.get<double>(), y = b.get<double>();
      return std::memcmp(&x, &y, sizeof x) == 0;
    }
    default: return a == b;
  }
}

}  // namespace ropelens::input_detail
