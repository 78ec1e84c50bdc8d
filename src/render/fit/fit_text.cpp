// fit as text: the budget and what takes it, one row per engine and dtype, the serve flags, and what is not counted.
#include <algorithm>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "render/writers/terminal_text.hpp"
#include "ropelens/model/text.hpp"
#include "ropelens/model/units.hpp"
#include "ropelens/render/command_text.hpp"
#include "ropelens/render/render.hpp"

namespace ropelens {
namespace {

// "9.04 GiB (9,709,281,280 bytes)"; every size here stays far below 2^63 bytes.
std::string size_text(std::uint64_t bytes) {
  return fmt::format("{} ({} bytes)", format_bytes(static_cast<std::int64_t>(bytes)), group_thousands(bytes));
}

void budget_lines(const FitReport& report, std::ostream& out) {
  out << fmt::format("{}\n", report.source);
  out << fmt::format("memory {} per GPU{}\n", size_text(report.memory_bytes),
                     report.gpus > 1 ? fmt::format(", {} GPUs (--tp {})", report.gpus, report.gpus) : "");
  if (report.reserve.bytes > 0)
    out << fmt::format("reserve {}: {}\n", report.reserve.as_given, size_text(report.reserve.bytes));
  out << fmt::format("weights {}: {}\n", size_text(report.weights.value), report.weights.from.describe());
}

// One line per engine: memory × its share − reserve − its part of the weights = what is left for the KV cache.
void engine_budget_lines(const FitReport& report, std::ostream& out) {
  out << fmt::format("\nleft for the KV cache on {}:\n", report.gpus > 1 ? "each GPU" : "the GPU");
  std::vector<Engine> seen;
  for (const EngineFit& fit : report.fits) {
    if (std::find(seen.begin(), seen.end(), fit.engine) != seen.end()) continue;
    seen.push_back(fit.engine);
    std::string formula = format_bytes(static_cast<std::int64_t>(report.memory_bytes));
    if (!fit.share.formula.empty()) formula += fmt::format(" × {:.4g}", fit.share.fraction);
    if (report.reserve.bytes > 0)
      formula += fmt::format(" − reserve {}", format_bytes(static_cast<std::int64_t>(report.reserve.bytes)));
    formula += fmt::format(" − weights {}", format_bytes(static_cast<std::int64_t>(fit.weights_bytes)));
    if (report.gpus > 1) formula += fmt::format(" (1/{})", report.gpus);
    const std::string result = fit.limited_by == FitLimit::weights
                                   ? fmt::format("nothing: the weights exceed the {} it may use",
                                                 format_bytes(static_cast<std::int64_t>(fit.usable_bytes)))
                                   : size_text(fit.kv_budget);
    out << fmt::format("  {:<12}  {} = {}\n", display_name(fit.engine), formula, result);
    if (!fit.share.formula.empty()) out << fmt::format("                {}\n", fit.share.formula);
    if (!fit.weights_as_stated) out << fmt::format("                weights: {}\n", fit.weights_from);
  }
}

void cap_lines(const FitReport& report, std::ostream& out) {
  out << fmt::format("declared length {} ({})\n", report.declared.value, report.declared.from.describe());
  if (report.rope_tokens && *report.rope_tokens < report.declared.value)
    out << fmt::format("in range to {} tokens: beyond it some RoPE pairs rotate past the angles seen in training\n",
                       *report.rope_tokens);
  else if (report.rope_tokens)
    out << "in range to the declared length: no RoPE pair rotates past the angles seen in training\n";
  else out << fmt::format("in-range length not computed: {}\n", report.rope_unknown.value_or("no pair figures"));
}

void fit_rows(const FitReport& report, const TextOptions& options, std::ostream& out) {
  out << fmt::format("\n{:<14}{:<10}{:>12}  {:<12}{}\n", "engine", "kv dtype", "max tokens", "limited by",
                     "KV cache at max tokens");
  for (const EngineFit& fit : report.fits) {
    const std::string_view engine = display_name(fit.engine);
    if (fit.limited_by == FitLimit::weights) {
      out << fmt::format("{:<14}{:<10}{:>12}  {:<12}{}\n", engine, to_string(fit.dtype), "-", "weights",
                         "no length fits");
      continue;
    }
    if (fit.unsupported) {
      out << fmt::format("{:<14}{:<10}{:>12}  {}\n", engine, to_string(fit.dtype), "-", *fit.unsupported);
      continue;
    }
    const std::string row = fmt::format("{:<14}{:<10}{:>12}  {:<12}", engine, to_string(fit.dtype), fit.max_tokens,
                                        to_string(fit.limited_by));
    out << render_detail::hanging(row, fmt::format("{} ({})", size_text(fit.kv_bytes), fit.granularity_text),
                                  options.width)
        << "\n";
  }
}

// Each engine's command through the command printer: after its label when the two fit one line (or there is no
// width), else on the lines below it.
void serve_lines(const FitReport& report, const TextOptions& options, std::ostream& out) {
  bool heading = false;
  for (const EngineFit& fit : report.fits) {
    if (fit.serve_command.empty() || fit.max_tokens == 0) continue;
    if (!heading) out << "\nserve:\n";
    heading = true;
    const std::string label = fmt::format("  {} ({}):", display_name(fit.engine), to_string(fit.dtype));
    const std::string one_line = label + " " + fit.serve_command;
    if (!options.width || render_detail::display_width(one_line) <= *options.width) out << one_line << "\n";
    else out << label << "\n" << command_text(fit.serve_command, {options.width, 4, 2});
  }
}

void error_lines(const FitReport& report, std::ostream& out) {
  std::vector<std::string> engines;
  for (const EngineFit& fit : report.fits)
    if (fit.limited_by == FitLimit::weights)
      engines.push_back(fmt::format("{} ({} of it)", display_name(fit.engine),
                                    format_bytes(static_cast<std::int64_t>(fit.usable_bytes))));
  if (engines.empty()) return;
  out << fmt::format(
      "\nerror: the weights alone exceed what {} may use of the {} GPU: no context fits; give more memory, more "
      "GPUs (--tp) or smaller weights\n",
      fmt::join(engines, ", "), format_bytes(static_cast<std::int64_t>(report.memory_bytes)));
}

void not_counted_lines(const FitReport& report, std::ostream& out) {
  out << "\nnot counted:\n";
  for (const std::string& item : report.not_counted) out << fmt::format("  {}\n", item);
}

// Prose and tables written by `write`, with every line wider than the window wrapped at spaces.
template <class Write> std::string fitted(const TextOptions& options, Write write) {
  std::ostringstream block;
  write(block);
  return render_detail::fit_lines(block.str(), options.width);
}

}  // namespace

// On a terminal, each row's last column wraps in its column and every other line wider than the window at spaces;
// the serve commands are laid out by the command printer, never wrapped as prose.
void render_fit_text(const FitReport& report, std::ostream& out, const TextOptions& options) {
  out << fitted(options, [&](std::ostream& block) {
    budget_lines(report, block);
    cap_lines(report, block);
    engine_budget_lines(report, block);
    fit_rows(report, options, block);
  });
  serve_lines(report, options, out);
  out << fitted(options, [&](std::ostream& block) {
    error_lines(report, block);
    not_counted_lines(report, block);
  });
}

}  // namespace ropelens
