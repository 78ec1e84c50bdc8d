#include "bounded_dom.hpp"

namespace ropelens::input_detail {
namespace {

using nlohmann::json;

std::string escape_token(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

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
    if (skipping_ == 0) pending_key_ = k;
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) {
    out_.syntax_error = true;
    out_.error_byte = position;
    out_.error_message = e.what();
    return false;
  }

 private:
  // Where the next value goes, and its pointer.
  json* place(json&& v, std::string& pointer) {
    if (stack_.empty()) {
      out_.root = std::move(v);
      pointer.clear();
      return &out_.root;
    }
    json& parent = *stack_.back().node;
    if (parent.is_object()) {
      pointer = stack_.back().pointer + "/" + escape_token(pending_key_);
      return &(parent[pending_key_] = std::move(v));
    }
    pointer = stack_.back().pointer + "/" + std::to_string(parent.size());
    parent.push_back(std::move(v));
    return &parent.back();
  }

  template <class T> bool value(T&& v) {
    if (skipping_ > 0) return true;
    std::string pointer;
    place(json(std::forward<T>(v)), pointer);
    return true;
  }

  bool open(json&& container) {
    if (skipping_ > 0) {
      ++skipping_;
      return true;
    }
    if (static_cast<int>(stack_.size()) >= max_depth_) {
      std::string pointer;
      place(json(kDeepValueMarker), pointer);
      out_.cut_pointers.push_back(pointer);
      skipping_ = 1;
      return true;
    }
    std::string pointer;
    json* node = place(std::move(container), pointer);
    stack_.push_back({node, pointer});
    return true;
  }

  bool close() {
    if (skipping_ > 0) {
      --skipping_;
      return true;
    }
    stack_.pop_back();
    return true;
  }

  struct Frame {
    json* node;
    std::string pointer;
  };
  BoundedParse& out_;
  int max_depth_;
  std::vector<Frame> stack_;
  std::string pending_key_;
  long skipping_ = 0;  // depth inside a cut value
};

}  // namespace

BoundedParse parse_bounded(const std::string& text, int max_depth) {
  BoundedParse out;
  BoundedDomBuilder builder(out, max_depth);
  json::sax_parse(text, &builder);
  return out;
}

}  // namespace ropelens::input_detail
