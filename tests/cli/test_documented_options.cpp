// Every option the command line defines, run with a valid value: none is refused, and each one changes what the
// command writes (its output, the files it writes, or its exit code) unless listed below with the reason it cannot
// with these inputs. The options the README and docs/*.md show with a command must be options of that command.
#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/logging.hpp"
#include "cli/reference.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using ropelens::test::read_file;
using ropelens::test::run_cli_in;
using ropelens::test::source_path;
using ropelens::test::TempDir;

namespace {

const std::string kQwen3Source = source_path("testdata/configs/qwen/qwen3-8b.json");

// Qwen3-8B with YaRN ×4 added: diff's NEW side, which fixes CTX201 at 128k and brings warnings and infos only.
const std::string& qwen3_with_yarn() {
  static const TempDir dir;
  static const std::string path = [] {
    auto config = nlohmann::json::parse(read_file(kQwen3Source));
    config["rope_scaling"] = {{"rope_type", "yarn"}, {"factor", 4.0}, {"original_max_position_embeddings", 32768}};
    ropelens::test::write_file(dir.file("config.json"), config.dump(2));
    return dir.file("config.json");
  }();
  return path;
}

ropelens::cli::CliReference command_line() {
  CLI::App app{"ropelens", "ropelens"};
  ropelens::cli::add_logging_options(app);
  ropelens::cli::Outcome outcome;
  ropelens::cli::Subcommands subcommands(app, outcome);
  subcommands.bind_all();
  return ropelens::cli::describe_cli(app);
}

// What a command runs on: its positional arguments (a dynamic-NTK model for --seq-len, which only such methods
// read).
std::string positionals(const std::string& command, const std::string& option = "") {
  if (command == "explain") return "CTX201";
  if (command == "rules") return "";
  if (command == "diff") return "'" + kQwen3Source + "' '" + qwen3_with_yarn() + "'";
  if (option == "--seq-len") return "'" + source_path("testdata/configs/synthetic/dynamic.json") + "'";
  return "'" + kQwen3Source + "'";
}

// Options the run of another option keeps, so that the option under test has something to change: the KV cache
// (and so --kv-dtype) shows at a target and in --memory's check; CTX201 as a warning lets --fail-on error pass
// (without the budget, which Qwen3-8B's 18 GiB of KV cache at 128k exceeds).
std::string context_options(const std::string& command, const std::string& option) {
  std::vector<std::pair<std::string, std::string>> context;
  if (command == "suggest" || command == "inspect" || command == "table") context = {{"--target", "128k"}};
  if (command == "diff") context = {{"--target", "128k"}, {"--memory", "16GiB"}};
  if (command == "check" || command == "report")
    context = {{"--target", "128k"}, {"--memory", "16GiB"}, {"--severity", "CTX201=warning"}};
  if (command == "fit") context = {{"--memory", "24GiB"}, {"--weights", "16GB"}};
  std::string out;
  for (const auto& [name, value] : context)
    if (name != option && !(option == "--fail-on" && name == "--memory")) out += " " + name + " " + value;
  return out;
}

// A valid value per option that takes one; a new option without one here fails the test until it gets one.
const std::map<std::string, std::string> kValues = {
    {"--target", "256k"},
    {"--trained-length", "8k"},
    {"--extended-length", "64k"},
    {"--seq-len", "512k"},
    {"--original", "16k"},
    {"--pairs", "0,16,29-34"},
    {"--select", "CTX201"},
    {"--extend-select", "CTX205"},
    {"--ignore", "unseen-angles"},
    {"--severity", "CTX201=info"},
    {"--exclude", "qwen"},
    {"--memory", "64GiB"},
    {"--set", "/rope_theta=10000"},
    {"--output", "out.txt"},
    {"--write-baseline", "baseline.json"},
    {"--baseline", "recorded.json"},
    {"--revision", "main"},
    {"--git", "HEAD"},
    {"--reserve", "10%"},
    {"--weights", "8GB"},
    {"--kv-dtype", "fp8"},
    {"--stack", "llama.cpp"},
    {"--jobs", "2"},
    {"--source", "config.json"},
    {"--tp", "2"},
    {"--serve", "vllm serve " + kQwen3Source + " --max-model-len 32768"},
    {"--model", kQwen3Source},
};

// Options whose effect these inputs cannot show, and why.
const std::map<std::string, std::string> kNoVisibleEffect = {
    {"--exclude", "a named file is checked whatever the exclusions (without --force-exclude)"},
    {"--force-exclude", "qwen3-8b.json is a model config and matches no exclusion"},
    {"--wide", "piped output has every column already"},
    {"--baseline", "the recorded baseline is empty: nothing to leave out"},
    {"--jobs", "the output is the same on any number of threads; checked by test_scan_cli"},
    {"--git", "HEAD has no changed config in a fresh folder; checked by test_diff_cli"},
    {"--revision", "applies to model ids: a path is refused, checked by test_model_locator"},
    {"--model", "applies to launch lines (--serve, launch files), none here; checked by test_launch"},
    {"check --stack",
     "Qwen3-8B's engines agree on its frequencies and lengths: no engine finding to leave out; checked by "
     "test_stack_cli on Qwen-VL-Chat"},
    {"table --stack", "without --engine, table shows no engine view; checked by test_stack_cli with --engine"},
    {"diff --kv-dtype",
     "the dtype changes only the KV-cache figure of a CTX210 finding both sides hold, and diff counts an unchanged "
     "finding without its text"},
    {"diff --tp",
     "no weights beside these configs: both sides hold the same CTX210 finding, whose text alone --tp changes, and "
     "diff counts an unchanged finding without its text"},
    {"diff --memory",
     "no weights beside these configs: both sides hold the same CTX210 finding at any budget, and diff counts an "
     "unchanged finding without its text"},
};

// When the run of an option is meant to fail, what it says.
std::string expected_error(const std::string& option) {
  if (option == "--revision") return "--revision main applies to a model id";
  if (option == "--git") return "git";
  if (option == "--source") return "--source names the config a GGUF file was converted from";  // on a config.json
  return "";
}

std::string long_name(const ropelens::cli::OptionReference& option) {
  for (const auto& name : option.names)
    if (name.rfind("--", 0) == 0) return name;
  return option.names.front();
}

// What a run left behind: the exit code, stdout, and every file in its folder.
struct Run {
  ropelens::test::RunResult result;
  std::string signature;
};

Run run_in_fresh_folder(const std::string& arguments) {
  TempDir dir;
  ropelens::test::write_file(dir.file("recorded.json"), R"({"findings": [], "schema_version": 1, "tool": "ropelens"})");
  Run run{run_cli_in(dir.path(), arguments), ""};
  run.signature = std::to_string(run.result.exit_code) + "\n" + run.result.out;
  std::vector<fs::path> files(fs::directory_iterator(dir.path()), fs::directory_iterator());
  std::sort(files.begin(), files.end());
  for (const auto& file : files)
    if (file.filename() != "recorded.json")
      run.signature += "\n== " + file.filename().string() + "\n" + read_file(file);
  // The folder differs from run to run; what the command printed about it does not.
  for (auto at = run.signature.find(dir.path()); at != std::string::npos; at = run.signature.find(dir.path(), at))
    run.signature.replace(at, dir.path().size(), "DIR");
  return run;
}

std::string invocation(const std::string& command, const std::string& option, const std::string& value) {
  std::string line = command + " " + option;
  if (!value.empty()) line += " '" + value + "'";
  if (option != "--git")
    line += " " + positionals(command, option);  // after the option: a list option must not
                                                 // take it
  return line + context_options(command, option);
}

// The run without the option under test, once per command and input.
const Run& baseline(const std::string& command, const std::string& option) {
  static std::map<std::string, Run> runs;
  const std::string line = command + " " + positionals(command, option) + context_options(command, "");
  auto found = runs.find(line);
  if (found == runs.end()) found = runs.emplace(line, run_in_fresh_folder(line)).first;
  INFO("baseline: ropelens " << line << "\n" << found->second.result.err);
  REQUIRE(found->second.result.exit_code != 2);
  return found->second;
}

// The words that say the command line refused an option or lost an argument to one.
bool refused(const std::string& err) {
  for (const char* sign : {"unknown option", "not expected", "is required", "required", "Could not convert"})
    if (err.find(sign) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("every option of every command is accepted with a valid value and changes what the command does",
          "[cli][options]") {
  const auto cli = command_line();
  int runs = 0;
  for (const auto& command : cli.commands) {
    for (const auto& option : command.options) {
      if (!option.positional.empty()) continue;
      const std::string name = long_name(option);
      std::vector<std::string> values;
      if (!option.value_name.empty()) {
        if (!option.choices.empty()) values = option.choices;
        else if (auto known = kValues.find(name); known != kValues.end()) values = {known->second};
        else FAIL("no valid value known for " << command.name << " " << name << ": add one to kValues");
      } else {
        values = {""};
      }
      std::set<std::string> signatures;
      for (const auto& value : values) {
        const std::string line = invocation(command.name, name, value);
        const Run run = run_in_fresh_folder(line);
        ++runs;
        INFO("ropelens " << line << "\nexit " << run.result.exit_code << "\n" << run.result.err);
        CHECK_FALSE(refused(run.result.err));
        if (const std::string error = expected_error(name); !error.empty()) {
          CHECK(run.result.err.find(error) != std::string::npos);
          continue;
        }
        CHECK(run.result.exit_code != 2);
        signatures.insert(run.signature);
      }
      if (signatures.empty() || kNoVisibleEffect.count(name) > 0 ||
          kNoVisibleEffect.count(command.name + " " + name) > 0)
        continue;
      INFO(command.name << " " << name << " (values: " << values.size() << ")");
      if (values.size() > 1) CHECK(signatures.size() > 1);  // some choice differs from the others
      else CHECK(*signatures.begin() != baseline(command.name, name).signature);
    }
  }
  CHECK(runs > 60);
}

TEST_CASE("a list option takes one value per occurrence and commas, and leaves the path alone", "[cli][options]") {
  TempDir dir;
  const auto findings_of = [&](const std::string& selection) {
    const auto r = run_cli_in(dir.path(), "check " + selection + " '" + kQwen3Source + "' --target 256k --format json");
    INFO(selection << "\n" << r.err);
    REQUIRE(r.exit_code != 2);
    std::set<std::string> codes;
    static const std::regex code_field(R"re("code": "([A-Z]+[0-9]+)")re");
    for (std::sregex_iterator it(r.out.begin(), r.out.end(), code_field), end; it != end; ++it) codes.insert((*it)[1]);
    return codes;
  };
  CHECK(findings_of("--select CTX201") == std::set<std::string>{"CTX201"});
  CHECK(findings_of("--select unseen-angles") == std::set<std::string>{"CTX201"});
  const auto two = findings_of("--select CTX201,CTX202");
  CHECK(two == findings_of("--select CTX201 --select CTX202"));
  CHECK(two.count("CTX201") == 1);
  CHECK(findings_of("--select CTX201,CTX202 --ignore unseen-angles").count("CTX201") == 0);
  const auto r =
      run_cli_in(dir.path(), "check --severity CTX201=info,CTX202=info '" + kQwen3Source + "' --target 256k");
  CHECK(r.exit_code != 2);
}

TEST_CASE("the options the README and docs show with a command are options of that command", "[cli][options]") {
  const auto cli = command_line();
  std::map<std::string, std::set<std::string>> options_of;
  std::set<std::string> global = {"-v", "--verbose", "--log-level", "--help", "-h", "--version"};
  for (const auto& command : cli.commands)
    for (const auto& option : command.options)
      options_of[command.name].insert(option.names.begin(), option.names.end());
  std::vector<std::string> documents = {source_path("README.md")};
  for (const auto& entry : fs::directory_iterator(source_path("docs")))
    if (entry.path().extension() == ".md" && entry.path().filename() != "rules.md") documents.push_back(entry.path());
  // An invocation runs to the end of its line, a comment or a closing backtick; README's usage lines go on in
  // lines indented under the command.
  static const std::regex invocation_pattern(
      R"(ropelens (inspect|table|check|explain|rules|suggest|diff|report|fit)\b((?:[^`#\n]|\n {8,})*))");
  static const std::regex option_pattern(R"((?:^|[\s\[|])(--?[a-zA-Z][\w-]*))");
  int seen = 0;
  for (const auto& document : documents) {
    const std::string text = read_file(document);
    for (std::sregex_iterator it(text.begin(), text.end(), invocation_pattern), end; it != end; ++it) {
      const std::string command = (*it)[1];
      const std::string rest = (*it)[2];
      for (std::sregex_iterator o(rest.begin(), rest.end(), option_pattern), oend; o != oend; ++o) {
        const std::string option = (*o)[1];
        ++seen;
        INFO(document << ": ropelens " << command << rest);
        CHECK((options_of[command].count(option) > 0 || global.count(option) > 0));
      }
    }
  }
  CHECK(seen > 40);
  // README: "Every command that writes a document takes -o/--output FILE".
  for (const auto& command : cli.commands) {
    INFO(command.name);
    if (options_of[command.name].count("--format") > 0) CHECK(options_of[command.name].count("--output") > 0);
  }
}
