// Bytes in, a JSON document out. Size and nesting limits are enforced here; nothing downstream sees a file.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ropelens {

// A file that cannot be read as a config. The message is one line and names the file.
class InputError : public std::runtime_error {
 public:
  InputError(const std::string& file, const std::string& what)
      : std::runtime_error(file + ": " + what), file_(file) {}
  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

constexpr std::size_t kMaxConfigBytes = 16u << 20;  // 16 MiB: real configs are a few KiB
constexpr int kMaxJsonDepth = 64;  // deeper values are cut and reported, never recursed into

struct Document {
  std::string path;  // as shown to users ("-" reads stdin and shows "<stdin>")
  std::string text;
  nlohmann::json root;
  std::vector<std::string> cut_pointers;  // values nested deeper than kMaxJsonDepth, replaced by a marker
};

// Reads a config.json, a model folder containing one, or "-" for stdin.
Document read_config(const std::string& path);

// A file opened once: its bytes, or only its name when it is a GGUF file too large to hold (the GGUF
// reader then reads its header alone). A directory stands for the config.json inside it.
struct InputFile {
  std::string shown;  // the file read, as shown to users
  bool gguf = false;  // starts with the GGUF magic
  std::string text;   // empty for a GGUF file larger than kMaxConfigBytes
};
InputFile read_input_file(const std::string& path);
// Standard input, read to its end (at most kMaxConfigBytes): a config.json or a whole GGUF header.
InputFile read_stdin();

// Parses text already in memory (used by read_config, tests and the fuzzer).
Document parse_config(std::string display_path, std::string text);

// An entry a directory scan passed over, and why (for the -v log).
struct SkippedPath {
  enum class Why { unreadable_directory, directory_link, not_a_regular_file, other_name };
  std::string path;
  Why why = Why::other_name;
  std::string detail;  // the system's error for an unreadable directory
};
std::string describe(const SkippedPath& skipped);

// The path itself when it is a file or "-"; for a model folder its config.json; otherwise every config.json
// and *.gguf file below the directory, sorted. `skipped`, when given, receives every entry the scan passed over.
std::vector<std::string> expand_paths(const std::string& path, std::vector<SkippedPath>* skipped = nullptr);

// Line and column (1-based) of the value a JSON pointer names, found by scanning the text.
struct TextPosition {
  int line = 1;
  int column = 1;
};
bool locate_pointer(const std::string& text, const std::string& pointer, TextPosition& out);

}  // namespace ropelens
