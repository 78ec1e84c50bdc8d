// Included before every source of the WebAssembly build (web/CMakeLists.txt): the C++20 library the core uses that
// the libc++ of Debian's Emscripten 3.1.6 (libc++ 13) lacks, under the standard names. Nothing here is compiled
// into the command line.
#pragma once

#include <bit>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <string>
#include <type_traits>

namespace std {

#if !defined(__cpp_lib_bit_cast)
template <class To, class From>
requires(sizeof(To) == sizeof(From) && is_trivially_copyable_v<To> && is_trivially_copyable_v<From>) constexpr To
    bit_cast(const From& from) noexcept {
  return __builtin_bit_cast(To, from);
}
#endif

#if defined(_LIBCPP_VERSION) && _LIBCPP_VERSION < 14000
// from_chars for double (libc++ 13 has the integer ones only), through strtod, which is correctly rounded in
// Emscripten's C library (musl) as from_chars is; the "C" locale is the only one there. As from_chars: no leading
// space or '+', and a value out of range is result_out_of_range with `value` untouched.
inline from_chars_result from_chars(const char* first, const char* last, double& value,
                                    chars_format = chars_format::general) {
  if (first == last || *first == '+' || *first == ' ' || (*first >= '\t' && *first <= '\r'))
    return {first, errc::invalid_argument};
  const string text(first, last);  // strtod reads up to a NUL
  char* end = nullptr;
  errno = 0;
  const double parsed = strtod(text.c_str(), &end);
  const ptrdiff_t used = end - text.c_str();
  if (used == 0) return {first, errc::invalid_argument};
  if (errno == ERANGE) return {first + used, errc::result_out_of_range};
  value = parsed;
  return {first + used, errc{}};
}
#endif

}  // namespace std
