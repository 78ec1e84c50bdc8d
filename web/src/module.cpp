// The WebAssembly module: ropelens_core with a C interface the page (web/page/app.js) and the Node tests call.
// Every command here does what the command of the same name does (src/cli/*.cpp): the same option structs, resolved
// by the same code (documents/options.hpp), and the same document composition (documents/documents.hpp), so that a
// document is the CLI's `--format F` output byte for byte. There is one input, a model held in memory (FileBytes:
// a config.json whole, a GGUF file as the parts of its header the page has read); no file system, no threads, no
// child processes. A launch line or launch file comes as text in the options.
//
// The interface: rl_input_reset and rl_input_add hand over the model; rl_run(command, options) runs a command with its
// options as JSON (the CLI's flag names, dashes as underscores) and returns a status, with the document, the error
// message or the bytes still needed in rl_output(); rl_warnings() holds what the CLI would print as warnings.
//
// Adding an option: one line in the command's function below, reading it into the command's option struct.
#include <emscripten/emscripten.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ropelens/documents/choices.hpp"
#include "ropelens/documents/documents.hpp"
#include "ropelens/documents/options.hpp"
#include "ropelens/engines/engine.hpp"
#include "ropelens/engines/launch.hpp"
#include "ropelens/input/file_bytes.hpp"
#include "ropelens/model/text.hpp"
#include "ropelens/model/units.hpp"
#include "ropelens/render/formats.hpp"
#include "ropelens/rules/rule.hpp"

namespace ropelens::web {
namespace {

using nlohmann::json;

// A command's options as the page gives them: each key read once into the option struct; a key no command reads
// is an error naming the keys it takes, as an unknown flag is on the command line.
class Options {
 public:
  Options(std::string_view command, const json& given) : command_(command), given_(given) {
    if (!given_.is_object()) throw std::invalid_argument(fmt::format("{}: the options are not a JSON object", command));
  }

  void text(const char* key, std::string& out) {
    if (const json* value = take(key)) out = string_of(key, *value);
  }
  void text(const char* key, std::optional<std::string>& out) {
    if (const json* value = take(key)) out = string_of(key, *value);
  }
  // A list option: a list of strings, or one string with commas between values (as --stack a,b takes them).
  void list(const char* key, std::vector<std::string>& out) {
    const json* value = take(key);
    if (value == nullptr) return;
    if (value->is_string()) {
      for (std::string& part : split_list(value->get<std::string>())) out.push_back(std::move(part));
      return;
    }
    if (!value->is_array()) throw bad(key, "a list of strings");
    for (const json& item : *value) out.push_back(string_of(key, item));
  }
  // A length in tokens, checked as the CLI's TOKENS options check it (131072, 128k, 1M).
  template <class T> void tokens(const char* key, T& out, std::int64_t min = 1) {
    const json* value = take(key);
    if (value == nullptr) return;
    const std::string text =
        value->is_number_integer() ? std::to_string(value->get<std::int64_t>()) : string_of(key, *value);
    try {
      out = parse_token_count(text, min);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt::format("--{}: {}", flag(key), e.what()));
    }
  }
  void gpus(const char* key, int& out) {
    const json* value = take(key);
    if (value == nullptr) return;
    if (!value->is_number_integer() || value->get<std::int64_t>() < 1 || value->get<std::int64_t>() > 1024)
      throw bad(key, "a number of GPUs from 1 to 1024");
    out = value->get<int>();
  }
  // The width text documents fit, as on a terminal of that many columns (none: every column, as when piped).
  TextOptions text_options(const char* key = "width") {
    TextOptions text;
    const json* value = take(key);
    if (value == nullptr) return text;
    if (!value->is_number_integer() || value->get<std::int64_t>() < 20 || value->get<std::int64_t>() > 1000)
      throw bad(key, "a width in columns from 20 to 1000");
    text.width = value->get<int>();
    return text;
  }
  // --engine: one of the engines, or "all".
  void engine(const char* key, std::string& out) {
    std::string name;
    text(key, name);
    if (name.empty()) return;
    out = chosen(engine_choice_list(), name, "--engine");
  }
  // Every key given was read.
  void done() const {
    for (const auto& [key, value] : given_.items())
      if (!read_.contains(key))
        throw std::invalid_argument(
            fmt::format("{}: unknown option '{}' (it takes {})", command_, key, fmt::join(read_, ", ")));
  }

 private:
  const json* take(const char* key) {
    read_.insert(key);
    auto it = given_.find(key);
    return it == given_.end() || it->is_null() ? nullptr : &*it;
  }
  static std::string flag(std::string key) {
    std::replace(key.begin(), key.end(), '_', '-');
    return key;
  }
  std::invalid_argument bad(const char* key, std::string_view expected) const {
    return std::invalid_argument(fmt::format("--{}: expected {}", flag(key), expected));
  }
  std::string string_of(const char* key, const json& value) const {
    if (!value.is_string()) throw bad(key, "a string");
    return value.get<std::string>();
  }
  static std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t comma; (comma = text.find(',', start)) != std::string::npos; start = comma + 1)
      parts.push_back(text.substr(start, comma - start));
    parts.push_back(text.substr(start));
    return parts;
  }

  std::string_view command_;
  const json& given_;
  std::set<std::string> read_;
};

// What a run hands back besides its document: the warnings the CLI would print on stderr.
struct Run {
  std::vector<std::string> warnings;
};

const FileBytes& required_model(const FileBytes* model, std::string_view command) {
  if (model == nullptr)
    throw std::invalid_argument(fmt::format("{}: no model: paste a config.json or drop a GGUF file", command));
  return *model;
}

void keep_notes(const Deployment& deployment, Run& run) {
  run.warnings.insert(run.warnings.end(), deployment.notes.begin(), deployment.notes.end());
}

// check's options (`ropelens check NAME` with the model; with "serve", `check --serve COMMAND --model NAME`; with
// "launch_file" and "launch_text", `check FILE --model NAME`).
struct CheckCommand {
  CheckRequest request;
  std::string format = "json";
  TextOptions text;
  std::string serve;
  std::string launch_file;
  std::string launch_text;

  explicit CheckCommand(Options& options) {
    RuleOptions& rules = request.rules;
    options.tokens("target", rules.target);
    options.tokens("trained_length", rules.trained_length);
    options.tokens("extended_length", rules.extended_length, 0);
    options.text("fail_on", rules.fail_on);
    options.list("select", rules.select);
    options.list("extend_select", rules.extend_select);
    options.list("ignore", rules.ignore);
    options.list("severity", rules.severity);
    options.text("memory", rules.memory);
    options.gpus("tp", rules.tp);
    options.text("kv_dtype", rules.kv_dtype);
    options.list("stack", rules.stack);
    options.engine("engine", request.engine);
    options.list("set", request.edits);
    options.text("format", format);
    text = options.text_options();
    options.text("serve", serve);
    options.text("launch_file", launch_file);
    options.text("launch_text", launch_text);
  }

  CheckOptions resolve(Run& run) const {
    CheckOptions check = resolve_check_request(request, ProjectSettings{}).check;
    keep_notes(check.deployment, run);
    return check;
  }
};

// The files the check document holds: the model's, or the launch's run on the model.
std::vector<FileResult> checked_files(const FileBytes* model, const CheckCommand& command, CheckOptions check) {
  if (command.serve.empty() && command.launch_file.empty())
    return {check_file_bytes(required_model(model, "check"), check)};
  // The page reads no model from the Hub: the launch runs the model given, and every byte its check reads is read
  // here first (BytesNotRead), never inside a launch, whose errors become its result.
  try {
    load_file_bytes(required_model(model, "check --serve"));
  } catch (const InputError&) {  // a model that cannot be read is the launch's own result, as on the command line
  }
  check.launch_input = std::make_shared<const FileBytes>(*model);
  if (!command.serve.empty()) return check_serve_command(command.serve, check);
  return {check_launch_file(command.launch_file, command.launch_text, check)};
}

std::string check_document(const FileBytes* model, Options& options, Run& run) {
  const CheckCommand command(options);
  options.done();
  std::ostringstream out;
  write_check_document(checked_files(model, command, command.resolve(run)), command.format, out, command.text);
  return out.str();
}

// The report's charts of the model as check audits it (the same options as check, less the launch).
std::string charts_document(const FileBytes* model, Options& options, Run& run) {
  const CheckCommand command(options);
  options.done();
  std::ostringstream out;
  write_report_charts(check_file_bytes(required_model(model, "charts"), command.resolve(run)), out);
  return out.str();
}

std::string table_document(const FileBytes* model, Options& options, Run& run) {
  TableOptions table;
  std::string format = "json";
  std::string pairs;
  std::string kv_dtype;
  std::string engine;
  std::vector<std::string> stack;
  std::vector<std::string> edits;
  options.tokens("target", table.request.target_tokens);
  options.tokens("seq_len", table.request.seq_len);
  options.tokens("trained_length", table.training.trained_length);
  options.tokens("extended_length", table.training.extended_length, 0);
  options.text("pairs", pairs);
  options.text("kv_dtype", kv_dtype);
  options.engine("engine", engine);
  options.list("stack", stack);
  options.list("set", edits);
  options.text("format", format);
  const TextOptions text = options.text_options();
  options.done();
  if (!pairs.empty()) table.request.pairs = parse_pair_list(pairs);
  table.request.kv_dtype = parse_kv_dtype_option(kv_dtype, "--kv-dtype");
  if (!engine.empty()) {
    table.deployment = with_engine_option(resolve_stack_option(stack, ProjectSettings{}), engine);
    keep_notes(table.deployment, run);
    table.engines = table.deployment.viewed(engine);
  }
  const LoadedModel loaded = load_file_bytes(required_model(model, "table"), parse_edits(edits));
  std::ostringstream out;
  write_table_document(loaded, table, format, out, text);
  return out.str();
}

std::string inspect_document(const FileBytes* model, Options& options, Run&) {
  InspectRequest request;
  std::string format = "json";
  std::string kv_dtype;
  std::vector<std::string> edits;
  options.tokens("target", request.target_tokens);
  options.text("kv_dtype", kv_dtype);
  options.list("set", edits);
  options.text("format", format);
  const TextOptions text = options.text_options();
  options.done();
  request.kv_dtype = parse_kv_dtype_option(kv_dtype, "--kv-dtype");
  const LoadedModel loaded = load_file_bytes(required_model(model, "inspect"), parse_edits(edits));
  std::ostringstream out;
  write_inspect_document(loaded, request, format, out, text);
  return out.str();
}

std::string suggest_document(const FileBytes* model, Options& options, Run& run) {
  SuggestRequest request;
  std::string format = "json";
  std::string engine = "all";
  std::vector<std::string> stack;
  options.tokens("target", request.target_tokens, 2);
  options.tokens("trained_length", request.original_tokens, 2);
  options.engine("engine", engine);
  options.list("stack", stack);
  options.text("format", format);
  const TextOptions text = options.text_options();
  options.done();
  if (request.target_tokens == 0) throw std::invalid_argument("suggest: --target is required");
  const FileBytes& file = required_model(model, "suggest");
  apply_trained_length_rules(request, {}, file.shown);
  request.deployment = with_engine_option(resolve_stack_option(stack, ProjectSettings{}), engine);
  keep_notes(request.deployment, run);
  request.engines = request.deployment.served(engine);
  std::ostringstream out;
  write_suggest_document(suggest_changes(file, request), format, out, text);
  return out.str();
}

std::string fit_document(const FileBytes* model, Options& options, Run& run) {
  FitOptions fit;
  std::string format = "json";
  std::vector<std::string> stack;
  options.text("memory", fit.memory);
  options.gpus("tp", fit.tp);
  options.text("reserve", fit.reserve);
  options.text("weights", fit.weights);
  options.list("kv_dtype", fit.kv_dtypes);
  options.engine("engine", fit.engine);
  options.list("stack", stack);
  options.tokens("trained_length", fit.trained_length);
  options.text("format", format);
  const TextOptions text = options.text_options();
  options.done();
  if (fit.memory.empty()) throw std::invalid_argument("fit: --memory is required");
  const Deployment deployment = resolve_stack_option(stack, ProjectSettings{});
  FitRequest request = resolve_fit_options(fit, deployment);
  keep_notes(deployment, run);
  const FileBytes& file = required_model(model, "fit");
  std::ostringstream out;
  write_fit_document(load_file_bytes(file), file.shown, std::move(request), {}, format, out, text);
  return out.str();
}

std::string rule_docs_document(const FileBytes*, Options& options, Run&) {
  std::vector<std::string> codes;
  options.list("codes", codes);
  options.done();
  std::ostringstream out;
  write_rule_docs(codes, out);
  return out.str();
}

std::string rules_document(const FileBytes*, Options& options, Run&) {
  std::string format = "json";
  options.text("format", format);
  const TextOptions text = options.text_options();
  options.done();
  std::ostringstream out;
  find_format(rules_formats(), format, "rules")(out, text);
  return out.str();
}

// What the page offers in its choices: the version, the engines --engine and --stack take, the KV-cache dtypes.
std::string about_document(const FileBytes*, Options& options, Run&) {
  options.done();
  json about;
  about["version"] = ROPELENS_VERSION;
  about["engines"] = json::array();
  for (std::string_view engine : engine_choices())
    if (engine != "all") about["engines"].push_back(engine);
  about["kv_dtypes"] = kv_dtype_choices().values;
  return about.dump(2) + "\n";
}

using Command = std::string (*)(const FileBytes* model, Options& options, Run& run);

const std::map<std::string_view, Command>& commands() {
  static const std::map<std::string_view, Command> table = {
      {"about", about_document}, {"charts", charts_document},   {"check", check_document},
      {"fit", fit_document},     {"inspect", inspect_document}, {"rule_docs", rule_docs_document},
      {"rules", rules_document}, {"suggest", suggest_document}, {"table", table_document},
  };
  return table;
}

// The module's state between calls: the model handed over, and the last run's output.
struct State {
  std::unique_ptr<FileBytes> model;
  std::string output;
  std::string warnings = "[]";
};

State& state() {
  static State instance;
  return instance;
}

enum Status : int { kDone = 0, kFailed = 1, kNeedsBytes = 2 };

Status run_command(const std::string& name, const std::string& options_text) {
  State& s = state();
  Run run;
  s.warnings = "[]";
  try {
    const auto found = commands().find(name);
    if (found == commands().end()) throw std::invalid_argument(fmt::format("no command '{}'", name));
    const json given = options_text.empty() ? json::object() : json::parse(options_text);
    Options options(name, given);
    s.output = found->second(s.model.get(), options, run);
    s.warnings = json(run.warnings).dump();
    return kDone;
  } catch (const BytesNotRead& needed) {
    s.output = json{{"offset", needed.offset()}, {"count", needed.count()}}.dump();
    return kNeedsBytes;
  } catch (const json::exception& e) {
    s.output = fmt::format("{}: the options are not JSON: {}", name, e.what());
  } catch (const std::exception& e) {  // InputError, std::invalid_argument: the CLI's one-line message
    s.output = e.what();
  }
  return kFailed;
}

}  // namespace
}  // namespace ropelens::web

extern "C" {

// A new model: the name it is shown under (as the CLI would show its path) and its size in bytes.
EMSCRIPTEN_KEEPALIVE void rl_input_reset(const char* shown, double size) {
  auto& s = ropelens::web::state();
  s.model = std::make_unique<ropelens::FileBytes>();
  s.model->shown = shown;
  s.model->size = static_cast<std::uint64_t>(size);
}

// No model (a launch line alone, the rules).
EMSCRIPTEN_KEEPALIVE void rl_input_clear() { ropelens::web::state().model.reset(); }

// Bytes of the model read at `offset`.
EMSCRIPTEN_KEEPALIVE void rl_input_add(double offset, const char* bytes, std::size_t count) {
  auto& s = ropelens::web::state();
  if (s.model) s.model->add(static_cast<std::uint64_t>(offset), std::string(bytes, count));
}

// Runs a command; 0: rl_output() is its document, 1: the error message, 2: {"offset", "count"} of the model's bytes to
// add before running it again.
EMSCRIPTEN_KEEPALIVE int rl_run(const char* command, const char* options) {
  return ropelens::web::run_command(command, options);
}

EMSCRIPTEN_KEEPALIVE const char* rl_output() { return ropelens::web::state().output.c_str(); }
EMSCRIPTEN_KEEPALIVE std::size_t rl_output_size() { return ropelens::web::state().output.size(); }
EMSCRIPTEN_KEEPALIVE const char* rl_warnings() { return ropelens::web::state().warnings.c_str(); }

}  // extern "C"
