#include "render/diff/diff_format.hpp"

#include <fmt/format.h>

#include "render/writers/format.hpp"

namespace ropelens::render_detail {

std::string value_text(const nlohmann::json& value) {
  if (value.is_null()) return "—";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_float()) return number(value.get<double>());
  if (value.is_array() && value.size() > 8) return fmt::format("[{} values]", value.size());
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string field_name(const FieldChange& change) {
  if (change.setup.empty() || change.setup == "all") return change.field;
  return fmt::format("{} ({})", change.field, change.setup);
}

std::string changed_pairs_text(const SetupChange& setup) {
  if (setup.changed_pairs.empty()) return fmt::format("none of {}", setup.pairs_compared);
  return fmt::format("{} of {} ({})", setup.changed_pairs.size(), setup.pairs_compared,
                     index_ranges(setup.changed_pairs));
}

std::string largest_change_text(const SetupChange& setup) {
  if (!setup.largest) return "—";
  const LargestPairChange& c = *setup.largest;
  return fmt::format("pair {}: {:.4g} → {:.4g} rad/token (×{:.4g})", c.pair, c.old_inv_freq, c.new_inv_freq, c.ratio);
}

std::string before_after(const std::optional<double>& before, const std::optional<double>& after) {
  auto text = [](const std::optional<double>& v) { return v ? fmt::format("{:.4g}", *v) : std::string("—"); };
  return fmt::format("{} → {}", text(before), text(after));
}

std::string before_after_tokens(const std::optional<std::int64_t>& before, const std::optional<std::int64_t>& after,
                                const char* none) {
  auto text = [&](const std::optional<std::int64_t>& v) { return v ? tokens(*v) : std::string(none); };
  return fmt::format("{} → {}", text(before), text(after));
}

std::string pairs_text(const std::vector<int>& pairs) {
  if (pairs.empty()) return "none";
  return fmt::format("{} ({})", index_ranges(pairs), pairs.size());
}

std::string diff_summary_text(const DiffCounts& c) {
  const int introduced = c.introduced_errors + c.introduced_warnings + c.introduced_infos;
  std::string text = fmt::format(
      "{} new finding{} ({} error{}, {} warning{}, {} info), {} fixed, {}{} unchanged in {} "
      "changed model{}",
      introduced, introduced == 1 ? "" : "s", c.introduced_errors, c.introduced_errors == 1 ? "" : "s",
      c.introduced_warnings, c.introduced_warnings == 1 ? "" : "s", c.introduced_infos, c.fixed,
      c.kept == 0 ? "" : fmt::format("{} kept, ", c.kept), c.unchanged, c.models, c.models == 1 ? "" : "s");
  if (c.unreadable > 0) text += fmt::format("; {} could not be read", c.unreadable);
  if (c.skipped_files > 0)
    text += fmt::format("; {} config.json file{} skipped (not model configs)", c.skipped_files,
                        c.skipped_files == 1 ? "" : "s");
  return text;
}

}  // namespace ropelens::render_detail
