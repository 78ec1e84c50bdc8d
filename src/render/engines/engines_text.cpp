// Engine views side by side: one column per view, every pair where two views differ by more than the threshold
// marked, then lengths, magnitudes, the GGUF conversion and each view's notes.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "render/engines/engine_text.hpp"
#include "render/writers/format.hpp"
#include "ropelens/engines/engine_report.hpp"
#include "render/writers/terminal_text.hpp"
#include "ropelens/render/render.hpp"

namespace ropelens {
namespace {

using render_detail::fixed;
using render_detail::limit_text;
using render_detail::view_title;

constexpr int kColumn = 13;

std::string column_tag(std::size_t view) { return fmt::format("[{}]", view + 1); }

void render_legend(const EngineReport& report, const TextOptions& options, std::ostream& out) {
  out << "views\n";
  for (std::size_t v = 0; v < report.views.size(); ++v)
    out << render_detail::hanging(fmt::format("  {:<4} ", column_tag(v)), view_title(report.views[v]), options.width)
        << fmt::format("\n       follows {}\n", report.views[v].follows);
}

void render_lengths(const EngineReport& report, const TextOptions& options, std::ostream& out) {
  out << fmt::format("\nmaximum length{}\n", report.comparison.lengths_differ ? "  ! engines disagree" : "");
  for (std::size_t v = 0; v < report.views.size(); ++v) {
    const LengthLimit& limit = report.views[v].length;
    out << render_detail::hanging(fmt::format("  {:<4} {:<22} ", column_tag(v), limit_text(limit)), limit.derivation,
                                  options.width)
        << "\n";
    if (limit.beyond == LimitAction::none || !limit.limit_tokens || report.target_tokens <= *limit.limit_tokens)
      continue;
    out << fmt::format("       at {} tokens: {}: {}\n", report.target_tokens, to_string(limit.beyond), limit.message);
    if (!limit.override_how.empty()) out << fmt::format("       override: {}\n", limit.override_how);
  }
}

std::string range_text(const EngineSetupView& s) {
  if (!s.correction_low) return "—";
  return fmt::format("{}–{}", fixed(*s.correction_low, 4), fixed(*s.correction_high, 4));
}

void render_row(const std::string& name, const std::vector<std::string>& cells, std::ostream& out) {
  out << fmt::format("  {:<12}", name);
  for (const auto& cell : cells) out << fmt::format(" {:>{}}", cell, kColumn);
  out << "\n";
}

template <class F> std::vector<std::string> cells(const EngineReport& report, std::size_t setup, F&& cell) {
  std::vector<std::string> out;
  for (const auto& view : report.views) out.push_back(setup < view.setups.size() ? cell(view.setups[setup]) : "—");
  return out;
}

template <class F> bool any_of_views(const EngineReport& report, std::size_t setup, F&& has) {
  for (const auto& view : report.views)
    if (setup < view.setups.size() && has(view.setups[setup])) return true;
  return false;
}

void render_setup_summary(const EngineReport& report, std::size_t setup, std::ostream& out) {
  std::vector<std::string> tags;
  for (std::size_t v = 0; v < report.views.size(); ++v) tags.push_back(column_tag(v));
  render_row("", tags, out);
  render_row("method", cells(report, setup, [](const EngineSetupView& s) { return std::string(to_string(s.method)); }),
             out);
  render_row("factor", cells(report, setup, [](const EngineSetupView& s) { return fixed(s.factor, 5); }), out);
  render_row("pairing",
             cells(report, setup, [](const EngineSetupView& s) { return std::string(to_string(s.pairing)); }), out);
  if (any_of_views(report, setup, [](const EngineSetupView& s) { return s.correction_low.has_value(); }))
    render_row("yarn range", cells(report, setup, range_text), out);
  render_row("magnitude", cells(report, setup, [](const EngineSetupView& s) { return fixed(s.rope_magnitude, 5); }),
             out);
  if (any_of_views(report, setup, [](const EngineSetupView& s) { return s.softmax_multiplier != 1.0; }))
    render_row("softmax ×",
               cells(report, setup, [](const EngineSetupView& s) { return fixed(s.softmax_multiplier, 5); }), out);
  render_row("logits ×",
             cells(report, setup,
                   [](const EngineSetupView& s) {
                     return fixed(s.rope_magnitude * s.rope_magnitude * s.softmax_multiplier, 5);
                   }),
             out);
  if (any_of_views(report, setup, [](const EngineSetupView& s) { return s.effective_theta.has_value(); }))
    render_row("base",
               cells(report, setup,
                     [](const EngineSetupView& s) {
                       return s.effective_theta ? fixed(*s.effective_theta, 6) : std::string("—");
                     }),
               out);
  if (any_of_views(report, setup, [](const EngineSetupView& s) { return s.factor_switch != FactorSwitch::none; }))
    render_row("factors",
               cells(report, setup,
                     [](const EngineSetupView& s) {
                       if (s.factor_switch == FactorSwitch::none) return std::string("—");
                       return std::string(s.long_factors ? "long" : "short");
                     }),
               out);
}

// Pair → the views that differ from the reference view [1] (or, when none does, every view involved).
struct PairMark {
  std::set<std::size_t> from_reference;
  std::set<std::size_t> involved;
  double ratio = 1.0;
};

std::map<int, PairMark> marks_for(const EngineReport& report, int setup) {
  std::map<int, PairMark> marks;
  for (const auto& d : report.comparison.frequencies) {
    if (d.setup != setup) continue;
    PairMark& mark = marks[d.pair];
    if (d.view_a == 0) mark.from_reference.insert(d.view_b);
    mark.involved.insert(d.view_a);
    mark.involved.insert(d.view_b);
    mark.ratio = std::max(mark.ratio, d.ratio());
  }
  return marks;
}

std::string mark_text(const PairMark& mark) {
  std::vector<std::string> which;
  for (auto v : mark.from_reference.empty() ? mark.involved : mark.from_reference) which.push_back(column_tag(v));
  return fmt::format("  * {}{} up to ×{}", fmt::join(which, ""), mark.from_reference.empty() ? "" : " vs [1],",
                     fixed(mark.ratio, 4));
}

// On a terminal a row too wide for its mark takes the mark on a line of its own, under the row.
void render_pairs(const EngineReport& report, std::size_t setup, const TextOptions& options, std::ostream& out) {
  const auto marks = marks_for(report, static_cast<int>(setup));
  std::vector<std::string> tags;
  for (std::size_t v = 0; v < report.views.size(); ++v) tags.push_back(column_tag(v));
  std::string header = fmt::format("  {:>5}", "pair");
  for (const auto& tag : tags) header += fmt::format(" {:>{}}", tag, kColumn);
  const std::string differ = "  differ (> 1e-4 relative)";
  if (options.width && render_detail::display_width(header + differ) > *options.width)
    out << "\n" << differ << "\n" << header << "\n";  // the marks' heading above the columns
  else out << "\n" << header << differ << "\n";
  std::size_t pairs = 0;
  for (const auto& view : report.views)
    if (setup < view.setups.size()) pairs = std::max(pairs, view.setups[setup].inv_freq.size());
  for (std::size_t i = 0; i < pairs; ++i) {
    std::string row = fmt::format("  {:>5}", i);
    for (const auto& view : report.views) {
      const auto& inv = view.setups[setup].inv_freq;
      row += fmt::format(" {:>{}}", i < inv.size() ? fixed(inv[i], 6) : "—", kColumn);
    }
    if (auto it = marks.find(static_cast<int>(i)); it != marks.end()) {
      const std::string mark = mark_text(it->second);
      const bool stacked = options.width && render_detail::display_width(row + mark) > *options.width;
      row += stacked ? "\n      " + mark : mark;
    }
    out << row << "\n";
  }
}

// Each distinct note once, after the tags of every view that has it.
void render_grouped(const std::vector<std::pair<std::size_t, std::string>>& notes, const std::string& indent,
                    std::ostream& out) {
  std::vector<std::pair<std::string, std::string>> grouped;  // note → tags, in first-seen order
  for (const auto& entry : notes) {
    const std::string& note = entry.second;
    auto it = std::find_if(grouped.begin(), grouped.end(), [&](const auto& g) { return g.first == note; });
    if (it == grouped.end()) grouped.emplace_back(note, column_tag(entry.first));
    else it->second += column_tag(entry.first);
  }
  for (const auto& [note, tags] : grouped) out << fmt::format("{}{} {}\n", indent, tags, note);
}

void render_notes(const EngineReport& report, std::size_t setup, std::ostream& out) {
  std::vector<std::pair<std::size_t, std::string>> notes;
  for (std::size_t v = 0; v < report.views.size(); ++v)
    if (setup < report.views[v].setups.size())
      for (const auto& note : report.views[v].setups[setup].notes) notes.emplace_back(v, note.text());
  render_grouped(notes, "  ", out);
}

bool same_in_every_view(const EngineReport& report, std::size_t a, std::size_t b) {
  for (const auto& view : report.views) {
    if (a >= view.setups.size() || b >= view.setups.size()) return false;
    const auto& x = view.setups[a];
    const auto& y = view.setups[b];
    if (x.inv_freq != y.inv_freq || x.rope_magnitude != y.rope_magnitude ||
        x.softmax_multiplier != y.softmax_multiplier)
      return false;
  }
  return true;
}

void render_setup(const Model& model, const EngineReport& report, std::size_t setup, const TextOptions& options,
                  std::ostream& out) {
  const RopeSetup& s = model.setups[setup];
  out << fmt::format("\nsetup {}: layers {}, {} attention{}, {} with rope_theta {}, rotary_dim {}\n", s.name,
                     index_ranges(s.layers), to_string(s.attention),
                     s.window_tokens ? fmt::format(" within {} tokens", s.window_tokens->value) : "", to_string(s.type),
                     render_detail::number(s.rope_theta.value), s.rotary_dim);
  for (std::size_t earlier = 0; earlier < setup; ++earlier)
    if (same_in_every_view(report, earlier, setup)) {
      out << fmt::format("  every view computes the same as for setup {}\n", model.setups[earlier].name);
      return;
    }
  render_setup_summary(report, setup, out);
  render_notes(report, setup, out);
  render_pairs(report, setup, options, out);
}

void render_gguf(const EngineReport& report, std::ostream& out) {
  for (std::size_t v = 0; v < report.views.size(); ++v) {
    const auto& gguf = report.views[v].gguf;
    if (!gguf) continue;
    if (gguf->from_gguf) {
      out << fmt::format("\n{} GGUF file (architecture {}): read as is, no conversion\n", column_tag(v), gguf->arch);
      continue;
    }
    out << fmt::format("\n{} convert_hf_to_gguf.py (architecture {})\n", column_tag(v), gguf->arch);
    if (gguf->failure) out << fmt::format("  fails: {}\n", *gguf->failure);
    for (const auto& [key, value] : gguf->keys) out << fmt::format("  writes {} = {}\n", key, value);
    for (const auto& tensor : gguf->tensors) out << fmt::format("  writes tensor {}\n", tensor);
    for (const auto& lost : gguf->lost) out << fmt::format("  ! cannot represent {}: {}\n", lost.pointer, lost.what);
    for (const auto& note : gguf->notes) out << fmt::format("  note: {}\n", note);
  }
}

// "1.1386 in [1][3][4]; 1.0223 in [2]"
std::string values_by_view(const EngineReport& report, int setup, bool softmax) {
  std::vector<std::pair<std::string, std::string>> groups;  // value → tags, in first-seen order
  for (std::size_t v = 0; v < report.views.size(); ++v) {
    const auto& s = report.views[v].setups[static_cast<std::size_t>(setup)];
    const std::string value = fixed(softmax ? s.softmax_multiplier : s.rope_magnitude, 5);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == value; });
    if (it == groups.end()) groups.emplace_back(value, column_tag(v));
    else it->second += column_tag(v);
  }
  std::vector<std::string> parts;
  for (const auto& [value, tags] : groups) parts.push_back(fmt::format("{} in {}", value, tags));
  return fmt::format("{}", fmt::join(parts, "; "));
}

void render_summary(const Model& model, const EngineReport& report, std::ostream& out) {
  const auto& c = report.comparison;
  out << "\nsummary\n";
  if (const auto& w = c.worst_frequency) {
    std::set<std::pair<int, int>> pairs;
    for (const auto& d : c.frequencies) pairs.insert({d.setup, d.pair});
    out << fmt::format(
        "  frequencies: {} pair(s) differ by more than 1e-4 relative; worst: {}pair {}, {} {} vs {} {} "
        "(×{})\n",
        pairs.size(),
        model.setups.size() > 1 ? fmt::format("setup {} ", model.setups[static_cast<std::size_t>(w->setup)].name) : "",
        w->pair, report.views[w->view_a].label, fixed(w->inv_freq_a, 6), report.views[w->view_b].label,
        fixed(w->inv_freq_b, 6), fixed(w->ratio(), 4));
  } else {
    out << fmt::format("  frequencies: every view within 1e-4 relative (largest difference {})\n",
                       fixed(c.max_frequency_relative, 2));
  }
  if (c.magnitudes.empty()) out << "  magnitudes: every view agrees\n";
  std::set<std::pair<int, bool>> differing;  // (setup, softmax)
  for (const auto& m : c.magnitudes) differing.insert({m.setup, m.softmax});
  for (const auto& [setup, softmax] : differing)
    out << fmt::format("  {}{}: {}\n",
                       model.setups.size() > 1 ? model.setups[static_cast<std::size_t>(setup)].name + " " : "",
                       softmax ? "softmax scale" : "rope magnitude", values_by_view(report, setup, softmax));
  out << fmt::format("  maximum lengths: {}\n", c.lengths_differ ? "engines disagree" : "every limited engine agrees");
}

void write_engines_text(const Model& model, const EngineReport& report, const TextOptions& options, std::ostream& out) {
  out << fmt::format("{} ({}): how each engine runs its RoPE at {} tokens\n\n", model.source, model.model_type.value,
                     report.target_tokens);
  if (model.setups.empty()) {
    out << fmt::format("no rotary layers: positional scheme {}\n", to_string(model.scheme));
    return;
  }
  render_legend(report, options, out);
  render_lengths(report, options, out);
  for (std::size_t s = 0; s < model.setups.size(); ++s) render_setup(model, report, s, options, out);
  render_gguf(report, out);
  std::vector<std::pair<std::size_t, std::string>> notes;
  for (std::size_t v = 0; v < report.views.size(); ++v)
    for (const auto& note : report.views[v].notes) notes.emplace_back(v, note.text());
  if (!notes.empty()) out << "\nnotes\n";
  render_grouped(notes, "  ", out);
  render_summary(model, report, out);
}

}  // namespace

// On a terminal, tables keep their columns (a mark too wide moves under its row, a derivation wraps in its column)
// and every other line wider than the window wraps at spaces; piped, the fixed layout.
void render_engines_text(const Model& model, const EngineReport& report, std::ostream& out,
                         const TextOptions& options) {
  std::ostringstream block;
  write_engines_text(model, report, options, block);
  out << render_detail::fit_lines(block.str(), options.width);
}

}  // namespace ropelens
