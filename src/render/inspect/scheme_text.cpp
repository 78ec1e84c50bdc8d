#include <fmt/format.h>

#include "render/writers/format.hpp"
#include "ropelens/render/render.hpp"

namespace ropelens {
namespace {

using render_detail::fixed;

std::string span_text(const T5BucketSpan& s) {
  if (!s.last_distance_tokens) return fmt::format("{}:{}+", s.bucket, s.first_distance_tokens);
  if (*s.last_distance_tokens == s.first_distance_tokens)
    return fmt::format("{}:{}", s.bucket, s.first_distance_tokens);
  return fmt::format("{}:{}–{}", s.bucket, s.first_distance_tokens, *s.last_distance_tokens);
}

std::string spans_text(const std::vector<T5BucketSpan>& spans, T5Direction direction) {
  std::string out;
  for (const auto& s : spans)
    if (s.direction == direction) out += (out.empty() ? "" : " ") + span_text(s);
  return out;
}

void alibi_text(const AlibiFacts& a, std::ostream& out) {
  out << fmt::format("ALiBi slopes ({} heads): {}", a.slopes.size(), fixed(a.slopes.front(), 4));
  for (std::size_t i = 1; i < a.slopes.size() && i < 8; ++i) out << " " << fixed(a.slopes[i], 4);
  out << (a.slopes.size() > 8 ? " …\n" : "\n");
  if (a.at_target)
    out << fmt::format("  bias at the farthest distance: steepest head {} {}, shallowest head {} {}\n",
                       a.at_target->steepest_head, fixed(a.at_target->steepest_bias, 5), a.at_target->shallowest_head,
                       fixed(a.at_target->shallowest_bias, 5));
}

void t5_text(const T5Facts& t, std::ostream& out) {
  out << fmt::format("T5 buckets ({} buckets, max_distance {}), bucket:distances\n", t.num_buckets, t.max_distance);
  out << "  bidirectional, past:   " << spans_text(t.spans, T5Direction::past) << "\n";
  out << "  bidirectional, future: " << spans_text(t.spans, T5Direction::future) << "\n";
  out << "  causal:                " << spans_text(t.causal_spans, T5Direction::past) << "\n";
  if (t.last_bucket_distances_bidirectional)
    out << fmt::format("  at the target, {} distances share the last bucket (causal: {})\n",
                       *t.last_bucket_distances_bidirectional, *t.last_bucket_distances_causal);
}

void nope_text(const NopeFacts& n, std::ostream& out) {
  out << fmt::format("NoPE layers ({}): {}\n", n.layers.size(), index_ranges(n.layers));
  if (n.temperature_tuning && n.temperature_at_target)
    out << fmt::format("  query temperature at the target's last position: {}\n", fixed(*n.temperature_at_target, 6));
  if (!n.temperature_tuning) out << "  no attention temperature tuning\n";
}

}  // namespace

void render_scheme_text(const SchemeReport& r, std::ostream& out) {
  bool any = r.alibi || r.t5 || r.nope || r.mla || !r.mrope.empty() || !r.explanations.empty();
  if (!any) return;
  out << "\n";
  if (r.alibi) alibi_text(*r.alibi, out);
  if (r.t5) t5_text(*r.t5, out);
  if (r.nope) nope_text(*r.nope, out);
  if (r.mla) {
    out << fmt::format("MLA: qk_rope_head_dim {} rotates, qk_nope_head_dim {} does not", r.mla->rope_dim,
                       r.mla->nope_dim);
    if (r.mla->softmax_scale_multiplier)
      out << fmt::format("; softmax scale ×{} (mscale² from mscale_all_dim, applied outside RoPE)",
                         fixed(*r.mla->softmax_scale_multiplier, 5));
    out << "\n";
  }
  for (const auto& m : r.mrope) {
    std::vector<int> t, h, w;
    for (std::size_t p = 0; p < m.axis_of_pair.size(); ++p)
      (m.axis_of_pair[p] == MropeAxis::temporal ? t
       : m.axis_of_pair[p] == MropeAxis::height ? h
                                                : w)
          .push_back(static_cast<int>(p));
    out << fmt::format("M-RoPE section [{}]{}: temporal pairs {}; height pairs {}; width pairs {}\n",
                       fmt::join(m.section, ", "), m.interleaved ? " interleaved" : "", index_ranges(t),
                       index_ranges(h), index_ranges(w));
  }
  if (r.learned && r.learned->target_has_row && !*r.learned->target_has_row)
    out << fmt::format("learned positions: the target's last position has no row in the {}-row table\n",
                       r.learned->table_positions);
  for (const auto& line : r.explanations) out << "- " << line << "\n";
}

}  // namespace ropelens
