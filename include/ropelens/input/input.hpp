// Bytes in, a JSON document out. Size and nesting limits are enforced here; nothing downstream sees a file.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ropelens {

// A file that cannot be read as a config. The message is one line and names the file.
class InputError : public std::runtime_error {
 public:
  InputError(const std::string& file, const std::string& what) : std::runtime_error(file + ": " + what), file_(file) {}
  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

constexpr std::size_t kMaxConfigBytes = 16u << 20;  // 16 MiB: real configs are a few KiB
constexpr int kMaxJsonDepth = 64;                   // deeper values are cut and reported, never recursed into

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
// The same for a file a directory scan found: `shown` is already the path as shown (find_model_files), so the
// working directory is not looked up again for each of thousands of files.
InputFile read_found_file(const std::string& shown);
// The same for a file held in memory (file_bytes.hpp): a config.json must be there whole (BytesNotRead asks for the
// rest); a GGUF file's text is left empty, its header being read from the parts.
struct FileBytes;
InputFile read_input_bytes(const FileBytes& file);
// Standard input, read to its end (at most kMaxConfigBytes): a config.json or a whole GGUF header.
InputFile read_stdin();

// Parses text already in memory (used by read_config, tests and the fuzzer).
Document parse_config(std::string display_path, std::string text);

// A path as outputs show it: relative to the working directory when it lies under it ("./a/../b" → "b"),
// otherwise as given. "-" stays "-".
std::string shown_path(const std::string& path);

// A glob a directory scan passes over. Without a slash it matches any one folder or file name below the
// scanned folder ("node_modules", ".*", "*.bak.gguf"); with one, the path relative to `base` ("models/old",
// "**/drafts/*.gguf"). `*` and `?` stay within a name, `**` spans folders, `[…]` is a class.
struct ExcludePattern {
  std::string glob;
  std::string base;  // absolute folder a pattern with a slash is relative to (the working directory, or the
                     // folder holding .ropelens.json)
};
// Hidden folders, node_modules, virtual environments, caches and build folders: what ruff excludes by default.
const std::vector<std::string>& default_exclude_globs();
std::vector<ExcludePattern> exclude_patterns(const std::vector<std::string>& globs, const std::string& base);
bool glob_match(std::string_view glob, std::string_view path);

// What a directory scan leaves out. Paths named on the command line are never left out.
struct ScanFilter {
  std::vector<ExcludePattern> excludes = exclude_patterns(default_exclude_globs(), "");
  bool respect_gitignore = true;  // inside a git work tree, list files with git (see find_model_files)
  bool record_skipped = false;    // fill FoundFiles::skipped (for the -v log)
  unsigned threads = 0;           // at most this many threads list folders (0: available_cores())
};

// An entry a directory walk passed over, and why (for the -v log).
struct SkippedPath {
  enum class Why { unreadable_directory, directory_link, not_a_regular_file, other_name, excluded };
  std::string path;
  Why why = Why::other_name;
  std::string detail;  // the system's error for an unreadable directory
};
std::string describe(const SkippedPath& skipped);

struct FoundFiles {
  std::vector<std::string> files;    // shown paths (shown_path), sorted
  bool named = false;                // the path named a file or a model folder, not a folder to search
  std::vector<std::string> notes;    // e.g. why .gitignore could not be honoured
  std::vector<SkippedPath> skipped;  // with ScanFilter::record_skipped, what the walk passed over
  // When a walk listed every folder it found files in: those folders (as the files' paths spell them, ending in
  // '/', or "" for the working directory) that hold a model.safetensors.index.json or a model.safetensors, sorted
  // (a folder holding both appears twice). None when the files came from git or were named, and then a loader has
  // to look for the weights itself.
  std::optional<std::vector<std::string>> folders_with_weights_index;
};
// Whether the listing says a found file has neither model.safetensors.index.json nor model.safetensors beside it.
bool listed_without_weights_index(const FoundFiles& found, const std::string& file);

// The path itself when it is a file or "-"; for a model folder its config.json; otherwise every config.json
// and *.gguf file below the directory that the filter leaves in. Inside a git work tree the candidates come
// from `git ls-files --cached --others --exclude-standard` (so .gitignore is honoured exactly as git does);
// elsewhere, or when git cannot run (a note says so), from a walk that does not follow directory links.
FoundFiles find_model_files(const std::string& path, const ScanFilter& filter = {});
// find_model_files(path).files; `skipped`, when given, receives every entry the walk passed over.
std::vector<std::string> expand_paths(const std::string& path, std::vector<SkippedPath>* skipped = nullptr);
// Whether a path named on the command line falls under an exclusion, judged as if the working directory
// were scanned (`--force-exclude`, for pre-commit, which names every changed file).
bool excluded_path(const std::string& path, const ScanFilter& filter);

// Line and column (1-based) of the value a JSON pointer names, found by scanning the text.
struct TextPosition {
  int line = 1;
  int column = 1;
};
bool locate_pointer(const std::string& text, const std::string& pointer, TextPosition& out);

}  // namespace ropelens
