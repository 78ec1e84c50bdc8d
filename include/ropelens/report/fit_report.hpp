// What `fit` prints, already computed: per engine and KV-cache dtype, the longest context whose weights plus KV cache
// fit a memory budget (the engine's own cache layout, engines/kv_cache.hpp), capped by the declared length and by the
// audit's in-range length (audit/reach.hpp), with the serve flags that give it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ropelens/audit/audit.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/memory/kv_cache.hpp"
#include "ropelens/engines/deployment.hpp"
#include "ropelens/model/model.hpp"

namespace ropelens {

// What binds the length: the memory left for the KV cache, the angles seen in training, or the declared length.
enum class FitLimit { memory, rope, declared };
std::string_view to_string(FitLimit limit);

struct FitReserve {
  std::uint64_t bytes = 0;
  std::string as_given;  // "10%", "2GiB", or "" for none
};

struct FitRequest {
  std::uint64_t memory_bytes = 0;
  FitReserve reserve;
  std::vector<KvDtype> dtypes;                  // empty: the config's (default_kv_dtype)
  Deployment deployment;                        // what is deployed, resolved once by the command line
  std::vector<Engine> engines = all_engines();  // the rows, in this order: Deployment::served(--engine)
  std::optional<std::uint64_t> weights_bytes;   // --weights, over what the checkpoint states
  TrainingOverrides training;                   // --trained-length: the RoPE cap check's audit uses
};

struct EngineFit {
  Engine engine{};
  KvDtype dtype = KvDtype::bf16;
  std::optional<std::string> unsupported;  // the engine has no cache of this dtype: no figure
  std::int64_t max_tokens = 0;
  FitLimit limited_by = FitLimit::memory;
  std::int64_t memory_tokens = 0;     // what memory alone allows, searched up to the cap (equal to it when it fits)
  std::int64_t granularity = 1;       // tokens per block, page or cell pad
  std::string_view granularity_text;  // "blocks of 16 tokens" (the engine's registry row)
  std::uint64_t kv_bytes = 0;         // the engine's cache at max_tokens
  std::string serve_command;          // "" for an engine without a server (transformers)
};

struct FitReport {
  std::string source;
  std::uint64_t memory_bytes = 0;
  FitReserve reserve;
  Field<std::uint64_t> weights;
  std::uint64_t kv_budget = 0;  // memory − reserve − weights, 0 when the weights do not fit
  Field<std::int64_t> declared;
  std::optional<std::int64_t> rope_tokens;  // the audit's in-range length up to the declared one
  std::optional<std::string> rope_unknown;  // why there is none
  std::vector<EngineFit> fits;              // by engine, then dtype
  std::vector<std::string> not_counted;
};

// Thrown when the figures cannot be computed: the weights' size is unknown and not given, or the KV cache has no
// per-token size. The message is one line saying why and what to give.
class FitRefused : public InputError {
 public:
  using InputError::InputError;
};

FitReport fit_model(const Model& model, const FitRequest& request);

}  // namespace ropelens
