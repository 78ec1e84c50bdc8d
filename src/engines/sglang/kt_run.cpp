// `kt run MODEL …`, KTransformers' launcher (kvcache-ai/ktransformers @95009ea6, kt-kernel/python/cli/commands/
// run.py), read as the SGLang command it starts (docs/engines.md, "KTransformers"):
// - click parses kt's own options; with ignore_unknown_options and allow_extra_args every other word is kept, in
//   order, and the first of them is MODEL (a path, or a name registered with `kt model add`), so a line that starts
//   with an SGLang flag hands that flag to MODEL;
// - _build_sglang_command runs `python -m sglang.launch_server --model PATH` with kt's values, each the option's,
//   else the settings file's, else kt's default (--mem-fraction-static 0.98, --max-total-tokens 40000,
//   --chunked-prefill-size 4096, --max-running-requests 32, --tensor-parallel-size the GPUs it finds), then the
//   extra words unchanged: SGLang's own flags (--context-length, --json-model-override-args) pass through.
#include <algorithm>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ropelens/engines/launch.hpp"
#include "sglang.hpp"

namespace ropelens::engine_detail {
namespace sglang_launch {
namespace {

using namespace launch_detail;

// kt run's click options that take a value, and the SGLang flag each becomes ("" when it is kt's own).
struct KtOption {
  std::string_view name;
  std::string_view sglang_flag;
};
constexpr KtOption kValueOptions[] = {
    {"--host", "--host"},
    {"-H", "--host"},
    {"--port", "--port"},
    {"-p", "--port"},
    {"--gpu-experts", ""},
    {"--cpu-threads", ""},
    {"--numa-nodes", ""},
    {"--tensor-parallel-size", "--tensor-parallel-size"},
    {"--tp", "--tensor-parallel-size"},
    {"--model-path", ""},
    {"--weights-path", ""},
    {"--kt-method", ""},
    {"--kt-gpu-prefill-threshold", ""},
    {"--attention-backend", "--attention-backend"},
    {"--max-total-tokens", "--max-total-tokens"},
    {"--max-running-requests", "--max-running-requests"},
    {"--chunked-prefill-size", "--chunked-prefill-size"},
    {"--mem-fraction-static", "--mem-fraction-static"},
    {"--watchdog-timeout", "--watchdog-timeout"},
    {"--served-model-name", "--served-model-name"},
};
constexpr std::string_view kSwitches[] = {"--disable-shared-experts-fusion",
                                          "--enable-shared-experts-fusion",
                                          "--quantize",
                                          "-q",
                                          "--advanced",
                                          "--dry-run",
                                          "--help",
                                          "-h"};

// Flags of the SGLang KTransformers installs that upstream SGLang lacks: _build_sglang_command writes them, so that
// SGLang takes them (a switch has no value).
struct ForkFlag {
  std::string_view name;
  bool takes_value;
};
constexpr ForkFlag kForkFlags[] = {{"--kt-enable-dynamic-expert-update", false},
                                   {"--kt-gpu-prefill-token-threshold", true},
                                   {"--kt-numa-nodes", true},
                                   {"--fp8-gemm-backend", true}};

const ForkFlag* fork_flag(std::string_view name) {
  const auto* found = std::find_if(std::begin(kForkFlags), std::end(kForkFlags),
                                   [&](const ForkFlag& flag) { return flag.name == name; });
  return found == std::end(kForkFlags) ? nullptr : found;
}

const KtOption* value_option(std::string_view name) {
  const auto* found = std::find_if(std::begin(kValueOptions), std::end(kValueOptions),
                                   [&](const KtOption& option) { return option.name == name; });
  return found == std::end(kValueOptions) ? nullptr : found;
}

bool is_switch(std::string_view word) {
  return std::find(std::begin(kSwitches), std::end(kSwitches), word) != std::end(kSwitches);
}

bool looks_like_option(const std::string& word) { return word.size() > 1 && word[0] == '-'; }

// The model a line that starts with an SGLang flag means: its first word that is neither an option nor the value
// of the option before it.
std::optional<std::size_t> intended_model(const std::vector<std::string>& extra) {
  for (std::size_t j = 0; j < extra.size(); ++j) {
    if (looks_like_option(extra[j])) continue;
    const bool is_value = j > 0 && looks_like_option(extra[j - 1]) && extra[j - 1].find('=') == std::string::npos;
    if (!is_value) return j;
  }
  return std::nullopt;
}

// kt's options as SGLang flags, and the words click leaves over (MODEL first), in order.
struct KtWords {
  std::vector<std::string> sglang;  // the SGLang flags kt's options become
  std::vector<std::string> extra;   // MODEL, then every word kt does not know
  bool pool_given = false;
  bool memory_given = false;
  bool tp_given = false;
  bool model_path_given = false;
};

KtWords split_kt_words(const std::vector<std::string>& words, Launch& launch) {
  KtWords kt;
  for (std::size_t i = 2; i < words.size(); ++i) {
    const std::string& word = words[i];
    const std::string name = word.starts_with("--") ? word.substr(0, word.find('=')) : word;
    if (const KtOption* option = value_option(name)) {
      const auto value = value_of(words, i, name, launch);
      if (!value) continue;
      kt.pool_given |= option->sglang_flag == "--max-total-tokens";
      kt.memory_given |= option->sglang_flag == "--mem-fraction-static";
      kt.tp_given |= option->sglang_flag == "--tensor-parallel-size";
      kt.model_path_given |= name == "--model-path";
      if (!option->sglang_flag.empty()) {
        kt.sglang.emplace_back(option->sglang_flag);
        kt.sglang.push_back(*value);
      }
    } else if (const ForkFlag* fork = fork_flag(name)) {
      if (fork->takes_value && word.find('=') == std::string::npos)
        while (i + 1 < words.size() && !looks_like_option(words[i + 1])) ++i;  // --kt-numa-nodes 0 1
    } else if (!is_switch(word)) {
      kt.extra.push_back(word);
    }
  }
  return kt;
}

void note_defaults(const KtWords& kt, Launch& launch) {
  if (!kt.memory_given) {
    launch.memory_fraction = kKtransformersMemFraction;
    launch.memory_flag = "--mem-fraction-static";
  }
  if (!kt.pool_given) launch.pool_tokens = kKtransformersTotalTokens;
  if (!kt.tp_given)
    launch.notes.push_back(
        "kt run's --tensor-parallel-size defaults to the number of GPUs it finds (detect_gpus): the audit takes "
        "ropelens' --tp; write --tp N in the line to pin it");
  if (kt.model_path_given)
    launch.notes.push_back(
        "kt run does not start --model-path: the model it serves is MODEL, a path or a name registered with kt "
        "model add (run.py _run_impl @95009ea6)");
}

}  // namespace

bool parse_kt_run(const ShellCommand& command, Launch& launch) {
  const auto& w = command.words;
  if (w.size() < 2 || program_name(w[0]) != "kt" || w[1] != "run") return false;
  launch.version = EngineVersion::sglang_ktransformers;
  if (launch.form.empty()) launch.form = "kt run (KTransformers)";
  KtWords kt = split_kt_words(w, launch);
  if (kt.extra.empty()) {
    launch.notes.push_back(
        "kt run names no MODEL: at a terminal it asks for one, else it lists the registered models and stops");
  } else if (looks_like_option(kt.extra.front())) {
    const std::string taken = kt.extra.front();
    const auto meant = intended_model(kt.extra);
    launch.problems.push_back(
        {LaunchProblemKind::unknown_flag, taken,
         fmt::format("kt run takes '{}' as MODEL: click hands on options it does not know as arguments, and the "
                     "first argument is the model, so kt finds no model of that name and stops",
                     taken),
         meant ? fmt::format("put the model first: kt run {} …", kt.extra[*meant])
               : std::string("put the model first: kt run MODEL, then the SGLang flags")});
    if (meant) {  // audited as the line means it
      launch.model = kt.extra[*meant];
      kt.extra.erase(kt.extra.begin() + static_cast<std::ptrdiff_t>(*meant));
    }
  } else {
    launch.model = kt.extra.front();
    kt.extra.erase(kt.extra.begin());
  }
  std::vector<std::string> sglang = std::move(kt.sglang);
  sglang.insert(sglang.end(), kt.extra.begin(), kt.extra.end());
  read_flags(sglang, 0, launch);
  note_defaults(kt, launch);
  std::vector<std::string> defaults;
  if (!kt.memory_given) defaults.push_back(fmt::format("--mem-fraction-static {}", kKtransformersMemFraction));
  if (!kt.pool_given) defaults.push_back(fmt::format("--max-total-tokens {}", kKtransformersTotalTokens));
  launch.notes.push_back(
      fmt::format("kt run starts python -m sglang.launch_server{} and passes on the flags it does not take as its own "
                  "(kt-kernel/python/cli/commands/run.py _build_sglang_command @95009ea6)",
                  defaults.empty() ? "" : fmt::format(" with kt's {}", fmt::join(defaults, " and "))));
  return true;
}

}  // namespace sglang_launch
}  // namespace ropelens::engine_detail
