// Launch lines, engine-neutral: which engine a command starts (each registry row's `launch.parse` says), launch
// files split into commands, and the served length resolved from the engine's own length rule (its view).
#include "ropelens/engines/launch.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "launch_forms.hpp"
#include "ropelens/engines/registry.hpp"
#include "ropelens/engines/versions.hpp"
#include "ropelens/input/launch_manifest.hpp"
#include "ropelens/input/launch_units.hpp"
#include "ropelens/model/text.hpp"
#include "ropelens/model/units.hpp"

namespace ropelens {
namespace launch_lines {

using launch_forms::known_images;

// "vllm serve, python -m vllm.entrypoints.openai.api_server, …": what a command must start for ropelens to read it.
constexpr const char* kCommandsRead =
    "vllm serve, python -m vllm.entrypoints.openai.api_server, python -m sglang.launch_server, llama-server, "
    "llama serve, llama-cli, ollama serve, mlx_lm.server, mlx_lm.generate, lms load, trtllm-serve, TabbyAPI's "
    "python main.py, kt run, "
    "or any of them inside docker run, exec, env, nohup, sudo or uv run";

Launch new_launch(const EngineRow& row, const ShellCommand& command, const VersionOf& version_of) {
  Launch launch;
  launch.engine = row.engine;
  const LaunchRelease runs = version_of(row.engine);
  launch.version = runs.version;
  launch.release = runs.release;
  launch.line = command.line;
  launch.command = launch_detail::command_text(command);
  launch.allow_longer = std::string(row.serve.allow_longer.substr(0, row.serve.allow_longer.find('=')));
  if (!launch.allow_longer.empty()) launch.allow_longer_set = launch_detail::env_true(command, launch.allow_longer);
  return launch;
}

// The release an image tag names, when the stack pins none: the launch runs what the image holds.
void take_image_release(Launch& launch, const std::string& image_release, const VersionOf& version_of) {
  if (image_release.empty() || !launch.release.empty()) return;
  const auto resolved = resolve_version(launch.engine, image_release);
  if (!resolved) return;
  launch.release = image_release;
  launch.version = resolved->version;
  (void)version_of;
  launch.notes.push_back(fmt::format("{} runs {} {} (the image's tag); --stack {}@VERSION audits another release",
                                     launch.form, display_name(launch.engine), image_release,
                                     to_string(launch.engine)));
  if (resolved->note) launch.notes.push_back(*resolved->note);
}

// SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN defaulted to true from PR #4195 (d4017a6b6, 0.4.3.post4) until PR #9388
// (eb19ccada, 0.5.1): those releases warn and serve a longer --context-length unless the variable says false.
bool longer_allowed_by_default(const Launch& launch) {
  return launch.engine == Engine::sglang && !launch.allow_longer.empty() &&
         !release_before(Engine::sglang, launch.release, "0.4.4") &&
         release_before(Engine::sglang, launch.release, "0.5.1") &&
         launch.command.find(launch.allow_longer + "=") == std::string::npos;
}

bool starts_with_flag(const ShellCommand& command) {
  return !command.words.empty() && command.words.front().size() > 1 && command.words.front()[0] == '-';
}

std::optional<Launch> launch_of(ShellCommand command, const VersionOf& version_of,
                                std::optional<Engine> fragment_engine, const std::string& base_folder,
                                const std::string& form = "") {
  launch_forms::Unwrapped inner = launch_forms::unwrapped(std::move(command), base_folder);
  if (!form.empty()) inner.form = inner.form.empty() ? form : fmt::format("{}, {}", form, inner.form);
  for (const EngineRow* row : engine_registry()) {
    if (!row->launch || !row->launch->parse) continue;
    Launch launch = new_launch(*row, inner.command, version_of);
    launch.form = inner.form;
    take_image_release(launch, inner.image_release, version_of);
    const std::size_t notes = launch.notes.size();
    if (row->launch->parse(inner.command, launch)) {
      launch.notes.insert(launch.notes.begin() + static_cast<std::ptrdiff_t>(notes), inner.notes.begin(),
                          inner.notes.end());
      launch.placeholder_model = is_placeholder_model(launch.model);
      return launch;
    }
  }
  if (fragment_engine && starts_with_flag(inner.command)) {
    const EngineRow& row = engine_row(*fragment_engine);
    if (row.launch && row.launch->fragment) {
      Launch launch = new_launch(row, inner.command, version_of);
      launch.form = inner.form.empty() ? "a flag-only fragment" : inner.form;
      row.launch->fragment(inner.command, launch);
      launch.notes.insert(launch.notes.end(), inner.notes.begin(), inner.notes.end());
      return launch;
    }
  }
  return std::nullopt;
}

bool is_shell(const std::string& word) {
  const std::string name = word.substr(word.rfind('/') + 1);
  return name == "sh" || name == "bash" || name == "dash" || name == "ash" || name == "zsh";
}

// The commands a container runs: its entrypoint (else its image's) and arguments; a shell's `-c` script is split
// into its commands. Each takes the container's environment and the line of its command.
std::vector<ShellCommand> container_commands(const ManifestContainer& container, const std::string& path) {
  std::vector<std::string> words;
  if (container.entrypoint) {
    words = *container.entrypoint;
  } else if (auto entrypoint = launch_forms::image_entrypoint(container.image)) {
    if (!container.arguments.empty() &&
        std::search(container.arguments.begin(), container.arguments.end(), entrypoint->begin(), entrypoint->end()) ==
            container.arguments.begin())
      throw InputError(path, fmt::format("line {}: {} repeats its image's entrypoint: {} runs '{} {} …', which the "
                                         "engine refuses; start the command at the model and its flags",
                                         container.line, container.name, container.image, fmt::join(*entrypoint, " "),
                                         fmt::join(*entrypoint, " ")));
    words = std::move(*entrypoint);
    if (container.arguments.empty())
      for (std::string& word : launch_forms::image_default_arguments(container.image)) words.push_back(word);
  }
  words.insert(words.end(), container.arguments.begin(), container.arguments.end());
  std::vector<ShellCommand> commands;
  if (words.size() >= 3 && is_shell(words[0]) && words[1].starts_with("-") && words[1].find('c') != std::string::npos)
    commands = split_shell_commands(words[2]);
  else if (!words.empty()) commands.push_back({.line = 1, .env = {}, .words = std::move(words)});
  for (ShellCommand& command : commands) {
    command.line = container.line;
    for (const auto& [name, value] : container.env) command.env.emplace(name, value);
  }
  return commands;
}

std::string folder_of(const std::string& path) {
  return path == "--serve" ? std::string() : std::filesystem::path(path).parent_path().string();
}

// Appends the launch of each command that starts an engine, as read from `file`. A container run or wrapper that
// cannot be read is an InputError naming the file and line.
void add_launches(const std::vector<ShellCommand>& commands, const VersionOf& version_of,
                  std::optional<Engine> fragment_engine, const std::string& file, std::vector<Launch>& launches,
                  const std::string& form = "") {
  for (const ShellCommand& command : commands) {
    std::optional<Launch> launch;
    try {
      launch = launch_of(command, version_of, fragment_engine, folder_of(file), form);
    } catch (const std::invalid_argument& e) {
      throw InputError(file, fmt::format("line {}: {}", command.line, e.what()));
    }
    if (launch) {
      launch->file = file;
      launches.push_back(std::move(*launch));
    }
  }
}

std::vector<Launch> launches_in_manifest(const std::string& path, std::string_view text, const VersionOf& version_of) {
  std::vector<Launch> launches;
  std::size_t containers = 0;
  try {
    for (const ManifestContainer& container : read_launch_manifest(text)) {
      ++containers;
      add_launches(container_commands(container, path), version_of, std::nullopt, path, launches);
    }
  } catch (const std::invalid_argument& e) {
    throw InputError(path, fmt::format("cannot read it as a Compose file or Kubernetes manifest: {}", e.what()));
  }
  if (launches.empty())
    throw InputError(path, fmt::format("{} container{} and none starts an engine ropelens knows (expected vllm serve, "
                                       "python -m sglang.launch_server, llama-server, … in its command or entrypoint, "
                                       "or an image whose entrypoint is one: {})",
                                       containers, containers == 1 ? "" : "s", known_images()));
  return launches;
}

// A shell command that runs `words` in `environment`, at `line`.
ShellCommand command_with(const Environment& environment, std::vector<std::string> words, int line) {
  ShellCommand command;
  command.line = line;
  for (const auto& [name, value] : environment) command.env[name] = value;
  command.words = std::move(words);
  return command;
}

// The command an engine starts from these variables alone (llama-server from LLAMA_ARG_*, ollama serve from
// OLLAMA_*), when they set one of its prefixes.
std::optional<std::string> serves_alone(const Environment& environment) {
  for (const EngineRow* row : engine_registry()) {
    if (!row->launch) continue;
    for (const EngineVariables& variables : row->launch->variables) {
      if (variables.serves_alone.empty()) continue;
      if (std::any_of(environment.begin(), environment.end(),
                      [&](const auto& assignment) { return assignment.first.starts_with(variables.prefix); }))
        return std::string(variables.serves_alone);
    }
  }
  return std::nullopt;
}

// $VAR and ${VAR} in ExecStart= take the unit's Environment= values, as systemd substitutes them.
std::string with_unit_variables(const std::string& exec_start, const Environment& environment) {
  std::string script;
  for (const auto& [name, value] : environment) script += fmt::format("{}={}\n", name, shell_word(value));
  return script + exec_start;
}

std::vector<Launch> launches_in_unit(const std::string& path, std::string_view text, const VersionOf& version_of,
                                     std::optional<Engine> fragment_engine) {
  ServiceUnit unit;
  std::vector<ShellCommand> commands;
  try {
    unit = read_service_unit(path, text);
    if (!unit.exec_start) {  // a drop-in: the server its variables start, when they are an engine's
      if (auto alone = serves_alone(unit.environment)) {
        std::vector<Launch> launches;
        add_launches({command_with(unit.environment, split_shell_commands(*alone).at(0).words, unit.exec_line)},
                     version_of, std::nullopt, path, launches, fmt::format("systemd drop-in for {}", *alone));
        for (Launch& launch : launches) launch.notes.insert(launch.notes.begin(), unit.notes.begin(), unit.notes.end());
        if (!launches.empty()) return launches;
      }
      throw std::invalid_argument(
          "its [Service] section has no ExecStart= and sets no variable a server starts "
          "from (a drop-in is read with its unit: check the unit with the drop-in's lines)");
    }
    const std::string script = with_unit_variables(*unit.exec_start, unit.environment);
    const int assignments = static_cast<int>(unit.environment.size());
    for (ShellCommand command : split_shell_commands(script)) {
      if (command.words.empty()) continue;
      command.line = unit.exec_line + std::max(0, command.line - 1 - assignments);
      for (const auto& [name, value] : unit.environment) command.env[name] = value;
      commands.push_back(std::move(command));
    }
  } catch (const std::invalid_argument& e) {
    throw InputError(path, fmt::format("cannot read it as a systemd service unit: {}", e.what()));
  }
  std::vector<Launch> launches;
  add_launches(commands, version_of, fragment_engine, path, launches, "systemd unit ExecStart=");
  if (launches.empty())
    throw InputError(path, fmt::format("line {}: ExecStart= starts no engine ropelens knows (expected {})",
                                       unit.exec_line, kCommandsRead));
  for (Launch& launch : launches) launch.notes.insert(launch.notes.begin(), unit.notes.begin(), unit.notes.end());
  return launches;
}

// An env file alone: the server an engine runs from its variables (llama-server from LLAMA_ARG_*, ollama serve from
// OLLAMA_*), when the file sets one of its prefixes.
std::vector<Launch> launches_in_env_file(const std::string& path, std::string_view text, const VersionOf& version_of) {
  Environment environment;
  try {
    environment = read_env_file(text);
  } catch (const std::invalid_argument& e) {
    throw InputError(path, fmt::format("cannot read it as an env file: {}", e.what()));
  }
  if (auto alone = serves_alone(environment)) {
    std::vector<Launch> launches;
    add_launches({command_with(environment, split_shell_commands(*alone).at(0).words, 1)}, version_of, std::nullopt,
                 path, launches, fmt::format("env file for {}", *alone));
    if (!launches.empty()) return launches;
  }
  throw InputError(path,
                   "an env file that sets no variable a server starts from (LLAMA_ARG_* for llama-server, "
                   "OLLAMA_* for ollama serve): check the unit, Compose file or command that reads it");
}

std::vector<Launch> launches_in(std::string_view script, const VersionOf& version_of,
                                std::optional<Engine> fragment_engine, const std::string& file) {
  std::vector<Launch> launches;
  add_launches(split_shell_commands(script), version_of, fragment_engine, file, launches);
  return launches;
}

// A command as one plain line for a message: its lines joined by spaces, cut at 120 characters.
std::string command_excerpt(std::string_view command) {
  std::string line;
  for (const char c : command) {
    const bool space = c == '\n' || c == '\r' || c == '\t' || c == ' ';
    if (space && (line.empty() || line.back() == ' ')) continue;
    line += space ? ' ' : c;
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  if (line.size() > 120) line = line.substr(0, 117) + "…";
  return terminal_safe(line);
}

}  // namespace launch_lines

using launch_lines::launches_in;

bool is_launch_file(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  return name.ends_with(".sh") || name == "Modelfile" || name.ends_with(".Modelfile") ||
         name.starts_with("Modelfile.") || is_launch_manifest(path) || is_service_unit(path) || is_env_file(path);
}

LaunchText launch_text_kind(std::string_view text) {
  if (text.starts_with("#!")) return LaunchText::script;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) line.remove_prefix(1);
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    if (line.starts_with("[Unit]") || line.starts_with("[Service]") || line.starts_with("[Install]") ||
        line.starts_with("Environment=") || line.starts_with("EnvironmentFile=") || line.starts_with("ExecStart="))
      return LaunchText::unit;
    if (line.size() > 5 && (line.starts_with("FROM ") || line.starts_with("from ")) &&
        line.find_first_of("{}\"") == std::string_view::npos)
      return LaunchText::modelfile;
    return LaunchText::none;
  }
  return LaunchText::none;
}

bool is_placeholder_model(std::string_view model) {
  if (model.empty()) return false;
  if (model == "..." || model == "…" || model == "MODEL" || model == "MODEL_NAME" || model == "MODEL_PATH" ||
      model == "YOUR_MODEL" || model == "model" || model == "/path/to/model" || model == "path/to/model")
    return true;
  if (model.front() == '<' && model.back() == '>') return true;  // <model>, <your-model-path>
  if (model.front() == '{' && model.back() == '}') return true;  // {model}
  if (model.front() == '$') return true;                         // an expansion the script never assigned
  return model.find("...") != std::string_view::npos || model.find("/path/to/") != std::string_view::npos;
}

std::vector<Launch> read_launches(const std::string& path, std::string_view text, const VersionOf& version_of,
                                  std::optional<Engine> fragment_engine) {
  // An engine's own launch file first: TabbyAPI's config.yml is YAML, as Compose files are.
  for (const EngineRow* row : engine_registry()) {
    if (!row->launch || !row->launch->file) continue;
    if (auto launch = row->launch->file(path, text, version_of(row->engine))) {
      launch->file = path;
      launch->placeholder_model = is_placeholder_model(launch->model);
      return {std::move(*launch)};
    }
  }
  if (is_launch_manifest(path)) return launch_lines::launches_in_manifest(path, text, version_of);
  if (is_service_unit(path) || launch_text_kind(text) == LaunchText::unit)
    return launch_lines::launches_in_unit(path, text, version_of, fragment_engine);
  if (is_env_file(path)) return launch_lines::launches_in_env_file(path, text, version_of);
  std::vector<Launch> launches;
  try {
    launches = launches_in(text, version_of, fragment_engine, path);
  } catch (const std::invalid_argument& e) {
    throw InputError(path, fmt::format("cannot split the script: {}", e.what()));
  }
  if (launches.empty())
    throw InputError(path, fmt::format("starts no engine ropelens knows (expected {}, or an Ollama Modelfile)",
                                       launch_lines::kCommandsRead));
  return launches;
}

std::vector<Launch> read_serve_commands(std::string_view command, const VersionOf& version_of,
                                        std::optional<Engine> fragment_engine) {
  std::vector<Launch> launches;
  try {
    launches = launches_in(command, version_of, fragment_engine, "--serve");
  } catch (const InputError& e) {
    const std::string what = e.what();
    throw std::invalid_argument(what.substr(std::string("--serve: ").size()));
  }
  if (!launches.empty()) return launches;
  const auto commands = split_shell_commands(command);
  const bool fragment = !commands.empty() && launch_lines::starts_with_flag(commands.front());
  throw std::invalid_argument(
      fragment ? fmt::format("'{}' is a flag-only fragment: give --stack ENGINE (one engine: vllm, sglang or "
                             "llama.cpp) to say whose flags they are, and --model PATH|ID for the model",
                             launch_lines::command_excerpt(command))
               : fmt::format("'{}' starts no engine ropelens knows (expected {})",
                             launch_lines::command_excerpt(command), launch_lines::kCommandsRead));
}

namespace {

// The tier's default for the GPUs' memory; without it, the smallest tier's, and a note says --memory picks the tier.
void choose_default_by_memory(Launch& launch, std::optional<std::int64_t> gpu_memory_bytes) {
  const std::vector<MemoryTier>& tiers = launch.default_by_memory;
  const MemoryTier* chosen = &tiers.back();
  if (gpu_memory_bytes)
    for (const MemoryTier& tier : tiers)
      if (*gpu_memory_bytes >= tier.min_bytes) {
        chosen = &tier;
        break;
      }
  launch.asked_tokens = chosen->tokens;
  if (tiers.size() == 1) {  // a release whose default does not depend on the memory
    launch.notes.push_back(
        fmt::format("{} is {} tokens ({})", launch.length_flag, chosen->tokens, launch.default_by_memory_source));
    return;
  }
  std::vector<std::string> steps;
  for (auto tier = tiers.rbegin(); tier != tiers.rend(); ++tier)
    steps.push_back(tier->min_bytes == 0 ? fmt::format("{}", tier->tokens)
                                         : fmt::format("{} from {}", tier->tokens, format_bytes(tier->min_bytes)));
  const std::string chosen_for =
      gpu_memory_bytes ? fmt::format("for {} of GPU memory, --memory × --tp", format_bytes(*gpu_memory_bytes))
                       : "without --memory the smallest tier; --memory × --tp picks the tier";
  launch.notes.push_back(fmt::format("{} is {} tokens ({}): it depends on the GPUs' memory summed: {} ({})",
                                     launch.length_flag, chosen->tokens, chosen_for, fmt::join(steps, ", "),
                                     launch.default_by_memory_source));
}

}  // namespace

bool add_load_time_keys(Launch& launch, const Model& run, const Model& as_read) {
  const EngineRow& row = engine_row(launch.engine);
  return row.launch && row.launch->load_time_keys && row.launch->load_time_keys(launch, run, as_read);
}

void resolve_launch(Launch& launch, const Model& model, const Model& as_read,
                    std::optional<std::int64_t> gpu_memory_bytes) {
  if (!launch.asked_tokens && !launch.default_by_memory.empty()) choose_default_by_memory(launch, gpu_memory_bytes);
  const EngineRow& row = engine_row(launch.engine);
  const EngineView view = row.view(model, launch.version, launch.asked_tokens.value_or(0));
  launch.limit_tokens = view.length.limit_tokens;
  const std::int64_t total = launch.asked_tokens.value_or(
      view.length.default_tokens.value_or(view.length.limit_tokens.value_or(model.max_position_embeddings.value)));
  launch.served_tokens = launch.slots_split_length ? std::max<std::int64_t>(1, total / launch.slots) : total;
  if (launch.slots_split_length && launch.slots > 1) launch.cache_tokens = total;  // the cache holds every slot
  if (launch.asked_tokens && view.length.limit_tokens && *launch.asked_tokens > *view.length.limit_tokens &&
      view.length.beyond == LimitAction::error && !launch.allow_longer_set &&
      !launch_lines::longer_allowed_by_default(launch)) {
    launch.problems.push_back(
        {LaunchProblemKind::length_refused, launch.length_flag,
         fmt::format("{} {} is above the length {} derives, {} ({}): it refuses to start{} (\"{}\")",
                     launch.length_flag, *launch.asked_tokens, row.display_name, *view.length.limit_tokens,
                     view.length.derivation,
                     launch.allow_longer.empty() ? "" : fmt::format(" unless {} is set", launch.allow_longer),
                     view.length.message),
         launch.allow_longer.empty()
             ? fmt::format("ask for at most {} tokens", *view.length.limit_tokens)
             : fmt::format("set {}=1 to serve {} tokens (the engine then only warns), after extending RoPE so the "
                           "model reaches that length, or ask for at most {} tokens",
                           launch.allow_longer, *launch.asked_tokens, *view.length.limit_tokens),
         launch.allow_longer.empty() ? "" : fmt::format("{}=1 {}", launch.allow_longer, launch.command)});
  }
  if (launch.slots_split_length && launch.slots > 1 && launch.asked_tokens)
    launch.problems.push_back(
        {LaunchProblemKind::slot_below_asked, launch.length_flag,
         fmt::format("{} {} is split over {} slots: each request gets a {}-token slot, not {}", launch.length_flag,
                     *launch.asked_tokens, launch.slots, launch.served_tokens, *launch.asked_tokens),
         fmt::format("give {} {} for {} slots of {} tokens, or fewer slots", launch.length_flag,
                     *launch.asked_tokens * launch.slots, launch.slots, *launch.asked_tokens)});
  if (row.launch && row.launch->resolve) row.launch->resolve(launch, model, as_read);
}

namespace launch_detail {

void unknown_flag(Launch& launch, const std::string& flag, const std::vector<std::string>& known,
                  std::string_view engine_name) {
  const std::string name = flag.substr(0, flag.find('='));
  const auto meant = closest_match(name, known);
  launch.problems.push_back({LaunchProblemKind::unknown_flag, name,
                             fmt::format("{} is not a flag {} takes{}: it refuses to start", name, engine_name,
                                         meant ? fmt::format(" (did you mean {}?)", *meant) : ""),
                             meant ? fmt::format("write {}", *meant) : fmt::format("remove {}", name)});
}

std::optional<std::int64_t> token_value(Launch& launch, const std::string& flag, const std::string& value,
                                        bool allow_zero) {
  try {
    return parse_token_count(value, allow_zero ? 0 : 1);
  } catch (const std::invalid_argument& e) {
    launch.problems.push_back(
        {LaunchProblemKind::unknown_flag, flag,
         fmt::format("{} {}: {} (expected a number of tokens such as 131072 or 128k)", flag, value, e.what()),
         fmt::format("give {} a number of tokens", flag)});
    return std::nullopt;
  }
}

std::optional<double> number_value(Launch& launch, const std::string& flag, const std::string& value) {
  try {
    std::size_t used = 0;
    const double number = std::stod(value, &used);
    if (used == value.size()) return number;
  } catch (const std::exception&) {
  }
  launch.problems.push_back({LaunchProblemKind::unknown_flag, flag, fmt::format("{} {}: not a number", flag, value),
                             fmt::format("give {} a number", flag)});
  return std::nullopt;
}

bool env_true(const ShellCommand& command, const std::string& name) {
  const auto it = command.env.find(name);
  if (it == command.env.end()) return false;
  std::string value = it->second;
  std::transform(value.begin(), value.end(), value.begin(), [](unsigned char c) { return std::tolower(c); });
  return value == "1" || value == "true" || value == "yes";
}

std::string command_text(const ShellCommand& command) {
  std::vector<std::string> words;
  for (const auto& [name, value] : command.env) words.push_back(name + "=" + shell_word(value));
  for (const auto& word : command.words) words.push_back(shell_word(word));
  return fmt::format("{}", fmt::join(words, " "));
}

void apply_config_override(Launch& launch, const std::string& key, const nlohmann::json& value,
                           const std::string& parent) {
  const std::string pointer = json_pointer_join(parent, key);
  if (value.is_object() && key.ends_with("_config")) {
    for (const auto& [inner, inner_value] : value.items()) apply_config_override(launch, inner, inner_value, pointer);
    return;
  }
  if (key == "rope_parameters") {
    launch.config_edits.push_back({parent + "/rope_scaling", nullptr});
    launch.config_edits.push_back({parent + "/rope_theta", nullptr});
  }
  launch.config_edits.push_back({pointer, value});
}

std::optional<std::string> value_of(const std::vector<std::string>& words, std::size_t& i, const std::string& flag,
                                    Launch& launch) {
  const std::string& word = words[i];
  if (const auto eq = word.find('='); eq != std::string::npos && word.starts_with("--")) return word.substr(eq + 1);
  if (i + 1 < words.size()) return words[++i];
  launch.problems.push_back({LaunchProblemKind::unknown_flag, flag,
                             fmt::format("{} needs a value and the command ends", flag),
                             fmt::format("give {} a value", flag)});
  return std::nullopt;
}

std::string program_name(const std::string& word) {
  std::string name = word.substr(word.find_last_of("/\\") + 1);
  if (name.ends_with(".exe")) name.resize(name.size() - 4);
  return name;
}

bool takes_flag(const Launch& launch, const FlagRelease& flag) {
  if (!flag.added.empty() && release_before(launch.engine, launch.release, flag.added)) return false;
  return flag.removed.empty() || release_before(launch.engine, launch.release, flag.removed);
}

void check_variables(const ShellCommand& command, std::span<const EngineVariables> variables, Launch& launch) {
  for (const EngineVariables& known : variables) {
    if (known.names.empty()) continue;  // read through the engine's flags
    const std::vector<std::string> names(known.names.begin(), known.names.end());
    for (const auto& [name, value] : command.env) {
      if (!name.starts_with(known.prefix) || std::find(names.begin(), names.end(), name) != names.end()) continue;
      std::optional<std::string> meant;
      for (const auto& [written, read] : known.meant)
        if (written == name) meant = std::string(read);
      if (!meant) meant = closest_match(name, names);
      launch.problems.push_back(
          {LaunchProblemKind::unread_variable, name,
           fmt::format("{} is not a variable {} reads{}: it is ignored, silently ({})", name,
                       launch.runner.empty() ? display_name(launch.engine) : std::string_view(launch.runner),
                       meant ? fmt::format(" (did you mean {}?)", *meant) : "", known.source),
           meant ? fmt::format("write {}={}", *meant, shell_word(value)) : fmt::format("remove {}", name)});
    }
  }
}

namespace flag_spelling {

// Where the release the launch runs stands against a flag's releases.
enum class Taken { yes, not_yet, no_more };

struct Spelled {
  const FlagRelease* flag = nullptr;  // the table's row, when the word names one
  Taken taken = Taken::yes;
};

const FlagRelease* find_flag(std::span<const FlagRelease> flags, std::string_view name) {
  for (const FlagRelease& flag : flags)
    if (flag.flag == name) return &flag;
  return nullptr;
}

Taken taken_at(const Launch& launch, const FlagRelease& flag) {
  if (!flag.added.empty() && release_before(launch.engine, launch.release, flag.added)) return Taken::not_yet;
  if (!flag.removed.empty() && !release_before(launch.engine, launch.release, flag.removed)) return Taken::no_more;
  return Taken::yes;
}

// The flag as the release reads the word: its row (taken or not), or none when the engine never had it.
Spelled spelled_flag(std::string name, const FlagSyntax& syntax, const Launch& launch) {
  if (syntax.underscores && name.starts_with("--")) std::replace(name.begin() + 2, name.end(), '_', '-');
  if (const FlagRelease* flag = find_flag(syntax.flags, name)) return {flag, taken_at(launch, *flag)};
  if (syntax.negations && name.starts_with("--no-"))
    if (const FlagRelease* flag = find_flag(syntax.flags, "--" + name.substr(5)))
      return {flag, taken_at(launch, *flag)};
  if (syntax.abbreviations && name.starts_with("--") && name.size() > 3) {
    const FlagRelease* only = nullptr;
    int matches = 0;
    for (const FlagRelease& flag : syntax.flags)
      if (flag.flag.starts_with("--") && flag.flag.starts_with(name) && taken_at(launch, flag) == Taken::yes) {
        ++matches;
        only = &flag;
      }
    if (matches == 1) return {only, Taken::yes};
  }
  return {};
}

// "vLLM 0.12.0" for a pinned release, "vLLM" for the default (the newest release ropelens places).
std::string engine_at(const Launch& launch, std::string_view engine_name) {
  return launch.release.empty() ? std::string(engine_name) : fmt::format("{} {}", engine_name, launch.release);
}

// A flag the engine has had, but not at the release the launch runs.
void refused_at_release(Launch& launch, const std::string& written, const Spelled& spelled, const FlagSyntax& syntax) {
  const FlagRelease& flag = *spelled.flag;
  const FlagChange* change = nullptr;
  for (const FlagChange& candidate : syntax.changes)
    if (candidate.flag == flag.flag) change = &candidate;
  const std::string engine(syntax.engine_name);
  if (spelled.taken == Taken::no_more) {
    launch.problems.push_back(
        {LaunchProblemKind::unknown_flag, written,
         fmt::format("{} was removed in {} {}{}: {} refuses to start", written, engine, flag.removed,
                     change && !change->change.empty() ? fmt::format(" ({})", change->change) : "",
                     engine_at(launch, engine)),
         change && !change->instead.empty()
             ? std::string(change->instead)
             : fmt::format("remove {}, or pin the release it runs with --stack {}@VERSION (before {})", written,
                           to_string(launch.engine), flag.removed)});
    return;
  }
  launch.problems.push_back({LaunchProblemKind::unknown_flag, written,
                             fmt::format("{} came in {} {}: {} does not take it and refuses to start", written, engine,
                                         flag.added, engine_at(launch, engine)),
                             fmt::format("remove {}, or run {} {} or later (and say so with --stack {}@{})", written,
                                         engine, flag.added, to_string(launch.engine), flag.added)});
}

// The flags the launch's release takes, for did-you-mean. Kept per flag table and release (on each thread): a line
// of unknown words otherwise parses every row's releases again for each of them (vLLM's table has hundreds of rows).
std::shared_ptr<const std::vector<std::string>> flags_taken(const FlagSyntax& syntax, const Launch& launch) {
  struct KeptFlags {
    const FlagRelease* table;
    Engine engine;
    std::string release;
    std::shared_ptr<const std::vector<std::string>> flags;
  };
  thread_local std::vector<KeptFlags> kept;
  for (const KeptFlags& entry : kept)
    if (entry.table == syntax.flags.data() && entry.engine == launch.engine && entry.release == launch.release)
      return entry.flags;
  auto known = std::make_shared<std::vector<std::string>>();
  for (const FlagRelease& flag : syntax.flags)
    if (taken_at(launch, flag) == Taken::yes) known->emplace_back(flag.flag);
  constexpr std::size_t kKept = 32;  // flag tables × releases one run reads; beyond it the oldest goes
  if (kept.size() == kKept) kept.erase(kept.begin());
  kept.push_back({syntax.flags.data(), launch.engine, launch.release, known});
  return known;
}

}  // namespace flag_spelling

std::vector<std::string> walk_flags(const std::vector<std::string>& words, std::size_t start, const FlagSyntax& syntax,
                                    Launch& launch,
                                    const std::function<bool(const std::string& flag, std::size_t& i)>& handle) {
  using namespace flag_spelling;
  std::vector<std::string> positional;
  for (std::size_t i = start; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (word.size() < 2 || word[0] != '-' || (word[1] >= '0' && word[1] <= '9')) {
      positional.push_back(word);
      continue;
    }
    const std::string written = word.substr(0, word.starts_with("--") ? word.find('=') : std::string::npos);
    const Spelled spelled = spelled_flag(written, syntax, launch);
    const bool inline_value = word.find('=') != std::string::npos && word.starts_with("--");
    const auto skip_value = [&] {
      if (!inline_value && i + 1 < words.size() && (words[i + 1].empty() || words[i + 1][0] != '-')) ++i;
    };
    if (spelled.flag == nullptr) {
      const auto known = flags_taken(syntax, launch);
      if (syntax.every_flag_known || closest_match(written, *known))
        unknown_flag(launch, written, *known, syntax.engine_name);
      continue;
    }
    if (spelled.taken != Taken::yes) {
      refused_at_release(launch, written, spelled, syntax);
      skip_value();
      continue;
    }
    const std::string flag(spelled.flag->flag);
    const std::string as_flag = written.starts_with("--no-") && !flag.starts_with("--no-") ? written : flag;
    if (handle(as_flag, i)) continue;
    skip_value();
  }
  return positional;
}

}  // namespace launch_detail

}  // namespace ropelens
