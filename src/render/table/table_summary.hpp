// Internal: the one-line band summary and setup header shared by the text and markdown tables.
#pragma once

#include <string>

#include "ropelens/report/table_report.hpp"

namespace ropelens::render_detail {

std::string band_summary(const SetupTable& st);
std::string setup_heading(const Model& model, const SetupTable& st);
std::string attention_summary(const SetupTable& st);
std::string audit_summary(const SetupTable& st, std::int64_t target_tokens);

}  // namespace ropelens::render_detail
