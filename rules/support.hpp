// Shared by rule files: small helpers that keep each rule a few lines long.
#pragma once

#include <string>
#include <string_view>

#include "ropelens/rule.hpp"

namespace ropelens::rules {

// Reports every normalization problem recorded under this rule's code.
void report_problems(const Context& cx, Sink& out, std::string_view help);

// "0–2, 4" from sorted indices.
std::string index_ranges(const std::vector<int>& sorted);

// A setup's short label for messages: "setup full_attention (layers 5, 11, …)".
std::string setup_label(const Model& model, int setup);

}  // namespace ropelens::rules
