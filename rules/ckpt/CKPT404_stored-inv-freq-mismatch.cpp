#include <cmath>
#include <map>

#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace ckpt404 {

// Old checkpoints computed the buffer in float32: equal at float32 precision within a few units in the last place.
static bool same_at_float32(double stored, double computed) {
  const auto expected = static_cast<double>(static_cast<float>(computed));
  return std::abs(stored - expected) <= 1e-6 * std::abs(expected);
}

// The first pair where the stored frequencies differ from `computed`, none when they all agree.
static std::optional<std::size_t> first_difference(const std::vector<double>& stored,
                                                   const std::vector<double>& computed) {
  for (std::size_t i = 0; i < stored.size(); ++i)
    if (!same_at_float32(stored[i], computed[i])) return i;
  return std::nullopt;
}

// The setup whose frequencies a buffer holds: its layer's, or the first setup's for a model-wide buffer.
static int setup_of(const Model& model, std::string_view name) {
  const auto at = language_layer_tensor(name);
  if (at && at->layer < static_cast<int>(model.layers.size()))
    return model.layers[static_cast<std::size_t>(at->layer)].setup;
  return model.setups.empty() ? -1 : 0;
}

// The base the stored frequencies were computed with, from pair i: θ = inv_freq_i^(-d / 2i), to five digits.
static std::string stored_base(const std::vector<double>& stored, int rotary_dim) {
  if (stored.size() < 2 || !(stored[1] > 0.0 && stored[1] < 1.0)) return "another base";
  const double theta = std::pow(stored[1], -rotary_dim / 2.0);
  const double step = std::pow(10.0, std::floor(std::log10(theta)) - 4);
  return fmt::format("rope_theta ≈ {}", number(std::round(theta / step) * step));
}

struct Buffers {
  const CheckpointTensor* first = nullptr;
  int alike = 0;
};

static void report_count(const RopeSetup& setup, const Model& model, const CheckpointTensor& t, std::size_t pairs,
                         Sink& out) {
  out.report(pointer_or(setup.head_dim.from, model.text_pointer),
             fmt::format("{} is {}: {} frequencies, but head_dim {} with partial_rotary_factor {} rotates {} dims, "
                         "{} pairs",
                         t.name, shape_text(t.shape), t.values.size(), setup.head_dim.value,
                         number(setup.partial_rotary_factor.value), setup.rotary_dim, pairs))
      .help("make head_dim and partial_rotary_factor give the rotary width the checkpoint was trained with")
      .fact("tensor", t.name)
      .fact("shape", t.shape)
      .fact("config_key", "head_dim");
}

// Which side to fix depends on what holds the buffer. A file: either the config states the wrong base or the file
// holds a stale buffer, and only the person who trained it knows which. A module in memory (verify_rotary): the
// config is what the checkpoint was saved with, and the buffer is what runs, so the buffer (or how it was loaded)
// is wrong; the usual cause is the version rule transformers 4.x follows.
static std::string values_help(const Model& model, const CheckpointTensor& buffer) {
  if (model.checkpoint && model.checkpoint->in_memory)
    return fmt::format(
        "the module runs its buffer {}, not the config: rebuild that rotary embedding from the config, or load the "
        "checkpoint with the transformers version that saved it (transformers 4.x reads rope_theta only at the top "
        "level of config.json, so a checkpoint saved by transformers 5, which writes it inside rope_parameters, gets "
        "4.x's default base); do not change the config's rope_theta to match the buffer",
        buffer.name);
  return "either the config's rope_theta is wrong (set it to the base the buffer holds, if the weights were trained "
         "with it) or the file's buffer is stale (a conversion stored another base's frequencies: drop the buffer or "
         "write it again from the config)";
}

static void report_values(const RopeSetup& setup, const Model& model, const Buffers& buffers,
                          const std::vector<double>& computed, std::size_t pair, Sink& out) {
  const CheckpointTensor& t = *buffers.first;
  const std::string alike = buffers.alike > 1 ? fmt::format(" (and {} more buffers alike)", buffers.alike - 1) : "";
  out.report(pointer_or(setup.rope_theta.from, model.text_pointer),
             fmt::format("{} is {}{}: it holds the frequencies of {} (pair {}: {}), but the config's rope_theta {} "
                         "gives {} there",
                         t.name, shape_text(t.shape), alike, stored_base(t.values, setup.rotary_dim), pair,
                         number(t.values[pair]), number(setup.rope_theta.value), number(computed[pair])))
      .help(values_help(model, t))
      .fact("tensor", t.name)
      .fact("shape", t.shape)
      .fact("config_key", "rope_theta")
      .fact("pair", pair);
}

static void check(const Context& cx, Sink& out) {
  const Model& model = cx.model;
  if (!model.checkpoint) return;
  std::map<int, Buffers> differing;  // by setup
  std::map<int, std::size_t> first_pair;
  for (const auto& tensor : model.checkpoint->tensors) {
    if (tensor.values.empty()) continue;
    const int setup = setup_of(model, tensor.name);
    if (setup < 0 || setup >= static_cast<int>(cx.tables.size())) continue;
    const RopeTable& table = cx.tables[static_cast<std::size_t>(setup)];
    const RopeSetup& s = model.setups[static_cast<std::size_t>(setup)];
    if (tensor.values.size() != table.inv_freq.size()) {
      report_count(s, model, tensor, table.inv_freq.size(), out);
      continue;
    }
    // Checkpoints saved before scaling moved into the buffer hold the unscaled frequencies: either is the config's.
    const auto scaled = first_difference(tensor.values, table.inv_freq);
    const auto unscaled = first_difference(tensor.values, table.base_inv_freq);
    if (!scaled || !unscaled) continue;
    Buffers& buffers = differing[setup];
    if (!buffers.first) {
      buffers.first = &tensor;
      first_pair[setup] = *unscaled;
    }
    ++buffers.alike;
  }
  for (const auto& [setup, buffers] : differing)
    report_values(model.setups[static_cast<std::size_t>(setup)], model, buffers,
                  cx.tables[static_cast<std::size_t>(setup)].base_inv_freq, first_pair[setup], out);
}

}  // namespace ckpt404

extern const Rule CKPT404{{"CKPT404", "stored-inv-freq-mismatch", Severity::error,
                           "A rotary inv_freq buffer stored in the checkpoint differs from the frequencies the config "
                           "gives"},
                          &ckpt404::check};

}  // namespace ropelens::rules
