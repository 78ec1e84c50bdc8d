// Rule case folders: testdata/rules/<CODE>/<bad-|ok-what>/ with config.json (or one .gguf), an optional launch.sh or
// Modelfile (then the input checked: a launch.sh runs the case's .gguf or config.json as --model), an optional args
// file, an optional checkpoint.json (the tensors of a model.safetensors the runner builds beside a scratch copy of the
// config, tests/safetensors_writer.hpp), expected.txt (the text output of `ropelens check <case>/config.json --select
// <CODE> [args]`) and expected.json (the findings of its JSON output, without the audit around them).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "ropelens/check/check.hpp"

namespace ropelens::test {

struct RuleCase {
  std::string code;               // CTX201
  std::string name;               // bad-llama2-at-8192
  std::string dir;                // testdata/rules/CTX201/bad-llama2-at-8192, relative to the source dir
  std::string input;              // dir + "/config.json" (or the folder's one .gguf)
  std::vector<std::string> args;  // from the args file, split on spaces
  std::string args_line;          // the args file's line as written
  bool expects_findings() const { return name.rfind("bad-", 0) == 0; }
};

// Changes the working directory for its lifetime (cases name their inputs relative to the source dir).
class ScopedWorkingDirectory {
 public:
  explicit ScopedWorkingDirectory(const std::filesystem::path& to) : previous_(std::filesystem::current_path()) {
    std::filesystem::current_path(to);
  }
  ~ScopedWorkingDirectory() { std::filesystem::current_path(previous_); }
  ScopedWorkingDirectory(const ScopedWorkingDirectory&) = delete;
  ScopedWorkingDirectory& operator=(const ScopedWorkingDirectory&) = delete;

 private:
  std::filesystem::path previous_;
};

// Every case folder, sorted.
std::vector<RuleCase> discover_rule_cases();
// One case from its folder, relative to the source dir ("testdata/rules/CTX201/bad-x").
RuleCase load_rule_case(const std::string& relative_dir);

// CheckOptions for the case: --select CODE plus its args (--target, --trained-length, --extended-length, --set).
CheckOptions rule_case_options(const RuleCase& rule_case);

struct RuleCaseRun {
  std::string text;
  std::string findings_json;         // the "diagnostics" of every file, as an array
  std::optional<std::string> error;  // the input could not be read
  int findings = 0;                  // of the case's code
  int others = 0;                    // of any other code (should be none)
};
// Runs the check in-process, from the source dir, as the CLI would.
RuleCaseRun run_rule_case(const RuleCase& rule_case);

// "" when the case passes: the folder is well formed, bad cases fire and ok cases do not, and both outputs equal
// expected.txt / expected.json (UPDATE_SNAPSHOTS=1 rewrites them). Otherwise a description of every failure.
std::string verify_rule_case(const RuleCase& rule_case);

}  // namespace ropelens::test
