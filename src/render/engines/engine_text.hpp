// Internal to renderers: the short text forms of engine views shared by the text table and the HTML report.
#pragma once

#include <string>

#include "ropelens/engines/engine_views.hpp"

namespace ropelens::render_detail {

std::string view_title(const EngineView& view);    // "vLLM main (unreleased) (same: SGLang)"
std::string limit_text(const LengthLimit& limit);  // "131072 (default 40960)", "no limit"

}  // namespace ropelens::render_detail
