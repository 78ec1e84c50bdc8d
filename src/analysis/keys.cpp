// Key spelling: which RoPE keys each method reads, and the nearest known spelling of a stray key.
#include <algorithm>
#include <string>

#include "ropelens/analysis/analysis.hpp"

namespace ropelens {
namespace {

constexpr RopeType kAllTypes[] = {RopeType::default_rope, RopeType::linear, RopeType::dynamic,     RopeType::yarn,
                                  RopeType::longrope,     RopeType::llama3, RopeType::proportional};

std::vector<std::string_view> with_common(std::initializer_list<std::string_view> own) {
  std::vector<std::string_view> keys = {
      "rope_type", "type", "rope_theta", "partial_rotary_factor", "mrope_section", "mrope_interleaved"};
  keys.insert(keys.end(), own.begin(), own.end());
  return keys;
}

}  // namespace

int edit_distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1, 0));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = static_cast<int>(i);
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

std::optional<std::string_view> closest_spelling(std::string_view word, const std::vector<std::string_view>& candidates,
                                                 int max_distance) {
  std::optional<std::string_view> best;
  int best_distance = max_distance + 1;
  for (auto candidate : candidates) {
    int distance = edit_distance(word, candidate);
    if (distance == 0) return std::nullopt;
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

const std::vector<std::string_view>& rope_keys_read_by(RopeType type) {
  static const std::vector<std::string_view> kDefault = with_common({});
  static const std::vector<std::string_view> kFactorOnly = with_common({"factor"});
  static const std::vector<std::string_view> kYarn =
      with_common({"factor", "original_max_position_embeddings", "attention_factor", "beta_fast", "beta_slow", "mscale",
                   "mscale_all_dim", "truncate"});
  static const std::vector<std::string_view> kLongrope =
      with_common({"short_factor", "long_factor", "original_max_position_embeddings", "attention_factor", "factor"});
  static const std::vector<std::string_view> kLlama3 =
      with_common({"factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor"});
  switch (type) {
    case RopeType::default_rope: return kDefault;
    case RopeType::linear:
    case RopeType::dynamic:
    case RopeType::proportional: return kFactorOnly;
    case RopeType::yarn: return kYarn;
    case RopeType::longrope: return kLongrope;
    case RopeType::llama3: return kLlama3;
  }
  return kDefault;
}

const std::vector<std::string_view>& all_rope_keys() {
  static const std::vector<std::string_view> keys = [] {
    std::vector<std::string_view> out;
    for (RopeType type : kAllTypes)
      for (auto key : rope_keys_read_by(type))
        if (std::find(out.begin(), out.end(), key) == out.end()) out.push_back(key);
    return out;
  }();
  return keys;
}

std::vector<RopeType> rope_types_reading(std::string_view key) {
  std::vector<RopeType> out;
  for (RopeType type : kAllTypes) {
    const auto& keys = rope_keys_read_by(type);
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) out.push_back(type);
  }
  return out;
}

}  // namespace ropelens
