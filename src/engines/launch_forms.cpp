// Wrappers and container runs around a server command, engine-neutral (launch_forms.hpp).
#include "launch_forms.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "ropelens/engines/registry.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/input/launch_units.hpp"

namespace ropelens::launch_forms {
namespace {

std::string program_name(const std::string& word) { return word.substr(word.rfind('/') + 1); }

// `docker run` options that take a value (docker run --help, Docker 27); every other option is a switch, and a
// cluster of one-letter switches (-it, -dit) takes none.
constexpr std::string_view kDockerValueOptions[] = {
    "-a", "--attach", "--add-host", "--annotation", "--blkio-weight", "--blkio-weight-device", "--cap-add",
    "--cap-drop", "--cgroup-parent", "--cgroupns", "--cidfile", "--cpu-period", "--cpu-quota", "--cpu-rt-period",
    "--cpu-rt-runtime", "-c", "--cpu-shares", "--cpus", "--cpuset-cpus", "--cpuset-mems", "--detach-keys", "--device",
    "--device-cgroup-rule", "--device-read-bps", "--device-read-iops", "--device-write-bps", "--device-write-iops",
    "--dns", "--dns-option", "--dns-search", "--domainname", "--entrypoint", "-e", "--env", "--env-file", "--expose",
    "--gpus", "--group-add", "--health-cmd", "--health-interval", "--health-retries", "--health-start-interval",
    "--health-start-period", "--health-timeout", "-h", "--hostname", "--ip", "--ip6", "--ipc", "--isolation",
    "--kernel-memory", "-l", "--label", "--label-file", "--link", "--link-local-ip", "--log-driver", "--log-opt",
    "--mac-address", "-m", "--memory", "--memory-reservation", "--memory-swap", "--memory-swappiness", "--mount",
    "--name", "--network", "--net", "--network-alias", "--oom-score-adj", "--pid", "--pids-limit", "--platform", "-p",
    "--publish", "--pull", "--restart", "--runtime", "--security-opt", "--shm-size", "--stop-signal", "--stop-timeout",
    "--storage-opt", "--sysctl", "--tmpfs", "--ulimit", "-u", "--user", "--userns", "--uts", "-v", "--volume",
    "--volume-driver", "--volumes-from", "-w", "--workdir",
    // podman run
    "--device-read-bps", "--hooks-dir", "--pod", "--secret", "--userns"};

bool docker_value_option(const std::string& option) {
  return std::find(std::begin(kDockerValueOptions), std::end(kDockerValueOptions), option) !=
         std::end(kDockerValueOptions);
}

// `docker run`, `docker container run`, `podman run`, `nvidia-docker run`: the index of the first option word.
std::optional<std::size_t> container_run(const std::vector<std::string>& words) {
  if (words.empty()) return std::nullopt;
  const std::string program = program_name(words[0]);
  if (program != "docker" && program != "podman" && program != "nvidia-docker") return std::nullopt;
  if (words.size() > 1 && words[1] == "run") return 2;
  if (words.size() > 2 && words[1] == "container" && words[2] == "run") return 3;
  return std::nullopt;
}

void add_env_assignment(ShellCommand& command, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos) return;  // `-e NAME` passes the host's NAME, which a command does not show
  command.env[assignment.substr(0, eq)] = assignment.substr(eq + 1);
}

void add_env_file(ShellCommand& command, const std::string& file, const std::string& base_folder,
                  std::vector<std::string>& notes) {
  namespace fs = std::filesystem;
  const fs::path path =
      fs::path(file).is_absolute() || base_folder.empty() ? fs::path(file) : fs::path(base_folder) / file;
  std::error_code error;
  if (!fs::is_regular_file(path, error)) {
    notes.push_back(fmt::format("--env-file {} is not on this machine: its variables are not read", file));
    return;
  }
  try {
    for (const auto& [name, value] : read_env_file(read_input_file(path.string()).text)) command.env[name] = value;
  } catch (const std::exception& e) {
    notes.push_back(fmt::format("--env-file {}: {}; its variables are not read", file, e.what()));
  }
}

// The release an image tag names: "v0.8.5" and "0.8.5-cu124" → 0.8.5, "v0.4.6.post1-cu124" → 0.4.6.post1,
// "server-cuda-b5000" → b5000; "" for "latest", "nightly", "server-cuda".
std::string release_of_tag(const std::string& tag) {
  std::size_t i = 0;
  while (i < tag.size()) {
    const bool start = i == 0 || tag[i - 1] == '-' || tag[i - 1] == '_';
    if (start && tag[i] == 'b' && i + 1 < tag.size() && std::isdigit(static_cast<unsigned char>(tag[i + 1]))) {
      std::size_t end = i + 1;
      while (end < tag.size() && std::isdigit(static_cast<unsigned char>(tag[end]))) ++end;
      if (end == tag.size() || tag[end] == '-') return tag.substr(i, end - i);
    }
    if (start && (std::isdigit(static_cast<unsigned char>(tag[i])) ||
                  (tag[i] == 'v' && i + 1 < tag.size() && std::isdigit(static_cast<unsigned char>(tag[i + 1]))))) {
      const std::size_t from = tag[i] == 'v' ? i + 1 : i;
      std::size_t end = from;
      while (end < tag.size() && tag[end] != '-' && tag[end] != '_') ++end;
      const std::string release = tag.substr(from, end - from);
      if (std::count(release.begin(), release.end(), '.') >= 2) return release;
    }
    ++i;
  }
  return "";
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

const ImageEntrypoint* known_image(const std::string& image) {
  const auto [repository, tag] = image_parts(image);
  for (const EngineRow* row : engine_registry()) {
    if (!row->launch) continue;
    for (const ImageEntrypoint& known : row->launch->images) {
      const std::string path(known.repository);
      if ((repository == path || repository.ends_with("/" + path)) && tag.starts_with(known.tag_prefix)) return &known;
    }
  }
  return nullptr;
}

std::vector<std::string> words_of(std::string_view entrypoint) {
  std::vector<std::string> words;
  std::size_t at = 0;
  while (at < entrypoint.size()) {
    const auto end = std::min(entrypoint.find(' ', at), entrypoint.size());
    if (end > at) words.emplace_back(entrypoint.substr(at, end - at));
    at = end + 1;
  }
  return words;
}

// `docker run OPTIONS IMAGE ARGS` as the container runs it.
Unwrapped run_container(ShellCommand command, std::size_t first_option, const std::string& base_folder) {
  Unwrapped out;
  const std::vector<std::string> words = std::move(command.words);
  std::optional<std::vector<std::string>> entrypoint;
  std::size_t i = first_option;
  for (; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (word == "--") {
      ++i;
      break;
    }
    if (word.size() < 2 || word[0] != '-') break;
    const auto eq = word.find('=');
    const std::string option = word.starts_with("--") ? word.substr(0, eq) : word;
    std::optional<std::string> value;
    if (word.starts_with("--") && eq != std::string::npos) value = word.substr(eq + 1);
    else if (docker_value_option(option) && i + 1 < words.size()) value = words[++i];
    else if (!word.starts_with("--") && word.size() > 2 && docker_value_option(word.substr(0, 2)))
      value = word.substr(2);  // -eNAME=value, -p8000:8000
    if (!value) continue;
    const std::string name = docker_value_option(option) ? option : option.substr(0, 2);
    if (name == "-e" || name == "--env") add_env_assignment(command, *value);
    else if (name == "--env-file") add_env_file(command, *value, base_folder, out.notes);
    else if (name == "--entrypoint") entrypoint = std::vector<std::string>{*value};
  }
  if (i >= words.size())
    throw std::invalid_argument(fmt::format("{} names no image", fmt::join(words.begin(), words.begin() + 2, " ")));
  const std::string image = words[i];
  std::vector<std::string> arguments(words.begin() + static_cast<std::ptrdiff_t>(i + 1), words.end());
  out.form = fmt::format("{} run {}", program_name(words[0]), image);
  if (!entrypoint)
    if (const ImageEntrypoint* known = known_image(image)) {
      entrypoint = words_of(known->entrypoint);
      if (!arguments.empty() &&
          std::search(arguments.begin(), arguments.end(), entrypoint->begin(), entrypoint->end()) == arguments.begin())
        throw std::invalid_argument(
            fmt::format("{} repeats its image's entrypoint: {} runs '{} {} …', which the "
                        "engine refuses; start the arguments at the model and its flags",
                        out.form, image, fmt::join(*entrypoint, " "), fmt::join(*entrypoint, " ")));
    }
  if (arguments.empty()) arguments = image_default_arguments(image);
  command.words = entrypoint.value_or(std::vector<std::string>{});
  command.words.insert(command.words.end(), arguments.begin(), arguments.end());
  out.command = std::move(command);
  out.image_release = release_of_tag(image_parts(image).second);
  return out;
}

// Programs that run the command after their own options: the number of option words each takes a value for.
bool strip_wrapper(ShellCommand& command) {
  auto& w = command.words;
  if (w.empty()) return false;
  const std::string program = program_name(w[0]);
  const auto drop = [&](std::size_t n) {
    w.erase(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(std::min(n, w.size())));
  };
  if (program == "exec" || program == "nohup" || program == "time" || program == "setsid" || program == "stdbuf") {
    drop(1);
    while (!w.empty() && w[0].starts_with("-")) drop(1);  // exec -a NAME is rare; stdbuf -oL
    return true;
  }
  if (program == "env") {
    drop(1);
    while (!w.empty() && (w[0].starts_with("-") || w[0].find('=') != std::string::npos)) {
      if (!w[0].starts_with("-")) add_env_assignment(command, w[0]);
      drop(1);
    }
    return true;
  }
  if (program == "sudo") {
    drop(1);
    while (!w.empty() && w[0].starts_with("-")) drop(w[0] == "-u" || w[0] == "-g" ? 2 : 1);
    return true;
  }
  if (program == "nice") {
    drop(1);
    if (!w.empty() && w[0] == "-n") drop(2);
    else if (!w.empty() && w[0].starts_with("-")) drop(1);
    return true;
  }
  if ((program == "uv" || program == "poetry" || program == "pipenv" || program == "pdm") && w.size() > 1 &&
      w[1] == "run") {
    drop(2);
    while (!w.empty() && w[0].starts_with("-")) {
      if (w[0] == "-m" || w[0] == "--module") {  // `uv run -m sglang.launch_server` runs the module with python
        w[0] = "-m";
        w.insert(w.begin(), "python");
        break;
      }
      drop(w[0] == "--with" || w[0] == "--python" ? 2 : 1);
    }
    return true;
  }
  if (program == "conda" && w.size() > 1 && w[1] == "run") {
    drop(2);
    while (!w.empty() && w[0].starts_with("-")) drop(w[0] == "-n" || w[0] == "--name" || w[0] == "-p" ? 2 : 1);
    return true;
  }
  return false;
}

}  // namespace

Unwrapped unwrapped(ShellCommand command, const std::string& base_folder) {
  for (int depth = 0; depth < 8; ++depth) {
    if (const auto first_option = container_run(command.words)) {
      Unwrapped out = run_container(std::move(command), *first_option, base_folder);
      while (strip_wrapper(out.command)) {
      }
      return out;
    }
    if (!strip_wrapper(command)) break;
  }
  Unwrapped out;
  out.command = std::move(command);
  return out;
}

std::optional<std::vector<std::string>> image_entrypoint(const std::string& image) {
  if (const ImageEntrypoint* known = known_image(image)) return words_of(known->entrypoint);
  return std::nullopt;
}

std::vector<std::string> image_default_arguments(const std::string& image) {
  if (const ImageEntrypoint* known = known_image(image)) return words_of(known->default_arguments);
  return {};
}

std::string known_images() {
  std::vector<std::string> images;
  for (const EngineRow* row : engine_registry())
    if (row->launch)
      for (const ImageEntrypoint& known : row->launch->images)
        images.push_back(known.tag_prefix.empty() ? std::string(known.repository)
                                                  : fmt::format("{}:{}…", known.repository, known.tag_prefix));
  return fmt::format("{}", fmt::join(images, ", "));
}

}  // namespace ropelens::launch_forms
