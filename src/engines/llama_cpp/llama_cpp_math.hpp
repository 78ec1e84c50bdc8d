// Internal: llama.cpp's float32 arithmetic, shared by the llama.cpp views and exposed for tests.
#pragma once

#include <vector>

namespace ropelens {

// ggml_rope_cache_init's per-pair angle at position 1: theta starts at 1 and is multiplied by
// base^(-2/n_dims) once per pair, all in float32. Its drift from the float64 powers is ~2e-6 by pair 63.
std::vector<float> ggml_fp32_theta_iteration(double base, int n_dims, int pairs);

// DeepSeek2 graph: kq_scale multiplier mscale² with mscale = 1 + 0.1·yarn_log_multiplier·ln(factor), the
// multiplier as the loader holds it (DEEPSEEK2 files store 0.1·mscale_all_dim and the loader divides by 0.1).
double llama_cpp_deepseek2_kq_multiplier(double yarn_log_multiplier, double factor);

}  // namespace ropelens
