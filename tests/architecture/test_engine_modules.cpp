// Each inference engine is one module: its folder src/engines/<engine>/ holds all it knows, and nothing outside
// src/engines/ and include/ropelens/engines/ names a particular engine or engine version (the rest of the code holds
// an Engine or EngineVersion as a value and asks the registry, engines/registry.hpp).
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "ropelens/engines/registry.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using ropelens::test::read_file;
using ropelens::test::source_path;

namespace {

bool inside_engines(const std::string& file) {
  return file.rfind("src/engines/", 0) == 0 || file.rfind("include/ropelens/engines/", 0) == 0;
}

std::vector<std::string> code_files() {
  std::vector<std::string> files;
  for (const char* top : {"src", "rules", "include"})
    for (const auto& entry : fs::recursive_directory_iterator(source_path(top))) {
      const auto ext = entry.path().extension();
      if (entry.is_regular_file() && (ext == ".cpp" || ext == ".hpp"))
        files.push_back(fs::relative(entry.path(), source_path("")).generic_string());
    }
  return files;
}

// "llama.cpp" lives in src/engines/llama_cpp/.
std::string folder_of(std::string_view name) {
  std::string folder(name);
  for (char& c : folder)
    if (c == '.' || c == '-') c = '_';
  return folder;
}

}  // namespace

TEST_CASE("no file outside the engine modules names an engine or engine-version enumerator") {
  static const std::regex enumerator(R"(\bEngine(Version)?\s*::\s*[a-z_0-9]+|using\s+enum\s+Engine)");
  std::size_t checked = 0;
  for (const auto& file : code_files()) {
    if (inside_engines(file)) continue;
    ++checked;
    const std::string text = read_file(source_path(file));
    std::smatch found;
    const bool names = std::regex_search(text, found, enumerator);
    INFO(file << (names ? " names " + found.str() : std::string()));
    CHECK_FALSE(names);
  }
  CHECK(checked > 200);  // src/, rules/ and include/ were walked
}

TEST_CASE("the test above finds an enumerator where one is named") {
  static const std::regex enumerator(R"(\bEngine(Version)?\s*::\s*[a-z_0-9]+|using\s+enum\s+Engine)");
  CHECK(std::regex_search(std::string("if (e == Engine::vllm)"), enumerator));
  CHECK(std::regex_search(std::string("v == EngineVersion::transformers_v5"), enumerator));
  CHECK_FALSE(std::regex_search(std::string("Engine engine{}; EngineRow row;"), enumerator));
}

TEST_CASE("every registry row has its folder with the engine's view, KV cache, serve flags and versions") {
  for (const ropelens::EngineRow* row : ropelens::engine_registry()) {
    const std::string folder = "src/engines/" + folder_of(row->name) + "/";
    INFO(folder);
    for (const char* part : {"rope_view.cpp", "kv_cache.cpp", "serve.cpp", "versions.cpp"})
      CHECK(fs::exists(source_path(folder + part)));
  }
  CHECK_FALSE(fs::exists(source_path("src/rope/engines")));
  CHECK_FALSE(fs::exists(source_path("include/ropelens/rope/engines")));
}
