// Internal to the normalizer: layered lookups over a config and its nested language-model object,
// and typed reads that record issues instead of throwing.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ropelens/model/model.hpp"
#include "ropelens/model/text.hpp"

namespace ropelens::normalize_detail {

using nlohmann::json;

struct Hit {
  const json* value = nullptr;
  std::string pointer;
  bool is_null() const { return value == nullptr || value->is_null(); }
  std::string key() const { return json_pointer_key(pointer); }  // the key it was found under
};

struct Scope {
  const json* object;
  std::string pointer;
};

class ConfigView {
 public:
  explicit ConfigView(const json& root);

  // The innermost scope holding `key` (a null value counts as present).
  std::optional<Hit> find(std::string_view key) const;
  std::optional<Hit> find_any(std::initializer_list<std::string_view> keys) const;
  // Like find, but only a non-null value counts.
  std::optional<Hit> find_value(std::initializer_list<std::string_view> keys) const;

  const std::string& text_pointer() const { return scopes_.front().pointer; }
  const std::vector<Scope>& scopes() const { return scopes_; }
  const json& root() const { return *scopes_.back().object; }

 private:
  std::vector<Scope> scopes_;  // innermost first
};

// Collects what the readers could not take as written.
class Issues {
 public:
  explicit Issues(std::vector<ConfigIssue>& out) : out_(out) {}
  void add(std::string pointer, ConfigIssue::Detail detail) { out_.push_back({std::move(pointer), std::move(detail)}); }

 private:
  std::vector<ConfigIssue>& out_;
};

std::string describe_json(const json& value);
bool is_non_finite_marker(const json& value);

InvalidValue wrong_type(std::string_view field, ValueType expected, const json& value);
InvalidValue wrong_entry_type(std::string_view list, ValueType expected, const json& entry);
InvalidValue invalid_number(std::string_view field, InvalidReason reason, double value);

// A finite number, or nullopt with an InvalidValue issue (strings, booleans, NaN markers). Null gives nullopt
// silently.
std::optional<double> read_number(const Hit& hit, Issues& issues, std::string_view what);
// A whole number within [min, max], or nullopt with an InvalidValue issue.
std::optional<std::int64_t> read_integer(const Hit& hit, Issues& issues, std::string_view what, std::int64_t min,
                                         std::int64_t max);
std::optional<bool> read_bool(const Hit& hit, Issues& issues, std::string_view what);
std::optional<std::string> read_string(const Hit& hit, Issues& issues, std::string_view what);

}  // namespace ropelens::normalize_detail
