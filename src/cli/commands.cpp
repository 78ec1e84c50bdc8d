#include "commands.hpp"

namespace ropelens::cli {
namespace {

constexpr Example kInspectExamples[] = {
    {"the normalized model of a bundled config, every value with where it came from",
     "ropelens inspect testdata/configs/qwen/qwen3-8b.json"},
};
constexpr Example kTableExamples[] = {
    {"pairs 0, 16 and 29-34 audited at 128k tokens",
     "ropelens table testdata/configs/qwen/qwen3-8b.json --target 128k --pairs 0,16,29-34"},
    {"the same with YaRN x4, without editing the file",
     "ropelens table testdata/configs/qwen/qwen3-8b.json --target 131072 --set "
     "'/rope_scaling={\"rope_type\":\"yarn\",\"factor\":4,\"original_max_position_embeddings\":32768}'"},
};
constexpr Example kCheckExamples[] = {
    {"audit a config at 128k tokens", "ropelens check testdata/configs/qwen/qwen3-8b.json --target 128k"},
    {"a vLLM launch line, as the release it pins runs it",
     "ropelens check --serve 'vllm serve Qwen/Qwen3-8B --max-model-len 131072' --model "
     "testdata/configs/qwen/qwen3-8b.json --stack vllm@0.8.5"},
};
constexpr Example kExplainExamples[] = {{"one rule's documentation", "ropelens explain unseen-angles"}};
constexpr Example kRulesExamples[] = {{"the catalog as Markdown", "ropelens rules --format markdown"}};
constexpr Example kSuggestExamples[] = {
    {"the smallest RoPE change for 128k tokens, with vLLM's command",
     "ropelens suggest testdata/configs/qwen/qwen3-8b.json --target 128k --engine vllm"},
};
constexpr Example kDiffExamples[] = {
    {"what a change to a config introduces and fixes at 128k tokens",
     "ropelens diff testdata/configs/qwen/qwen3-8b.json testdata/configs/qwen/qwen2.5-coder-32b-instruct.json "
     "--target 128k"},
};
constexpr Example kReportExamples[] = {
    {"one HTML page for two models",
     "ropelens report testdata/configs/qwen/qwen3-8b.json "
     "testdata/configs/llama/llama-3.2-3b.json --target 128k -o ropelens-report.html"},
};
constexpr Example kFitExamples[] = {
    {"the longest context in one 24 GiB GPU, in bf16 and fp8",
     "ropelens fit testdata/fit/llama-3.1-8b/config.json --memory 24GiB --weights 16GiB --kv-dtype bf16,fp8"},
};

constexpr Command kCommands[] = {
    {"inspect", "Print the normalized model: every value with where it came from", setup_inspect, kInspectExamples},
    {"table", "Print per-pair RoPE frequencies, scales, wavelengths and turns", setup_table, kTableExamples},
    {"check", "Lint configs and audit them at a target length (exit 0 clean, 1 findings, 2 errors)", setup_check,
     kCheckExamples},
    {"explain", "Print a rule's documentation", setup_explain, kExplainExamples},
    {"rules", "List the rule catalog", setup_rules, kRulesExamples},
    {"suggest",
     "Suggest the smallest RoPE change that keeps every pair in range at a target length, with engine snippets",
     setup_suggest, kSuggestExamples},
    {"diff",
     "Compare two versions of model configs: what changed, and which findings the change introduced (exit 1) or fixed",
     setup_diff, kDiffExamples},
    {"report",
     "Write one self-contained HTML page: per model its settings, wavelength and angle charts, the engine comparison "
     "and the findings (exit codes as check's: 1 when a finding reaches --fail-on, 2 when a file could not be read)",
     setup_report, kReportExamples},
    {"fit",
     "Find the longest context whose weights and KV cache fit a memory budget, per engine and KV-cache dtype, "
     "with the serve flags that give it",
     setup_fit, kFitExamples},
};

}  // namespace

std::span<const Command> commands() { return kCommands; }

// Binding every option of every subcommand was a quarter of `ropelens --version`'s instructions.
Subcommands::Subcommands(CLI::App& app, Outcome& outcome) : outcome_(outcome) {
  entries_.reserve(commands().size());
  for (const Command& command : commands())
    entries_.push_back({app.add_subcommand(command.name, command.summary), &command});
  for (Entry& entry : entries_) entry.cmd->preparse_callback([this, &entry](std::size_t) { bind(entry); });
}

void Subcommands::bind(Entry& entry) {
  if (entry.bound) return;
  entry.bound = true;
  entry.command->setup(entry.cmd, outcome_);
}

void Subcommands::bind_all() {
  for (Entry& entry : entries_) bind(entry);
}

}  // namespace ropelens::cli
