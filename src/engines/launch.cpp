// Launch lines, engine-neutral: which engine a command starts (each registry row's `launch.parse` says), launch
// files split into commands, and the served length resolved from the engine's own length rule (its view).
#include "ropelens/engines/launch.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "ropelens/engines/registry.hpp"
#include "ropelens/input/launch_manifest.hpp"
#include "ropelens/model/text.hpp"
#include "ropelens/model/units.hpp"

namespace ropelens {
namespace launch_lines {

// The published images ropelens knows the entrypoints of: "vllm/vllm-openai, ggml-org/llama.cpp:server…".
std::string known_images() {
  std::vector<std::string> images;
  for (const EngineRow* row : engine_registry())
    if (row->launch)
      for (const ImageEntrypoint& known : row->launch->images)
        images.push_back(known.tag_prefix.empty() ? std::string(known.repository)
                                                  : fmt::format("{}:{}…", known.repository, known.tag_prefix));
  return fmt::format("{}", fmt::join(images, ", "));
}

std::optional<Launch> launch_of(ShellCommand command, const VersionOf& version_of) {
  // `exec vllm serve …`, as container scripts start a server, is the server's command.
  while (!command.words.empty() && command.words.front() == "exec") command.words.erase(command.words.begin());
  for (const EngineRow* row : engine_registry()) {
    if (!row->launch || !row->launch->parse) continue;
    Launch launch;
    launch.engine = row->engine;
    launch.version = version_of(row->engine);
    launch.line = command.line;
    launch.command = launch_detail::command_text(command);
    launch.allow_longer = std::string(row->serve.allow_longer.substr(0, row->serve.allow_longer.find('=')));
    if (!launch.allow_longer.empty()) launch.allow_longer_set = launch_detail::env_true(command, launch.allow_longer);
    if (row->launch->parse(command, launch.version, launch)) return launch;
  }
  return std::nullopt;
}

// The repository path and tag of an image: "ghcr.io/ggml-org/llama.cpp:server-cuda" → the path and "server-cuda".
std::pair<std::string, std::string> image_parts(std::string image) {
  if (const auto at = image.find('@'); at != std::string::npos) image.resize(at);
  const auto slash = image.rfind('/');
  const auto colon = image.rfind(':');
  if (colon != std::string::npos && (slash == std::string::npos || colon > slash))
    return {image.substr(0, colon), image.substr(colon + 1)};
  return {image, ""};
}

// The entrypoint an engine's published image runs, when the image is one.
std::optional<std::vector<std::string>> image_entrypoint(const std::string& image) {
  const auto [repository, tag] = image_parts(image);
  for (const EngineRow* row : engine_registry()) {
    if (!row->launch) continue;
    for (const ImageEntrypoint& known : row->launch->images) {
      const std::string path(known.repository);
      if ((repository == path || repository.ends_with("/" + path)) && tag.starts_with(known.tag_prefix))
        return split_shell_commands(known.entrypoint).at(0).words;
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
  } else if (auto entrypoint = image_entrypoint(container.image)) {
    if (std::search(container.arguments.begin(), container.arguments.end(), entrypoint->begin(), entrypoint->end()) ==
        container.arguments.begin())
      throw InputError(path, fmt::format("line {}: {} repeats its image's entrypoint: {} runs '{} {} …', which the "
                                         "engine refuses; start the command at the model and its flags",
                                         container.line, container.name, container.image, fmt::join(*entrypoint, " "),
                                         fmt::join(*entrypoint, " ")));
    words = std::move(*entrypoint);
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

// Appends the launch of each command that starts an engine, as read from `file`.
void add_launches(const std::vector<ShellCommand>& commands, const VersionOf& version_of, const std::string& file,
                  std::vector<Launch>& launches) {
  for (const ShellCommand& command : commands)
    if (auto launch = launch_of(command, version_of)) {
      launch->file = file;
      launches.push_back(std::move(*launch));
    }
}

std::vector<Launch> launches_in_manifest(const std::string& path, std::string_view text, const VersionOf& version_of) {
  std::vector<Launch> launches;
  std::size_t containers = 0;
  try {
    for (const ManifestContainer& container : read_launch_manifest(text)) {
      ++containers;
      add_launches(container_commands(container, path), version_of, path, launches);
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

std::vector<Launch> launches_in(std::string_view script, const VersionOf& version_of, const std::string& file) {
  std::vector<Launch> launches;
  add_launches(split_shell_commands(script), version_of, file, launches);
  return launches;
}

}  // namespace launch_lines

using launch_lines::launch_of;
using launch_lines::launches_in;

bool is_launch_file(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  return name.ends_with(".sh") || name == "Modelfile" || name.ends_with(".Modelfile") ||
         name.starts_with("Modelfile.") || is_launch_manifest(path);
}

std::vector<Launch> read_launches(const std::string& path, std::string_view text, const VersionOf& version_of) {
  if (is_launch_manifest(path)) return launch_lines::launches_in_manifest(path, text, version_of);
  for (const EngineRow* row : engine_registry()) {
    if (!row->launch || !row->launch->file) continue;
    if (auto launch = row->launch->file(path, text, version_of(row->engine))) {
      launch->file = path;
      return {std::move(*launch)};
    }
  }
  std::vector<Launch> launches;
  try {
    launches = launches_in(text, version_of, path);
  } catch (const std::invalid_argument& e) {
    throw InputError(path, fmt::format("cannot split the script: {}", e.what()));
  }
  if (launches.empty())
    throw InputError(path,
                     "starts no engine ropelens knows (expected vllm serve, python -m vllm.entrypoints.openai."
                     "api_server, python -m sglang.launch_server, llama-server or llama-cli, or an Ollama Modelfile)");
  return launches;
}

std::vector<Launch> read_serve_commands(std::string_view command, const VersionOf& version_of) {
  std::vector<Launch> launches = launches_in(command, version_of, "--serve");
  if (launches.empty())
    throw std::invalid_argument(fmt::format(
        "--serve '{}': starts no engine ropelens knows (expected vllm serve, python -m vllm.entrypoints.openai."
        "api_server, python -m sglang.launch_server, llama-server or llama-cli)",
        terminal_safe(command)));
  return launches;
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
  if (launch.asked_tokens && view.length.limit_tokens && *launch.asked_tokens > *view.length.limit_tokens &&
      view.length.beyond == LimitAction::error && !launch.allow_longer_set) {
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

namespace flag_spelling {

// The flag as the engine reads the word, or "" when it takes no such flag.
std::string spelled_flag(std::string name, const FlagSyntax& syntax) {
  if (syntax.underscores && name.starts_with("--")) std::replace(name.begin() + 2, name.end(), '_', '-');
  const auto known = [&](std::string_view flag) {
    return std::find(syntax.known.begin(), syntax.known.end(), flag) != syntax.known.end();
  };
  if (known(name)) return name;
  if (syntax.negations && name.starts_with("--no-") && known("--" + name.substr(5))) return name;
  if (syntax.abbreviations && name.starts_with("--")) {
    std::string only;
    int matches = 0;
    for (const std::string_view flag : syntax.known)
      if (flag.starts_with(name)) {
        ++matches;
        only = flag;
      }
    if (matches == 1) return only;
  }
  return "";
}

}  // namespace flag_spelling

using flag_spelling::spelled_flag;

std::vector<std::string> walk_flags(const std::vector<std::string>& words, std::size_t start, const FlagSyntax& syntax,
                                    Launch& launch,
                                    const std::function<bool(const std::string& flag, std::size_t& i)>& handle) {
  std::vector<std::string> positional;
  for (std::size_t i = start; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (word.size() < 2 || word[0] != '-' || (word[1] >= '0' && word[1] <= '9')) {
      positional.push_back(word);
      continue;
    }
    const std::string written = word.substr(0, word.starts_with("--") ? word.find('=') : std::string::npos);
    const std::string flag = spelled_flag(written, syntax);
    if (flag.empty()) {
      const std::vector<std::string> known(syntax.known.begin(), syntax.known.end());
      if (syntax.every_flag_known || closest_match(written, known))
        unknown_flag(launch, written, known, syntax.engine_name);
      continue;
    }
    if (handle(flag, i)) continue;
    const bool inline_value = word.find('=') != std::string::npos && word.starts_with("--");
    if (!inline_value && i + 1 < words.size() && (words[i + 1].empty() || words[i + 1][0] != '-')) ++i;
  }
  return positional;
}

}  // namespace launch_detail

}  // namespace ropelens
