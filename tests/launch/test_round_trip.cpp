// The round trip (issue 36): every engine command a verified `suggest` suggestion prints is one `check --serve`
// accepts with no finding, for every config under testdata/configs and for a Qwen3 GGUF file. Commands for a
// config name the model MODEL (a file not called config.json has no name an engine loads), so --model supplies it.
// The llama.cpp line of a config's suggestion is for the GGUF file converted from the edited config, which no
// test holds; the GGUF file's own suggestion covers llama.cpp.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using ropelens::test::run_cli;
using ropelens::test::source_path;

namespace {

const std::string kStack = "--stack vllm@main,sglang@main,llama.cpp@main";
const std::string kTarget = "131072";

struct Printed {
  std::string model;  // the config or GGUF file
  std::string engine;
  std::string command;
};

std::vector<Printed> printed_commands(const std::string& model, bool gguf) {
  const auto run = run_cli("suggest " + model + " --target " + kTarget + " " + kStack + " --format json");
  std::vector<Printed> out;
  if (run.exit_code > 1 || run.out.empty()) return out;
  const json document = json::parse(run.out);
  for (const auto& suggestion : document["suggestions"]) {
    if (!suggestion["verified"].get<bool>()) continue;
    for (const auto& snippet : suggestion["snippets"]) {
      const std::string engine = snippet["engine"];
      if ((engine == "llama.cpp") != gguf) continue;
      out.push_back({model, engine, snippet["command"]});
    }
  }
  return out;
}

std::vector<std::string> codes_of(const std::string& out) {
  std::vector<std::string> codes;
  if (out.empty()) return codes;
  const json document = json::parse(out);
  for (const auto& file : document["files"])
    for (const auto& d : file["diagnostics"]) codes.push_back(d["code"]);
  return codes;
}

}  // namespace

TEST_CASE("every engine command a verified suggestion prints passes check --serve", "[launch][suggest]") {
  std::vector<Printed> printed;
  for (const auto& entry : fs::recursive_directory_iterator(source_path("testdata/configs"))) {
    if (entry.path().extension() != ".json") continue;
    for (auto& command : printed_commands(entry.path().string(), false)) printed.push_back(std::move(command));
  }
  for (auto& command : printed_commands(source_path("testdata/launch/qwen3-8b.gguf"), true))
    printed.push_back(std::move(command));
  REQUIRE(printed.size() >= 90);  // 94 commands: vLLM and SGLang for 46 configs, llama.cpp for the GGUF file
  int llama_cpp = 0;
  for (const Printed& p : printed) {
    llama_cpp += p.engine == "llama.cpp" ? 1 : 0;
    const auto run = run_cli(
        "check --serve - --model " + p.model + " --target " + kTarget + " " + kStack + " --format json", p.command);
    INFO(p.model << " (" << p.engine << "): " << p.command << "\n" << run.err);
    // As a correct recipe: nothing beyond ROPE103, static scaling's documented trade-off, which a launch that turns
    // static YaRN on a model without it always carries (its exit is then 1 at --fail-on warning).
    const std::vector<std::string> codes = codes_of(run.out);
    CHECK((codes.empty() || codes == std::vector<std::string>{"ROPE103"}));
    CHECK(run.exit_code == (codes.empty() ? 0 : 1));
  }
  CHECK(llama_cpp >= 1);
}
