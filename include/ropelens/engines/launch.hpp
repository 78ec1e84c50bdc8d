// A launch line (`vllm serve …`, `python -m sglang.launch_server …`, `llama-server …`, an Ollama Modelfile) read as
// the engine reads it: the model it names, the config overrides and GGUF keys its flags replace (in the order the
// engine applies them), the length it asks for, slots, cache dtype, memory fraction and tensor parallelism, and
// what the engine refuses or ignores. Each engine's flag knowledge is in its folder (src/engines/<engine>/launch.cpp,
// its registry row's `launch`); this header and src/engines/launch.cpp are engine-neutral.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ropelens/engines/engine.hpp"
#include "ropelens/engines/engine_views.hpp"
#include "ropelens/input/gguf.hpp"
#include "ropelens/input/shell_words.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/memory/kv_cache.hpp"

namespace ropelens {

// What a launch gets wrong, as the engine version it runs would take it. The SRV rules word them.
enum class LaunchProblemKind {
  unknown_flag,             // a flag the engine version does not take (or removed), or a value it refuses to parse
  length_refused,           // the length is above the derived one and the variable that lifts it is not set
  ignored_override,         // an override the engine applies too late, or never reads
  double_scaling,           // RoPE scaling flags on a model that already scales
  slot_below_asked,         // each request gets less context than the length flag asked for
  memory_fraction_refused,  // a memory fraction the engine refuses at start-up
};

struct LaunchProblem {
  LaunchProblemKind kind;
  std::string flag;     // the flag (or variable) as written: "--max-model-lenn"
  std::string message;  // what the engine does with it, with numbers
  std::string help;     // what to write instead
  // The launch as help says to write it, one POSIX shell line ("" when help has none): the finding's help_command.
  std::string command = {};
};

// An engine default that depends on the GPUs' memory (Ollama's num_ctx): from `min_bytes` of memory summed over the
// GPUs, the default is `tokens`.
struct MemoryTier {
  std::int64_t min_bytes = 0;
  std::int64_t tokens = 0;
};

struct Launch {
  Engine engine{};
  EngineVersion version{};
  std::string release;             // the release the stack pins for the engine ("b7371", "main"; "" unpinned)
  std::string file;                // the launch file, or "--serve" for a command given on the command line
  int line = 1;                    // where the command starts in it
  std::string command;             // the command as one line, words requoted
  std::string model;               // as the command names it ("" when it names none)
  std::vector<Edit> config_edits;  // config.json overrides, in the order they apply
  std::map<std::string, GgufValue, std::less<>> gguf_keys;  // GGUF keys the flags replace (llama.cpp)
  bool rope_flags = false;                                  // the flags change RoPE scaling (llama.cpp)
  std::optional<std::int64_t> asked_tokens;                 // the length flag's value; none: the engine's default
  std::string length_flag;                                  // the length flag as written ("--max-model-len")
  std::int64_t slots = 1;                                   // parallel sequences the length is split over
  bool slots_split_length = false;                          // the length flag is the total over every slot
  bool capped_at_trained = false;                           // a request never gets more than n_ctx_train (GGUF)
  std::optional<double> memory_fraction;                    // as given
  std::string memory_flag;                                  // "--gpu-memory-utilization"
  std::int64_t tensor_parallel = 1;
  std::optional<KvDtype> kv_dtype;  // the cache dtype flag's value; none: the model's
  std::string allow_longer;         // the variable that lifts the derived limit ("" when the engine has none)
  bool allow_longer_set = false;    // … and it is set to a true value
  std::vector<LaunchProblem> problems;
  // The engine's default length when the launch sets none and the default depends on the GPUs' memory (largest
  // tier first; empty otherwise), and where the engine defines it.
  std::vector<MemoryTier> default_by_memory;
  std::string default_by_memory_source;
  std::vector<std::string> notes;  // how the served length was chosen, when the launch does not say
  // Filled by resolve_launch, from the model as the engine runs it:
  std::int64_t served_tokens = 0;            // the context one request gets
  std::optional<std::int64_t> limit_tokens;  // the length the engine derives
};

// A container image of the engine and the entrypoint it runs when a Compose file or a Kubernetes manifest names
// none: the image's repository path ("vllm/vllm-openai", any registry before it), the tags it applies to (those
// starting with `tag_prefix`; "" for all) and the entrypoint's words, space-separated.
struct ImageEntrypoint {
  std::string_view repository;
  std::string_view tag_prefix;
  std::string_view entrypoint;
};

// An engine's launch syntax: its registry row's `launch` (all null for an engine without a server).
struct LaunchSyntax {
  // Reads one shell command when it starts this engine (false otherwise), for the version it runs.
  bool (*parse)(const ShellCommand& command, EngineVersion version, Launch& launch);
  // Reads a launch file of the engine's own format (an Ollama Modelfile) when `file_name` is one; none otherwise.
  std::optional<Launch> (*file)(const std::string& path, std::string_view text, EngineVersion version);
  // The problems only the model shows (a GGUF file that already scales), after the length is resolved: `run` is the
  // model with the launch's overrides applied, `as_read` the file as it is.
  void (*resolve)(Launch& launch, const Model& run, const Model& as_read);
  // Keys the engine itself rewrites when it loads the model under these flags (llama.cpp re-adjusts n_ctx_train for
  // YaRN flags): adds them to launch.gguf_keys with a note, and says whether it added any. Null: none.
  bool (*load_time_keys)(Launch& launch, const Model& run, const Model& as_read) = nullptr;
  // The engine's published images, for containers that run one without naming its entrypoint.
  std::span<const ImageEntrypoint> images = {};
};

// The version a launch of `engine` runs: the deployment's pin, else the engine's main branch.
using VersionOf = std::function<EngineVersion(Engine)>;

// Every launch in a script or launch file (a Modelfile by its engine's `file`, the containers of a Compose file or
// Kubernetes manifest, else shell commands); commands that start no engine are passed over. Throws
// std::invalid_argument for a script that cannot be split, and InputError for a launch file that starts no engine.
std::vector<Launch> read_launches(const std::string& path, std::string_view text, const VersionOf& version_of);
// One command given with --serve ("-" having been read from stdin already); throws std::invalid_argument when it
// starts no engine ropelens knows.
std::vector<Launch> read_serve_commands(std::string_view command, const VersionOf& version_of);

// Whether a path is a launch file check reads as one (a *.sh script, a Modelfile, a Compose file or Kubernetes
// manifest: *.yaml, *.yml).
bool is_launch_file(const std::string& path);

// The served length and the length problems, with the model as the engine runs it (`run`: the overrides applied)
// and as the file states it (`as_read`). `gpu_memory_bytes` (--memory × --tp) picks a memory-dependent default.
void resolve_launch(Launch& launch, const Model& run, const Model& as_read,
                    std::optional<std::int64_t> gpu_memory_bytes = std::nullopt);

// Adds the keys the engine rewrites as it loads the model (its syntax's `load_time_keys`); true when the model must
// be loaded again with them.
bool add_load_time_keys(Launch& launch, const Model& run, const Model& as_read);

// Helpers for the engines' parsers.
namespace launch_detail {

// An unknown flag, with the nearest of `known` when one is close.
void unknown_flag(Launch& launch, const std::string& flag, const std::vector<std::string>& known,
                  std::string_view engine_name);
// A number of tokens as the engine writes it ("131072", "128k"); records a problem and returns none on a bad value.
std::optional<std::int64_t> token_value(Launch& launch, const std::string& flag, const std::string& value,
                                        bool allow_zero);
std::optional<double> number_value(Launch& launch, const std::string& flag, const std::string& value);
// A variable set to a true value ("1", "true", "yes"), in the command's environment.
bool env_true(const ShellCommand& command, const std::string& name);
std::string command_text(const ShellCommand& command);
// One key of a config override, as vLLM applies a dict --hf-overrides (ModelConfig._apply_dict_overrides): a
// sub-config (text_config, …) is updated key by key, any other key replaced. A "rope_parameters" dict is then the
// whole RoPE of its config: transformers v5 folded the config's rope_scaling and rope_theta into the
// rope_parameters it replaces, and reads nothing else. `parent` is the sub-config's pointer ("" for the top).
void apply_config_override(Launch& launch, const std::string& key, const nlohmann::json& value,
                           const std::string& parent = "");

// How an engine's parser reads its flags.
struct FlagSyntax {
  std::span<const std::string_view> known;  // every flag it takes
  std::string_view engine_name;             // "vLLM"
  bool underscores = false;                 // --max_model_len is --max-model-len (vLLM's FlexibleArgumentParser)
  bool abbreviations = false;               // a unique prefix stands for the flag (argparse's allow_abbrev)
  bool negations = false;                   // --no-X for a boolean --X (BooleanOptionalAction)
  bool every_flag_known = true;             // `known` is complete: otherwise only a near miss of one is reported
};
// Walks words[start…]: each flag, spelled as the engine knows it, goes to `handle` (with `i` at it; it advances `i`
// past a value it reads and returns false for a flag it does not model, whose value, when the next word is not a
// flag, is skipped); an unknown flag is a problem; the other words are returned, in order.
std::vector<std::string> walk_flags(const std::vector<std::string>& words, std::size_t start, const FlagSyntax& syntax,
                                    Launch& launch,
                                    const std::function<bool(const std::string& flag, std::size_t& i)>& handle);
// The word at i as `flag` takes it: "--flag=value" → value, else the next word (advancing i).
std::optional<std::string> value_of(const std::vector<std::string>& words, std::size_t& i, const std::string& flag,
                                    Launch& launch);

}  // namespace launch_detail

}  // namespace ropelens
