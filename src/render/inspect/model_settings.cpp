#include "render/inspect/model_settings.hpp"

#include <fmt/format.h>

#include "ropelens/model/model_fields.hpp"
#include "ropelens/model/text.hpp"
#include "ropelens/model/units.hpp"

namespace ropelens::render_detail {
namespace {

bool uses_rope(const Model& model) {
  return model.scheme == PositionScheme::rope || model.scheme == PositionScheme::rope_2d;
}

class SettingRows {
 public:
  template <class T> void add(std::string_view label, const Field<T>& field, std::string suffix = {}) {
    rows_.push_back({std::string(label), field_text(field.value) + suffix, field.from});
  }
  template <class T> void add(std::string_view label, const std::optional<Field<T>>& field, std::string suffix = {}) {
    if (field) add(label, *field, std::move(suffix));
  }
  void add(SettingRow row) { rows_.push_back(std::move(row)); }
  std::vector<SettingRow> take() { return std::move(rows_); }

 private:
  std::vector<SettingRow> rows_;
};

// What follows a value in its row: a model_type beyond transformers as remote code, and the class it was read as
// when that is another (with its auto_map, still remote code), the pairs a rotary width makes, mrope's layout.
std::string model_suffix(const Model& model, std::string_view field) {
  if (field != "model_type" || model.transformers_native) return "";
  if (model.read_as.empty()) return " (unknown class: read as Llama)";
  if (model.read_as == model.model_type.value) return " (remote code)";
  return fmt::format(" ({}read as {})", model.states_key("auto_map") ? "remote code, " : "", model.read_as);
}

std::string setup_suffix(const RopeSetup& s, std::string_view field) {
  if (field == "rotary_dim")
    return fmt::format(
        " ({} pairs{})", s.rotary_dim / 2,
        s.head_dim.value > s.rotary_dim ? fmt::format(", {} dims unrotated", s.head_dim.value - s.rotary_dim) : "");
  if (field == "mrope_section" && s.mrope_interleaved) return " interleaved";
  return "";
}

}  // namespace

std::vector<SettingRow> model_settings(const Model& model) {
  SettingRows rows;
  for_each_field(kModelFields, model, in_settings, [&](const auto& row, const auto& value) {
    if (row.rope_only && !uses_rope(model)) return;
    rows.add(row.label, value, model_suffix(model, row.name));
    if (row.name == "model_type" && !model.text_pointer.empty())
      rows.add({"language model", model.text_pointer, Provenance::at(model.text_pointer)});
  });
  if (model.weights_bytes)
    rows.add({"weights",
              fmt::format("{} bytes ({})", group_thousands(model.weights_bytes->value),
                          format_bytes(static_cast<std::int64_t>(model.weights_bytes->value))),
              model.weights_bytes->from});
  if (model.weights_parameters)
    rows.add({"parameters", group_thousands(model.weights_parameters->value), model.weights_parameters->from});
  return rows.take();
}

std::vector<SettingRow> setup_settings(const RopeSetup& s) {
  SettingRows rows;
  for_each_setup_field(s, in_settings, [&](const auto& row, const auto& value) {
    rows.add(row.label, value, setup_suffix(s, row.name));
  });
  return rows.take();
}

}  // namespace ropelens::render_detail
