#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "ropelens/model/text.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bounded_dom.hpp"
#include "ropelens/input/file_bytes.hpp"
#include "ropelens/input/gguf.hpp"
#include "ropelens/input/input.hpp"

namespace ropelens {
namespace fs = std::filesystem;

namespace {

std::string read_limited(std::istream& in, const std::string& display) {
  std::string text;
  char buffer[65536];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxConfigBytes)
      throw InputError(display, fmt::format("larger than {} MiB; not a config.json", kMaxConfigBytes >> 20));
  }
  if (in.bad()) throw InputError(display, "read error");
  return text;
}

// Python's json module writes NaN and Infinity, which are not JSON. They are turned into marker strings
// so the normalizer can report them as invalid values instead of rejecting the whole file.
void mark_non_finite_literals(std::string& text) {
  if (text.find("NaN") == std::string::npos && text.find("Infinity") == std::string::npos) return;
  static constexpr std::pair<std::string_view, std::string_view> kLiterals[] = {
      {"-Infinity", "\"\\u0000-Infinity\""}, {"Infinity", "\"\\u0000Infinity\""}, {"NaN", "\"\\u0000NaN\""}};
  bool in_string = false;
  std::string out;
  bool changed = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) out += text[++i];
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    bool replaced = false;
    for (const auto& [literal, marker] : kLiterals) {
      if (std::string_view(text).substr(i, literal.size()) == literal) {
        out += marker;
        i += literal.size() - 1;
        replaced = changed = true;
        break;
      }
    }
    if (!replaced) out += c;
  }
  if (changed) text = std::move(out);
}

std::string first_line(std::string_view s) {
  auto end = s.find('\n');
  return std::string(s.substr(0, end));
}

// A file that is not JSON at all but a systemd unit or an INI file, said in words (a byte offset into it helps
// nobody); none for anything else.
std::optional<std::string> not_json(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '[' || first + 1 >= text.size() ||
      std::isalpha(static_cast<unsigned char>(text[first + 1])) == 0)
    return std::nullopt;
  const auto end = text.find_first_of("]\n", first);
  if (end == std::string_view::npos || text[end] != ']' || end - first > 40) return std::nullopt;
  return fmt::format(
      "not JSON: it starts with '{}', as a systemd unit or an INI file does; ropelens reads a "
      "systemd unit as a launch file when it is named *.service or sits in a *.service.d/ folder",
      terminal_safe(text.substr(first, end - first + 1)));
}

}  // namespace

Document parse_config(std::string display_path, std::string text) {
  mark_non_finite_literals(text);
  Document doc{std::move(display_path), std::move(text), {}, {}};
  auto parsed = input_detail::parse_bounded(doc.text, kMaxJsonDepth);
  if (parsed.syntax_error) {
    if (auto other = not_json(doc.text)) throw InputError(doc.path, *other);
    auto at = parsed.error_message.find("syntax error");
    std::string detail = at == std::string::npos ? parsed.error_message : parsed.error_message.substr(at);
    throw InputError(doc.path, fmt::format("not valid JSON at byte {}: {}", parsed.error_byte, first_line(detail)));
  }
  doc.root = std::move(parsed.root);
  doc.cut_pointers = std::move(parsed.cut_pointers);
  if (!doc.root.is_object())
    throw InputError(doc.path, fmt::format("top-level JSON value is {}, expected an object", doc.root.type_name()));
  return doc;
}

namespace {

// Opening a FIFO for reading would wait for a writer; with O_NONBLOCK it opens at once and fstat refuses it
// (regular files ignore the flag).
constexpr int kNoWaitForWriter = O_NONBLOCK;

// Closes the descriptor on every path out of read_input_file.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

std::string io_error_reason(int error_number) {
  return std::error_code(error_number, std::generic_category()).message();
}

std::string open_failure(int error_number) {
  if (error_number == ENOENT) return "no such file";
  if (error_number == ELOOP) return "cannot open file: a symlink loop (too many levels of symbolic links)";
  return "cannot open file: " + io_error_reason(error_number);
}

// The first `count` bytes (fewer when the file is shorter).
std::string read_head(int fd, std::size_t count, const std::string& shown) {
  std::string head(count, '\0');
  std::size_t used = 0;
  while (used < count) {
    const ssize_t got = ::read(fd, head.data() + used, count - used);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw InputError(shown, "read error: " + io_error_reason(errno));
    if (got == 0) break;
    used += static_cast<std::size_t>(got);
  }
  head.resize(used);
  return head;
}

// Reads up to `limit` + 1 bytes (the extra byte tells a file that grew past the limit).
std::string read_up_to(int fd, std::size_t expected, std::size_t limit, const std::string& shown) {
  std::string text(std::min(expected, limit) + 1, '\0');
  std::size_t used = 0;
  for (;;) {
    if (used == text.size()) {
      if (text.size() > limit) break;
      text.resize(std::min(text.size() * 2, limit + 1));
    }
    const ssize_t got = ::read(fd, text.data() + used, text.size() - used);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw InputError(shown, "read error: " + io_error_reason(errno));
    if (got == 0) break;
    used += static_cast<std::size_t>(got);
    // All the bytes fstat promised, and fewer than asked for: the end of the file, without a read that returns 0.
    if (used == expected && used < text.size()) break;
  }
  if (used > limit) throw InputError(shown, fmt::format("larger than {} MiB; not a config.json", limit >> 20));
  text.resize(used);
  return text;
}

InputError too_large(const std::string& shown, std::uintmax_t size) {
  return InputError(shown,
                    fmt::format("{} bytes is larger than {} MiB; not a config.json", size, kMaxConfigBytes >> 20));
}

InputFile read_opened(InputFile input, int fd, const struct stat& info) {
  if (!S_ISREG(info.st_mode)) throw InputError(input.shown, "not a regular file");
  const auto size = static_cast<std::uintmax_t>(info.st_size);
  if (size > kMaxConfigBytes) {
    // Too large for a config.json; a GGUF file is read from its header alone.
    if (looks_like_gguf_bytes(read_head(fd, kGgufMagic.size(), input.shown))) {
      input.gguf = true;
      return input;
    }
    throw too_large(input.shown, size);
  }
  input.text = read_up_to(fd, static_cast<std::size_t>(size), kMaxConfigBytes, input.shown);
  input.gguf = looks_like_gguf_bytes(input.text);
  return input;
}

}  // namespace

namespace {

// One open, one fstat and one read per file: a directory scan reads thousands of them.
InputFile read_file_shown_as(const std::string& path, std::string shown) {
  InputFile input;
  input.shown = std::move(shown);
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | kNoWaitForWriter));
  if (fd.get() < 0) throw InputError(input.shown, open_failure(errno));
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) throw InputError(path, "cannot read size: " + io_error_reason(errno));
  if (S_ISDIR(info.st_mode)) {
    const std::string inner_path = (fs::path(path) / "config.json").string();
    FileDescriptor inner(::open(inner_path.c_str(), O_RDONLY | O_CLOEXEC | kNoWaitForWriter));
    if (inner.get() < 0) throw InputError(input.shown, "directory has no config.json");
    input.shown = shown_path(inner_path);
    if (::fstat(inner.get(), &info) != 0) throw InputError(input.shown, "cannot read size: " + io_error_reason(errno));
    return read_opened(std::move(input), inner.get(), info);
  }
  return read_opened(std::move(input), fd.get(), info);
}

}  // namespace

InputFile read_input_file(const std::string& path) { return read_file_shown_as(path, shown_path(path)); }

InputFile read_found_file(const std::string& shown) { return read_file_shown_as(shown, shown); }

InputFile read_input_bytes(const FileBytes& file) {
  InputFile input;
  input.shown = file.shown;
  input.gguf = looks_like_gguf_bytes(file.head());
  if (input.gguf) return input;
  if (file.size > kMaxConfigBytes) throw too_large(file.shown, file.size);
  if (!file.complete()) throw BytesNotRead(file.shown, 0, file.size);
  input.text = std::string(file.head());
  return input;
}

InputFile read_stdin() {
  InputFile input;
  input.shown = "<stdin>";
  input.text = read_limited(std::cin, input.shown);
  input.gguf = looks_like_gguf_bytes(input.text);
  return input;
}

Document read_config(const std::string& path) {
  if (path == "-") return parse_config("<stdin>", read_limited(std::cin, "<stdin>"));
  InputFile input = read_input_file(path);
  if (input.gguf) throw InputError(input.shown, "is a GGUF file, not a config.json");
  return parse_config(std::move(input.shown), std::move(input.text));
}

}  // namespace ropelens
