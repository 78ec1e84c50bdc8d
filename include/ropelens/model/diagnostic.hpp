// One finding of a rule, with everything every output format needs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ropelens {

enum class Severity { info = 0, warning = 1, error = 2 };
std::string_view to_string(Severity severity);
std::optional<Severity> parse_severity(std::string_view name);

struct Location {
  std::string pointer;  // RFC 6901 JSON pointer into the config ("" = the whole document)
  std::optional<int> line;
  std::optional<int> column;
  std::optional<std::uint64_t> byte_offset;  // binary inputs (GGUF): where the key-value pair starts
  std::string flag;  // a finding about a launch command: the flag (or variable) as written, "--max-model-len"
};

struct Diagnostic {
  std::string code;  // stamped by the sink from the rule's metadata
  std::string name;
  Severity severity = Severity::warning;
  std::string message;  // what is wrong, with the real numbers; lowercase, no final period
  Location where;
  std::string help;  // what to do, starting with a verb
  // A command that does what the help says, as one POSIX shell line ("" = none): text output lays it out below the
  // help with the command printer (ropelens/render/command_text.hpp), so it pastes as printed.
  std::string help_command;
  std::vector<Location> related;
  nlohmann::json facts = nlohmann::json::object();  // computed values for machine formats
};

// What identifies a finding across runs, whatever its wording: a hash of its code and facts (numbers rounded
// to 9 significant digits, so a last-bit difference between math libraries does not count). Baselines, SARIF
// partialFingerprints and `diff` all use this one function; the file and the JSON pointer are matched beside
// it (diff leaves the pointer out when it compares a config.json with a GGUF file, whose keys differ).
std::string finding_fingerprint(const Diagnostic& diagnostic);

}  // namespace ropelens
