// An Ollama Modelfile as the llama.cpp runner behind Ollama serves it (docs/engines.md, "Launch lines"): FROM names
// the model (a GGUF path relative to the Modelfile, or an Ollama model name), PARAMETER num_ctx the context every
// request gets (Ollama multiplies it by its parallel requests, so it is not split), else the server's
// OLLAMA_CONTEXT_LENGTH, else Ollama's default by the GPUs' memory (server/routes.go); a num_ctx above the file's
// n_ctx_train is lowered to it ("requested context size too large for model", llm/server.go). Lines are instruction and
// arguments; `#` starts a comment; a value may be quoted, and """ starts a block that ends at the next """.
#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "llama_cpp.hpp"
#include "ropelens/engines/launch.hpp"
#include "ropelens/model/text.hpp"
#include "ropelens/model/units.hpp"

namespace ropelens::engine_detail {
namespace ollama_launch {

// Ollama's num_ctx when neither the Modelfile nor OLLAMA_CONTEXT_LENGTH sets one: by the memory of every GPU summed
// (less OLLAMA_GPU_OVERHEAD each, 0 by default), with thresholds a GiB below 48 and 24 for rounding.
constexpr std::int64_t kGiB = std::int64_t{1} << 30;
const std::vector<MemoryTier> kOllamaDefaultContexts = {{47 * kGiB, 262144}, {23 * kGiB, 32768}, {0, 4096}};
constexpr const char* kOllamaDefaultSource = "Ollama's server/routes.go:2043-2058 at fb307609";

bool is_modelfile(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  return name == "Modelfile" || name.ends_with(".Modelfile") || name.starts_with("Modelfile.");
}

std::string unquoted(std::string value) {
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') return value.substr(1, value.size() - 2);
  return value;
}

std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return "";
  const auto last = text.find_last_not_of(" \t\r");
  return std::string(text.substr(first, last - first + 1));
}

// OLLAMA_CONTEXT_LENGTH as envconfig.Uint reads it (envconfig/config.go:259-271): decimal digits, else a warning in
// the server's log and the default; 0 is the default too.
void read_context_variable(Launch& launch, std::string_view value) {
  const bool digits = std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (digits && value.find_first_not_of('0') == std::string_view::npos) return;  // 0: Ollama's default
  std::string problem =
      "is not a whole number: Ollama logs \"invalid environment variable, using default\" and "
      "serves its default num_ctx instead";
  if (digits) {
    try {
      launch.asked_tokens = parse_token_count(value);
      launch.length_flag = "OLLAMA_CONTEXT_LENGTH";
      return;
    } catch (const std::invalid_argument& e) {
      problem = e.what();
    }
  }
  launch.problems.push_back({LaunchProblemKind::unknown_flag, "OLLAMA_CONTEXT_LENGTH",
                             fmt::format("OLLAMA_CONTEXT_LENGTH={} {}", terminal_safe(std::string(value)), problem),
                             "write the number of tokens in digits, e.g. OLLAMA_CONTEXT_LENGTH=32768"});
}

}  // namespace ollama_launch

using ollama_launch::is_modelfile;
using ollama_launch::read_context_variable;

std::optional<Launch> ollama_modelfile(const std::string& path, std::string_view text, EngineVersion version) {
  if (!is_modelfile(path)) return std::nullopt;
  Launch launch;
  launch.engine = Engine::llama_cpp;
  launch.version = version;
  launch.length_flag = "PARAMETER num_ctx";
  launch.capped_at_trained = true;
  int line = 0;
  bool in_block = false;
  std::size_t at = 0;
  while (at <= text.size()) {
    const auto end = std::min(text.find('\n', at), text.size());
    const std::string current = ollama_launch::trimmed(text.substr(at, end - at));
    at = end + 1;
    ++line;
    const auto quotes = [&] {
      int n = 0;
      for (auto p = current.find(R"(""")"); p != std::string::npos; p = current.find(R"(""")", p + 3)) ++n;
      return n;
    }();
    if (in_block) {
      if (quotes % 2 == 1) in_block = false;
      continue;
    }
    if (quotes % 2 == 1) in_block = true;
    if (current.empty() || current[0] == '#') continue;
    const auto space = current.find_first_of(" \t");
    std::string instruction = current.substr(0, space);
    for (char& c : instruction) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const std::string rest = space == std::string::npos ? "" : ollama_launch::trimmed(current.substr(space));
    if (instruction == "FROM") {
      launch.line = line;
      launch.command = current;
      std::string model = ollama_launch::unquoted(rest);
      const bool file_like = model.starts_with(".") || model.starts_with("/") || model.starts_with("~") ||
                             model.ends_with(".gguf") || model.ends_with(".GGUF");
      if (file_like && !model.starts_with("/")) {
        const auto folder = std::filesystem::path(path).parent_path();
        model = (folder.empty() ? std::filesystem::path(model) : folder / model).lexically_normal().string();
      } else if (!file_like) {
        model = "ollama:" + model;
      }
      launch.model = model;
    } else if (instruction == "PARAMETER") {
      const auto gap = rest.find_first_of(" \t");
      const std::string name = rest.substr(0, gap);
      const std::string value =
          gap == std::string::npos ? "" : ollama_launch::unquoted(ollama_launch::trimmed(rest.substr(gap)));
      if (name == "num_ctx") {
        try {
          launch.asked_tokens = parse_token_count(value);
        } catch (const std::invalid_argument& e) {
          launch.problems.push_back(
              {LaunchProblemKind::unknown_flag, "PARAMETER num_ctx",
               fmt::format("line {}: PARAMETER num_ctx {}: {} (expected a number of tokens)", line, value, e.what()),
               "give num_ctx a whole number of tokens, e.g. 131072"});
        }
      }
    }
  }
  if (!launch.asked_tokens)
    if (const char* env = std::getenv("OLLAMA_CONTEXT_LENGTH"); env && *env) read_context_variable(launch, env);
  if (!launch.asked_tokens) {
    launch.length_flag = "Ollama's default num_ctx";
    launch.default_by_memory = ollama_launch::kOllamaDefaultContexts;
    launch.default_by_memory_source = ollama_launch::kOllamaDefaultSource;
  }
  if (launch.command.empty()) launch.command = "(a Modelfile without FROM)";
  return launch;
}

}  // namespace ropelens::engine_detail
