// The Model's settings, listed once: each field's name, its label for people, how to reach it, and which
// views list it. The -v log, diff, the JSON model and the inspect settings all iterate over these lists, so
// a new field is one row here. Every member of Model, RopeSetup and the method parameters is either a row
// below or named in a "kept elsewhere" list, and static_asserts count them against the structs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "ropelens/model/model.hpp"

namespace ropelens {

// The views that list a field (a bit each).
enum FieldViews : unsigned {
  in_log = 1,       // -v: a value the config did not spell out
  in_diff = 2,      // diff: compared field by field
  in_json = 4,      // inspect --format json: {"value", "from"}
  in_settings = 8,  // inspect and the HTML report: the settings rows
  in_every_view = in_log | in_diff | in_json | in_settings,
};

// One row. `get` is a member pointer or a function of the owner returning a Field<T> or an optional one.
template <class Get> struct FieldRow {
  std::string_view name;   // as in config.json, and the key diff and JSON use
  std::string_view label;  // how the settings and the log name it
  Get get;
  unsigned views = in_every_view;
  std::optional<RopeType> method = std::nullopt;  // a method parameter: listed only for setups of that method
  std::string_view group = {};                    // the method's name, which diff prefixes and JSON nests under
  bool rope_only = false;                         // means something only when the model uses RoPE

  constexpr bool in(FieldViews view) const { return (views & view) != 0; }
  template <class Owner> decltype(auto) of(const Owner& owner) const { return std::invoke(get, owner); }
};

template <class Get> constexpr FieldRow<Get> row(std::string_view name, Get get, unsigned views = in_every_view) {
  return {name, name, get, views};
}
template <class Get> constexpr FieldRow<Get> labelled(std::string_view name, std::string_view label, Get get,
                                                      unsigned views = in_every_view) {
  return {name, label, get, views};
}
template <class Get> constexpr FieldRow<Get> rope_only_row(std::string_view name, Get get) {
  return {name, name, get, in_every_view, std::nullopt, {}, true};
}
template <class Get>
constexpr FieldRow<Get> method_row(RopeType method, std::string_view group, std::string_view name, Get get) {
  return {name, name, get, in_every_view, method, group};
}

namespace model_fields {

inline Field<PositionScheme> scheme(const Model& m) { return {m.scheme, m.scheme_from}; }
inline Field<int> rotary_dim(const RopeSetup& s) {
  return {s.rotary_dim, Provenance::derived("int(head_dim x partial_rotary_factor)")};
}
inline std::optional<Field<std::vector<int>>> mrope_section(const RopeSetup& s) {
  if (s.mrope_section.empty()) return std::nullopt;
  return Field<std::vector<int>>{s.mrope_section, Provenance::at(s.pointer + "/mrope_section")};
}

}  // namespace model_fields

// The model-wide settings, in the order inspect prints them.
inline constexpr auto kModelFields = std::make_tuple(
    row("model_type", &Model::model_type), labelled("scheme", "positional scheme", &model_fields::scheme),
    rope_only_row("pairing", &Model::pairing), row("num_layers", &Model::num_layers),
    row("num_attention_heads", &Model::num_attention_heads, in_log | in_diff),
    row("max_position_embeddings", &Model::max_position_embeddings),
    row("original_max_position_embeddings", &Model::original_max_position_embeddings),
    row("sliding_window", &Model::sliding_window), row("attention_chunk_size", &Model::attention_chunk_size),
    // JSON shows it under "mla".
    labelled("qk_nope_head_dim", "qk_nope_head_dim (no position)", &Model::qk_nope_head_dim,
             in_log | in_diff | in_settings));

// Members of Model that are not settings rows: identity, layout, scheme-specific parts and what normalize noted.
inline constexpr std::string_view kModelMembersElsewhere[] = {"source",
                                                              "reference",
                                                              "text_pointer",
                                                              "scheme_from",
                                                              "transformers_native",
                                                              "length_keys",
                                                              "layers",
                                                              "setups",
                                                              "hybrid_schedule_from",
                                                              "alibi",
                                                              "t5",
                                                              "nope_temperature",
                                                              "kv",
                                                              "weights_bytes",
                                                              "weights_parameters",
                                                              "checkpoint",
                                                              "vocab_size",
                                                              "hidden_size",
                                                              "name_or_path",
                                                              "gguf",
                                                              "notes",
                                                              "issues",
                                                              "config_keys",
                                                              "work_tree_file",
                                                              "read_as",
                                                              "rope_stray_keys"};

// One RoPE setup's settings, in the order inspect prints them; method parameters only for their method.
inline constexpr auto kSetupFields = std::make_tuple(
    row("rope_type", &RopeSetup::rope_type_name), row("rope_theta", &RopeSetup::rope_theta),
    row("head_dim", &RopeSetup::head_dim), row("partial_rotary_factor", &RopeSetup::partial_rotary_factor),
    row("rotary_dim", &model_fields::rotary_dim, in_diff | in_settings),  // JSON: a plain number
    row("max_position_embeddings", &RopeSetup::max_position_embeddings),
    row("original_max_position_embeddings", &RopeSetup::original_max_position_embeddings),
    row("factor", &RopeSetup::factor),
    method_row(
        RopeType::yarn, "yarn", "beta_fast", [](const RopeSetup& s) -> auto& { return s.yarn.beta_fast; }),
    method_row(
        RopeType::yarn, "yarn", "beta_slow", [](const RopeSetup& s) -> auto& { return s.yarn.beta_slow; }),
    method_row(
        RopeType::yarn, "yarn", "mscale", [](const RopeSetup& s) -> auto& { return s.yarn.mscale; }),
    method_row(
        RopeType::yarn, "yarn", "mscale_all_dim", [](const RopeSetup& s) -> auto& { return s.yarn.mscale_all_dim; }),
    method_row(
        RopeType::yarn, "yarn", "attention_factor",
        [](const RopeSetup& s) -> auto& { return s.yarn.attention_factor; }),
    method_row(
        RopeType::yarn, "yarn", "truncate", [](const RopeSetup& s) -> auto& { return s.yarn.truncate; }),
    method_row(
        RopeType::longrope, "longrope", "short_factor",
        [](const RopeSetup& s) -> auto& { return s.longrope.short_factor; }),
    method_row(
        RopeType::longrope, "longrope", "long_factor",
        [](const RopeSetup& s) -> auto& { return s.longrope.long_factor; }),
    method_row(
        RopeType::longrope, "longrope", "attention_factor",
        [](const RopeSetup& s) -> auto& { return s.longrope.attention_factor; }),
    method_row(
        RopeType::llama3, "llama3", "low_freq_factor",
        [](const RopeSetup& s) -> auto& { return s.llama3.low_freq_factor; }),
    method_row(
        RopeType::llama3, "llama3", "high_freq_factor",
        [](const RopeSetup& s) -> auto& { return s.llama3.high_freq_factor; }),
    row("frequency_divisors", &RopeSetup::frequency_divisors),
    row("mrope_section", &model_fields::mrope_section, in_diff | in_settings),  // JSON: "mrope"
    row("window_tokens", &RopeSetup::window_tokens));

// Members of RopeSetup that are not rows: identity, layout, the parsed type, the method parameter structs
// (their members are rows), what mrope_section's row shows beside it, the keys for unknown-key checks, and the
// per-layer truncate only engine views read.
inline constexpr std::string_view kSetupMembersElsewhere[] = {
    "name",   "pointer",           "layers",    "attention",     "type", "yarn", "longrope",
    "llama3", "mrope_interleaved", "dict_keys", "layer_truncate"};

// Calls visit(row, value) for each row listed in `view`, in order; `value` is the row's Field<T> or
// std::optional<Field<T>>.
template <class Rows, class Owner, class Visit>
void for_each_field(const Rows& rows, const Owner& owner, FieldViews view, Visit&& visit) {
  std::apply(
      [&](const auto&... each) {
        const auto one = [&](const auto& r) {
          if (r.in(view)) visit(r, r.of(owner));
        };
        (one(each), ...);
      },
      rows);
}

// A setup's rows that apply to it: a method parameter only for its method.
template <class Visit> void for_each_setup_field(const RopeSetup& setup, FieldViews view, Visit&& visit) {
  for_each_field(kSetupFields, setup, view, [&](const auto& r, const auto& value) {
    if (!r.method || *r.method == setup.type) visit(r, value);
  });
}

namespace model_fields {

// How many members an aggregate has: the most initializers T{…} accepts.
struct AnyMember {
  template <class T> operator T&() const;
};
template <class T, std::size_t... I> constexpr bool initializable_with(std::index_sequence<I...>) {
  return requires { T{(void(I), AnyMember{})...}; };
}
template <class T, std::size_t N = 0> constexpr std::size_t member_count() {
  if constexpr (initializable_with<T>(std::make_index_sequence<N + 1>())) return member_count<T, N + 1>();
  else return N;
}

template <class Rows, class Pick> constexpr std::size_t count_rows(const Rows& rows, Pick pick) {
  return std::apply([&](const auto&... r) { return (std::size_t{0} + ... + (pick(r) ? 1 : 0)); }, rows);
}

template <class Rows> constexpr std::size_t rows_in_group(const Rows& rows, std::string_view group) {
  return count_rows(rows, [&](const auto& r) { return r.group == group; });
}

}  // namespace model_fields

// A member added to one of these structs without a row above (or a name in a "kept elsewhere" list) stops the
// build here.
static_assert(model_fields::member_count<Model>() ==
                  std::tuple_size_v<decltype(kModelFields)> + std::size(kModelMembersElsewhere),
              "a new Model member needs a row in kModelFields or its name in kModelMembersElsewhere");
static_assert(model_fields::member_count<RopeSetup>() ==
                  model_fields::rows_in_group(kSetupFields, "") + std::size(kSetupMembersElsewhere),
              "a new RopeSetup member needs a row in kSetupFields or its name in kSetupMembersElsewhere");
static_assert(model_fields::member_count<YarnParams>() == model_fields::rows_in_group(kSetupFields, "yarn"),
              "a new YarnParams member needs a yarn row in kSetupFields");
static_assert(model_fields::member_count<LongropeParams>() == model_fields::rows_in_group(kSetupFields, "longrope"),
              "a new LongropeParams member needs a longrope row in kSetupFields");
static_assert(model_fields::member_count<Llama3Params>() == model_fields::rows_in_group(kSetupFields, "llama3"),
              "a new Llama3Params member needs a llama3 row in kSetupFields");

// A value as the settings rows and the -v log print it: numbers as fmt writes them, lists of factors by count.
std::string field_text(const std::string& value);
std::string field_text(bool value);
std::string field_text(Pairing value);
std::string field_text(PositionScheme value);
std::string field_text(int value);
std::string field_text(std::int64_t value);
std::string field_text(double value);
std::string field_text(const std::vector<double>& values);  // "64 values"
std::string field_text(const std::vector<int>& values);     // "[16, 24, 24]"

}  // namespace ropelens
