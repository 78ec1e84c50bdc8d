// A launch line (`vllm serve …`, `python -m sglang.launch_server …`, `llama-server …`, `ollama serve`, an Ollama
// Modelfile, a container or a systemd unit that runs one) read as the engine release it runs reads it: the model it
// names, the config overrides and GGUF keys its flags replace (in the order the engine applies them), the length it
// asks for, slots, cache dtype, memory fraction and tensor parallelism, and what the engine refuses or ignores. Each
// engine's flag knowledge is in its folder (src/engines/<engine>/launch.cpp and its per-release flag table, its
// registry row's `launch`); this header, src/engines/launch.cpp and launch_forms.cpp are engine-neutral.
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
  unread_variable,          // an engine-prefixed environment variable the engine never reads (a typo, or invented)
  parallelism_refused,      // the model cannot be split as the line asks (heads not divisible by the TP size)
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
  std::string release;             // the release the stack pins for the engine ("b7371", "main"; "" unpinned: the
                                   // newest release ropelens places)
  std::string runner;              // the program that runs the engine when it is not the engine's own ("Ollama")
  std::string file;                // the launch file, or "--serve" for a command given on the command line
  int line = 1;                    // where the command starts in it
  std::string command;             // the command as one line, words requoted
  std::string model;               // as the command names it ("" when it names none)
  bool placeholder_model = false;  // … and it is a placeholder of a recipe ("...", "<model>", "$MODEL")
  std::vector<Edit> config_edits;  // config.json overrides, in the order they apply
  std::map<std::string, GgufValue, std::less<>> gguf_keys;  // GGUF keys the flags replace (llama.cpp)
  bool rope_flags = false;                                  // the flags change RoPE scaling (llama.cpp)
  std::optional<std::int64_t> asked_tokens;                 // the length flag's value; none: the engine's default
  std::string length_flag;                                  // the length flag as written ("--max-model-len")
  bool length_from_model = false;   // the length flag asks for the model's own length (llama.cpp -c 0)
  std::int64_t slots = 1;           // parallel sequences the length is split over
  bool slots_split_length = false;  // the length flag is the total over every slot
  bool slots_share_pool = false;    // the slots share one KV pool: each request may use all of it (llama-server -kvu)
  // The KV cache the engine allocates for every sequence together, when it is not one request's length (Ollama
  // asks llama-server for num_ctx × OLLAMA_NUM_PARALLEL); none: one request's length.
  std::optional<std::int64_t> cache_tokens;
  // The tokens the engine's KV pool holds for every request together, when a flag caps it (SGLang's
  // --max-total-tokens): no request gets more. None: the memory sizes the pool.
  std::optional<std::int64_t> pool_tokens;
  std::string pool_flag;                  // "--max-total-tokens"
  bool capped_at_trained = false;         // a request never gets more than n_ctx_train (GGUF)
  std::optional<double> memory_fraction;  // as given
  std::string memory_flag;                // "--gpu-memory-utilization"
  std::int64_t tensor_parallel = 1;
  std::string tensor_parallel_flag;  // "--tensor-parallel-size", "-tp"; "" when the launch does not set it
  std::optional<KvDtype> kv_dtype;   // the cache dtype flag's value; none: the model's
  std::string allow_longer;          // the variable that lifts the derived limit ("" when the engine has none)
  bool allow_longer_set = false;     // … and it is set to a true value
  std::string form;                  // how the launch was written, when not as the engine's own command
                                     // ("docker run vllm/vllm-openai:v0.8.5", "systemd unit ExecStart=")
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

// What a launch of an engine runs: the behaviour and the release the deployment pins ("" unpinned).
struct LaunchRelease {
  EngineVersion version{};
  std::string release;
};
using VersionOf = std::function<LaunchRelease(Engine)>;

// A container image of the engine and the entrypoint it runs when a Compose file or a Kubernetes manifest names
// none: the image's repository path ("vllm/vllm-openai", any registry before it), the tags it applies to (those
// starting with `tag_prefix`; "" for all) and the entrypoint's words, space-separated.
struct ImageEntrypoint {
  std::string_view repository;
  std::string_view tag_prefix;
  std::string_view entrypoint;
  std::string_view default_arguments = "";  // the image's CMD, run when the container is given no arguments
};

// One flag of an engine's argument parser across its releases, read from the parser's source at each release
// (each engine's launch_flags.inc): the first release that takes it ("" for every release ropelens places) and the
// first that refuses it ("" while the newest release takes it).
struct FlagRelease {
  std::string_view flag;
  std::string_view added;
  std::string_view removed;
};

// What a message says about a flag a release refuses: the change that removed it and what to write instead.
struct FlagChange {
  std::string_view flag;
  std::string_view change;   // "PR #28006"
  std::string_view instead;  // the help
};

// An engine-prefixed environment variable the engine reads (OLLAMA_CONTEXT_LENGTH): a variable with the engine's
// prefix that the engine does not read is named, with the nearest it does read.
struct EngineVariables {
  std::string_view prefix;                  // "VLLM_"
  std::span<const std::string_view> names;  // every variable the engine reads with that prefix
  std::string_view source;                  // where the list comes from ("vllm/envs.py @9aaf83ef")
  std::string_view serves_alone = "";       // the command that starts a server from these variables alone (an env
                                            // file of LLAMA_ARG_* is llama-server's), "" when none does
  // Names people write for a variable the engine reads under another name (OLLAMA_NUM_CTX for
  // OLLAMA_CONTEXT_LENGTH), which the nearest spelling would not find.
  std::span<const std::pair<std::string_view, std::string_view>> meant = {};
};

// An engine's launch syntax: its registry row's `launch` (all null for an engine without a server).
struct LaunchSyntax {
  // Reads one shell command when it starts this engine (false otherwise), for the version and release it runs
  // (launch.version, launch.release).
  bool (*parse)(const ShellCommand& command, Launch& launch);
  // Reads a flag-only fragment (`--max-model-len 131072 --hf-overrides …`, a recipe's flags without the program):
  // the words as flags of this engine's server. Null: the engine takes no fragments.
  void (*fragment)(const ShellCommand& command, Launch& launch) = nullptr;
  // Reads a launch file of the engine's own format (an Ollama Modelfile) when `file_name` is one; none otherwise.
  std::optional<Launch> (*file)(const std::string& path, std::string_view text, const LaunchRelease& release);
  // The problems only the model shows (a GGUF file that already scales), after the length is resolved: `run` is the
  // model with the launch's overrides applied, `as_read` the file as it is.
  void (*resolve)(Launch& launch, const Model& run, const Model& as_read);
  // Keys the engine itself rewrites when it loads the model under these flags (llama.cpp re-adjusts n_ctx_train for
  // YaRN flags): adds them to launch.gguf_keys with a note, and says whether it added any. Null: none.
  bool (*load_time_keys)(Launch& launch, const Model& run, const Model& as_read) = nullptr;
  // The engine's published images, for containers that run one without naming its entrypoint.
  std::span<const ImageEntrypoint> images = {};
  // The environment variables the engine reads, one list per runner (vLLM's VLLM_*, Ollama's OLLAMA_*).
  std::span<const EngineVariables> variables = {};
};

// Every launch in a script or launch file (a Modelfile by its engine's `file`, the containers of a Compose file or
// Kubernetes manifest, a systemd unit's ExecStart=, an env file's server, else shell commands); commands that start
// no engine are passed over. `fragment_engine` is the engine a flag-only fragment is read for (the stack's only
// engine), if any. Throws InputError for a launch file that cannot be read or starts no engine.
std::vector<Launch> read_launches(const std::string& path, std::string_view text, const VersionOf& version_of,
                                  std::optional<Engine> fragment_engine = std::nullopt);
// One command given with --serve ("-" having been read from stdin already); throws std::invalid_argument when it
// starts no engine ropelens knows (a fragment without `fragment_engine` included).
std::vector<Launch> read_serve_commands(std::string_view command, const VersionOf& version_of,
                                        std::optional<Engine> fragment_engine = std::nullopt);

// Whether a path is a launch file check reads as one (a *.sh script, a Modelfile, a Compose file or Kubernetes
// manifest: *.yaml, *.yml, a systemd unit or drop-in: *.service, *.service.d/*.conf, an env file: *.env, .env).
bool is_launch_file(const std::string& path);
// What a launch file whose name says nothing is, from its first line: a script (`#!`), a systemd unit or drop-in
// (`[Service]`, or its `Environment=`/`ExecStart=` lines quoted without the section), an Ollama Modelfile (`FROM`).
enum class LaunchText { none, script, unit, modelfile };
LaunchText launch_text_kind(std::string_view text);

// Whether a command's model is a recipe's placeholder rather than a model ("...", "<model>", "$MODEL", "MODEL").
bool is_placeholder_model(std::string_view model);

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
// A command's program as its name: "/usr/bin/llama-server" and "llama-server.exe" → "llama-server".
std::string program_name(const std::string& word);
// One key of a config override, as vLLM applies a dict --hf-overrides (ModelConfig._apply_dict_overrides): a
// sub-config (text_config, …) is updated key by key, any other key replaced. A "rope_parameters" dict is then the
// whole RoPE of its config: transformers v5 folded the config's rope_scaling and rope_theta into the
// rope_parameters it replaces, and reads nothing else. `parent` is the sub-config's pointer ("" for the top).
void apply_config_override(Launch& launch, const std::string& key, const nlohmann::json& value,
                           const std::string& parent = "");

// How an engine's parser reads its flags.
struct FlagSyntax {
  std::span<const FlagRelease> flags;   // every flag it takes, with the releases that take it
  std::span<const FlagChange> changes;  // what to say about a flag a release refuses
  std::string_view engine_name;         // "vLLM"
  bool underscores = false;             // --max_model_len is --max-model-len (vLLM's FlexibleArgumentParser)
  bool abbreviations = false;           // a unique prefix stands for the flag (argparse's allow_abbrev)
  bool negations = false;               // --no-X for a boolean --X (BooleanOptionalAction)
  bool every_flag_known = true;         // `flags` is complete: otherwise only a near miss of one is reported
};
// Whether the release a launch runs (launch.release; "" and a version key: the newest) takes the flag.
bool takes_flag(const Launch& launch, const FlagRelease& flag);
// Walks words[start…]: each flag, spelled as the release the launch runs knows it, goes to `handle` (with `i` at it;
// it advances `i` past a value it reads and returns false for a flag it does not model, whose value, when the next
// word is not a flag, is skipped); a flag the release does not take is a problem (added later, removed, or unknown
// with the nearest one it takes); the other words are returned, in order.
std::vector<std::string> walk_flags(const std::vector<std::string>& words, std::size_t start, const FlagSyntax& syntax,
                                    Launch& launch,
                                    const std::function<bool(const std::string& flag, std::size_t& i)>& handle);
// The word at i as `flag` takes it: "--flag=value" → value, else the next word (advancing i).
std::optional<std::string> value_of(const std::vector<std::string>& words, std::size_t& i, const std::string& flag,
                                    Launch& launch);
// Names each variable of the command's environment with one of the engine's prefixes that the engine does not read
// (LaunchProblemKind::unread_variable), with the nearest one it reads.
void check_variables(const ShellCommand& command, std::span<const EngineVariables> variables, Launch& launch);

}  // namespace launch_detail

}  // namespace ropelens
