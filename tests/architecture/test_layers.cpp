// The layers read top to bottom: no file includes a header of a layer above its own (docs/ARCHITECTURE.md).
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support.hpp"

namespace fs = std::filesystem;
using ropelens::test::read_file;
using ropelens::test::source_path;

namespace {

// Bottom first. A layer may use the layers listed before it, never one after it.
const std::vector<std::string> kLayers = {"log",    "model", "input", "normalize", "load", "math",   "engines", "audit",
                                          "report", "rules", "check", "suggest",   "diff", "render", "cli"};

const std::map<std::string, std::string> kHeaderLayer = {
    {"log.hpp", "log"},
    {"model.hpp", "model"},
    {"config_issues.hpp", "model"},
    {"diagnostic.hpp", "model"},
    {"text.hpp", "model"},
    {"units.hpp", "model"},
    {"note.hpp", "model"},
    {"input.hpp", "input"},
    {"gguf.hpp", "input"},
    {"model_locator.hpp", "input"},
    {"git.hpp", "input"},
    {"normalize.hpp", "normalize"},
    {"model_loader.hpp", "load"},
    {"rope.hpp", "math"},
    {"schemes.hpp", "math"},
    {"analysis.hpp", "math"},
    {"kv_cache.hpp", "math"},
    {"engine_views.hpp", "engines"},
    {"engine_comparison.hpp", "engines"},
    {"engine_report.hpp", "engines"},
    {"method_override.hpp", "engines"},
    {"audit.hpp", "audit"},
    {"table_report.hpp", "report"},
    {"scheme_report.hpp", "report"},
    {"inspect_report.hpp", "report"},
    {"rule.hpp", "rules"},
    {"rule_docs.hpp", "rules"},
    {"check.hpp", "check"},
    {"model_log.hpp", "check"},
    {"project_settings.hpp", "check"},
    {"report_data.hpp", "check"},
    {"baseline.hpp", "check"},
    {"suggest.hpp", "suggest"},
    {"diff.hpp", "diff"},
    {"render.hpp", "render"},
};

// Source folders, longest prefix first where they nest.
const std::vector<std::pair<std::string, std::string>> kFolderLayer = {
    {"src/log/", "log"},         {"src/model/", "model"},
    {"src/input/", "input"},     {"src/normalize/", "normalize"},
    {"src/load/", "load"},       {"src/rope/engines/", "engines"},
    {"src/rope/", "math"},       {"src/schemes/", "math"},
    {"src/analysis/", "math"},   {"src/memory/", "math"},
    {"src/audit/", "audit"},     {"src/report/", "report"},
    {"rules/", "rules"},         {"src/check/", "check"},
    {"src/suggest/", "suggest"}, {"src/diff/", "diff"},
    {"src/render/", "render"},   {"src/cli/", "cli"},
};

int rank(const std::string& layer) {
  for (std::size_t i = 0; i < kLayers.size(); ++i)
    if (kLayers[i] == layer) return static_cast<int>(i);
  FAIL("unknown layer " << layer);
  return -1;
}

std::string layer_of_file(const std::string& relative) {
  if (relative.rfind("include/ropelens/", 0) == 0) {
    auto it = kHeaderLayer.find(fs::path(relative).filename().string());
    return it == kHeaderLayer.end() ? "" : it->second;
  }
  for (const auto& [folder, layer] : kFolderLayer)
    if (relative.rfind(folder, 0) == 0) return layer;
  return "";
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
  static const std::regex include(R"re(#include "ropelens/([a-z_]+\.hpp)")re");
  std::vector<std::string> found;
  for (std::sregex_iterator it(text.begin(), text.end(), include), end; it != end; ++it) found.push_back((*it)[1]);
  return found;
}

}  // namespace

TEST_CASE("every public header belongs to a layer") {
  for (const auto& entry : fs::directory_iterator(source_path("include/ropelens"))) {
    INFO(entry.path().filename().string());
    CHECK(kHeaderLayer.count(entry.path().filename().string()) == 1);
  }
}

TEST_CASE("no file includes a header from a layer above its own") {
  for (const auto& file : sources()) {
    if (file == "src/main.cpp") continue;
    const std::string layer = layer_of_file(file);
    INFO(file);
    REQUIRE_FALSE(layer.empty());
    for (const auto& header : public_includes(read_file(source_path(file)))) {
      INFO("includes ropelens/" << header);
      REQUIRE(kHeaderLayer.count(header) == 1);
      CHECK(rank(kHeaderLayer.at(header)) <= rank(layer));
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
      CHECK(text.find("ropelens/log.hpp") == std::string::npos);
    if (file.rfind("src/log/", 0) != 0) CHECK(text.find("spdlog/") == std::string::npos);
  }
}
