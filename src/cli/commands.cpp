#include "commands.hpp"

namespace ropelens::cli {
namespace {

constexpr Command kCommands[] = {
    {"inspect", "Print the normalized model: every value with where it came from", setup_inspect},
    {"table", "Print per-pair RoPE frequencies, scales, wavelengths and turns", setup_table},
    {"check", "Lint configs and audit them at a target length (exit 0 clean, 1 findings, 2 errors)", setup_check},
    {"explain", "Print a rule's documentation", setup_explain},
    {"rules", "List the rule catalog", setup_rules},
    {"suggest",
     "Suggest the smallest RoPE change that keeps every pair in range at a target length, with engine snippets",
     setup_suggest},
    {"diff",
     "Compare two versions of model configs: what changed, and which findings the change introduced (exit 1) or fixed",
     setup_diff},
    {"report",
     "Write one self-contained HTML page: per model its settings, wavelength and angle charts, the engine comparison "
     "and the findings (exit codes as check's: 1 when a finding reaches --fail-on, 2 when a file could not be read)",
     setup_report},
    {"fit",
     "Find the longest context whose weights and KV cache fit a memory budget, per engine and KV-cache dtype, "
     "with the serve flags that give it",
     setup_fit},
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
