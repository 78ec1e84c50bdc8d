// systemd service units (and their drop-ins) and env files, read for what they start and with which environment:
// a unit's [Service] ExecStart=, Environment= and EnvironmentFile= (systemd.service(5), systemd.exec(5),
// systemd.syntax(7)), and an env file's NAME=value lines (systemd's EnvironmentFile=, docker run --env-file,
// Compose's .env). Nothing is run; the engines' commands are the engines' knowledge (src/engines/launch.cpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ropelens {

constexpr std::size_t kMaxUnitBytes = 1u << 20;  // 1 MiB: units and env files are a few hundred bytes

// An environment in the order it was assigned (a later assignment of a name wins).
using Environment = std::vector<std::pair<std::string, std::string>>;

struct ServiceUnit {
  std::optional<std::string> exec_start;  // the last ExecStart= (an empty one resets), continuations joined, its
                                          // prefixes (@, -, :, +, !) removed
  int exec_line = 1;                      // where it starts
  Environment environment;                // Environment= assignments, then each EnvironmentFile='s, in order
  std::vector<std::string> notes;         // an EnvironmentFile= that could not be read, and why
};

// Whether a path names a systemd service unit or drop-in (*.service, *.service.d/*.conf) or an env file (*.env,
// .env, env-file names).
bool is_service_unit(const std::string& path);
bool is_env_file(const std::string& path);

// A service unit's [Service] section. EnvironmentFile= paths are read as written, else beside the unit (a unit
// copied out of /etc keeps its env file next to it); one that cannot be read is a note ("-" before the path marks
// it optional, as in systemd). Throws std::invalid_argument for a unit over kMaxUnitBytes or without a [Service]
// section.
ServiceUnit read_service_unit(const std::string& path, std::string_view text);

// An env file's assignments: NAME=value per line, `#` comments, an optional `export`, a value in single or double
// quotes taken without them. Throws std::invalid_argument ("line 3: expected NAME=value") for a line that is none.
Environment read_env_file(std::string_view text);

}  // namespace ropelens
