// Internal: one function per RoPE method. Each returns base and effective frequencies, bands and the
// attention factor for one setup, following transformers v5 `_compute_<method>_parameters` in float64.
#pragma once

#include <cstdint>
#include <optional>

#include "ropelens/rope/rope.hpp"

namespace ropelens::rope_detail {

RopeTable unscaled_table(const RopeSetup& setup);  // default RoPE: every pair kept

RopeTable compute_default(const RopeSetup& setup);
RopeTable compute_linear(const RopeSetup& setup);
RopeTable compute_dynamic(const RopeSetup& setup, std::optional<std::int64_t> seq_len);
RopeTable compute_yarn(const RopeSetup& setup);
RopeTable compute_longrope(const RopeSetup& setup, std::optional<std::int64_t> seq_len);
RopeTable compute_llama3(const RopeSetup& setup);
RopeTable compute_proportional(const RopeSetup& setup);

}  // namespace ropelens::rope_detail
