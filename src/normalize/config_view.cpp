#include "config_view.hpp"

#include <cmath>

#include <fmt/format.h>

namespace ropelens::normalize_detail {

namespace {
// Multimodal and omni wrappers keep the language model in one of these objects.
constexpr std::string_view kNestedLanguageModelKeys[] = {"text_config", "llm_config", "language_config",
                                                         "thinker_config"};
}  // namespace

ConfigView::ConfigView(const json& root) {
  std::vector<Scope> outer_to_inner{{&root, ""}};
  for (int level = 0; level < 4; ++level) {
    const Scope& current = outer_to_inner.back();
    const Scope* next = nullptr;
    Scope candidate{nullptr, {}};
    for (auto key : kNestedLanguageModelKeys) {
      auto it = current.object->find(std::string(key));
      if (it != current.object->end() && it->is_object()) {
        candidate = {&*it, json_pointer_join(current.pointer, key)};
        next = &candidate;
        break;
      }
    }
    if (next == nullptr) break;
    outer_to_inner.push_back(candidate);
  }
  scopes_.assign(outer_to_inner.rbegin(), outer_to_inner.rend());
}

std::optional<Hit> ConfigView::find(std::string_view key) const {
  for (const auto& scope : scopes_) {
    if (!scope.object->is_object()) continue;
    // The map's transparent comparator finds a string_view without copying it into a std::string.
    const auto& members = scope.object->get_ref<const json::object_t&>();
    auto it = members.find(key);
    if (it != members.end()) return Hit{&it->second, json_pointer_join(scope.pointer, key)};
  }
  return std::nullopt;
}

std::optional<Hit> ConfigView::find_any(std::initializer_list<std::string_view> keys) const {
  for (auto key : keys)
    if (auto hit = find(key)) return hit;
  return std::nullopt;
}

std::optional<Hit> ConfigView::find_value(std::initializer_list<std::string_view> keys) const {
  for (auto key : keys)
    if (auto hit = find(key); hit && !hit->is_null()) return hit;
  return std::nullopt;
}

bool is_non_finite_marker(const json& value) {
  if (!value.is_string()) return false;
  const auto& s = value.get_ref<const std::string&>();
  return !s.empty() && s[0] == '\0';
}

std::string describe_json(const json& value) {
  if (is_non_finite_marker(value)) return value.get<std::string>().substr(1);
  std::string dumped = value.dump();
  if (dumped.size() > 40) dumped = dumped.substr(0, 37) + "...";
  return fmt::format("{} {}", value.type_name(), dumped);
}

InvalidValue wrong_type(std::string_view field, ValueType expected, const json& value) {
  return {.field = std::string(field),
          .reason = InvalidReason::wrong_type,
          .expected = expected,
          .written = describe_json(value)};
}

InvalidValue wrong_entry_type(std::string_view list, ValueType expected, const json& entry) {
  InvalidValue invalid = wrong_type(list, expected, entry);
  invalid.reason = InvalidReason::wrong_entry_type;
  return invalid;
}

InvalidValue invalid_number(std::string_view field, InvalidReason reason, double value) {
  return {.field = std::string(field), .reason = reason, .value = value};
}

std::optional<double> read_number(const Hit& hit, Issues& issues, std::string_view what) {
  if (hit.is_null()) return std::nullopt;
  const json& v = *hit.value;
  if (v.is_number() && std::isfinite(v.get<double>())) return v.get<double>();
  if (v.is_number() || is_non_finite_marker(v)) {
    issues.add(hit.pointer, InvalidValue{.field = std::string(what),
                                         .reason = InvalidReason::not_finite,
                                         .written = v.is_number() ? "" : describe_json(v)});
    return std::nullopt;
  }
  issues.add(hit.pointer, wrong_type(what, ValueType::number, *hit.value));
  return std::nullopt;
}

std::optional<std::int64_t> read_integer(const Hit& hit, Issues& issues, std::string_view what, std::int64_t min,
                                         std::int64_t max) {
  auto number = read_number(hit, issues, what);
  if (!number) return std::nullopt;
  InvalidValue invalid{.field = std::string(what), .value = *number, .minimum = min, .maximum = max};
  if (*number != std::floor(*number)) {
    invalid.expected = ValueType::whole_number;
    invalid.written = fmt::format("{}", *number);
  } else if (*number < static_cast<double>(min)) {
    invalid.reason = InvalidReason::below_minimum;
  } else if (*number > static_cast<double>(max)) {
    invalid.reason = InvalidReason::above_maximum;
  } else {
    return static_cast<std::int64_t>(*number);
  }
  issues.add(hit.pointer, std::move(invalid));
  return std::nullopt;
}

std::optional<bool> read_bool(const Hit& hit, Issues& issues, std::string_view what) {
  if (hit.is_null()) return std::nullopt;
  if (hit.value->is_boolean()) return hit.value->get<bool>();
  issues.add(hit.pointer, wrong_type(what, ValueType::boolean, *hit.value));
  return std::nullopt;
}

std::optional<std::string> read_string(const Hit& hit, Issues& issues, std::string_view what) {
  if (hit.is_null()) return std::nullopt;
  if (hit.value->is_string() && !is_non_finite_marker(*hit.value)) return hit.value->get<std::string>();
  issues.add(hit.pointer, wrong_type(what, ValueType::string, *hit.value));
  return std::nullopt;
}

}  // namespace ropelens::normalize_detail
