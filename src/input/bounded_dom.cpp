#include "bounded_dom.hpp"

#include "ropelens/text.hpp"

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
    if (parent.node->is_object()) {
      parent.child_key.swap(pending_key_);
      return &((*parent.node)[parent.child_key] = std::move(v));
    }
    parent.child_index = parent.node->size();
    parent.node->push_back(std::move(v));
    return &parent.node->back();
  }

  std::string pointer_of_last_child() const {
    std::string pointer;
    for (const auto& frame : stack_)
      pointer =
          json_pointer_join(pointer, frame.node->is_object() ? frame.child_key : std::to_string(frame.child_index));
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
    stack_.push_back({node, {}, 0});
    return true;
  }

  bool close() {
    if (skipping_ > 0) --skipping_;
    else stack_.pop_back();
    return true;
  }

  struct Frame {
    json* node;
    std::string child_key;        // key of the child most recently placed (objects)
    std::size_t child_index = 0;  // its index (arrays)
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
