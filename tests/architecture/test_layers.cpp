// The layers read top to bottom: no file includes a header of a layer below its own in the table of
// docs/ARCHITECTURE.md, which is the one place the layers and their folders are written down.
#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support.hpp"

namespace fs = std::filesystem;
using ropelens::test::read_file;
using ropelens::test::source_path;

namespace {

struct Layer {
  std::string name;
  std::vector<std::string> folders;  // as written in the table: "engines/vllm" stands for src/engines/vllm/ and
                                     // include/ropelens/engines/vllm/
};

// The rows of the "## Layers" table, in order: `| layer | `folder`, `folder` | job |`.
std::vector<Layer> documented_layers() {
  std::istringstream doc(read_file(source_path("docs/ARCHITECTURE.md")));
  static const std::regex row(R"(^\| ([a-z]+) \| ((?:`[a-z_0-9/]+`(?:, )?)+) \|)");
  static const std::regex folder("`([a-z_0-9/]+)`");
  std::vector<Layer> layers;
  bool in_section = false;
  for (std::string line; std::getline(doc, line);) {
    if (line.rfind("## ", 0) == 0) in_section = line == "## Layers";
    std::smatch m;
    if (!in_section || !std::regex_search(line, m, row)) continue;
    Layer layer{m[1], {}};
    const std::string folders = m[2];
    for (std::sregex_iterator it(folders.begin(), folders.end(), folder), end; it != end; ++it)
      layer.folders.push_back((*it)[1]);
    layers.push_back(layer);
  }
  return layers;
}

const std::vector<Layer>& layers() {
  static const std::vector<Layer> table = documented_layers();
  return table;
}

std::string source_root(const std::string& folder) { return folder == "rules" ? "rules/" : "src/" + folder + "/"; }
std::string header_root(const std::string& folder) { return "include/ropelens/" + folder + "/"; }

// The rank of the layer whose folder is the longest prefix of `relative`, or -1.
int rank_of(const std::string& relative) {
  int best = -1;
  std::size_t best_length = 0;
  for (std::size_t i = 0; i < layers().size(); ++i)
    for (const auto& folder : layers()[i].folders)
      for (const auto& root : {source_root(folder), header_root(folder)})
        if (relative.rfind(root, 0) == 0 && root.size() > best_length) {
          best = static_cast<int>(i);
          best_length = root.size();
        }
  return best;
}

std::vector<std::string> sources() {
  std::vector<std::string> files;
  for (const char* top : {"src", "rules", "include/ropelens"})
    for (const auto& entry : fs::recursive_directory_iterator(source_path(top))) {
      const auto ext = entry.path().extension();
      if (entry.is_regular_file() && (ext == ".cpp" || ext == ".hpp"))
        files.push_back(fs::relative(entry.path(), source_path("")).generic_string());
    }
  return files;
}

std::vector<std::string> public_includes(const std::string& text) {
  static const std::regex include(R"re(#include "(ropelens/[a-z_/]+\.hpp)")re");
  std::vector<std::string> found;
  for (std::sregex_iterator it(text.begin(), text.end(), include), end; it != end; ++it)
    found.push_back("include/" + (*it)[1].str());
  return found;
}

}  // namespace

TEST_CASE("docs/ARCHITECTURE.md lists the layers, bottom first") {
  std::vector<std::string> names;
  for (const auto& layer : layers()) names.push_back(layer.name);
  CHECK(names == std::vector<std::string>{"log", "model", "input", "normalize", "load", "math", "engines", "audit",
                                          "report", "rules", "check", "suggest", "diff", "render", "documents", "cli"});
}

TEST_CASE("every folder in the layer table exists, and every folder of the tree is in it") {
  std::set<std::string> documented;
  for (const auto& layer : layers())
    for (const auto& folder : layer.folders) {
      INFO(layer.name << ": " << folder);
      CHECK(fs::is_directory(source_path(source_root(folder))));
      documented.insert(source_root(folder));
      documented.insert(header_root(folder));
    }
  for (const char* top : {"src", "include/ropelens"})
    for (const auto& entry : fs::recursive_directory_iterator(source_path(top))) {
      if (!entry.is_directory()) continue;
      const std::string folder = fs::relative(entry.path(), source_path("")).generic_string() + "/";
      INFO(folder << " is not in the layer table of docs/ARCHITECTURE.md");
      CHECK(documented.count(folder) == 1);
    }
}

TEST_CASE("every public header sits in its layer's folder") {
  for (const auto& entry : fs::directory_iterator(source_path("include/ropelens"))) {
    INFO(entry.path().filename().string());
    CHECK(entry.is_directory());
  }
  for (const auto& file : sources()) {
    INFO(file);
    if (file.rfind("include/", 0) == 0) CHECK(rank_of(file) >= 0);
  }
}

TEST_CASE("no file includes a header from a layer below its own in the table") {
  for (const auto& file : sources()) {
    if (file == "src/main.cpp") continue;
    const int rank = rank_of(file);
    INFO(file);
    REQUIRE(rank >= 0);
    for (const auto& header : public_includes(read_file(source_path(file)))) {
      INFO("includes " << header);
      REQUIRE(fs::exists(source_path(header)));
      const int header_rank = rank_of(header);
      REQUIRE(header_rank >= 0);
      CHECK(header_rank <= rank);
    }
  }
}

TEST_CASE("only the command line knows CLI11") {
  for (const auto& file : sources()) {
    if (file.rfind("src/cli/", 0) == 0) continue;
    INFO(file);
    CHECK(read_file(source_path(file)).find("CLI/") == std::string::npos);
  }
}

TEST_CASE("rules and renderers never log, only src/log knows spdlog") {
  for (const auto& file : sources()) {
    INFO(file);
    const std::string text = read_file(source_path(file));
    if (file.rfind("rules/", 0) == 0 || file.rfind("src/render/", 0) == 0)
      CHECK(text.find("ropelens/log/log.hpp") == std::string::npos);
    if (file.rfind("src/log/", 0) != 0) CHECK(text.find("spdlog/") == std::string::npos);
  }
}
