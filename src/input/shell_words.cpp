// Shell word splitting (POSIX "Token Recognition" and "Quote Removal"), enough for launch scripts: nothing is run,
// no command substitution or globbing happens, and an expansion of a variable the script does not assign stays
// as written.
#include "ropelens/input/shell_words.hpp"

#include <cctype>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

namespace ropelens {
namespace shell_words_detail {

bool name_char(char c, bool first) {
  return c == '_' || std::isalpha(static_cast<unsigned char>(c)) ||
         (!first && std::isdigit(static_cast<unsigned char>(c)));
}

// "NAME=value" with a valid NAME: the position of '='.
std::optional<std::size_t> assignment(const std::string& word) {
  const auto eq = word.find('=');
  if (eq == std::string::npos || eq == 0) return std::nullopt;
  for (std::size_t i = 0; i < eq; ++i)
    if (!name_char(word[i], i == 0)) return std::nullopt;
  return eq;
}

class Splitter {
 public:
  explicit Splitter(std::string_view text) : text_(text) {}

  std::vector<ShellCommand> run() {
    while (at_ < text_.size()) step();
    end_word();
    end_command();
    return std::move(commands_);
  }

 private:
  void step() {
    const char c = text_[at_];
    if (c == '\n') {
      end_word();
      end_command();
      ++line_;
      ++at_;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      end_word();
      ++at_;
    } else if (c == '#' && !in_word_) {
      while (at_ < text_.size() && text_[at_] != '\n') ++at_;
    } else if (c == ';' || c == '&' || c == '|') {
      end_word();
      end_command();
      while (at_ < text_.size() && (text_[at_] == c)) ++at_;
    } else if (c == '\\') {
      if (at_ + 1 < text_.size() && text_[at_ + 1] == '\n') {  // a line continuation
        at_ += 2;
        ++line_;
        return;
      }
      if (at_ + 1 < text_.size()) word_ += text_[at_ + 1];
      begin_word();
      at_ += 2;
    } else if (c == '\'') {
      begin_word();
      const auto close = text_.find('\'', at_ + 1);
      if (close == std::string_view::npos)
        throw std::invalid_argument(fmt::format("line {}: unterminated ' quote", line_));
      const std::string_view quoted = text_.substr(at_ + 1, close - at_ - 1);
      for (const char q : quoted) line_ += q == '\n' ? 1 : 0;
      word_ += quoted;
      at_ = close + 1;
    } else if (c == '"') {
      begin_word();
      double_quoted();
    } else if (c == '$') {
      begin_word();
      expansion();
    } else {
      begin_word();
      word_ += c;
      ++at_;
    }
  }

  void double_quoted() {
    const int opened = line_;
    ++at_;
    while (at_ < text_.size() && text_[at_] != '"') {
      const char c = text_[at_];
      if (c == '\\' && at_ + 1 < text_.size()) {
        const char next = text_[at_ + 1];
        if (next == '\n') ++line_;
        else if (next == '$' || next == '`' || next == '"' || next == '\\') word_ += next;
        else word_ += {c, next};
        at_ += 2;
      } else if (c == '$') {
        expansion();
      } else {
        line_ += c == '\n' ? 1 : 0;
        word_ += c;
        ++at_;
      }
    }
    if (at_ >= text_.size()) throw std::invalid_argument(fmt::format("line {}: unterminated \" quote", opened));
    ++at_;
  }

  // $NAME or ${NAME}: the value when the script set it, else the text as written.
  void expansion() {
    const std::size_t start = at_;
    std::size_t name_start = at_ + 1;
    const bool braced = name_start < text_.size() && text_[name_start] == '{';
    if (braced) ++name_start;
    std::size_t end = name_start;
    while (end < text_.size() && name_char(text_[end], end == name_start)) ++end;
    if (end == name_start || (braced && (end >= text_.size() || text_[end] != '}'))) {
      word_ += '$';
      ++at_;
      return;
    }
    const std::string name(text_.substr(name_start, end - name_start));
    at_ = braced ? end + 1 : end;
    if (auto it = variables_.find(name); it != variables_.end()) word_ += it->second;
    else word_ += text_.substr(start, at_ - start);
  }

  void begin_word() {
    if (!in_word_) word_line_ = line_;
    in_word_ = true;
  }

  void end_word() {
    if (!in_word_) return;
    const bool first = current_.words.empty() && current_.pending.empty() && !current_.exporting;
    if (first) current_.line = word_line_;
    if (!current_.words.empty()) {
      current_.words.push_back(word_);
    } else if (first && word_ == "export") {
      current_.exporting = true;
    } else if (auto eq = assignment(word_)) {
      std::string name = word_.substr(0, *eq);
      std::string value = word_.substr(*eq + 1);
      if (current_.exporting) exported_[name] = variables_[name] = value;
      else current_.pending[std::move(name)] = std::move(value);
    } else {
      current_.words.push_back(word_);
    }
    word_.clear();
    in_word_ = false;
  }

  void end_command() {
    if (current_.words.empty()) {
      // Only assignments: shell variables for what follows (exported when `export` named them).
      for (const auto& [name, value] : current_.pending) variables_[name] = value;
    } else if (current_.exporting) {
      for (const auto& word : current_.words)  // `export NAME` of a variable set before
        if (auto it = variables_.find(word); it != variables_.end()) exported_[word] = it->second;
    } else {
      ShellCommand command;
      command.line = current_.line;
      command.env = exported_;
      for (const auto& [name, value] : current_.pending) command.env[name] = value;
      command.words = std::move(current_.words);
      commands_.push_back(std::move(command));
    }
    current_ = Pending{};
  }

  // The command being read.
  struct Pending {
    int line = 1;
    std::map<std::string, std::string> pending;  // VAR=value before the command word
    std::vector<std::string> words;
    bool exporting = false;
  };

  std::string_view text_;
  std::size_t at_ = 0;
  int line_ = 1;
  std::string word_;
  bool in_word_ = false;
  int word_line_ = 1;
  Pending current_;
  std::map<std::string, std::string> variables_;
  std::map<std::string, std::string> exported_;
  std::vector<ShellCommand> commands_;
};

}  // namespace shell_words_detail

std::vector<ShellCommand> split_shell_commands(std::string_view script) {
  return shell_words_detail::Splitter(script).run();
}

}  // namespace ropelens
