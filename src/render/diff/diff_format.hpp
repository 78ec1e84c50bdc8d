// Internal: text forms the diff renderers share (text and markdown).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "ropelens/diff/diff.hpp"

namespace ropelens::render_detail {

// A normalized value: numbers in shortest round-trip form, lists longer than 8 as "[N values]", none as "—".
std::string value_text(const nlohmann::json& value);
// "default → yarn" or "—" sides.
std::string field_name(const FieldChange& change);  // "rope_theta" or "rope_theta (sliding_attention)"
// "44 of 64 (20–63)", "none of 64".
std::string changed_pairs_text(const SetupChange& setup);
// "pair 63: 5.3e-07 → 1.3e-07 rad/token (×0.25)" or "—".
std::string largest_change_text(const SetupChange& setup);
// "1 → 1.139" with missing sides as "—".
std::string before_after(const std::optional<double>& before, const std::optional<double>& after);
std::string before_after_tokens(const std::optional<std::int64_t>& before, const std::optional<std::int64_t>& after,
                                const char* none = "—");
// "41–63 (23)" or "none".
std::string pairs_text(const std::vector<int>& pairs);
// "1 new finding (1 error, 0 warnings, 0 info), 2 fixed, 1 unchanged in 1 changed model"
std::string diff_summary_text(const DiffCounts& counts);

}  // namespace ropelens::render_detail
