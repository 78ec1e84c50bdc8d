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
#include "ropelens/engines/registry.hpp"
#include "ropelens/model/model.hpp"

namespace ropelens {

// What binds the length: the memory left for the KV cache, the angles seen in training, the declared length, or
// the weights themselves (they alone take more than the engine may use: no length fits).
enum class FitLimit { memory, rope, declared, weights };
std::string_view to_string(FitLimit limit);

struct FitReserve {
  std::uint64_t bytes = 0;
  std::string as_given;  // "10%", "2GiB", or "" for none
};
// --reserve: 0, a size (2GiB) or a share of `memory` (10%), rounded up to a whole byte. Throws
// std::invalid_argument naming `option` for anything else.
FitReserve parse_fit_reserve(std::string_view option, const std::string& text, std::uint64_t memory);

struct FitRequest {
  std::uint64_t memory_bytes = 0;  // one GPU's
  int gpus = 1;                    // --tp: the GPUs the model is split over
  FitReserve reserve;
  std::vector<KvDtype> dtypes;                          // empty: the config's (default_kv_dtype)
  Deployment deployment;                                // what is deployed, resolved once by the command line
  std::vector<Engine> engines = Deployment{}.served();  // the rows, in this order: Deployment::served(--engine)
  std::optional<std::uint64_t> weights_bytes;           // --weights, over what the checkpoint states
  std::string model_word;      // the model as the serve commands name it, one shell word ("" when unknown)
  TrainingOverrides training;  // --trained-length: the RoPE cap check's audit uses
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
  std::uint64_t kv_bytes = 0;         // the engine's cache at max_tokens, on one GPU
  std::string serve_command;          // "" for an engine without a server (transformers)
  MemoryShare share;                  // the engine's default share of a GPU (fraction 1, no formula: none)
  std::uint64_t usable_bytes = 0;     // floor(memory · share) − reserve
  std::uint64_t weights_bytes = 0;    // one GPU's part of the weights, as the engine holds them
  std::string weights_from;           // how the whole model's figure was found
  bool weights_as_stated = true;      // that figure is the report's weights unchanged
  std::uint64_t kv_budget = 0;        // usable − weights, 0 when the weights do not fit
};

struct FitReport {
  std::string source;
  std::uint64_t memory_bytes = 0;  // one GPU's
  int gpus = 1;
  FitReserve reserve;
  Field<std::uint64_t> weights;  // the whole model's, as the checkpoint states them (or --weights)
  Field<std::int64_t> declared;
  std::optional<std::int64_t> rope_tokens;  // the audit's in-range length up to the declared one
  std::optional<std::string> rope_unknown;  // why there is none
  std::vector<EngineFit> fits;              // by engine, then dtype
  std::vector<std::string> not_counted;

  // Some engine's weights alone exceed what it may use: an error-level answer (fit exits 1).
  bool weights_exceed() const;
};

// Thrown when the figures cannot be computed: the weights' size is unknown and not given, or the KV cache has no
// per-token size. The message is one line saying why and what to give.
class FitRefused : public InputError {
 public:
  using InputError::InputError;
};

FitReport fit_model(const Model& model, const FitRequest& request);

}  // namespace ropelens
