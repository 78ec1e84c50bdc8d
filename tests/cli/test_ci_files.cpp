// The files that plug ropelens into CI parse, and every ropelens command they run exists with those flags.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support.hpp"

using nlohmann::json;
using ropelens::test::run_cli;
using ropelens::test::run_program;
using ropelens::test::source_path;

TEST_CASE(".pre-commit-hooks.yaml and the YAML in docs/ci.md parse and run commands that exist", "[cli][ci]") {
  auto parsed = run_program({ROPELENS_TEST_PYTHON, source_path("tests/scripts/ci_commands.py"), source_path("")});
  INFO(parsed.err);
  REQUIRE(parsed.exit_code == 0);
  const json commands = json::parse(parsed.out);
  bool diff_sarif = false, hook = false;
  for (const auto& command : commands) {
    INFO(command["where"] << ": ropelens " << command["command"]);
    auto help = run_cli(command["command"].get<std::string>() + " --help");
    REQUIRE(help.exit_code == 0);
    for (const auto& flag : command["flags"]) {
      INFO(flag);
      CHECK(help.out.find(" " + flag.get<std::string>() + " ") != std::string::npos);
    }
    for (const auto& format : command["formats"]) {
      INFO("--format " << format);
      CHECK(help.out.find(format.get<std::string>()) != std::string::npos);
    }
    const auto flags = command["flags"].get<std::vector<std::string>>();
    diff_sarif = diff_sarif || (command["command"] == "diff" && command["formats"] == json::array({"sarif"}) &&
                                std::find(flags.begin(), flags.end(), "--git") != flags.end());
    hook = hook || command["where"] == ".pre-commit-hooks.yaml ropelens-check";
  }
  CHECK(diff_sarif);  // the GitHub workflow runs `ropelens diff --git … --format sarif`
  CHECK(hook);
}

TEST_CASE("the pre-commit hook matches config.json and GGUF files", "[cli][ci]") {
  auto r = run_program({ROPELENS_TEST_PYTHON, "-c",
                        "import re, sys, yaml\n"
                        "hook = yaml.safe_load(open(sys.argv[1]))[0]\n"
                        "assert hook['id'] == 'ropelens-check', hook\n"
                        "pattern = re.compile(hook['files'])\n"
                        "for path in ['config.json', 'models/a/config.json', 'q/model-Q4_K_M.gguf']:\n"
                        "    assert pattern.search(path), path\n"
                        "for path in ['myconfig.json', 'config.json.bak', 'notes.gguf.txt']:\n"
                        "    assert not pattern.search(path), path\n",
                        source_path(".pre-commit-hooks.yaml")});
  INFO(r.err);
  CHECK(r.exit_code == 0);
}
