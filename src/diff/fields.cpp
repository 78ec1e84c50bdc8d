#include <cmath>

#include <fmt/format.h>

#include "diffing.hpp"
#include "ropelens/model/model_fields.hpp"
#include "ropelens/model/text.hpp"

namespace ropelens::diff_detail {
namespace {

constexpr double kSameValueRelative = 1e-6;  // float32 keeps 7 significant digits

// A Field's value as JSON, names for enums.
template <class T> nlohmann::json field_value_json(const T& value) { return nlohmann::json(value); }
nlohmann::json field_value_json(Pairing value) { return std::string(to_string(value)); }
nlohmann::json field_value_json(PositionScheme value) { return std::string(to_string(value)); }

class FieldList {
 public:
  FieldList(std::vector<NamedValue>& out, std::string setup) : out_(out), setup_(std::move(setup)) {}
  template <class T> void add(std::string field, const Field<T>& value) const {
    out_.push_back({setup_, std::move(field), field_value_json(value.value), value.from});
  }
  template <class T> void add(std::string field, const std::optional<Field<T>>& value) const {
    if (value) add(std::move(field), *value);
  }
  void add_plain(const std::string& field, nlohmann::json value) const {
    out_.push_back({setup_, field, std::move(value), {}});
  }

 private:
  std::vector<NamedValue>& out_;
  std::string setup_;
};

// A method parameter is compared as "yarn.beta_fast".
std::string qualified_name(std::string_view group, std::string_view name) {
  return group.empty() ? std::string(name) : fmt::format("{}.{}", group, name);
}

void add_setup(const RopeSetup& setup, const FieldList& list) {
  list.add_plain("layers", index_ranges(setup.layers));
  list.add_plain("attention", std::string(to_string(setup.attention)));
  for_each_setup_field(setup, in_diff, [&](const auto& row, const auto& value) {
    list.add(qualified_name(row.group, row.name), value);
  });
}

}  // namespace

std::vector<NamedValue> normalized_fields(const Model& model) {
  std::vector<NamedValue> out;
  const FieldList list(out, "");
  for_each_field(kModelFields, model, in_diff,
                 [&](const auto& row, const auto& value) { list.add(std::string(row.name), value); });
  list.add_plain("layer_schedule", model.schedule_summary());
  for (const auto& setup : model.setups) add_setup(setup, FieldList(out, setup.name));
  return out;
}

bool same_value(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.is_number() && b.is_number()) {
    const double x = a.get<double>(), y = b.get<double>();
    return x == y || std::abs(x - y) <= kSameValueRelative * std::max(std::abs(x), std::abs(y));
  }
  if (a.is_array() && b.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!same_value(a[i], b[i])) return false;
    return true;
  }
  return a == b;
}

}  // namespace ropelens::diff_detail
