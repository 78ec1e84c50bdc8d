// GGUF metadata into the Model: llama.cpp's keys, its loader's defaults and its converter's conventions.
// Semantics follow llama.cpp (src/llama-model.cpp load_hparams, llama_model_rope_type, get_rope_factors).
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <variant>

#include <fmt/format.h>

#include "ropelens/input/gguf.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/normalize/normalize.hpp"
#include "gguf_kv_shape.hpp"
#include "gguf_rope_freqs.hpp"

namespace ropelens {
namespace {

// How llama.cpp applies RoPE for an architecture (llama_model_rope_type).
enum class RopeMode { none, norm, neox, mrope, imrope, unknown };

struct ArchTraits {
  PositionScheme scheme = PositionScheme::rope;
  RopeMode mode = RopeMode::unknown;
};

ArchTraits traits_of(std::string_view arch) {
  static const std::map<std::string_view, PositionScheme, std::less<>> non_rope = {
      {"gpt2", PositionScheme::learned_absolute},
      {"bloom", PositionScheme::alibi},
      {"mpt", PositionScheme::alibi},
      {"refact", PositionScheme::alibi},
      {"jais", PositionScheme::alibi},
      {"jina-bert-v2", PositionScheme::alibi},
      {"t5", PositionScheme::t5_relative},
      {"t5encoder", PositionScheme::t5_relative},
      {"mamba", PositionScheme::none},
      {"mamba2", PositionScheme::none},
      {"rwkv6", PositionScheme::none},
      {"rwkv6qwen2", PositionScheme::none},
      {"rwkv7", PositionScheme::none},
      {"arwkv7", PositionScheme::none},
  };
  static const std::set<std::string_view, std::less<>> norm = {
      "llama",   "llama4",    "deci",     "baichuan",     "starcoder",  "internlm2", "minicpm",
      "xverse",  "command-r", "cohere2",  "olmo",         "arctic",     "deepseek",  "deepseek2",
      "plm",     "chatglm",   "glm4",     "granite",      "granitemoe", "chameleon", "bailingmoe",
      "smollm3", "arcee",     "ernie4_5", "ernie4_5-moe", "mistral3",   "llada",
  };
  static const std::set<std::string_view, std::less<>> neox = {
      "falcon",  "grok",        "dbrx",       "bert",        "nomic-bert",    "stablelm", "bitnet",   "qwen",
      "qwen2",   "qwen2moe",    "qwen3",      "qwen3moe",    "qwen3next",     "olmo2",    "olmoe",    "phi2",
      "phi3",    "phimoe",      "plamo",      "plamo2",      "gemma",         "gemma2",   "gemma3",   "gemma3n",
      "gemma4",  "starcoder2",  "openelm",    "gptneox",     "codeshell",     "orion",    "nemotron", "exaone",
      "exaone4", "minicpm3",    "dots1",      "hunyuan-moe", "hunyuan-dense", "gpt-oss",  "lfm2",     "seed_oss",
      "glm4moe", "bailingmoe2", "minimax-m2", "dream",       "falcon-h1",
  };
  static const std::set<std::string_view, std::less<>> imrope = {"qwen3vl", "qwen3vlmoe", "qwen35", "qwen35moe"};

  if (auto it = non_rope.find(arch); it != non_rope.end()) return {it->second, RopeMode::none};
  if (norm.count(arch)) return {PositionScheme::rope, RopeMode::norm};
  if (neox.count(arch)) return {PositionScheme::rope, RopeMode::neox};
  if (arch == "qwen2vl") return {PositionScheme::rope, RopeMode::mrope};
  if (imrope.count(arch)) return {PositionScheme::rope, RopeMode::imrope};
  return {PositionScheme::rope, RopeMode::unknown};
}

// NORM architectures whose converter permutes each head's Q/K rows (LlamaModel.permute, undo_permute) so that
// llama.cpp's adjacent pairs are the checkpoint's rotate_half pairs (i, i + d/2).
bool converter_permutes_qk(std::string_view arch) {
  static const std::set<std::string_view, std::less<>> permuted = {"llama",      "deci",    "llada", "granite",
                                                                   "granitemoe", "smollm3", "arcee"};
  return permuted.count(arch) > 0;
}

// NORM architectures whose checkpoints rotate adjacent dims already (DeepSeek's rope_interleave, Cohere, ChatGLM,
// Llama 4's complex rotation): the converter leaves their Q/K rows as they are.
bool checkpoint_interleaved(std::string_view arch) {
  static const std::set<std::string_view, std::less<>> interleaved = {"deepseek", "deepseek2", "command-r",
                                                                      "cohere2",  "chatglm",   "llama4"};
  return interleaved.count(arch) > 0;
}

std::string pointer_of(std::string_view key) { return gguf_pointer(key); }

// Values read from float32 keys carry float32 precision: 0.1f / 0.1 is 1, not 1.0000000149.
double to_float32_precision(double value) {
  if (std::abs(value) > static_cast<double>(std::numeric_limits<float>::max())) return value;
  return static_cast<double>(static_cast<float>(value));
}

// Typed lookups of `{arch}.…` keys. A value of the wrong type or out of range is recorded as an InvalidValue and
// treated as absent: llama.cpp's loader would refuse it.
class Metadata {
 public:
  Metadata(const GgufFile& file, std::string arch, Model& model) : file_(file), arch_(std::move(arch)), model_(model) {}

  const std::string& arch() const { return arch_; }
  std::string key(std::string_view suffix) const { return fmt::format("{}.{}", arch_, suffix); }
  std::string pointer(std::string_view suffix) const { return pointer_of(key(suffix)); }
  const GgufValue* find(std::string_view suffix) const { return file_.find(key(suffix)); }

  std::optional<Field<std::int64_t>> integer(std::string_view suffix, std::int64_t min, std::int64_t max) const {
    const GgufValue* value = find(suffix);
    if (!value) return std::nullopt;
    auto number = value->as_integer();
    if (!number) return reject_type(suffix, *value, ValueType::whole_number);
    if (*number < min || *number > max)
      return reject(suffix, {.reason = *number < min ? InvalidReason::below_minimum : InvalidReason::above_maximum,
                             .value = static_cast<double>(*number),
                             .minimum = min,
                             .maximum = max});
    return Field<std::int64_t>{*number, Provenance::at(pointer(suffix))};
  }

  // An integer, or the largest entry of a per-layer integer array (hybrid models store 0 for non-attention layers).
  std::optional<Field<std::int64_t>> integer_or_layer_max(std::string_view suffix, std::int64_t min,
                                                          std::int64_t max) const {
    const GgufValue* value = find(suffix);
    const GgufArray* array = value ? value->as_array() : nullptr;
    if (!array) return integer(suffix, min, max);
    std::optional<std::int64_t> largest;
    for (const auto& element : array->elements)
      if (auto number = integer_of(element)) largest = std::max(largest.value_or(*number), *number);
    if (!largest || *largest < min || *largest > max)
      return reject(suffix, {.reason = InvalidReason::no_usable_layer_value});
    model_.notes.push_back(fmt::format("{} is per layer; the largest value, {}, is used", key(suffix), *largest));
    return Field<std::int64_t>{*largest, Provenance::at(pointer(suffix))};
  }

  std::optional<Field<double>> number(std::string_view suffix) const {
    const GgufValue* value = find(suffix);
    if (!value) return std::nullopt;
    auto number = value->as_number();
    if (!number) return reject_type(suffix, *value, ValueType::number);
    if (!std::isfinite(*number)) return reject(suffix, {.reason = InvalidReason::not_finite});
    return Field<double>{*number, Provenance::at(pointer(suffix))};
  }

  std::optional<Field<double>> positive(std::string_view suffix) const {
    auto field = number(suffix);
    if (field && field->value <= 0.0) return reject_number(suffix, InvalidReason::not_positive, field->value);
    return field;
  }

  std::optional<Field<std::string>> text(std::string_view suffix) const {
    const GgufValue* value = find(suffix);
    if (!value) return std::nullopt;
    const std::string* text = value->as_string();
    if (!text) return reject_type(suffix, *value, ValueType::string);
    return Field<std::string>{*text, Provenance::at(pointer(suffix))};
  }

  std::optional<Field<bool>> flag(std::string_view suffix) const {
    const GgufValue* value = find(suffix);
    if (!value) return std::nullopt;
    auto flag = value->as_bool();
    if (!flag) return reject_type(suffix, *value, ValueType::boolean);
    return Field<bool>{*flag, Provenance::at(pointer(suffix))};
  }

  std::vector<std::int64_t> integers(std::string_view suffix) const {
    const GgufValue* value = find(suffix);
    const GgufArray* array = value ? value->as_array() : nullptr;
    std::vector<std::int64_t> out;
    if (!array) return out;
    for (const auto& element : array->elements) {
      if (auto number = integer_of(element)) out.push_back(*number);
      else if (auto flag = bool_of(element)) out.push_back(*flag ? 1 : 0);
    }
    return out;
  }

  std::nullopt_t reject(std::string_view suffix, InvalidValue invalid) const {
    invalid.field = key(suffix);
    model_.issues.push_back({pointer(suffix), std::move(invalid)});
    return std::nullopt;
  }

  std::nullopt_t reject_type(std::string_view suffix, const GgufValue& value, ValueType expected) const {
    return reject(
        suffix,
        {.reason = InvalidReason::wrong_type, .expected = expected, .written = std::string(to_string(value.type))});
  }

  std::nullopt_t reject_number(std::string_view suffix, InvalidReason reason, double value) const {
    return reject(suffix, {.reason = reason, .value = value});
  }

  const GgufFile& file_;
  std::string arch_;
  Model& model_;
};

// What the file says about scaling, before it is turned into a setup.
struct Scaling {
  GgufFacts stated;                          // kept in the Model for the GGUF rules
  std::optional<Field<double>> attn_factor;  // rope.scaling.attn_factor

  const std::string& type() const { return stated.scaling_type.value; }
  const std::optional<Field<double>>& factor() const { return stated.scaling_factor; }
  const std::vector<float>* tensor(std::string_view name) const {
    const GgufFactorTensor* found = stated.factor_tensor(name);
    return found ? &found->values : nullptr;
  }
  bool factor_applies() const { return stated.factor_applies(); }
  bool extends() const { return stated.extends(); }
};

struct Dims {
  Field<int> head_dim;
  int rotary_dim = 0;
  Field<double> partial_rotary_factor;
};

struct Sliding {
  std::vector<bool> layer_is_sliding;  // empty when no layer slides
  std::optional<Field<double>> theta;  // freq_base_swa, or the architecture's hard-coded base
  bool unscaled = false;               // the architecture runs its sliding layers without the scaling
};

class GgufNormalizer {
 public:
  GgufNormalizer(const GgufFile& file, Model& model, const std::string& arch)
      : file_(file), model_(model), meta_(file, arch, model), traits_(traits_of(arch)) {}

  void run() {
    model_.source = file_.path;
    model_.gguf = GgufFacts{};
    model_.model_type = {meta_.arch(), Provenance::at(pointer_of("general.architecture"))};
    model_.scheme = traits_.scheme;
    model_.scheme_from = Provenance::by_default(fmt::format("llama.cpp rope type of architecture '{}'", meta_.arch()));
    model_.num_layers = require_int("block_count", 1, kMaxLayers);
    model_.max_position_embeddings = require_length("context_length");
    if (auto heads = meta_.integer_or_layer_max("attention.head_count", 1, 1 << 16))
      model_.num_attention_heads = Field<int>{static_cast<int>(heads->value), heads->from};
    if (model_.scheme != PositionScheme::rope) return read_non_rope_scheme();

    const Dims dims = read_dims();
    Scaling scaling = read_scaling();
    read_original_length();
    const Sliding sliding = read_sliding(scaling);
    model_.setups.push_back(global_setup(dims, scaling));
    add_sliding_setup(dims, sliding);
    build_layers(sliding);
    read_pairing();
    model_.gguf = std::move(scaling.stated);
  }

 private:
  [[noreturn]] void fail(const std::string& message) const { throw InputError(file_.path, message); }

  Field<int> require_int(std::string_view suffix, std::int64_t min, std::int64_t max) {
    auto field = meta_.integer(suffix, min, max);
    if (!field) fail(fmt::format("{} is missing or unusable; llama.cpp requires it", meta_.key(suffix)));
    return {static_cast<int>(field->value), field->from};
  }

  Field<std::int64_t> require_length(std::string_view suffix) {
    auto field = meta_.integer(suffix, 1, kMaxLengthTokens);
    if (!field) fail(fmt::format("{} is missing or unusable; llama.cpp requires it", meta_.key(suffix)));
    return *field;
  }

  void read_non_rope_scheme() {
    if (model_.scheme != PositionScheme::alibi) return;
    AlibiInfo alibi;
    if (model_.num_attention_heads) alibi.num_heads = model_.num_attention_heads->value;
    if (auto bias = meta_.positive("attention.max_alibi_bias")) alibi.bias_max = *bias;
    model_.alibi = alibi;
  }

  // llama.cpp: n_embd_head_k = key_length or embedding_length / head_count; n_rot = dimension_count or that.
  // MLA files (kv_lora_rank present) rotate only the rope part, which is what the Model calls head_dim.
  Dims read_dims() {
    const auto rope_dims = meta_.integer("rope.dimension_count", 1, kMaxHeadDim);
    Field<int> head = resolve_head_dim(rope_dims);
    const int rotary = rope_dims ? static_cast<int>(rope_dims->value) : head.value;
    if (rotary > head.value)
      fail(fmt::format("{} {} exceeds the head size {}", meta_.key("rope.dimension_count"), rotary, head.value));
    Dims dims{
        head, rotary, {1.0, Provenance::by_default("rope.dimension_count absent: llama.cpp rotates the whole head")}};
    if (rotary != head.value) {
      double fraction = static_cast<double>(rotary) / head.value;
      while (static_cast<int>(head.value * fraction) < rotary) fraction = std::nextafter(fraction, 2.0);
      dims.partial_rotary_factor = {
          fraction, Provenance::derived(fmt::format("rope.dimension_count {} / head size {}", rotary, head.value),
                                        rope_dims->from.pointer)};
    } else if (rope_dims) {
      dims.partial_rotary_factor = {
          1.0, Provenance::derived("rope.dimension_count equals the head size", rope_dims->from.pointer)};
    }
    return dims;
  }

  Field<int> resolve_head_dim(const std::optional<Field<std::int64_t>>& rope_dims) {
    if (meta_.find("attention.kv_lora_rank") && rope_dims) {
      model_.notes.push_back(
          "MLA (attention.kv_lora_rank present): RoPE acts only on the rope.dimension_count part "
          "of each head (head_dim := rope.dimension_count); the rest carries no position");
      auto full = meta_.integer("attention.key_length_mla", 1, kMaxHeadDim);
      if (!full) full = meta_.integer("attention.key_length", 1, kMaxHeadDim);
      if (full && full->value > rope_dims->value)
        model_.qk_nope_head_dim =
            Field<int>{static_cast<int>(full->value - rope_dims->value),
                       Provenance::derived(fmt::format("{} - rope.dimension_count {}", full->value, rope_dims->value),
                                           full->from.pointer)};
      return {static_cast<int>(rope_dims->value), rope_dims->from};
    }
    if (auto key_length = meta_.integer("attention.key_length", 1, kMaxHeadDim))
      return {static_cast<int>(key_length->value), key_length->from};
    auto embedding = meta_.integer("embedding_length", 1, std::int64_t{1} << 40);
    if (!embedding || !model_.num_attention_heads)
      fail(fmt::format("cannot tell the head size: no {}, and no {} with {}", meta_.key("attention.key_length"),
                       meta_.key("embedding_length"), meta_.key("attention.head_count")));
    const std::int64_t heads = model_.num_attention_heads->value;
    const std::int64_t head = embedding->value / heads;
    if (head < 1 || head > kMaxHeadDim)
      fail(fmt::format("head size {} / {} = {} is unusable", embedding->value, heads, head));
    return {static_cast<int>(head),
            Provenance::derived(fmt::format("embedding_length {} / head_count {}", embedding->value, heads),
                                embedding->from.pointer)};
  }

  Scaling read_scaling() {
    Scaling scaling;
    scaling.stated.scaling_type = {"linear", Provenance::by_default("llama.cpp loader default rope.scaling.type "
                                                                    "'linear' (a no-op without a factor)")};
    if (auto type = meta_.text("rope.scaling.type")) scaling.stated.scaling_type = *type;
    // llama.cpp reads the legacy scale_linear only without scaling.factor; a factor of 0 means none.
    for (std::string_view suffix : {"rope.scaling.factor", "rope.scale_linear"}) {
      auto factor = meta_.number(suffix);
      if (!factor) continue;
      if (factor->value > 0.0) scaling.stated.scaling_factor = factor;
      else if (factor->value < 0.0) meta_.reject_number(suffix, InvalidReason::negative, factor->value);
      break;
    }
    scaling.attn_factor = meta_.positive("rope.scaling.attn_factor");
    scaling.stated.attn_factor = scaling.attn_factor;
    scaling.stated.yarn_ext_factor = meta_.number("rope.scaling.yarn_ext_factor");
    for (std::string_view name : {kRopeFreqsTensor, kRopeFactorsLongTensor, kRopeFactorsShortTensor})
      if (auto it = file_.rope_tensors.find(name); it != file_.rope_tensors.end())
        scaling.stated.factor_tensors.push_back({std::string(name), pointer_of(name), it->second});
    if (auto finetuned = meta_.flag("rope.scaling.finetuned"); finetuned && finetuned->value)
      model_.notes.push_back("rope.scaling.finetuned is true: the model was fine-tuned at the scaled length");
    return scaling;
  }

  void read_original_length() {
    model_.original_max_position_embeddings =
        meta_.integer("rope.scaling.original_context_length", 1, kMaxLengthTokens);
  }

  // llama.cpp's n_ctx_orig_yarn: the key, else context_length.
  Field<std::int64_t> original_length() const {
    if (model_.original_max_position_embeddings) return *model_.original_max_position_embeddings;
    return {model_.max_position_embeddings.value,
            Provenance::by_default("llama.cpp loader default: original_context_length = context_length")};
  }

  Field<double> theta() const {
    if (auto base = meta_.positive("rope.freq_base")) return *base;
    return {10000.0, Provenance::by_default("llama.cpp loader default rope.freq_base 10000")};
  }

  RopeSetup plain_setup(const Dims& dims, Field<double> rope_theta) const {
    RopeSetup setup;
    setup.name = "all";
    setup.pointer = pointer_of(meta_.key("rope"));
    setup.rope_theta = std::move(rope_theta);
    setup.head_dim = dims.head_dim;
    setup.partial_rotary_factor = dims.partial_rotary_factor;
    setup.rotary_dim = dims.rotary_dim;
    setup.max_position_embeddings = model_.max_position_embeddings;
    setup.mrope_section = mrope_sections();
    setup.mrope_interleaved = traits_.mode == RopeMode::imrope;
    return setup;
  }

  std::vector<int> mrope_sections() const {
    std::vector<int> sections;
    for (auto value : meta_.integers("rope.dimension_sections"))
      sections.push_back(static_cast<int>(std::clamp<std::int64_t>(value, 0, kMaxHeadDim)));
    while (!sections.empty() && sections.back() == 0) sections.pop_back();  // the converter pads to 4
    return sections;
  }

  RopeSetup global_setup(const Dims& dims, const Scaling& scaling) {
    RopeSetup setup = plain_setup(dims, theta());
    if (scaling.tensor(kRopeFreqsTensor)) apply_rope_freqs(setup, scaling);
    else if (scaling.tensor(kRopeFactorsLongTensor) || scaling.tensor(kRopeFactorsShortTensor))
      apply_longrope(setup, scaling);
    else if (scaling.type() == "yarn") apply_yarn(setup, scaling);
    else if (scaling.type() == "linear" || scaling.type() == "longrope") apply_linear(setup, scaling);
    else if (scaling.type() != "none")
      model_.notes.push_back(
          fmt::format("unknown rope.scaling.type '{}': llama.cpp refuses to load the file; read "
                      "as unscaled",
                      scaling.type()));
    setup.rope_type_name = {std::string(to_string(setup.type)), type_source(scaling)};
    return setup;
  }

  static Provenance type_source(const Scaling& scaling) {
    if (scaling.tensor(kRopeFreqsTensor) && !scales_on_top(scaling))
      return Provenance::at(pointer_of(kRopeFreqsTensor));
    if (scaling.tensor(kRopeFactorsLongTensor)) return Provenance::at(pointer_of(kRopeFactorsLongTensor));
    if (scaling.tensor(kRopeFactorsShortTensor)) return Provenance::at(pointer_of(kRopeFactorsShortTensor));
    return scaling.stated.scaling_type.from;
  }

  std::vector<double> per_pair(const std::vector<float>* values, int pairs) const {
    std::vector<double> out(static_cast<std::size_t>(pairs), 1.0);
    if (!values) return out;
    // A longer tensor has its extra entries ignored by ggml; a shorter one is padded with 1 (GGUF002 reports both).
    std::copy_n(values->begin(), std::min<std::size_t>(values->size(), out.size()), out.begin());
    return out;
  }

  // llama.cpp divides each pair's frequency by rope_freqs[i]. The converter writes llama3's divisors there; when
  // they are exactly a llama3 closed form, the setup is that llama3 scaling, original length included.
  void apply_rope_freqs(RopeSetup& setup, const Scaling& scaling) {
    if (scales_on_top(scaling)) return apply_scaling_over_divisors(setup, scaling);
    const auto reading = normalize_detail::read_llama3_divisors(*scaling.tensor(kRopeFreqsTensor),
                                                                setup.rope_theta.value, setup.rotary_dim);
    if (const auto* llama3 = std::get_if<normalize_detail::Llama3Parameters>(&reading);
        llama3 && llama3->original_length >= 1 && llama3->original_length <= kMaxLengthTokens)
      return apply_recovered_llama3(setup, *llama3, scaling);
    if (const auto* misfit = std::get_if<UnrecoverableRopeFreqs>(&reading))
      model_.issues.push_back({pointer_of(kRopeFreqsTensor), *misfit});
    else if (!std::holds_alternative<normalize_detail::UnscaledRopeFreqs>(reading))
      model_.issues.push_back(
          {pointer_of(kRopeFreqsTensor), UnrecoverableRopeFreqs{.reason = RopeFreqsMisfit::band_not_llama3}});
    apply_divisors(setup, scaling, std::holds_alternative<normalize_detail::UnscaledRopeFreqs>(reading));
  }

  void apply_recovered_llama3(RopeSetup& setup, const normalize_detail::Llama3Parameters& llama3,
                              const Scaling& scaling) {
    const Provenance from = Provenance::at(pointer_of(kRopeFreqsTensor));
    setup.type = RopeType::llama3;
    setup.factor = Field<double>{llama3.factor, from};
    setup.llama3.low_freq_factor = {llama3.low_freq_factor, from};
    setup.llama3.high_freq_factor = {llama3.high_freq_factor, from};
    setup.original_max_position_embeddings = Field<std::int64_t>{llama3.original_length, from};
    model_.notes.push_back(fmt::format(
        "rope_freqs.weight holds llama3 divisors, as llama.cpp's converter writes them: factor {}, "
        "low_freq_factor {}, high_freq_factor {} and original length {} re-compute all {} divisors (largest relative "
        "error {:.1e}; pairs {}–{} blend). The divisors fix original/low_freq_factor and original/high_freq_factor "
        "only; low_freq_factor {} is taken, as in every Llama 3.x release",
        llama3.factor, llama3.low_freq_factor, llama3.high_freq_factor, llama3.original_length, setup.rotary_dim / 2,
        llama3.largest_error, llama3.band_first, llama3.band_last, llama3.low_freq_factor));
    if (scaling.attn_factor && scaling.attn_factor->value != 1.0)
      model_.notes.push_back(fmt::format(
          "rope.scaling.attn_factor {} multiplies cos and sin in llama.cpp; llama3 scaling has none in transformers",
          scaling.attn_factor->value));
  }

  // Divisors that are no llama3 closed form (or all 1): the frequencies they give, at every length.
  void apply_divisors(RopeSetup& setup, const Scaling& scaling, bool unscaled) {
    const int pairs = setup.rotary_dim / 2;
    Field<std::vector<double>> divisors{per_pair(scaling.tensor(kRopeFreqsTensor), pairs),
                                        Provenance::at(pointer_of(kRopeFreqsTensor))};
    setup.type = RopeType::longrope;
    setup.longrope.short_factor = divisors;
    setup.longrope.long_factor = divisors;
    setup.longrope.attention_factor =
        scaling.attn_factor
            ? *scaling.attn_factor
            : Field<double>{1.0, Provenance::by_default("llama.cpp default rope.scaling.attn_factor 1")};
    setup.original_max_position_embeddings =
        Field<std::int64_t>{model_.max_position_embeddings.value,
                            Provenance::derived("context_length: the rope_freqs divisors apply at every length",
                                                model_.max_position_embeddings.from.pointer)};
    if (unscaled) {
      model_.notes.push_back("rope_freqs.weight holds only 1s: llama.cpp divides no frequency");
    } else {
      const auto [low, high] = std::minmax_element(divisors.value.begin(), divisors.value.end());
      model_.notes.push_back(fmt::format(
          "rope_freqs.weight holds per-pair divisors (inv_freq_i = theta^(-2i/d) / rope_freqs[i], from {} to {}) that "
          "are no llama3 closed form: the length trained before scaling is not in the file. Modeled as longrope "
          "with the same short and long factors at every length, attention factor {}",
          low == divisors.value.end() ? 1.0 : *low, high == divisors.value.end() ? 1.0 : *high,
          setup.longrope.attention_factor->value));
    }
  }

  // A linear or YaRN factor that llama.cpp applies as well as the rope_freqs divisors (the file's keys, or the runtime
  // flags --rope-scaling and --rope-scale): it scales the divided frequencies, so neither reading alone is the model.
  static bool scales_on_top(const Scaling& scaling) {
    return scaling.factor_applies() && scaling.factor()->value != 1.0 &&
           (scaling.type() == "linear" || scaling.type() == "yarn");
  }

  // llama.cpp divides each pair's frequency by rope_freqs[i] and then scales it as the scaling type says (ggml's
  // rope_yarn: the YaRN ramp is computed from the undivided base), so the setup is that scaling with the divisors
  // applied after it. The trained method the divisors may encode (llama3) stays in the tensor.
  void apply_scaling_over_divisors(RopeSetup& setup, const Scaling& scaling) {
    if (scaling.type() == "yarn") apply_yarn(setup, scaling);
    else apply_linear(setup, scaling);
    setup.frequency_divisors = Field<std::vector<double>>{
        per_pair(scaling.tensor(kRopeFreqsTensor), setup.rotary_dim / 2), Provenance::at(pointer_of(kRopeFreqsTensor))};
    model_.notes.push_back(fmt::format(
        "rope.scaling.type '{}' with factor {} applies on top of rope_freqs.weight in llama.cpp: each pair's {} "
        "frequency is divided by rope_freqs[i]",
        scaling.type(), scaling.factor()->value, scaling.type()));
  }

  void apply_longrope(RopeSetup& setup, const Scaling& scaling) {
    const int pairs = setup.rotary_dim / 2;
    auto factors = [&](const std::vector<float>* values, std::string_view name) {
      if (values) return Field<std::vector<double>>{per_pair(values, pairs), Provenance::at(pointer_of(name))};
      model_.notes.push_back(
          fmt::format("tensor {} is absent: llama.cpp applies no factors where it would be used", name));
      return Field<std::vector<double>>{per_pair(nullptr, pairs),
                                        Provenance::by_default(fmt::format("{} absent: factors of 1", name))};
    };
    setup.type = RopeType::longrope;
    setup.longrope.long_factor = factors(scaling.tensor(kRopeFactorsLongTensor), kRopeFactorsLongTensor);
    setup.longrope.short_factor = factors(scaling.tensor(kRopeFactorsShortTensor), kRopeFactorsShortTensor);
    setup.longrope.attention_factor =
        scaling.attn_factor
            ? *scaling.attn_factor
            : Field<double>{1.0, Provenance::by_default("llama.cpp default rope.scaling.attn_factor 1")};
    setup.original_max_position_embeddings = original_length();
    model_.notes.push_back(
        fmt::format("LongRoPE factors from the rope_factors tensors: llama.cpp uses the long set for "
                    "the whole context when n_ctx exceeds {} tokens, the short set otherwise",
                    setup.original_max_position_embeddings->value));
    if (scaling.factor_applies() && scaling.factor()->value != 1.0)
      model_.notes.push_back(
          fmt::format("rope.scaling.factor {} also scales LongRoPE frequencies in llama.cpp; "
                      "ropelens models only the factor tensors",
                      scaling.factor()->value));
  }

  void apply_linear(RopeSetup& setup, const Scaling& scaling) {
    if (scaling.type() == "longrope")
      model_.notes.push_back(
          "rope.scaling.type is longrope but the file has no rope_factors_long/short tensors: "
          "llama.cpp applies no per-pair factors, only rope.scaling.factor if set");
    if (!scaling.factor()) return;  // llama.cpp: factor 0 or absent means freq_scale 1
    setup.type = RopeType::linear;
    setup.factor = scaling.factor();
  }

  void apply_yarn(RopeSetup& setup, const Scaling& scaling) {
    if (!scaling.factor()) {
      model_.notes.push_back("rope.scaling.type is yarn without a factor: llama.cpp uses freq_scale 1 (unscaled)");
      return;
    }
    setup.type = RopeType::yarn;
    setup.factor = scaling.factor();
    setup.original_max_position_embeddings = original_length();
    if (auto beta = meta_.number("rope.scaling.yarn_beta_fast")) setup.yarn.beta_fast = *beta;
    else setup.yarn.beta_fast.from = Provenance::by_default("llama.cpp default yarn_beta_fast 32");
    if (auto beta = meta_.number("rope.scaling.yarn_beta_slow")) setup.yarn.beta_slow = *beta;
    else setup.yarn.beta_slow.from = Provenance::by_default("llama.cpp default yarn_beta_slow 1");
    setup.yarn.truncate = {true, Provenance::by_default("llama.cpp always floors and ceils the YaRN correction range")};
    read_yarn_magnitude(setup, scaling);
    if (auto ext = meta_.number("rope.scaling.yarn_ext_factor"); ext && ext->value != 1.0 && ext->value >= 0.0)
      model_.notes.push_back(
          fmt::format("yarn_ext_factor {} blends YaRN's ramp in llama.cpp (0 = plain interpolation "
                      "by 1/factor); ropelens models the full ramp",
                      ext->value));
  }

  // yarn_log_multiplier is transformers' mscale_all_dim, except in deepseek2 files, which store 0.1·mscale_all_dim.
  // llama.cpp then assumes mscale = 1 (deepseek2: mscale = mscale_all_dim).
  void read_yarn_magnitude(RopeSetup& setup, const Scaling& scaling) {
    if (auto multiplier = meta_.number("rope.scaling.yarn_log_multiplier"); multiplier && multiplier->value != 0.0) {
      const bool deepseek2 = meta_.arch() == "deepseek2";
      if (deepseek2) {
        const double all_dim = to_float32_precision(multiplier->value / 0.1);
        setup.yarn.mscale_all_dim = Field<double>{
            all_dim, Provenance::derived(fmt::format("yarn_log_multiplier {} / 0.1 (deepseek2 files store "
                                                     "0.1·mscale_all_dim)",
                                                     multiplier->value),
                                         multiplier->from.pointer)};
        setup.yarn.mscale = Field<double>{
            all_dim,
            Provenance::derived("llama.cpp assumes mscale = mscale_all_dim for deepseek2", multiplier->from.pointer)};
      } else {
        setup.yarn.mscale_all_dim = *multiplier;
        setup.yarn.mscale = Field<double>{1.0, Provenance::by_default("llama.cpp assumes mscale 1")};
      }
    }
    auto yarn_attn = meta_.number("rope.scaling.yarn_attn_factor");
    if (yarn_attn && scaling.attn_factor) {
      setup.yarn.attention_factor =
          Field<double>{yarn_attn->value * scaling.attn_factor->value,
                        Provenance::derived(fmt::format("yarn_attn_factor {} × rope.scaling.attn_factor {}",
                                                        yarn_attn->value, scaling.attn_factor->value),
                                            yarn_attn->from.pointer)};
    } else if (yarn_attn) {
      setup.yarn.attention_factor = *yarn_attn;
    } else if (scaling.attn_factor && scaling.attn_factor->value != 1.0) {
      model_.notes.push_back(
          fmt::format("rope.scaling.attn_factor {} multiplies llama.cpp's YaRN magnitude; ropelens "
                      "reports the magnitude without it",
                      scaling.attn_factor->value));
    }
  }

  // Sliding layers: attention.sliding_window, with the pattern from sliding_window_pattern (a period or one bool
  // per layer), else the architecture's hard-coded period, else every layer.
  Sliding read_sliding(const Scaling& scaling) {
    Sliding sliding;
    model_.sliding_window = meta_.integer("attention.sliding_window", 1, kMaxLengthTokens);
    if (!model_.sliding_window) return sliding;
    const int layers = model_.num_layers.value;
    sliding.layer_is_sliding = sliding_pattern(layers);
    if (auto base = meta_.positive("rope.freq_base_swa")) {
      sliding.theta = base;
    } else if (meta_.arch() == "gemma3") {
      sliding.theta = Field<double>{10000.0, Provenance::by_default("llama.cpp gemma3 sliding layers: base 10000")};
      sliding.unscaled = scaling.extends();
    }
    return sliding;
  }

  std::vector<bool> sliding_pattern(int layers) {
    std::vector<bool> pattern(static_cast<std::size_t>(layers), true);
    const GgufValue* value = meta_.find("attention.sliding_window_pattern");
    int period = 0;
    if (value && value->as_array()) {
      auto flags = meta_.integers("attention.sliding_window_pattern");
      if (static_cast<int>(flags.size()) == layers) {
        for (int i = 0; i < layers; ++i) pattern[static_cast<std::size_t>(i)] = flags[static_cast<std::size_t>(i)] != 0;
        return pattern;
      }
      model_.notes.push_back(fmt::format("{} has {} usable entries for {} layers; ignored",
                                         meta_.key("attention.sliding_window_pattern"), flags.size(), layers));
    } else if (auto n = meta_.integer("attention.sliding_window_pattern", 1, kMaxLayers)) {
      period = static_cast<int>(n->value);
    }
    if (period == 0) period = default_sliding_period();
    // Period n: n-1 sliding layers, then one global (layer i is global when (i + 1) % n == 0).
    if (period > 0)
      for (int i = 0; i < layers; ++i) pattern[static_cast<std::size_t>(i)] = (i + 1) % period != 0;
    return pattern;
  }

  int default_sliding_period() {
    static const std::map<std::string_view, int, std::less<>> periods = {{"gemma2", 2}, {"gemma3", 6}, {"gpt-oss", 2}};
    auto it = periods.find(meta_.arch());
    if (it == periods.end()) return 0;
    model_.notes.push_back(
        fmt::format("llama.cpp's hard-coded pattern for {}: every {}th layer is global, the others "
                    "slide",
                    meta_.arch(), it->second));
    return it->second;
  }

  // Sliding layers get their own setup when their RoPE differs from the global one's.
  void add_sliding_setup(const Dims& dims, const Sliding& sliding) {
    const auto& slides = sliding.layer_is_sliding;
    const bool any_sliding = std::find(slides.begin(), slides.end(), true) != slides.end();
    if (!any_sliding || !sliding.theta) return;
    if (!sliding.unscaled && sliding.theta->value == model_.setups.front().rope_theta.value) return;

    RopeSetup setup = sliding.unscaled ? plain_setup(dims, *sliding.theta) : model_.setups.front();
    setup.rope_theta = *sliding.theta;
    if (sliding.unscaled) {
      setup.rope_type_name = {"default", sliding.theta->from};
      model_.notes.push_back(fmt::format("{} sliding layers run unscaled RoPE with base {} (llama.cpp hard-codes it)",
                                         meta_.arch(), sliding.theta->value));
    }
    if (std::find(slides.begin(), slides.end(), false) == slides.end()) {
      model_.setups.front() = std::move(setup);  // every layer slides: one setup, with the sliding RoPE
      return;
    }
    setup.name = "sliding_attention";
    setup.attention = AttentionKind::sliding;
    setup.window_tokens = model_.sliding_window;
    model_.setups.front().name = "full_attention";
    model_.setups.push_back(std::move(setup));
  }

  void build_layers(const Sliding& sliding) {
    const bool split = model_.setups.size() > 1;
    bool all_sliding = !sliding.layer_is_sliding.empty();
    for (int i = 0; i < model_.num_layers.value; ++i) {
      const bool slides = !sliding.layer_is_sliding.empty() && sliding.layer_is_sliding[static_cast<std::size_t>(i)];
      all_sliding = all_sliding && slides;
      Layer layer;
      layer.index = i;
      layer.layer_type = slides ? "sliding_attention" : "full_attention";
      layer.attention = slides ? AttentionKind::sliding : AttentionKind::global;
      if (slides) layer.window_tokens = model_.sliding_window->value;
      layer.setup = split && slides ? 1 : 0;
      model_.setups[static_cast<std::size_t>(layer.setup)].layers.push_back(i);
      model_.layers.push_back(layer);
    }
    if (all_sliding && !split) {
      model_.setups.front().attention = AttentionKind::sliding;
      model_.setups.front().window_tokens = model_.sliding_window;
    }
  }

  void read_pairing() {
    const std::string& arch = meta_.arch();
    const auto from = Provenance::by_default(fmt::format("llama.cpp rope mode of architecture '{}'", arch));
    switch (traits_.mode) {
      case RopeMode::norm:
        if (converter_permutes_qk(arch)) {
          model_.pairing = {Pairing::rotate_half,
                            Provenance::by_default(fmt::format(
                                "llama.cpp NORM mode of architecture '{}' on Q/K rows its converter permuted from "
                                "the checkpoint's rotate_half layout",
                                arch))};
          model_.notes.push_back(fmt::format(
              "llama.cpp rotates {} in NORM mode (adjacent dims 2i, 2i+1), and its converter permuted each head's Q/K "
              "rows so that dims (2i, 2i+1) are the checkpoint's (i, i + d/2): the checkpoint's rotate_half pairs, "
              "with the same frequency per pair as in transformers",
              arch));
          return;
        }
        model_.pairing = {Pairing::interleaved, from};
        model_.notes.push_back(fmt::format(
            "llama.cpp rotates {} in NORM mode: adjacent pairs (2i, 2i+1), {}; pair i has the same frequency either "
            "way",
            arch,
            checkpoint_interleaved(arch) ? "the checkpoint's own interleaved layout (the converter keeps Q/K rows)"
                                         : "as stored in the GGUF (whether the converter permuted rotate_half Q/K "
                                           "rows into it is not checked for this architecture)"));
        return;
      case RopeMode::neox:
        model_.pairing = {Pairing::rotate_half, from};
        model_.notes.push_back(fmt::format(
            "llama.cpp rotates {} in NEOX mode: pair i = dims (i, i + n_rot/2), as transformers' rotate_half", arch));
        return;
      case RopeMode::mrope:
      case RopeMode::imrope:
        model_.pairing = {Pairing::rotate_half, from};
        model_.notes.push_back(
            fmt::format("llama.cpp rotates {} in {} mode: rotate_half pairs split into sections "
                        "over several position streams; text tokens see plain RoPE",
                        arch, traits_.mode == RopeMode::imrope ? "IMROPE (interleaved)" : "MROPE"));
        return;
      case RopeMode::none:
      case RopeMode::unknown: break;
    }
    model_.pairing = {Pairing::interleaved,
                      Provenance::by_default(fmt::format("architecture '{}' is not in ropelens' table of llama.cpp "
                                                         "rope modes; NORM assumed",
                                                         arch))};
    model_.notes.push_back(
        fmt::format("architecture '{}' is not in ropelens' table of llama.cpp rope modes; NORM "
                    "(adjacent pairs) assumed, which does not change any frequency",
                    arch));
  }

  const GgufFile& file_;
  Model& model_;
  Metadata meta_;
  ArchTraits traits_;
};

std::string read_architecture(const GgufFile& file) {
  const GgufValue* value = file.find("general.architecture");
  const std::string* arch = value ? value->as_string() : nullptr;
  if (!arch || arch->empty())
    throw InputError(file.path,
                     "general.architecture is missing or not a string; cannot tell which keys describe "
                     "the model");
  return *arch;
}

}  // namespace

std::string gguf_pointer(std::string_view key) { return fmt::format("gguf:{}", key); }

Model model_from_gguf(const GgufFile& file) {
  Model model;
  const std::string arch = read_architecture(file);
  GgufNormalizer(file, model, arch).run();
  normalize_detail::read_gguf_kv_shape(file, arch, model);
  return model;
}

}  // namespace ropelens
