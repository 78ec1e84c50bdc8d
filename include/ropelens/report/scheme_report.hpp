// Scheme-specific figures beyond plain RoPE (ALiBi, T5 buckets, NoPE temperature, MLA, M-RoPE, learned
// tables), computed once for inspect and table. Renderers only format them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ropelens/model/model.hpp"
#include "ropelens/schemes/schemes.hpp"

namespace ropelens {

struct AlibiFacts {
  std::vector<double> slopes;
  std::optional<AlibiBiasAtTarget> at_target;
};

struct T5Facts {
  int num_buckets = 0;
  int max_distance = 0;
  bool bidirectional = true;
  std::vector<T5BucketSpan> spans;                                  // bidirectional spans (the encoder's)
  std::vector<T5BucketSpan> causal_spans;                           // the decoder's self-attention
  std::optional<std::int64_t> last_bucket_distances_bidirectional;  // at the target
  std::optional<std::int64_t> last_bucket_distances_causal;
};

struct NopeFacts {
  std::vector<int> layers;
  bool temperature_tuning = false;
  double floor_scale = 0.0;
  double attn_scale = 0.0;
  std::int64_t first_scaled_position = 0;
  std::optional<double> temperature_at_target;  // at position T-1
  std::optional<std::int64_t> chunk_tokens;     // RoPE layers never see a distance beyond chunk-1
};

struct MlaFacts {
  int rope_dim = 0;
  int nope_dim = 0;
  std::optional<double> softmax_scale_multiplier;  // yarn mscale_all_dim: gm(factor, mscale_all_dim)^2
};

enum class MropeAxis { temporal, height, width };
struct MropeFacts {
  int setup = 0;
  std::vector<int> section;
  bool interleaved = false;
  std::vector<MropeAxis> axis_of_pair;
};

struct LearnedFacts {
  std::int64_t table_positions = 0;  // usable positions; the last valid one is table_positions - 1
  int row_offset = 0;                // OPT/BART keep 2 extra rows
  std::optional<bool> target_has_row;
};

struct SchemeReport {
  std::optional<AlibiFacts> alibi;
  std::optional<T5Facts> t5;
  std::optional<NopeFacts> nope;
  std::optional<MlaFacts> mla;
  std::vector<MropeFacts> mrope;
  std::optional<LearnedFacts> learned;
  std::vector<std::string> explanations;  // plain sentences on what the scheme means at the target
};

SchemeReport build_scheme_report(const Model& model, std::optional<std::int64_t> target_tokens);

std::string_view to_string(MropeAxis axis);

}  // namespace ropelens
