// Internal: one streaming check renderer per format.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "ropelens/render.hpp"

namespace ropelens::render_detail {

std::unique_ptr<CheckRenderer> make_text_check_renderer(std::ostream& out, const TextOptions& options);
std::unique_ptr<CheckRenderer> make_json_check_renderer(std::ostream& out);
std::unique_ptr<CheckRenderer> make_sarif_check_renderer(std::ostream& out);
std::unique_ptr<CheckRenderer> make_github_check_renderer(std::ostream& out);

// Re-indents a dumped JSON value so it can be streamed inside an enclosing document.
std::string indent_json(const std::string& dumped, int spaces);

}  // namespace ropelens::render_detail
