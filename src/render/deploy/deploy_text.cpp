// Deployment facts as text: the KV cache at the target (window-aware and per engine), the weights, and a GGUF file's
// header, for inspect and table.
#include <fmt/format.h>

#include <sstream>

#include "render/writers/format.hpp"
#include "render/writers/terminal_text.hpp"
#include "ropelens/render/render.hpp"
#include "ropelens/model/units.hpp"

namespace ropelens {
namespace {

using render_detail::fixed;
using render_detail::number;

// Cache and weight sizes stay far below 2^63 bytes.
std::string bytes_text(std::uint64_t bytes) { return format_bytes(static_cast<std::int64_t>(bytes)); }

// "52 layers × 1023 tokens × 4096 values, 10 layers × 131072 tokens × 4096 values"
std::string groups_text(const KvCacheView& view) {
  std::vector<std::string> parts;
  for (const auto& g : view.groups)
    if (g.tokens_held > 0)
      parts.push_back(fmt::format("{} layer{} × {} tokens × {} values", g.layers.size(),
                                  g.layers.size() == 1 ? "" : "s", g.tokens_held, g.row.values()));
  return parts.empty() ? "no layer keeps tokens" : fmt::format("{}", fmt::join(parts, ", "));
}

void group_line(const KvGroup& g, std::ostream& out) {
  const std::string layers = fmt::format("layers {} ({})", index_ranges(g.layers), g.layers.size());
  if (g.tokens_held == 0) {
    out << fmt::format("  {}: {}: {}\n", g.name, layers, g.holds);
    return;
  }
  out << fmt::format("  {}: {}: {} tokens ({}) × (K {} + V {}) values = {}\n", g.name, layers, g.tokens_held, g.holds,
                     g.row.k, g.row.v, bytes_text(g.bytes));
}

void weights_text(const KvCacheReport& kv, std::ostream& out) {
  if (!kv.weights_bytes) {
    out << "weights: size unknown (no model.safetensors or model.safetensors.index.json beside the config)\n";
    return;
  }
  const std::uint64_t weights = kv.weights_bytes->value;
  out << fmt::format("weights {} ({}); weights + KV cache {} ({} bytes)\n", bytes_text(weights),
                     kv.weights_bytes->from.describe(), bytes_text(weights + kv.cache.total_bytes),
                     group_thousands(weights + kv.cache.total_bytes));
}

// One engine's two lines: name, size and its layer groups, then how it holds them; on a terminal each wraps in its
// own column, so the names and sizes stay aligned.
void engine_lines(const KvCacheView& engine, const TextOptions& options, std::ostream& out) {
  const std::string named = fmt::format("    {:<13} {:>10}  ", engine.name(), bytes_text(engine.total_bytes));
  const std::string blank = fmt::format("    {:<13} {:>10}  ", "", "");
  out << render_detail::hanging(named, groups_text(engine), options.width) << "\n";
  out << render_detail::hanging(blank, engine.summary, options.width) << "\n";
}

void write_kv_cache_text(const KvCacheReport& kv, const TextOptions& options, std::ostream& out) {
  out << "\n";
  if (kv.not_computed) {
    out << fmt::format("KV cache at {} tokens: not computed: {}\n", kv.tokens, *kv.not_computed);
    return;
  }
  const double value_bytes = bytes_per_element(kv.dtype);
  out << fmt::format("KV cache at {} tokens, {} ({} byte{} per value; {}): {} ({} bytes)\n", kv.tokens,
                     to_string(kv.dtype), number(value_bytes), value_bytes == 1.0 ? "" : "s", kv.dtype_from.describe(),
                     bytes_text(kv.cache.total_bytes), group_thousands(kv.cache.total_bytes));
  for (const auto& g : kv.cache.groups) group_line(g, out);
  out << "  by engine, one sequence:\n";
  for (const auto& engine : kv.engines) engine_lines(engine, options, out);
  weights_text(kv, out);
}

}  // namespace

void render_kv_cache_text(const KvCacheReport& kv, std::ostream& out, const TextOptions& options) {
  std::ostringstream block;
  write_kv_cache_text(kv, options, block);
  out << render_detail::fit_lines(block.str(), options.width);
}

void render_gguf_metadata_text(const GgufMetadata& g, std::ostream& out) {
  const auto row = [&](std::string_view name, const std::string& value) {
    out << fmt::format("  {:<18} {}\n", name, value);
  };
  const auto or_dash = [](const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : std::string("-"); };
  out << "\nGGUF header\n";
  row("architecture", g.architecture.value_or("-"));
  row("name", g.name.value_or("-"));
  row("file type", g.file_type ? fmt::format("{} (general.file_type {})", g.quantization, *g.file_type) : "-");
  row("tensors", std::to_string(g.tensor_count));
  row("parameters", group_thousands(g.parameters));
  row("size",
      fmt::format("{} of tensor data, {} bits per weight{}", bytes_text(g.size_bytes), fixed(g.bits_per_weight, 4),
                  g.tensor_bytes ? fmt::format("; tensors {}", bytes_text(*g.tensor_bytes)) : ""));
  if (g.split_count && *g.split_count > 1)
    row("split", fmt::format("part of {} files: tensors and sizes are this file's only", *g.split_count));
  row("context length", or_dash(g.context_length));
  row("embedding length", or_dash(g.embedding_length));
  row("block count", or_dash(g.block_count));
  row("heads", fmt::format("{} (key/value {})", or_dash(g.head_count), or_dash(g.head_count_kv)));
  row("tokenizer", fmt::format("{}, {} tokens{}", g.tokenizer_model.value_or("-"),
                               g.vocabulary_size ? group_thousands(*g.vocabulary_size) : std::string("-"),
                               g.vocabulary_from.empty() ? "" : fmt::format(" ({})", g.vocabulary_from)));
}

}  // namespace ropelens
