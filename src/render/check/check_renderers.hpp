// Internal: one streaming check renderer per format.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "ropelens/render/render.hpp"

namespace ropelens::render_detail {

std::unique_ptr<CheckRenderer> make_text_check_renderer(std::ostream& out, const TextOptions& options);
std::unique_ptr<CheckRenderer> make_json_check_renderer(std::ostream& out);
std::unique_ptr<CheckRenderer> make_sarif_check_renderer(std::ostream& out);
std::unique_ptr<CheckRenderer> make_github_check_renderer(std::ostream& out);

// Re-indents a dumped JSON value so it can be streamed inside an enclosing document.
std::string indent_json(const std::string& dumped, int spaces);

// One finding as each format writes it, shared by check and diff.
class JsonWriter;
void write_diagnostic_json(JsonWriter& w, const Diagnostic& d);  // check --format json
// A ruff-like block: position, code, severity, name and message; the pointer; related pointers; help.
void append_finding_text(const std::string& path, const Diagnostic& d, std::string& out,
                         const TextOptions& options = {});
std::string github_annotation(const std::string& path, const Diagnostic& d);    // one workflow command line
std::string github_error(const std::string& path, const std::string& message);  // a file that could not be read

}  // namespace ropelens::render_detail
