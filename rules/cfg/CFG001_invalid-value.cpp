#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace cfg001 {

static std::string_view with_article(ValueType type) {
  switch (type) {
    case ValueType::number: return "a number";
    case ValueType::whole_number: return "a whole number";
    case ValueType::positive_number: return "a positive number";
    case ValueType::boolean: return "true or false";
    case ValueType::string: return "a string";
    case ValueType::object: return "an object";
    case ValueType::list: return "a list";
    case ValueType::number_list: return "a list of numbers";
  }
  return "a value";
}

static std::string_view plural(ValueType type) {
  switch (type) {
    case ValueType::whole_number: return "whole numbers";
    case ValueType::positive_number: return "positive numbers";
    default: return "numbers";
  }
}

static std::string describe(const InvalidValue& v) {
  const auto& field = v.field;
  switch (v.reason) {
    case InvalidReason::wrong_type:
      return fmt::format("{} must be {}, got {}", field, with_article(v.expected), v.written);
    case InvalidReason::wrong_entry_type:
      return fmt::format("{} entries must be {}, got {}", field, plural(v.expected), v.written);
    case InvalidReason::not_finite:
      return v.written.empty() ? fmt::format("{} is not finite", field)
                               : fmt::format("{} is {}, not a finite number", field, v.written);
    case InvalidReason::not_positive: return fmt::format("{} {} must be positive", field, v.value);
    case InvalidReason::negative: return fmt::format("{} {} is negative", field, v.value);
    case InvalidReason::below_minimum:
      return v.value < 0 ? fmt::format("{} {} is negative", field, v.value)
                         : fmt::format("{} {} is below {}", field, v.value, v.minimum);
    case InvalidReason::above_maximum:
      return fmt::format("{} {:.0f} is implausibly large (limit {})", field, v.value, v.maximum);
    case InvalidReason::outside_unit_interval: return fmt::format("{} {} is outside (0, 1]", field, v.value);
    case InvalidReason::factor_below_one:
      return fmt::format("{} {} is below 1 (it shortens wavelengths; transformers only warns and uses it)", field,
                         v.value);
    case InvalidReason::within_exact_buckets:
      return fmt::format("{} {} must exceed half the buckets ({})", field, v.value, v.minimum);
    case InvalidReason::no_usable_layer_value:
      return fmt::format("{} is an array without a usable per-layer value", field);
  }
  return field + " is invalid";
}

static void check(const Context& cx, Sink& out) {
  const std::string help = "replace the value with one of the type and range the field takes";
  const std::string_view consequence = cx.model.gguf ? "; ignored (llama.cpp would not load it)" : "";
  for_each_issue<InvalidValue>(cx.model, [&](const std::string& pointer, const InvalidValue& invalid) {
    out.report(pointer, describe(invalid) + std::string(consequence)).help(help);
  });
  for_each_issue<ValueCutForDepth>(cx.model, [&](const std::string& pointer, const ValueCutForDepth& cut) {
    out.report(pointer, fmt::format("value nested deeper than {} levels; it was not read", cut.max_depth)).help(help);
  });
}

}  // namespace cfg001

extern const Rule CFG001{
    {"CFG001", "invalid-value", Severity::error, "A position-related field has the wrong type or an impossible value"},
    &cfg001::check};

}  // namespace ropelens::rules
