// systemd service units and env files: the sections and assignments check reads to find a launch and its
// environment (include/ropelens/input/launch_units.hpp).
#include "ropelens/input/launch_units.hpp"

#include <cctype>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "ropelens/input/input.hpp"

namespace ropelens {
namespace {

std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return "";
  const auto last = text.find_last_not_of(" \t\r");
  return std::string(text.substr(first, last - first + 1));
}

bool valid_name(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front())) != 0) return false;
  for (const char c : name)
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') return false;
  return true;
}

// Words of an Environment= value as systemd splits them: whitespace-separated, "…" and '…' kept together.
std::vector<std::string> unit_words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < text.size()) word += text[++i];
      else word += c;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

void assign(Environment& environment, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || !valid_name(assignment.substr(0, eq))) return;  // systemd ignores it with a warning
  environment.emplace_back(assignment.substr(0, eq), assignment.substr(eq + 1));
}

// The unit's logical lines (a line ending in a backslash continues on the next, the two joined by a space), each
// with the line it starts on; comments (# or ; first) dropped.
std::vector<std::pair<int, std::string>> logical_lines(std::string_view text) {
  std::vector<std::pair<int, std::string>> lines;
  std::string pending;
  int start = 0;
  int number = 0;
  std::size_t at = 0;
  while (at <= text.size()) {
    const auto end = std::min(text.find('\n', at), text.size());
    std::string line = trimmed(text.substr(at, end - at));
    at = end + 1;
    ++number;
    if (pending.empty() && (line.empty() || line[0] == '#' || line[0] == ';')) continue;
    if (pending.empty()) start = number;
    const bool continues = !line.empty() && line.back() == '\\';
    if (continues) line.pop_back();
    pending += (pending.empty() ? "" : " ") + trimmed(line);
    if (!continues) {
      lines.emplace_back(start, std::move(pending));
      pending.clear();
    }
  }
  if (!pending.empty()) lines.emplace_back(start, std::move(pending));
  return lines;
}

std::string without_exec_prefixes(std::string command) {
  std::size_t skip = 0;
  while (skip < command.size() && std::string_view("@-:+!").find(command[skip]) != std::string_view::npos) ++skip;
  return trimmed(std::string_view(command).substr(skip));
}

// An EnvironmentFile= path as written, else the file of that name beside the unit.
std::optional<std::string> env_file_text(const std::string& unit_path, const std::string& file, std::string& why) {
  namespace fs = std::filesystem;
  std::vector<std::string> candidates{file};
  const fs::path beside = fs::path(unit_path).parent_path() / fs::path(file).filename();
  if (beside.string() != file) candidates.push_back(beside.string());
  for (const std::string& candidate : candidates) {
    std::error_code error;
    if (!fs::is_regular_file(candidate, error)) continue;
    try {
      return read_input_file(candidate).text;
    } catch (const InputError& e) {
      why = e.what();
      return std::nullopt;
    }
  }
  why = fmt::format("{} is not on this machine{}", file,
                    candidates.size() > 1 ? fmt::format(", nor beside the unit ({})", candidates[1]) : "");
  return std::nullopt;
}

}  // namespace

bool is_service_unit(const std::string& path) {
  const std::filesystem::path p(path);
  const std::string name = p.filename().string();
  const std::string folder = p.parent_path().filename().string();
  return name.ends_with(".service") || (name.ends_with(".conf") && folder.ends_with(".service.d"));
}

bool is_env_file(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  return name == ".env" || name.ends_with(".env") || name.starts_with(".env.") || name == "env-file" ||
         name.ends_with(".env-file") || name == "environment";  // /etc/environment
}

ServiceUnit read_service_unit(const std::string& path, std::string_view text) {
  if (text.size() > kMaxUnitBytes)
    throw std::invalid_argument(
        fmt::format("larger than a unit can be ({} bytes, the limit is {})", text.size(), kMaxUnitBytes));
  ServiceUnit unit;
  // Lines quoted without their section (`Environment=…` alone, as issue threads show a drop-in) are [Service]'s.
  bool in_service = text.find("\n[") == std::string_view::npos && !text.starts_with("[");
  bool seen_service = in_service;
  for (const auto& [number, line] : logical_lines(text)) {
    if (line.front() == '[') {
      in_service = line == "[Service]";
      seen_service = seen_service || in_service;
      continue;
    }
    if (!in_service) continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = trimmed(std::string_view(line).substr(0, eq));
    const std::string value = trimmed(std::string_view(line).substr(eq + 1));
    if (key == "ExecStart") {
      if (value.empty()) unit.exec_start.reset();  // a drop-in's empty ExecStart= clears the unit's
      else {
        unit.exec_start = without_exec_prefixes(value);
        unit.exec_line = number;
      }
    } else if (key == "Environment") {
      for (const std::string& word : unit_words(value)) assign(unit.environment, word);
    } else if (key == "EnvironmentFile" && !value.empty()) {
      const bool optional = value.front() == '-';
      const std::string file = trimmed(std::string_view(value).substr(optional ? 1 : 0));
      std::string why;
      if (const auto env_text = env_file_text(path, file, why)) {
        try {
          for (auto& assignment : read_env_file(*env_text)) unit.environment.push_back(std::move(assignment));
        } catch (const std::invalid_argument& e) {
          unit.notes.push_back(
              fmt::format("line {}: EnvironmentFile={}: {}; its variables are not read", number, file, e.what()));
        }
      } else if (!optional) {
        unit.notes.push_back(
            fmt::format("line {}: EnvironmentFile={}: {}; its variables are not read", number, file, why));
      }
    }
  }
  if (!seen_service) throw std::invalid_argument("no [Service] section (expected a systemd service unit or drop-in)");
  return unit;
}

Environment read_env_file(std::string_view text) {
  if (text.size() > kMaxUnitBytes)
    throw std::invalid_argument(
        fmt::format("larger than an env file can be ({} bytes, the limit is {})", text.size(), kMaxUnitBytes));
  Environment environment;
  int number = 0;
  std::size_t at = 0;
  while (at <= text.size()) {
    const auto end = std::min(text.find('\n', at), text.size());
    std::string line = trimmed(text.substr(at, end - at));
    at = end + 1;
    ++number;
    if (line.empty() || line[0] == '#') continue;
    if (line.starts_with("export ")) line = trimmed(std::string_view(line).substr(7));
    const auto eq = line.find('=');
    if (eq == std::string::npos || !valid_name(trimmed(std::string_view(line).substr(0, eq))))
      throw std::invalid_argument(fmt::format("line {}: expected NAME=value", number));
    std::string value = trimmed(std::string_view(line).substr(eq + 1));
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
      value = value.substr(1, value.size() - 2);
    else if (const auto comment = value.find(" #"); comment != std::string::npos)
      value = trimmed(std::string_view(value).substr(0, comment));
    environment.emplace_back(trimmed(std::string_view(line).substr(0, eq)), std::move(value));
  }
  return environment;
}

}  // namespace ropelens
