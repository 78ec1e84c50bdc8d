#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "bounded_dom.hpp"
#include "ropelens/input.hpp"

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

}  // namespace

Document parse_config(std::string display_path, std::string text) {
  mark_non_finite_literals(text);
  Document doc{std::move(display_path), std::move(text), {}, {}};
  auto parsed = input_detail::parse_bounded(doc.text, kMaxJsonDepth);
  if (parsed.syntax_error) {
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

Document read_config(const std::string& path) {
  if (path == "-") return parse_config("<stdin>", read_limited(std::cin, "<stdin>"));
  std::error_code ec;
  fs::path file = path;
  if (fs::is_directory(file, ec)) {
    file /= "config.json";
    if (!fs::exists(file, ec)) throw InputError(path, "directory has no config.json");
  }
  auto shown = file.string();
  if (!fs::exists(file, ec)) throw InputError(shown, "no such file");
  if (!fs::is_regular_file(file, ec)) throw InputError(shown, "not a regular file");
  auto size = fs::file_size(file, ec);
  if (ec) throw InputError(shown, "cannot read size: " + ec.message());
  if (size > kMaxConfigBytes)
    throw InputError(shown, fmt::format("{} bytes is larger than {} MiB; not a config.json", size, kMaxConfigBytes >> 20));
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(shown, "cannot open file");
  return parse_config(shown, read_limited(in, shown));
}

std::vector<std::string> expand_paths(const std::string& path) {
  std::error_code ec;
  if (path == "-" || !fs::is_directory(path, ec)) return {path};
  if (fs::exists(fs::path(path) / "config.json", ec)) return {(fs::path(path) / "config.json").string()};
  std::vector<std::string> found;
  auto options = fs::directory_options::skip_permission_denied;
  for (fs::recursive_directory_iterator it(path, options, ec), end; it != end; it.increment(ec)) {
    if (ec) break;
    if (it->is_regular_file(ec) && it->path().filename() == "config.json") found.push_back(it->path().string());
  }
  if (found.empty()) throw InputError(path, "directory has no config.json (searched recursively)");
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace ropelens
