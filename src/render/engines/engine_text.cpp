#include "render/engines/engine_text.hpp"

#include <fmt/format.h>

namespace ropelens::render_detail {

std::string view_title(const EngineView& view) {
  if (view.same_as.empty()) return view.label;
  return fmt::format("{} (same: {})", view.label, fmt::join(view.same_as, ", "));
}

std::string limit_text(const LengthLimit& limit) {
  if (!limit.limit_tokens) return "no limit";
  std::string text = fmt::format("{}", *limit.limit_tokens);
  if (limit.default_tokens && limit.default_tokens != limit.limit_tokens)
    text += fmt::format(" (default {})", *limit.default_tokens);
  return text;
}

}  // namespace ropelens::render_detail
