#include <fmt/format.h>

#include "format.hpp"
#include "ropelens/render.hpp"

namespace ropelens {
namespace {


void line(std::ostream& out, std::string_view indent, std::string_view name, const std::string& value,
          const Provenance& from) {
  out << fmt::format("{}{:<34} {:<22} {}\n", indent, name, value, from.describe());
}

template <class T> std::string show(const T& value) { return fmt::format("{}", value); }

void render_setup(const Model& model, const RopeSetup& s, std::ostream& out) {
  out << fmt::format("\nsetup {}: layers {} ({} layers), {} attention", s.name, index_ranges(s.layers), s.layers.size(),
                     to_string(s.attention));
  if (s.window_tokens) out << fmt::format(" within {} tokens", s.window_tokens->value);
  out << "\n";
  const char* in = "  ";
  line(out, in, "rope_type", s.rope_type_name.value, s.rope_type_name.from);
  line(out, in, "rope_theta", show(s.rope_theta.value), s.rope_theta.from);
  line(out, in, "head_dim", show(s.head_dim.value), s.head_dim.from);
  line(out, in, "partial_rotary_factor", show(s.partial_rotary_factor.value), s.partial_rotary_factor.from);
  line(out, in, "rotary_dim",
       fmt::format("{} ({} pairs{})", s.rotary_dim, s.rotary_dim / 2,
                   s.head_dim.value > s.rotary_dim ? fmt::format(", {} dims unrotated", s.head_dim.value - s.rotary_dim)
                                                    : ""),
       Provenance::derived("int(head_dim x partial_rotary_factor)"));
  line(out, in, "max_position_embeddings", show(s.max_position_embeddings.value), s.max_position_embeddings.from);
  if (s.original_max_position_embeddings)
    line(out, in, "original_max_position_embeddings", show(s.original_max_position_embeddings->value),
         s.original_max_position_embeddings->from);
  if (s.factor) line(out, in, "factor", show(s.factor->value), s.factor->from);
  if (s.type == RopeType::yarn) {
    line(out, in, "beta_fast", show(s.yarn.beta_fast.value), s.yarn.beta_fast.from);
    line(out, in, "beta_slow", show(s.yarn.beta_slow.value), s.yarn.beta_slow.from);
    if (s.yarn.mscale) line(out, in, "mscale", show(s.yarn.mscale->value), s.yarn.mscale->from);
    if (s.yarn.mscale_all_dim) line(out, in, "mscale_all_dim", show(s.yarn.mscale_all_dim->value), s.yarn.mscale_all_dim->from);
    if (s.yarn.attention_factor)
      line(out, in, "attention_factor", show(s.yarn.attention_factor->value), s.yarn.attention_factor->from);
    line(out, in, "truncate", s.yarn.truncate.value ? "true" : "false", s.yarn.truncate.from);
  }
  if (s.type == RopeType::longrope) {
    line(out, in, "short_factor", fmt::format("{} values", s.longrope.short_factor.value.size()),
         s.longrope.short_factor.from);
    line(out, in, "long_factor", fmt::format("{} values", s.longrope.long_factor.value.size()), s.longrope.long_factor.from);
    if (s.longrope.attention_factor)
      line(out, in, "attention_factor", show(s.longrope.attention_factor->value), s.longrope.attention_factor->from);
  }
  if (s.type == RopeType::llama3) {
    line(out, in, "low_freq_factor", show(s.llama3.low_freq_factor.value), s.llama3.low_freq_factor.from);
    line(out, in, "high_freq_factor", show(s.llama3.high_freq_factor.value), s.llama3.high_freq_factor.from);
  }
  if (!s.mrope_section.empty())
    line(out, in, "mrope_section",
         fmt::format("[{}]{}", fmt::join(s.mrope_section, ", "), s.mrope_interleaved ? " interleaved" : ""),
         Provenance::at(s.pointer + "/mrope_section"));
  if (s.window_tokens) line(out, in, "window_tokens", show(s.window_tokens->value), s.window_tokens->from);
  (void)model;
}

void render_reference(const ModelReference& r, std::ostream& out) {
  out << fmt::format("{:<34} {} @ {} -> {}\n", "model id", r.id, r.revision, r.resolved);
  out << fmt::format("{:<34} {}\n", "file", r.path);
}

void render_attention_layers(const Model& model, std::ostream& out) {
  if (!model.hybrid_schedule_from) return;
  const auto attending = model.attention_layers();
  line(out, "", "attention layers",
       fmt::format("{} of {}: {}", attending.size(), model.layers.size(), index_ranges(attending)),
       *model.hybrid_schedule_from);
}

}  // namespace

void render_inspect_text(const InspectReport& report, std::ostream& out) {
  const Model& model = *report.model;
  const SchemeReport& schemes = report.schemes;
  const std::vector<Diagnostic>& problems = report.problems;
  out << fmt::format("{}\n", model.source);
  if (model.reference) render_reference(*model.reference, out);
  line(out, "", "model_type",
       fmt::format("{}{}", model.model_type.value, model.transformers_native ? "" : " (remote code)"),
       model.model_type.from);
  if (!model.text_pointer.empty()) line(out, "", "language model", model.text_pointer, Provenance::at(model.text_pointer));
  line(out, "", "positional scheme", std::string(to_string(model.scheme)), model.scheme_from);
  if (model.scheme == PositionScheme::rope || model.scheme == PositionScheme::rope_2d)
    line(out, "", "pairing", std::string(to_string(model.pairing.value)), model.pairing.from);
  line(out, "", "num_layers", fmt::format("{}", model.num_layers.value), model.num_layers.from);
  line(out, "", "max_position_embeddings", fmt::format("{}", model.max_position_embeddings.value),
       model.max_position_embeddings.from);
  if (model.original_max_position_embeddings)
    line(out, "", "original_max_position_embeddings", fmt::format("{}", model.original_max_position_embeddings->value),
         model.original_max_position_embeddings->from);
  if (model.sliding_window)
    line(out, "", "sliding_window", fmt::format("{}", model.sliding_window->value), model.sliding_window->from);
  if (model.attention_chunk_size)
    line(out, "", "attention_chunk_size", fmt::format("{}", model.attention_chunk_size->value),
         model.attention_chunk_size->from);
  if (model.qk_nope_head_dim)
    line(out, "", "qk_nope_head_dim (no position)", fmt::format("{}", model.qk_nope_head_dim->value),
         model.qk_nope_head_dim->from);
  if (!model.layers.empty()) out << fmt::format("{:<34} {}\n", "schedule", model.schedule_summary());
  render_attention_layers(model, out);
  auto nope = model.nope_layers();
  if (!nope.empty()) out << fmt::format("{:<34} {}\n", "NoPE layers", index_ranges(nope));
  for (const auto& setup : model.setups) render_setup(model, setup, out);
  render_scheme_text(schemes, out);
  if (report.gguf) render_gguf_metadata_text(*report.gguf, out);
  if (report.kv_cache) render_kv_cache_text(*report.kv_cache, out);
  if (!model.notes.empty()) {
    out << "\nnotes\n";
    for (const auto& note : model.notes) out << "  - " << note << "\n";
  }
  out << fmt::format("\nproblems: {}\n", problems.size());
  for (const auto& p : problems)
    out << fmt::format("  {} {}: {}\n", p.code, p.where.pointer.empty() ? "(document)" : p.where.pointer, p.message);
}

}  // namespace ropelens
