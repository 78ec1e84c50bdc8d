// Deployment facts as JSON: the KV cache at the target (integer bytes) and a GGUF file's header.
#include "ropelens/render/render.hpp"

namespace ropelens {
namespace {

using nlohmann::json;

json groups_json(const KvCacheView& view) {
  json groups = json::array();
  for (const auto& g : view.groups)
    groups.push_back({{"name", g.name},
                      {"layers", g.layers},
                      {"tokens_held", g.tokens_held},
                      {"k_values", g.row.k},
                      {"v_values", g.row.v},
                      {"bytes", g.bytes},
                      {"holds", g.holds}});
  return groups;
}

template <class T> json deploy_optional_json(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

}  // namespace

json kv_cache_json(const KvCacheReport& kv) {
  json out = {{"tokens", kv.tokens},
              {"dtype", to_string(kv.dtype)},
              {"dtype_from", kv.dtype_from.describe()},
              {"bytes_per_element", bytes_per_element(kv.dtype)},
              {"not_computed", deploy_optional_json(kv.not_computed)}};
  if (kv.not_computed) return out;
  out["total_bytes"] = kv.cache.total_bytes;
  out["semantics"] = kv.cache.summary;
  out["by_setup"] = groups_json(kv.cache);
  json engines = json::object();
  for (const auto& e : kv.engines)
    engines[std::string(e.name())] = {{"total_bytes", e.total_bytes},
                                      {"summary", e.summary},
                                      {"assumptions", e.assumptions},
                                      {"by_setup", groups_json(e)}};
  out["engines"] = engines;
  if (kv.weights_bytes) {
    out["weights_bytes"] = kv.weights_bytes->value;
    out["weights_from"] = kv.weights_bytes->from.describe();
    out["weights_plus_kv_bytes"] = kv.weights_bytes->value + kv.cache.total_bytes;
  } else {
    out["weights_bytes"] = nullptr;
  }
  return out;
}

json gguf_metadata_json(const GgufMetadata& g) {
  return {{"architecture", deploy_optional_json(g.architecture)},
          {"name", deploy_optional_json(g.name)},
          {"file_type", deploy_optional_json(g.file_type)},
          {"quantization", g.quantization},
          {"tensor_count", g.tensor_count},
          {"parameters", g.parameters},
          {"size_bytes", g.size_bytes},
          {"tensor_bytes", deploy_optional_json(g.tensor_bytes)},
          {"bits_per_weight", g.bits_per_weight},
          {"split_count", deploy_optional_json(g.split_count)},
          {"context_length", deploy_optional_json(g.context_length)},
          {"embedding_length", deploy_optional_json(g.embedding_length)},
          {"block_count", deploy_optional_json(g.block_count)},
          {"head_count", deploy_optional_json(g.head_count)},
          {"head_count_kv", deploy_optional_json(g.head_count_kv)},
          {"tokenizer_model", deploy_optional_json(g.tokenizer_model)},
          {"vocabulary_size", deploy_optional_json(g.vocabulary_size)},
          {"vocabulary_from", g.vocabulary_from}};
}

}  // namespace ropelens
