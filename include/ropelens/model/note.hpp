// A note whose text is formatted only when someone reads it. Every engine view of every config a scan reads
// carries notes, and a scan prints none of them: a note keeps its format string and arguments, and text()
// formats them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/core.h>

namespace ropelens {

class Note {
 public:
  static constexpr std::size_t kMaxArguments = 4;

  // Checked at compile time like fmt::format. Arguments are kept as a 64-bit integer, a double or a string, so
  // each must be one of those (format a value of another type, or a float, before passing it).
  template <class... Args> Note(fmt::format_string<Args...> format, Args&&... args)
      : format_(fmt::string_view(format).data(), fmt::string_view(format).size()) {
    static_assert(sizeof...(Args) <= kMaxArguments, "a note takes at most kMaxArguments arguments");
    (keep(std::forward<Args>(args)), ...);
  }

  std::string text() const;
  friend bool operator==(const Note& a, const Note& b) { return a.text() == b.text(); }

 private:
  using Argument = std::variant<std::int64_t, double, std::string>;

  template <class T> void keep(T&& arg) {
    using Value = std::remove_cv_t<std::remove_reference_t<T>>;
    static_assert(!std::is_same_v<Value, bool> && (std::is_integral_v<Value> || std::is_same_v<Value, double> ||
                                                   std::is_convertible_v<T, std::string_view>),
                  "a note argument is an integer, a double or a string");
    if constexpr (std::is_integral_v<Value>) arguments_[count_++] = static_cast<std::int64_t>(arg);
    else if constexpr (std::is_same_v<Value, double>) arguments_[count_++] = arg;
    else arguments_[count_++] = std::string(std::string_view(arg));
  }

  std::string_view format_;  // a string literal: format_string only accepts constant expressions
  std::array<Argument, kMaxArguments> arguments_{};
  std::size_t count_ = 0;
};

std::vector<std::string> texts(const std::vector<Note>& notes);

}  // namespace ropelens
