// The RoPE dict(s): legacy rope_scaling or rope_parameters, flat or keyed by layer type, turned into setups.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ropelens/normalize/normalize.hpp"
#include "normalizing.hpp"

namespace ropelens::normalize_detail {
namespace {

struct RopeDict {
  const json* object = nullptr;  // nullptr: the config has no RoPE dict
  std::string pointer;
  bool nested_layer = false;  // a per-layer-type entry of a nested rope_parameters
};

std::optional<Hit> key_in(const RopeDict& dict, std::string_view key) {
  if (dict.object == nullptr) return std::nullopt;
  auto it = dict.object->find(std::string(key));
  if (it == dict.object->end()) return std::nullopt;
  return Hit{&*it, json_pointer_join(dict.pointer, key)};
}

// ---- top-level theta ----

Field<double> resolve_top_theta(Normalizing& n) {
  const auto& family = n.family;
  if (family.dialect == Dialect::chatglm) {
    double ratio = 1.0;
    std::string from = "no rope_ratio (1)";
    if (auto hit = n.view.find_value({"rope_ratio"}))
      if (auto v = read_number(*hit, n.issues, "rope_ratio")) {
        ratio = *v;
        from = hit->pointer;
      }
    return {10000.0 * ratio,
            Provenance::derived(fmt::format("10000 * rope_ratio {} (ChatGLM remote code)", ratio), from)};
  }
  if (family.dialect == Dialect::gptj) {
    if (n.view.find_value({"rope_theta"}))
      n.model.notes.push_back("GPT-J builds its own sinusoidal table with base 10000; rope_theta is not read");
    return {10000.0, Provenance::by_default("transformers GPT-J create_sinusoidal_positions fixed base 10000")};
  }
  if (auto hit = n.view.find_value({"rope_theta", "rotary_emb_base", "rope_base"}))
    if (auto v = read_number(*hit, n.issues, hit->key())) {
      if (*v > 0) return {*v, Provenance::at(hit->pointer)};
      n.issues.add(hit->pointer, invalid_number("rope_theta", InvalidReason::not_positive, *v));
    }
  return {family.default_theta,
          Provenance::by_default(
              fmt::format("{} default rope_theta {}",
                          family.model_type.empty() ? "transformers" : "transformers " + std::string(family.model_type),
                          family.default_theta))};
}

// ---- which dict ----

RopeDict find_rope_dict(Normalizing& n) {
  auto scaling = n.view.find("rope_scaling");
  auto params = n.view.find("rope_parameters");
  for (const auto& [key, hit] : {std::pair{"rope_scaling", scaling}, std::pair{"rope_parameters", params}})
    if (hit && !hit->is_null() && !hit->value->is_object())
      n.issues.add(hit->pointer, wrong_type(key, ValueType::object, *hit->value));
  bool scaling_ok = scaling && !scaling->is_null() && scaling->value->is_object();
  bool params_ok = params && !params->is_null() && params->value->is_object() && !params->value->empty();
  if (scaling_ok) {
    if (params_ok)
      n.model.notes.push_back(
          fmt::format("both {} and {} are present; transformers uses rope_scaling", scaling->pointer, params->pointer));
    return {scaling->value, scaling->pointer, false};
  }
  if (params_ok) return {params->value, params->pointer, false};
  return {};
}

// RotaryEmbeddingConfigMixin.nested_rope_parameter_keys (transformers modeling_rope_utils.py, 2026): the dict is
// nested under the keys the config declares as layer types, or as its class's rope-type labels (DeepSeek-V4's
// main/compress, deepseek_v4_is_nested); any other key beside them is never read. An empty list is a flat dict.
std::vector<std::string> nested_rope_parameter_keys(const RopeDict& dict, const std::set<std::string>& labels) {
  std::vector<std::string> keys;
  if (dict.object == nullptr) return keys;
  for (const auto& [key, value] : dict.object->items())
    if (labels.count(key)) keys.push_back(key);
  return keys;
}

// DeepseekV4Config keeps a dict nested only when both "main" and "compress" are dicts; otherwise it reads the dict
// as the legacy rope_scaling of the compressed layers.
bool deepseek_v4_is_nested(const RopeDict& dict) {
  if (dict.object == nullptr) return false;
  auto is_dict = [&](const char* key) { return dict.object->contains(key) && (*dict.object)[key].is_object(); };
  return is_dict("main") && is_dict("compress");
}

// Keys beside the per-layer-type dicts: transformers reads none of them (the issue it would otherwise be, a flat
// reading that drops each type's own scaling, is what nested_rope_parameter_keys was written against).
void note_stray_keys(Normalizing& n, const RopeDict& dict, const std::vector<std::string>& keys) {
  std::vector<std::string> stray;
  for (const auto& [key, value] : dict.object->items())
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) stray.push_back(key);
  if (stray.empty()) return;
  n.model.rope_stray_keys = stray;
  n.model.notes.push_back(fmt::format(
      "{} {} beside the per-layer-type dicts: transformers reads only the entries keyed by layer type "
      "(nested_rope_parameter_keys), so {} not read",
      dict.pointer, stray.size() == 1 ? "has " + stray.front() : fmt::format("has {}", fmt::join(stray, ", ")),
      stray.size() == 1 ? "it is" : "they are"));
}

// ---- one dict into a setup template ----

struct TypeKeys {
  std::set<std::string_view> required;
  std::set<std::string_view> optional;
};

TypeKeys keys_of(RopeType type) {
  switch (type) {
    case RopeType::default_rope: return {{}, {"rope_theta"}};
    case RopeType::linear:
    case RopeType::dynamic: return {{"factor"}, {"rope_theta"}};
    case RopeType::yarn:
      return {{"factor", "original_max_position_embeddings"},
              {"rope_theta", "attention_factor", "beta_fast", "beta_slow", "mscale", "mscale_all_dim", "truncate"}};
    case RopeType::longrope:
      return {{"short_factor", "long_factor", "original_max_position_embeddings"},
              {"rope_theta", "attention_factor", "factor"}};
    case RopeType::llama3:
      return {{"factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor", "rope_theta"}, {}};
    case RopeType::proportional: return {{"rope_theta"}, {"factor"}};
  }
  return {};
}

struct TypeResolution {
  RopeType type = RopeType::default_rope;
  std::string spelled;              // the name as written ("su", "mrope", …)
  bool skip_original_fill = false;  // "su" is renamed after standardization (Phi3Config), so no auto-fill
  bool deepseek_yarn = false;       // "deepseek_yarn": YaRN with the mscale pair, as vLLM's get_rope names it
  bool telechat3_yarn = false;      // "telechat3-yarn": YaRN with TeleChat3's magnitude 0.07 ln(s) + 1
};

TypeResolution resolve_type(Normalizing& n, const RopeDict& dict) {
  auto rope_type = key_in(dict, "rope_type");
  auto legacy = key_in(dict, "type");
  std::optional<std::string> name, legacy_name;
  if (rope_type) name = read_string(*rope_type, n.issues, "rope_type");
  if (legacy) legacy_name = read_string(*legacy, n.issues, "type");
  if (name && legacy_name && *name != *legacy_name)
    n.issues.add(legacy->pointer, ConflictingTypeKeys{*legacy_name, *name});
  else if (legacy_name && !name) n.issues.add(legacy->pointer, LegacyTypeKey{*legacy_name});

  TypeResolution out;
  std::string spelled = name ? *name : legacy_name ? *legacy_name : "default";
  std::string pointer = name ? rope_type->pointer : legacy_name ? legacy->pointer : dict.pointer;
  out.spelled = spelled;
  if (spelled == "su") {
    out.type = RopeType::longrope;
    n.issues.add(pointer, LegacyRopeTypeName{spelled, out.type});
    out.skip_original_fill = true;
    return out;
  }
  if (spelled == "mrope") {
    n.issues.add(pointer, LegacyRopeTypeName{spelled, out.type});
    return out;
  }
  // RotaryEmbeddingConfigMixin (2026): "axial" is the rope type of vision towers that rotate 2-D positions
  // (default_rope_type, tf#48105); it validates as "default", and a language model reading it runs default RoPE.
  if (spelled == "axial") {
    n.model.notes.push_back(
        fmt::format("{} 'axial' is a vision tower's rope type (2-D positions); transformers "
                    "validates it as 'default', and its text frequencies are default RoPE's",
                    pointer));
    return out;
  }
  if (spelled == "deepseek_yarn") {
    out.type = RopeType::yarn;
    out.deepseek_yarn = true;
    return out;
  }
  if (spelled == "telechat3-yarn") {
    out.type = RopeType::yarn;
    out.telechat3_yarn = true;
    return out;
  }
  if (spelled == "yarn" && n.family.dialect == Dialect::phi3) {
    n.model.notes.push_back("Phi3Config renames rope type 'yarn' to 'longrope'");
    out.type = RopeType::longrope;
    return out;
  }
  if (auto parsed = parse_rope_type(spelled)) {
    out.type = *parsed;
    return out;
  }
  n.issues.add(pointer, UnknownRopeType{spelled});
  return out;
}

std::optional<Field<double>> read_dict_number(Normalizing& n, const RopeDict& dict, std::string_view key) {
  auto hit = key_in(dict, key);
  if (!hit) return std::nullopt;
  auto value = read_number(*hit, n.issues, key);
  if (!value) return std::nullopt;
  return Field<double>{*value, Provenance::at(hit->pointer)};
}

std::vector<double> read_factor_list(Normalizing& n, const Hit& hit, std::string_view what) {
  std::vector<double> out;
  if (hit.is_null()) return out;
  if (!hit.value->is_array()) {
    n.issues.add(hit.pointer, wrong_type(what, ValueType::number_list, *hit.value));
    return out;
  }
  for (std::size_t i = 0; i < hit.value->size() && i <= static_cast<std::size_t>(kMaxHeadDim); ++i) {
    const auto& item = (*hit.value)[i];
    if (!item.is_number() || !std::isfinite(item.get<double>()) || item.get<double>() <= 0) {
      n.issues.add(json_pointer_join(hit.pointer, std::to_string(i)),
                   wrong_entry_type(what, ValueType::positive_number, item));
      return {};
    }
    out.push_back(item.get<double>());
  }
  return out;
}

void check_factor_value(Normalizing& n, const RopeSetup& setup) {
  if (!setup.factor) return;
  const auto& [factor, from] = *setup.factor;
  if (factor <= 0.0) n.issues.add(from.pointer, invalid_number("factor", InvalidReason::not_positive, factor));
  else if (factor < 1.0 && setup.type != RopeType::proportional)
    n.issues.add(from.pointer, invalid_number("factor", InvalidReason::factor_below_one, factor));
}

void read_original_length(Normalizing& n, const RopeDict& dict, const TypeResolution& type, RopeSetup& setup) {
  bool needs = type.type == RopeType::yarn || type.type == RopeType::longrope || type.type == RopeType::llama3;
  auto hit = key_in(dict, "original_max_position_embeddings");
  std::optional<Field<std::int64_t>> in_dict;
  if (hit && !hit->is_null())
    if (auto v = read_integer(*hit, n.issues, "original_max_position_embeddings", 1, kMaxLengthTokens))
      in_dict = Field<std::int64_t>{*v, Provenance::at(hit->pointer)};
  if (!needs) {
    setup.original_max_position_embeddings = in_dict;
    return;
  }
  if (type.skip_original_fill) {
    setup.original_max_position_embeddings = in_dict;
    if (!in_dict) n.issues.add(dict.pointer, MissingRequiredKey{"original_max_position_embeddings", type.spelled});
    return;
  }
  // transformers: a top-level attribute (Phi-3 keeps one) overwrites the dict's value in a flat dict.
  if (!dict.nested_layer && n.has_top_original_attribute && n.model.original_max_position_embeddings) {
    setup.original_max_position_embeddings = n.model.original_max_position_embeddings;
    if (in_dict && in_dict->value != n.model.original_max_position_embeddings->value)
      n.model.notes.push_back(fmt::format("top-level original_max_position_embeddings {} overrides {} = {}",
                                          n.model.original_max_position_embeddings->value, in_dict->from.pointer,
                                          in_dict->value));
    return;
  }
  if (in_dict) {
    setup.original_max_position_embeddings = in_dict;
    return;
  }
  const auto& declared = n.model.max_position_embeddings;
  setup.original_max_position_embeddings = Field<std::int64_t>{
      declared.value, Provenance::derived(fmt::format("missing, filled with max_position_embeddings {} by transformers "
                                                      "standardize_rope_params (implicit factor 1)",
                                                      declared.value),
                                          declared.from.pointer)};
  n.issues.add(dict.pointer.empty() ? declared.from.pointer : dict.pointer,
               DefaultedOriginalLength{type.type, declared.value});
}

void read_type_specific(Normalizing& n, const RopeDict& dict, RopeSetup& setup, const RopeDict& top_dict) {
  if (setup.type == RopeType::yarn) {
    // `beta_fast or 32`: a falsy 0 also takes the default.
    if (auto v = read_dict_number(n, dict, "beta_fast"); v && v->value != 0.0) setup.yarn.beta_fast = *v;
    if (auto v = read_dict_number(n, dict, "beta_slow"); v && v->value != 0.0) setup.yarn.beta_slow = *v;
    setup.yarn.mscale = read_dict_number(n, dict, "mscale");
    setup.yarn.mscale_all_dim = read_dict_number(n, dict, "mscale_all_dim");
    setup.yarn.attention_factor = read_dict_number(n, dict, "attention_factor");
    if (setup.yarn.attention_factor && setup.yarn.attention_factor->value < 0)
      n.issues.add(setup.yarn.attention_factor->from.pointer,
                   invalid_number("attention_factor", InvalidReason::negative, setup.yarn.attention_factor->value));
    // transformers reads truncate from the top level of rope_parameters only.
    if (auto hit = key_in(top_dict, "truncate"))
      if (auto v = read_bool(*hit, n.issues, "truncate")) setup.yarn.truncate = {*v, Provenance::at(hit->pointer)};
    if (dict.nested_layer)
      if (auto hit = key_in(dict, "truncate"))
        if (auto v = read_bool(*hit, n.issues, "truncate")) {
          setup.layer_truncate = Field<bool>{*v, Provenance::at(hit->pointer)};
          n.model.notes.push_back(
              fmt::format("{} is ignored: transformers reads truncate only at the top level of "
                          "rope_parameters, so the correction range is truncated",
                          hit->pointer));
        }
  }
  if (setup.type == RopeType::longrope) {
    if (auto hit = key_in(dict, "short_factor"))
      setup.longrope.short_factor = {read_factor_list(n, *hit, "short_factor"), Provenance::at(hit->pointer)};
    if (auto hit = key_in(dict, "long_factor"))
      setup.longrope.long_factor = {read_factor_list(n, *hit, "long_factor"), Provenance::at(hit->pointer)};
    setup.longrope.attention_factor = read_dict_number(n, dict, "attention_factor");
  }
  if (setup.type == RopeType::llama3) {
    if (auto v = read_dict_number(n, dict, "low_freq_factor")) setup.llama3.low_freq_factor = *v;
    if (auto v = read_dict_number(n, dict, "high_freq_factor")) setup.llama3.high_freq_factor = *v;
  }
  if (auto hit = key_in(dict, "mrope_section"); hit && !hit->is_null()) {
    if (hit->value->is_array()) {
      for (const auto& item : *hit->value)
        if (item.is_number_integer() && item.get<long long>() >= 0 && item.get<long long>() <= kMaxHeadDim)
          setup.mrope_section.push_back(item.get<int>());
        else n.issues.add(hit->pointer, wrong_entry_type("mrope_section", ValueType::whole_number, item));
    } else {
      n.issues.add(hit->pointer, wrong_type("mrope_section", ValueType::list, *hit->value));
    }
  }
  if (auto hit = key_in(dict, "mrope_interleaved"))
    if (auto v = read_bool(*hit, n.issues, "mrope_interleaved")) setup.mrope_interleaved = *v;
}

// The config's `ignore_keys_at_rope_validation`: keys transformers' validation drops from the dict before it
// looks for unrecognized ones (RotaryEmbeddingConfigMixin.validate_rope passes the attribute to
// _check_received_keys). Entries that are not strings name no key.
std::set<std::string> keys_exempt_from_validation(const Normalizing& n) {
  std::set<std::string> exempt;
  // Ministral3Config's class attribute (configuration_ministral3.py): its query scale and a copy of the length.
  if (n.family.dialect == Dialect::ministral3) exempt = {"llama_4_scaling_beta", "max_position_embeddings"};
  auto hit = n.view.find("ignore_keys_at_rope_validation");
  if (!hit || !hit->value->is_array()) return exempt;
  for (const auto& entry : *hit->value)
    if (entry.is_string()) exempt.insert(entry.get<std::string>());
  return exempt;
}

void check_keys(Normalizing& n, const RopeDict& dict, const RopeSetup& setup, const TypeResolution& type) {
  if (dict.object == nullptr) return;
  TypeKeys keys = keys_of(setup.type);
  static const std::set<std::string_view> always = {
      "rope_type", "type", "rope_theta", "partial_rotary_factor", "mrope_section", "mrope_interleaved"};
  for (auto required : keys.required) {
    if (required == "original_max_position_embeddings" || required == "rope_theta")
      continue;  // filled by standardization
    if (!key_in(dict, required) || key_in(dict, required)->is_null())
      n.issues.add(dict.pointer, MissingRequiredKey{std::string(required), type.spelled});
  }
  // _validate_proportional_rope_parameters only warns: the computation then uses 1.0.
  if (setup.type == RopeType::proportional && !n.dims.partial_from_attribute && !key_in(dict, "partial_rotary_factor"))
    n.issues.add(dict.pointer, MissingRequiredKey{"partial_rotary_factor", type.spelled, 1.0});
  const std::set<std::string> exempt = keys_exempt_from_validation(n);
  for (const auto& [key, value] : dict.object->items()) {
    if (always.count(key) || keys.required.count(key) || keys.optional.count(key) || exempt.count(key)) continue;
    if (setup.type == RopeType::yarn && key == "truncate") continue;
    n.issues.add(json_pointer_join(dict.pointer, key), UnknownRopeKey{key, setup.type});
  }
}

// HunYuan's "dynamic" dict with `alpha`: every engine folds alpha into the base once, θ' = θ·alpha^(d/(d−2)), and
// runs plain RoPE at every length (vLLM get_rope -> DynamicNTKAlphaRotaryEmbedding @a42938c2; transformers
// HunYuanMoEV1RotaryEmbedding, models/hunyuan_v1_moe/modeling_hunyuan_v1_moe.py
// @f3f034d7fae0e5afb8bb6b387cd3aefc499a6a69; llama.cpp conversion/hunyuan.py @7bca1fd9ca2a681b0182e16f24f832b7be1942af
// writes θ' as rope.freq_base). The dict's factor, beta_fast, beta_slow, mscale and mscale_all_dim are read by none of
// them.
bool read_ntk_alpha(Normalizing& n, const RopeDict& dict, RopeSetup& setup) {
  auto hit = key_in(dict, "alpha");
  if (setup.type != RopeType::dynamic || !hit || !hit->value->is_number() || hit->value->get<double>() <= 0)
    return false;
  const double alpha = hit->value->get<double>();
  const double dim = n.dims.head_dim.value * setup.partial_rotary_factor.value;
  if (dim <= 2) return false;
  const double base = setup.rope_theta.value * std::pow(alpha, dim / (dim - 2));
  setup.rope_theta = {base, Provenance::derived(fmt::format("rope_theta {:g} × alpha {:g}^({:g}/{:g}) (HunYuan's NTK "
                                                            "alpha, applied once at every length)",
                                                            setup.rope_theta.value, alpha, dim, dim - 2),
                                                hit->pointer)};
  setup.type = RopeType::default_rope;
  setup.rope_type_name = {"default",
                          Provenance::derived("'dynamic' with alpha: a fixed base, no scaling", hit->pointer)};
  setup.factor.reset();
  std::vector<std::string> unread;
  for (const auto& key : setup.dict_keys)
    if (key != "alpha" && key != "type" && key != "rope_type" && key != "rope_theta") unread.push_back(key);
  n.model.notes.push_back(
      fmt::format("{} is HunYuan's NTK alpha: base {:.6g} at every length, as vLLM, "
                  "transformers' hunyuan_v1 and llama.cpp's converter compute it{}",
                  dict.pointer, base, unread.empty() ? "" : fmt::format("; {} not read", fmt::join(unread, ", "))));
  return true;
}

// "telechat3-yarn" (TeleChat3 remote code; vLLM get_rope -> TeleChat3RoPEScaledRotaryEmbedding @9aaf83ef): YaRN
// whose frequencies use s = max_position_embeddings / original_max_position_embeddings (max_position_embeddings is
// already the scaled length) and whose cos/sin magnitude is 0.07 ln(s) + 1 instead of 0.1 ln(s) + 1. vLLM PR #55116
// reads it so since; transformers has no "telechat3-yarn" type.
void telechat3_magnitude(Normalizing& n, RopeSetup& setup) {
  if (!setup.original_max_position_embeddings || setup.original_max_position_embeddings->value <= 0) return;
  const double scale = static_cast<double>(n.model.max_position_embeddings.value) /
                       static_cast<double>(setup.original_max_position_embeddings->value);
  if (setup.factor && std::abs(setup.factor->value - scale) > 1e-9 * scale)
    n.model.notes.push_back(fmt::format(
        "telechat3-yarn: {} {} is not read; the scale is max_position_embeddings / original = {} / {} = {:.6g}",
        setup.factor->from.pointer, setup.factor->value, n.model.max_position_embeddings.value,
        setup.original_max_position_embeddings->value, scale));
  setup.factor = Field<double>{
      scale, Provenance::derived(
                 fmt::format("max_position_embeddings {} / original_max_position_embeddings {} "
                             "(TeleChat3's YaRN)",
                             n.model.max_position_embeddings.value, setup.original_max_position_embeddings->value),
                 n.model.max_position_embeddings.from.pointer)};
  if (setup.yarn.attention_factor) return;
  const double magnitude = scale <= 1.0 ? 1.0 : 0.07 * std::log(scale) + 1.0;
  setup.yarn.attention_factor = Field<double>{
      magnitude, Provenance::derived(fmt::format("0.07 × ln({:.6g}) + 1 (TeleChat3's YaRN magnitude, vLLM "
                                                 "TeleChat3RoPEScaledRotaryEmbedding)",
                                                 scale),
                                     setup.rope_type_name.from.pointer)};
}

// convert_rope_params_to_dict and standardize_rope_params (transformers, 2026) setdefault the top-level
// partial_rotary_factor into each dict, so a dict's own value wins; earlier v5 releases overwrote it with the
// top-level one.
Field<double> dict_partial_wins(Normalizing& n, const Field<double>& in_dict) {
  const Field<double>& top = n.dims.partial_rotary_factor;
  if (n.dims.partial_from_attribute && std::abs(top.value - in_dict.value) > 1e-12)
    n.model.notes.push_back(fmt::format(
        "{} {} wins over the top-level {} {}: transformers setdefaults the top-level value into each RoPE dict "
        "(releases before the 2026 nested_rope_parameter_keys change overwrote it)",
        in_dict.from.pointer, in_dict.value, top.from.pointer.empty() ? top.from.note : top.from.pointer, top.value));
  return in_dict;
}

RopeSetup read_setup_template(Normalizing& n, const RopeDict& dict, const RopeDict& top_dict, Field<double> theta,
                              std::string name) {
  RopeSetup setup;
  setup.name = std::move(name);
  setup.pointer = dict.pointer;
  TypeResolution type = resolve_type(n, dict);
  setup.type = type.type;
  setup.rope_type_name = {type.deepseek_yarn || type.telechat3_yarn ? type.spelled : std::string(to_string(type.type)),
                          dict.object
                              ? Provenance::at(key_in(dict, "rope_type") ? json_pointer_join(dict.pointer, "rope_type")
                                               : key_in(dict, "type")    ? json_pointer_join(dict.pointer, "type")
                                                                         : dict.pointer)
                              : Provenance::by_default("no RoPE dict: default RoPE")};
  if (dict.object && !key_in(dict, "rope_type") && !key_in(dict, "type"))
    setup.rope_type_name.from = Provenance::by_default("transformers default rope_type 'default'");
  if (dict.object)
    for (const auto& [key, value] : dict.object->items()) setup.dict_keys.push_back(key);

  setup.rope_theta = theta;
  if (auto hit = key_in(dict, "rope_theta"); hit && !hit->is_null())
    if (auto v = read_number(*hit, n.issues, "rope_theta")) {
      if (*v > 0) setup.rope_theta = {*v, Provenance::at(hit->pointer)};
      else n.issues.add(hit->pointer, invalid_number("rope_theta", InvalidReason::not_positive, *v));
    }

  setup.partial_rotary_factor = n.dims.partial_rotary_factor;
  if (auto v = read_dict_number(n, dict, "partial_rotary_factor")) {
    if (v->value <= 0 || v->value > 1)
      n.issues.add(v->from.pointer,
                   invalid_number("partial_rotary_factor", InvalidReason::outside_unit_interval, v->value));
    else if (n.family.pattern != LayerPattern::deepseek_v4_compression)
      setup.partial_rotary_factor = dict_partial_wins(n, *v);
  }

  setup.factor = read_dict_number(n, dict, "factor");
  if (read_ntk_alpha(n, dict, setup)) return setup;
  check_factor_value(n, setup);
  read_original_length(n, dict, type, setup);
  read_type_specific(n, dict, setup, top_dict);
  if (type.telechat3_yarn) telechat3_magnitude(n, setup);
  check_keys(n, dict, setup, type);
  return setup;
}

// gpt-oss configs may omit rope_scaling: the class default is yarn ×32 on 4096 with truncate false.
RopeSetup gpt_oss_default_setup(Normalizing& n, Field<double> theta) {
  RopeSetup setup;
  setup.name = "all";
  setup.type = RopeType::yarn;
  auto from = Provenance::by_default("transformers GptOssConfig default rope_scaling");
  setup.rope_type_name = {"yarn", from};
  setup.rope_theta = theta;
  setup.factor = Field<double>{32.0, from};
  setup.original_max_position_embeddings = Field<std::int64_t>{4096, from};
  setup.yarn.truncate = {false, from};
  (void)n;
  return setup;
}

// Ministral3Attention scales the rotated queries by 1 + beta * ln(1 + floor(position / original)), with beta
// rope_parameters.llama_4_scaling_beta and original its original_max_position_embeddings (modeling_ministral3.py,
// _get_llama_4_attn_scale). The note states the scale at the last declared position.
void note_llama4_query_scale(Normalizing& n, const RopeDict& dict) {
  auto beta_hit = key_in(dict, "llama_4_scaling_beta");
  auto original_hit = key_in(dict, "original_max_position_embeddings");
  if (!beta_hit || !original_hit) return;
  const Hit& beta_at = *beta_hit;
  const Hit& original_at = *original_hit;
  auto beta = read_number(beta_at, n.issues, "llama_4_scaling_beta");
  auto original = read_integer(original_at, n.issues, "original_max_position_embeddings", 1, kMaxLengthTokens);
  if (!beta || !original) return;
  const std::int64_t last = n.model.max_position_embeddings.value - 1;
  const double scale =
      1.0 + *beta * std::log(1.0 + std::floor(static_cast<double>(last) / static_cast<double>(*original)));
  n.model.notes.push_back(fmt::format(
      "llama_4_scaling_beta {} ({}): transformers Ministral3Attention and vLLM scale the queries by "
      "1 + beta * ln(1 + floor(position / {})), x{:.4f} at position {} (the last of max_position_embeddings)",
      *beta, beta_at.pointer, *original, scale, last));
}

// DeepSeek-V4 (DeepseekV4Config.__post_init__, models/deepseek_v4/configuration_deepseek_v4.py
// @015c078164151a049126942989817713e83a8f3e): a flat dict (the legacy rope_scaling) becomes
// {"main": default on rope_theta, "compress": the dict with rope_theta := compress_rope_theta (default 160000)}, and a
// YaRN compress entry gets attention_factor 1.0 unless it states one, "the V4 reference does NOT multiply cos/sin by
// the yarn mscale". Both entries take partial_rotary_factor qk_rope_head_dim / head_dim, which ropelens already reads
// as head_dim := qk_rope_head_dim, so a partial_rotary_factor in the dict is not applied again.
Field<double> deepseek_v4_compress_theta(Normalizing& n) {
  Field<double> theta{160000.0, Provenance::by_default("transformers DeepseekV4Config default compress_rope_theta")};
  if (auto hit = n.view.find_value({"compress_rope_theta"}))
    if (auto v = read_number(*hit, n.issues, "compress_rope_theta"); v && *v > 0)
      theta = {*v, Provenance::at(hit->pointer)};
  return theta;
}

RopeSetup deepseek_v4_compressed_setup(Normalizing& n, const RopeDict& dict) {
  const Field<double> theta = deepseek_v4_compress_theta(n);
  RopeSetup setup = read_setup_template(n, dict, dict, theta, "compressed");
  if (setup.rope_theta.from.pointer != theta.from.pointer || setup.rope_theta.value != theta.value) {
    n.model.notes.push_back(fmt::format(
        "{} {} is not read for the compressed layers: DeepseekV4Config sets their rope_theta to compress_rope_theta {}",
        setup.rope_theta.from.pointer, setup.rope_theta.value, theta.value));
    setup.rope_theta = theta;
  }
  if (setup.type == RopeType::yarn && !setup.yarn.attention_factor)
    setup.yarn.attention_factor = Field<double>{
        1.0, Provenance::by_default("transformers DeepseekV4Config sets attention_factor 1.0 on the compressed layers "
                                    "(setdefault)")};
  return setup;
}

struct Template {
  RopeSetup setup;
  std::string layer_type;              // "" = every RoPE layer
  std::optional<Field<int>> head_dim;  // the layers' own head width, where their type has one (MiMo's swa_head_dim)
  std::set<int> layers;                // non-empty: exactly these layers (a base per layer, Granite's layer_rope_theta)
};

// A template for the layers of one type ("" = every RoPE layer), with the model's head width.
Template for_type(RopeSetup setup, std::string layer_type) {
  return {std::move(setup), std::move(layer_type), std::nullopt, {}};
}

bool template_takes(const Template& t, const Layer& layer) {
  if (!t.layers.empty()) return t.layers.count(layer.index) > 0;
  return t.layer_type.empty() || t.layer_type == layer.layer_type;
}

// MiMo-V2's hub configs (vLLM mimo_v2.py MiMoV2FlashDecoderLayer @9aaf83ef; SGLang mimo_v2.py @8905cbd4): the
// sliding layers rotate on swa_rope_theta with swa_head_dim-wide heads, the full layers on rope_theta; both with the
// top-level partial_rotary_factor. transformers' MiMoV2FlashConfig holds the same bases in its default per-layer-type
// rope_parameters (full 5e6, sliding 1e4, both × 0.334); the remote code falls back to rope_theta (vLLM's getattr).
Field<double> mimo_sliding_theta(Normalizing& n) {
  if (auto hit = n.view.find_value({"swa_rope_theta"}))
    if (auto v = read_number(*hit, n.issues, "swa_rope_theta")) {
      if (*v > 0) return {*v, Provenance::at(hit->pointer)};
      n.issues.add(hit->pointer, invalid_number("swa_rope_theta", InvalidReason::not_positive, *v));
    }
  if (n.family.transformers_native)
    return {1e4, Provenance::by_default("transformers MiMoV2FlashConfig default sliding_attention rope_theta 1e4")};
  return {n.top_theta.value,
          Provenance::derived("no swa_rope_theta: vLLM mimo_v2.py falls back to rope_theta", n.top_theta.from.pointer)};
}

std::optional<Field<int>> mimo_sliding_head_dim(Normalizing& n) {
  auto hit = n.view.find_value({"swa_head_dim"});
  if (!hit) return std::nullopt;
  auto v = read_integer(*hit, n.issues, "swa_head_dim", 1, kMaxHeadDim);
  if (!v) return std::nullopt;
  return Field<int>{static_cast<int>(*v), Provenance::at(hit->pointer)};
}

std::vector<Template> mimo_v2_templates(Normalizing& n, const RopeDict& dict) {
  std::vector<Template> templates;
  templates.push_back({read_setup_template(n, {}, {}, mimo_sliding_theta(n), "sliding_attention"),
                       "sliding_attention",
                       mimo_sliding_head_dim(n),
                       {}});
  templates.push_back(for_type(read_setup_template(n, dict, dict, n.top_theta, "full_attention"), "full_attention"));
  return templates;
}

// layer_rope_theta (GraniteSWAConfig and GraniteMoeSWAConfig, models/granite_swa/modular_granite_swa.py, and the
// other 2026 classes that copy it): layer i rotates with {**rope_parameters, "rope_theta": layer_rope_theta[i]}; a 0
// leaves it without RoPE (layer_schedule.cpp marks it NoPE). One setup per base, over the layers that use it. Read
// for any model_type that states it.
std::vector<Template> layer_rope_theta_templates(Normalizing& n, const RopeDict& dict) {
  std::vector<Template> templates;
  auto hit = n.view.find_value({"layer_rope_theta"});
  if (!hit || !hit->value->is_array() || static_cast<int>(hit->value->size()) != n.model.num_layers.value) {
    templates.push_back(for_type(read_setup_template(n, dict, dict, n.top_theta, "all"), ""));
    return templates;
  }
  std::map<double, std::pair<std::size_t, std::set<int>>> layers_of;  // base -> (first index, layers)
  for (std::size_t i = 0; i < hit->value->size(); ++i) {
    const auto& item = (*hit->value)[i];
    if (!item.is_number() || item.get<double>() <= 0) continue;
    auto [it, inserted] = layers_of.try_emplace(item.get<double>(), i, std::set<int>{});
    it->second.second.insert(static_cast<int>(i));
  }
  for (const auto& [theta, first_and_layers] : layers_of) {
    const auto& [first, layers] = first_and_layers;
    Field<double> base{theta, Provenance::at(json_pointer_join(hit->pointer, std::to_string(first)))};
    RopeSetup setup = read_setup_template(n, dict, dict, base, fmt::format("layer_rope_theta {:g}", theta));
    setup.rope_theta = base;  // overrides rope_parameters' own rope_theta, as transformers' copy does
    templates.push_back({std::move(setup), "", {}, layers});
  }
  return templates;
}

// A dict keyed by layer type: one template per declared type. A null entry is a layer type without RoPE
// (validate_rope skips it, "possibly a NoPE layer"); its layers take no position embeddings.
std::vector<Template> per_layer_type_templates(Normalizing& n, const RopeDict& dict,
                                               const std::vector<std::string>& keys) {
  note_stray_keys(n, dict, keys);
  std::vector<Template> templates;
  for (const auto& key : keys) {
    const json& value = (*dict.object)[key];
    const std::string pointer = json_pointer_join(dict.pointer, key);
    if (value.is_null()) {
      int layers = 0;
      for (auto& layer : n.model.layers)
        if (layer.layer_type == key && layer.uses_rope) {
          layer.uses_rope = false;
          ++layers;
        }
      n.model.notes.push_back(
          fmt::format("{} is null: the {} {} layers take no RoPE (NoPE), as transformers' "
                      "validate_rope skips a None entry",
                      pointer, layers, key));
      continue;
    }
    if (!value.is_object()) {
      n.issues.add(pointer, wrong_type(key, ValueType::object, value));
      continue;
    }
    RopeDict entry{&value, pointer, true};
    Field<double> theta = n.top_theta;
    if (n.family.dialect == Dialect::gemma3 && key == "sliding_attention" && !n.view.find_value({"rope_theta"}))
      theta = {1e4, Provenance::by_default("transformers Gemma3 default_theta['local'] 1e4")};
    templates.push_back(for_type(read_setup_template(n, entry, dict, theta, key), key));
  }
  return templates;
}

// DeepSeek-V4 in the layout DeepseekV4Config serializes: {"main": …, "compress": …}, each entry as written (the class
// keeps an already nested dict and drops any key beside the two). main rotates the sliding-window layers, compress
// the compressed ones.
std::vector<Template> deepseek_v4_nested_templates(Normalizing& n, const RopeDict& dict) {
  note_stray_keys(n, dict, {"main", "compress"});
  std::vector<Template> templates;
  for (const auto& [key, layer_type, name] :
       {std::tuple{"main", "sliding_attention", "sliding_attention"}, std::tuple{"compress", "", "compressed"}}) {
    RopeDict entry{&(*dict.object)[key], json_pointer_join(dict.pointer, key), true};
    templates.push_back(for_type(read_setup_template(n, entry, dict, n.top_theta, name), layer_type));
  }
  return templates;
}

// ---- layers into setups ----

void assign_layers(Normalizing& n, std::vector<Template> templates) {
  Model& model = n.model;
  std::map<std::tuple<int, AttentionKind, std::int64_t>, int> index_of;
  for (auto& layer : model.layers) {
    if (!layer.uses_rope) continue;
    int t = -1;
    for (std::size_t i = 0; i < templates.size(); ++i)
      if (template_takes(templates[i], layer)) {
        t = static_cast<int>(i);
        break;
      }
    if (t < 0) {
      n.issues.add(
          templates.empty() ? "" : templates.front().setup.pointer,
          LayerScheduleMismatch{
              .reason = ScheduleReason::layer_type_without_rope, .written = layer.layer_type, .layer = layer.index});
      layer.uses_rope = false;
      continue;
    }
    auto key = std::make_tuple(t, layer.attention, layer.window_tokens.value_or(0));
    auto [it, inserted] = index_of.emplace(key, static_cast<int>(model.setups.size()));
    if (inserted) {
      RopeSetup setup = templates[static_cast<std::size_t>(t)].setup;
      setup.attention = layer.attention;
      if (layer.window_tokens) {
        auto source = layer.attention == AttentionKind::chunked ? model.attention_chunk_size : model.sliding_window;
        setup.window_tokens = Field<std::int64_t>{*layer.window_tokens, source ? source->from : Provenance{}};
      }
      model.setups.push_back(std::move(setup));
    }
    layer.setup = it->second;
    model.setups[static_cast<std::size_t>(it->second)].layers.push_back(layer.index);
  }
  // A flat dict split by attention kind is named after the layer type of each part.
  std::set<std::size_t> templates_split;
  for (const auto& [key, index] : index_of) {
    int t = std::get<0>(key);
    int uses = 0;
    for (const auto& [k2, i2] : index_of) uses += std::get<0>(k2) == t;
    auto& setup = model.setups[static_cast<std::size_t>(index)];
    const Template& from = templates[static_cast<std::size_t>(t)];
    if (uses > 1 && from.layer_type.empty() && from.layers.empty())
      setup.name = model.layers[static_cast<std::size_t>(setup.layers.front())].layer_type;
  }
}

void finish_dims(Normalizing& n, Template& t) {
  RopeSetup& setup = t.setup;
  bool full = setup.name == "full_attention";
  setup.head_dim = t.head_dim                         ? *t.head_dim
                   : (full && n.dims.global_head_dim) ? *n.dims.global_head_dim
                                                      : n.dims.head_dim;
  if (n.dims.explicit_rotary_dim &&
      setup.partial_rotary_factor.from.pointer == n.dims.explicit_rotary_dim->from.pointer) {
    setup.rotary_dim = n.dims.explicit_rotary_dim->value;
    return;
  }
  double exact = setup.head_dim.value * setup.partial_rotary_factor.value;
  if (setup.type == RopeType::proportional) {
    int rotated_pairs = static_cast<int>(std::floor(exact / 2.0));
    setup.rotary_dim = 2 * rotated_pairs;
    return;
  }
  setup.rotary_dim = static_cast<int>(exact);  // transformers truncates a fractional product
}

}  // namespace

void read_rope_setups(Normalizing& n) {
  Model& model = n.model;
  if (model.scheme != PositionScheme::rope) return;
  n.top_theta = resolve_top_theta(n);
  RopeDict dict = find_rope_dict(n);

  std::set<std::string> layer_types;
  for (const auto& layer : model.layers) layer_types.insert(layer.layer_type);

  std::vector<Template> templates;
  const bool deepseek_v4 = n.family.pattern == LayerPattern::deepseek_v4_compression;
  const std::vector<std::string> nested = nested_rope_parameter_keys(dict, layer_types);
  if (deepseek_v4 && deepseek_v4_is_nested(dict)) {
    templates = deepseek_v4_nested_templates(n, dict);
  } else if (!deepseek_v4 && !nested.empty()) {
    templates = per_layer_type_templates(n, dict, nested);
  } else if (n.family.dialect == Dialect::gemma3) {
    // Gemma3TextConfig: the legacy dict scales only the global layers; local layers use rope_local_base_freq.
    Field<double> local{1e4, Provenance::by_default("transformers Gemma3 default_theta['local'] 1e4")};
    if (auto hit = n.view.find_value({"rope_local_base_freq"}))
      if (auto v = read_number(*hit, n.issues, "rope_local_base_freq"); v && *v > 0)
        local = {*v, Provenance::at(hit->pointer)};
    templates.push_back(for_type(read_setup_template(n, {}, {}, local, "sliding_attention"), "sliding_attention"));
    templates.push_back(for_type(read_setup_template(n, dict, dict, n.top_theta, "full_attention"), "full_attention"));
    if (!layer_types.count("sliding_attention")) templates.erase(templates.begin());
  } else if (n.family.dialect == Dialect::olmo3 && layer_types.count("sliding_attention")) {
    // Olmo3Config.convert_rope_params_to_dict puts a legacy rope_scaling on full_attention only; the sliding layers
    // keep default RoPE (vLLM olmo2.py: "Rope scaling is only applied on full attention layers").
    templates.push_back(
        for_type(read_setup_template(n, {}, {}, n.top_theta, "sliding_attention"), "sliding_attention"));
    templates.push_back(for_type(read_setup_template(n, dict, dict, n.top_theta, "full_attention"), "full_attention"));
  } else if (n.family.dialect == Dialect::mimo_v2) {
    templates = mimo_v2_templates(n, dict);
  } else if (n.view.find_value({"layer_rope_theta"})) {
    templates = layer_rope_theta_templates(n, dict);
  } else if (n.family.pattern == LayerPattern::deepseek_v4_compression) {
    templates.push_back(
        for_type(read_setup_template(n, {}, {}, n.top_theta, "sliding_attention"), "sliding_attention"));
    templates.push_back(for_type(deepseek_v4_compressed_setup(n, dict), ""));
  } else if (dict.object == nullptr && n.family.dialect == Dialect::gpt_oss) {
    templates.push_back(for_type(gpt_oss_default_setup(n, n.top_theta), ""));
  } else {
    templates.push_back(for_type(read_setup_template(n, dict, dict, n.top_theta, "all"), ""));
  }
  if (n.family.dialect == Dialect::qwen1)
    if (auto hit = n.view.find_value({"use_dynamic_ntk"}); hit && hit->value->is_boolean() && hit->value->get<bool>())
      model.notes.push_back(
          "use_dynamic_ntk and use_logn_attn are Qwen-1 remote-code features, not transformers' "
          "'dynamic' type; the frequencies shown are the unscaled ones");
  if (n.family.dialect == Dialect::ministral3) note_llama4_query_scale(n, dict);
  for (auto& t : templates) finish_dims(n, t);
  assign_layers(n, std::move(templates));
  for (auto& setup : model.setups) setup.max_position_embeddings = model.max_position_embeddings;
}

}  // namespace ropelens::normalize_detail
