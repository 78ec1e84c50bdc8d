#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace ckpt401 {

// A config value with the key that states it, as a message names it.
struct Dim {
  std::int64_t value = 0;
  std::string key;
  Provenance from;
};

// What one projection's rows (or, for o_proj, columns) should be: extra + count × width.
struct Expected {
  std::string_view projection;  // "q_proj"
  int axis = 0;                 // 0: rows (out features), 1: columns (in features)
  Dim count;                    // heads; value 1 and no key for a projection that is not per head
  Dim width;                    // the width of one head, or of the whole projection
  Dim extra{};                  // a part beside the heads (MLA's latent), value 0 and no key when none
  std::int64_t value() const { return extra.value + count.value * width.value; }
};

static Dim dim_of(const std::optional<Field<int>>& field, std::string key) {
  return field ? Dim{field->value, std::move(key), field->from} : Dim{};
}

static Dim one() { return {1, "", {}}; }

// The head width and key/value heads of one layer: Gemma 4's full-attention layers have their own.
static std::pair<Dim, Dim> layer_head_shape(const Model& model, int layer) {
  const KvShape& kv = model.kv;
  const bool global = layer < static_cast<int>(model.layers.size()) &&
                      model.layers[static_cast<std::size_t>(layer)].attention == AttentionKind::global;
  Dim width =
      global && kv.global_head_dim ? dim_of(kv.global_head_dim, "global_head_dim") : dim_of(kv.head_dim, "head_dim");
  Dim kv_heads = global && kv.global_num_kv_heads ? dim_of(kv.global_num_kv_heads, "global_num_key_value_heads")
                 : kv.num_kv_heads                ? dim_of(kv.num_kv_heads, "num_key_value_heads")
                                                  : dim_of(kv.num_attention_heads, "num_attention_heads");
  return {width, kv_heads};
}

static std::vector<Expected> mla_expectations(const Model& model) {
  const KvShape& kv = model.kv;
  const Dim heads = dim_of(kv.num_attention_heads, "num_attention_heads");
  const Dim qk = dim_of(kv.head_dim, "qk_nope_head_dim + qk_rope_head_dim");
  const Dim v = dim_of(kv.v_head_dim, "v_head_dim");
  const int nope =
      model.qk_nope_head_dim ? model.qk_nope_head_dim->value : kv.head_dim->value - kv.qk_rope_head_dim->value;
  const Dim kv_b_width{nope + v.value, "qk_nope_head_dim + v_head_dim", v.from};
  const Dim rope = dim_of(kv.qk_rope_head_dim, "qk_rope_head_dim");
  const Dim latent = dim_of(kv.kv_lora_rank, "kv_lora_rank");
  return {{"q_proj", 0, heads, qk, {}},
          {"q_b_proj", 0, heads, qk, {}},
          {"kv_a_proj_with_mqa", 0, one(), rope, latent},
          {"kv_b_proj", 0, heads, kv_b_width, {}},
          {"o_proj", 1, heads, v, {}}};
}

static std::vector<Expected> expectations(const Model& model, int layer) {
  const KvShape& kv = model.kv;
  if (!kv.num_attention_heads || !kv.head_dim) return {};
  if (kv.kv_lora_rank && kv.qk_rope_head_dim && kv.v_head_dim) return mla_expectations(model);
  const auto [width, kv_heads] = layer_head_shape(model, layer);
  const Dim heads = dim_of(kv.num_attention_heads, "num_attention_heads");
  const Dim fused{heads.value + 2 * kv_heads.value, fmt::format("num_attention_heads + 2 × {}", kv_heads.key),
                  kv_heads.from};
  return {{"q_proj", 0, heads, width, {}},
          {"k_proj", 0, kv_heads, width, {}},
          {"v_proj", 0, kv_heads, width, {}},
          {"o_proj", 1, heads, width, {}},
          {"qkv_proj", 0, fused, width, {}}};
}

// The GGUF name of a projection (llama.cpp's LLM_TENSOR_ATTN_*); MLA projections are left unchecked in GGUF files,
// whose converters split or rename them.
static std::string_view gguf_name(std::string_view projection) {
  static constexpr std::pair<std::string_view, std::string_view> kNames[] = {{"q_proj", "attn_q"},
                                                                             {"k_proj", "attn_k"},
                                                                             {"v_proj", "attn_v"},
                                                                             {"o_proj", "attn_output"},
                                                                             {"qkv_proj", "attn_qkv"}};
  for (const auto& [torch, gguf] : kNames)
    if (torch == projection) return gguf;
  return {};
}

// "self_attn.q_proj.weight", or in a GGUF (layers under "blk.") "attn_q.weight".
static bool is_projection(const LayerTensor& at, std::string_view projection) {
  if (at.prefix == "blk.") {
    const std::string_view gguf = gguf_name(projection);
    return !gguf.empty() && at.rest == fmt::format("{}.weight", gguf);
  }
  return at.rest == fmt::format("self_attn.{}.weight", projection);
}

// Output-gated attention (Qwen3-Next) projects a gate beside every query: q_proj is twice as tall.
static bool holds(const Expected& e, std::uint64_t size) {
  const auto expected = static_cast<std::uint64_t>(e.value());
  return size == expected || (e.projection == "q_proj" && size == 2 * expected);
}

struct Mismatch {
  const CheckpointTensor* first = nullptr;
  Expected expected;
  std::vector<int> layers;

  std::int64_t size() const { return static_cast<std::int64_t>(first->shape[static_cast<std::size_t>(expected.axis)]); }
  // "model.layers.0.self_attn.q_proj.weight is [4096, 5120] (layers 0–39, alike)"
  std::string tensor_text() const {
    return fmt::format("{} is {}{}", first->name, shape_text(first->shape),
                       layers.size() == 1 ? "" : fmt::format(" (layers {}, alike)", index_ranges(layers)));
  }
};

// What explains a mismatch: the head width when the head count divides the tensor, unless another projection holds
// that width and the width divides the tensor (then the head count); `fix` is the value the checkpoint implies for
// that key (0 when neither divides it).
struct Explanation {
  const Dim* key = nullptr;
  std::int64_t fix = 0;
};

// Widths some projection of the checkpoint holds, by key and value: a width they confirm is not what is wrong.
using Confirmed = std::set<std::pair<std::string, std::int64_t>>;

static Explanation explain(const Mismatch& m, const Confirmed& confirmed) {
  const Expected& e = m.expected;
  const std::int64_t rest = m.size() - e.extra.value;
  if (rest <= 0) return {&e.width, 0};
  const bool width_divides = e.count.key.empty() || rest % e.count.value == 0;
  const bool count_divides = !e.count.key.empty() && rest % e.width.value == 0;
  if (count_divides && (confirmed.count({e.width.key, e.width.value}) || !width_divides))
    return {&e.count, rest / e.width.value};
  if (width_divides) return {&e.width, rest / e.count.value};
  return {&e.width, 0};
}

static std::string mismatch_text(const Mismatch& m, const Explanation& why) {
  const Expected& e = m.expected;
  const std::string_view axis = e.axis == 0 ? "rows" : "columns";
  const std::string extra = e.extra.key.empty() ? "" : fmt::format("{} {} + ", e.extra.key, e.extra.value);
  const std::string count = e.count.key.empty() ? "" : fmt::format("{} {} × ", e.count.key, e.count.value);
  if (why.fix > 0 && why.key == &e.width)
    return fmt::format("{}: its {} {} are {}{}{}, but {} is {} ({})", m.tensor_text(), m.size(), axis, extra, count,
                       why.fix, e.width.key, e.width.value, e.width.from.describe());
  if (why.fix > 0)
    return fmt::format("{}: its {} {} are {}{} heads × {} {}, but {} is {} ({})", m.tensor_text(), m.size(), axis,
                       extra, why.fix, e.width.key, e.width.value, e.count.key, e.count.value, e.count.from.describe());
  return fmt::format("{}: its {} {} are not {}{}{} {} = {}", m.tensor_text(), m.size(), axis, extra, count, e.width.key,
                     e.width.value, e.value());
}

// "set head_dim to 128", or for a sum of keys "make qk_nope_head_dim + qk_rope_head_dim add up to 192".
static std::string fix_text(const Explanation& why, std::string_view projection) {
  if (why.fix <= 0) return fmt::format("make {} and the checkpoint's {} agree", why.key->key, projection);
  const std::string edit = why.key->key.find(" + ") == std::string::npos
                               ? fmt::format("set {} to {}", why.key->key, why.fix)
                               : fmt::format("make {} add up to {}", why.key->key, why.fix);
  return fmt::format(
      "{} as the checkpoint holds it (transformers builds {} from the config and refuses a "
      "checkpoint tensor of another shape)",
      edit, projection);
}

// One finding per key and value the checkpoint implies: the first projection in full, the others it explains too.
static void report(const std::vector<const Mismatch*>& group, const Explanation& why, const Model& model, Sink& out) {
  const Mismatch& first = *group.front();
  std::string message = mismatch_text(first, why);
  std::vector<std::string> also;
  for (std::size_t i = 1; i < group.size(); ++i)
    also.push_back(fmt::format("{} {}", group[i]->expected.projection, shape_text(group[i]->first->shape)));
  if (!also.empty()) message += fmt::format("; {} agree with {} {}", fmt::join(also, ", "), why.key->key, why.fix);
  const std::string pointer = why.key->from.pointer.empty() ? model.text_pointer : why.key->from.pointer;
  auto finding = out.report(pointer, message);
  finding.fact("tensor", first.first->name)
      .fact("shape", first.first->shape)
      .fact("config_key", why.key->key)
      .fact("expected", first.expected.value());
  finding.help(fix_text(why, first.expected.projection));
}

static void check(const Context& cx, Sink& out) {
  const Model& model = cx.model;
  if (!model.checkpoint) return;
  // By projection (in the order the expectations list them), shape and expected size.
  std::map<std::tuple<int, std::vector<std::uint64_t>, std::int64_t>, Mismatch> found;
  Confirmed confirmed;
  for (const auto& tensor : model.checkpoint->tensors) {
    const auto at = language_layer_tensor(tensor.name);
    if (!at || tensor.shape.size() != 2) continue;
    const std::vector<Expected> expected = expectations(model, at->layer);
    for (std::size_t order = 0; order < expected.size(); ++order) {
      const Expected& e = expected[order];
      if (!is_projection(*at, e.projection) || e.value() <= 0) continue;
      if (holds(e, tensor.shape[static_cast<std::size_t>(e.axis)])) {
        confirmed.insert({e.width.key, e.width.value});
        continue;
      }
      Mismatch& m = found[{static_cast<int>(order), tensor.shape, e.value()}];
      if (!m.first) m = {&tensor, e, {}};
      m.layers.push_back(at->layer);
    }
  }
  std::vector<std::pair<Explanation, std::vector<const Mismatch*>>> groups;
  for (auto& entry : found) {
    Mismatch& m = entry.second;
    std::sort(m.layers.begin(), m.layers.end());
    const Explanation why = explain(m, confirmed);
    const auto same = std::find_if(groups.begin(), groups.end(), [&](const auto& g) {
      return why.fix > 0 && g.first.fix == why.fix && g.first.key->key == why.key->key;
    });
    if (same != groups.end()) same->second.push_back(&m);
    else groups.push_back({why, {&m}});
  }
  for (const auto& [why, group] : groups) report(group, why, model, out);
}

}  // namespace ckpt401

extern const Rule CKPT401{{"CKPT401", "attention-shape-mismatch", Severity::error,
                           "An attention projection in the checkpoint does not have the shape the config's heads and "
                           "head_dim give"},
                          &ckpt401::check};

}  // namespace ropelens::rules
