#include "rules/rule_case.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "ropelens/load/model_loader.hpp"
#include "ropelens/render/render.hpp"
#include "ropelens/model/units.hpp"
#include "ropelens/engines/deployment.hpp"
#include "safetensors_writer.hpp"
#include "support.hpp"

namespace ropelens::test {
namespace fs = std::filesystem;

namespace {

// "vllm@main,llama.cpp" as --stack takes it.
Deployment stack_argument(const std::string& value) {
  std::vector<std::string> entries;
  std::istringstream parts(value);
  for (std::string entry; std::getline(parts, entry, ',');) entries.push_back(entry);
  return resolve_deployment(parse_stack(entries, "--stack"), "--stack");
}

const char* kCasesDir = "testdata/rules";

std::string trim(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  return text;
}

// The case's GGUF file when it has one (a config.json beside it is then its source, for the conversion rules), else
// its config.json.
std::string find_input(const std::string& dir) {
  fs::path folder = fs::path(source_path(dir));
  for (const char* launch : {"launch.sh", "Modelfile"})  // a launch file runs the case's model (launch_model)
    if (fs::exists(folder / launch)) return dir + "/" + launch;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.path().extension() == ".gguf") return dir + "/" + entry.path().filename().string();
  return dir + "/config.json";
}

std::int64_t parse_length(const std::string& flag, const std::string& value) {
  std::size_t used = 0;
  long long parsed = std::stoll(value, &used);
  if (used != value.size() || parsed < 0) throw std::invalid_argument(flag + " needs a whole number, got " + value);
  return parsed;
}

// The findings as `check --format json` prints them, without the audit and summary around them.
std::string findings_json(const CheckReport& report) {
  std::ostringstream rendered;
  render_check_json(report, rendered);
  const nlohmann::json document = nlohmann::json::parse(rendered.str());
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& file : document.at("files"))
    for (const auto& finding : file.value("diagnostics", nlohmann::json::array())) findings.push_back(finding);
  return findings.dump(2) + "\n";
}

}  // namespace

RuleCase load_rule_case(const std::string& relative_dir) {
  RuleCase c;
  c.dir = relative_dir;
  while (!c.dir.empty() && c.dir.back() == '/') c.dir.pop_back();
  fs::path path(c.dir);
  c.name = path.filename().string();
  c.code = path.parent_path().filename().string();
  c.input = find_input(c.dir);
  std::string args_file = source_path(c.dir + "/args");
  if (fs::exists(args_file)) {
    c.args_line = trim(read_file(args_file));
    std::istringstream words(c.args_line);
    for (std::string word; words >> word;) c.args.push_back(word);
  }
  return c;
}

std::vector<RuleCase> discover_rule_cases() {
  std::vector<RuleCase> cases;
  fs::path root = source_path(kCasesDir);
  if (!fs::exists(root)) return cases;
  for (const auto& code : fs::directory_iterator(root)) {
    if (!code.is_directory()) continue;
    for (const auto& folder : fs::directory_iterator(code.path()))
      if (folder.is_directory())
        cases.push_back(load_rule_case(std::string(kCasesDir) + "/" + code.path().filename().string() + "/" +
                                       folder.path().filename().string()));
  }
  std::sort(cases.begin(), cases.end(), [](const RuleCase& a, const RuleCase& b) { return a.dir < b.dir; });
  return cases;
}

CheckOptions rule_case_options(const RuleCase& rule_case) {
  CheckOptions options;
  options.selection.select = {rule_case.code};
  if (rule_case.input.ends_with("/launch.sh")) {  // its model is the case's GGUF file, else its config.json
    for (const auto& entry : fs::directory_iterator(source_path(rule_case.dir)))
      if (entry.path().extension() == ".gguf")
        options.launch_model = rule_case.dir + "/" + entry.path().filename().string();
    if (!options.launch_model) options.launch_model = rule_case.dir + "/config.json";
  }
  const auto& args = rule_case.args;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i], value;
    if (auto equals = flag.find('='); flag.rfind("--", 0) == 0 && equals != std::string::npos) {
      value = flag.substr(equals + 1);
      flag = flag.substr(0, equals);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      throw std::invalid_argument("args: " + flag + " needs a value");
    }
    if (flag == "--target") options.target_tokens = parse_length(flag, value);
    else if (flag == "--trained-length") options.training.trained_length = parse_length(flag, value);
    else if (flag == "--extended-length") options.training.extended_length = parse_length(flag, value);
    else if (flag == "--set") options.edits.push_back(parse_edit(value));
    else if (flag == "--memory") options.memory_budget = parse_byte_size(value);
    else if (flag == "--kv-dtype") options.kv_dtype = parse_kv_dtype(value);
    else if (flag == "--stack") options.deployment = stack_argument(value);
    else throw std::invalid_argument("args: unsupported option " + flag);
  }
  return options;
}

// A case with a checkpoint.json runs from a scratch copy of its folder (same relative path, so the output names
// the same file) with a model.safetensors built from that description beside the config.
void build_scratch_checkpoint(const RuleCase& rule_case, std::optional<TempDir>& scratch) {
  const std::string described = source_path(rule_case.dir + "/checkpoint.json");
  if (!fs::exists(described)) return;
  scratch.emplace();
  const fs::path folder = fs::path(scratch->path()) / rule_case.dir;
  fs::create_directories(folder);
  fs::copy_file(source_path(rule_case.input), folder / fs::path(rule_case.input).filename());
  write_safetensors((folder / "model.safetensors").string(),
                    tensor_specs(nlohmann::ordered_json::parse(read_file(described))));
}

RuleCaseRun run_rule_case(const RuleCase& rule_case) {
  std::optional<TempDir> scratch;
  build_scratch_checkpoint(rule_case, scratch);
  ScopedWorkingDirectory here(scratch ? scratch->path() : source_path(""));
  CheckReport report = check_paths({rule_case.input}, rule_case_options(rule_case));
  RuleCaseRun run;
  std::ostringstream text;
  render_check_text(report, text);
  run.text = text.str();
  run.findings_json = findings_json(report);
  for (const auto& file : report.files) {
    if (file.error) run.error = file.error;
    for (const auto& d : file.diagnostics) (d.code == rule_case.code ? run.findings : run.others) += 1;
  }
  return run;
}

std::string verify_rule_case(const RuleCase& rule_case) {
  std::string failures;
  auto fail = [&](const std::string& what) { failures += rule_case.dir + ": " + what + "\n"; };
  bool bad = rule_case.name.rfind("bad-", 0) == 0, ok = rule_case.name.rfind("ok-", 0) == 0;
  if (!bad && !ok) fail("the folder name must start with bad- or ok-");
  if (!fs::exists(source_path(rule_case.input))) return failures + rule_case.dir + ": no config.json\n";
  RuleCaseRun run;
  try {
    run = run_rule_case(rule_case);
  } catch (const std::exception& e) {
    return failures + rule_case.dir + ": " + e.what() + "\n";
  }
  if (run.error) fail("the input cannot be read: " + *run.error);
  if (bad && run.findings == 0) fail("a bad case must produce at least one " + rule_case.code + " finding");
  if (ok && run.findings > 0) fail("an ok case must produce no " + rule_case.code + " finding");
  if (run.others > 0) fail("findings of other codes appeared");
  for (const auto& [file, actual] :
       {std::pair{"expected.txt", &run.text}, std::pair{"expected.json", &run.findings_json}})
    if (auto diff = compare_snapshot(rule_case.dir + "/" + file, *actual); !diff.empty()) fail(diff);
  return failures;
}

}  // namespace ropelens::test
