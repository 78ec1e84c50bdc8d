#include "render/table/table_summary.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "render/writers/format.hpp"

namespace ropelens::render_detail {

std::string band_summary(const SetupTable& st) {
  const BandSummary& s = st.summary;
  std::vector<std::string> parts;
  parts.push_back(fmt::format("{} pairs kept", s.kept));
  if (s.scaled > 0)
    parts.push_back(s.uniform_scale ? fmt::format("{} divided by {:.3g}", s.scaled, *s.uniform_scale)
                                    : fmt::format("{} scaled", s.scaled));
  if (s.interpolated > 0) {
    std::string scales;
    if (s.interpolated_scales.size() <= 8) {
      for (double v : s.interpolated_scales) scales += fmt::format("{}×{:.2f}", scales.empty() ? "" : " ", v);
    } else {
      auto [lo, hi] = std::minmax_element(s.interpolated_scales.begin(), s.interpolated_scales.end());
      scales = fmt::format("×{:.2f}–×{:.2f}", *lo, *hi);
    }
    parts.push_back(
        fmt::format("{} interpolated (pairs {}: {})", s.interpolated, index_ranges(s.interpolated_pairs), scales));
  }
  if (s.zero > 0) parts.push_back(fmt::format("{} with frequency 0 (no position)", s.zero));
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out;
}

std::string setup_heading(const Model& model, const SetupTable& st) {
  const RopeSetup& s = model.setups[static_cast<std::size_t>(st.setup)];
  std::string window = s.window_tokens ? fmt::format(" within {} tokens", s.window_tokens->value) : "";
  std::string head = fmt::format("setup {}: layers {} ({} layers), {} attention{}\n", s.name, index_ranges(s.layers),
                                 s.layers.size(), to_string(s.attention), window);
  head += fmt::format("{}, rope_theta {}, rotary_dim {} of head_dim {} ({} pairs)", to_string(s.type),
                      number(s.rope_theta.value), s.rotary_dim, s.head_dim.value, st.table.inv_freq.size());
  if (st.table.effective_theta != s.rope_theta.value)
    head += fmt::format(", effective base {}", fixed(st.table.effective_theta, 6));
  if (s.factor || st.table.factor != 1.0) head += fmt::format(", factor {}", number(st.table.factor));
  if (s.original_max_position_embeddings)
    head += fmt::format(", original {}", s.original_max_position_embeddings->value);
  head += fmt::format(", declared {}", s.max_position_embeddings.value);
  if (st.table.correction_low)
    head +=
        fmt::format(", yarn ramp pairs {}–{}", fixed(*st.table.correction_low, 4), fixed(*st.table.correction_high, 4));
  if (s.type == RopeType::longrope) head += st.table.long_factors ? ", long factors" : ", short factors";
  return head;
}

std::string attention_summary(const SetupTable& st) {
  double a = st.table.attention_factor;
  return fmt::format("attention factor {} on cos and sin (q·k logits ×{})", fixed(a, 5), fixed(a * a, 5));
}

std::string audit_summary(const SetupTable& st, std::int64_t target_tokens) {
  if (!st.audit) return {};
  const SetupAudit& a = *st.audit;
  std::string phases = fmt::format("trained {} tokens", a.pretrain_tokens);
  if (a.extension_tokens > 0) phases += fmt::format(", extended to {}", a.extension_tokens);
  std::string attended = a.attended_tokens < target_tokens ? fmt::format(" (window {} tokens)", a.attended_tokens) : "";
  if (a.out_of_range_pairs.empty())
    return fmt::format("at {} tokens{}: every pair stays within angles seen in training ({})", target_tokens, attended,
                       phases);
  const PairAudit& worst = a.pairs[static_cast<std::size_t>(*a.worst_pair)];
  return fmt::format("at {} tokens{}: {} pairs out of range (pairs {}; {}); worst pair {}: {}° seen, {}° needed",
                     target_tokens, attended, a.out_of_range_pairs.size(), index_ranges(a.out_of_range_pairs), phases,
                     worst.pair, fixed(worst.seen_deg, 3), fixed(worst.needed_deg, 3));
}

}  // namespace ropelens::render_detail
