// A GGUF file checked against the config.json it was converted from: what llama.cpp's convert_hf_to_gguf.py writes
// for that config (the converter as llama_cpp_convert.cpp models it), against what the file holds, key by key.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "ropelens/model/model.hpp"

namespace ropelens {

enum class ConversionAspect {
  scaling,         // scaling type, factor, original length, yarn_ext_factor, attention factor, factor tensors
  theta,           // rope.freq_base, rope.freq_base_swa
  context_length,  // context_length
  layout,          // rotary dims and NoPE layers, which GGUF cannot state per layer type
};

struct ConversionDifference {
  ConversionAspect aspect = ConversionAspect::scaling;
  std::string gguf_key;        // "qwen3.rope.scaling.factor", or a tensor name ("rope_factors_long.weight")
  std::string gguf_pointer;    // where a finding points in the file ("gguf:qwen3.rope.scaling.factor")
  std::string config_pointer;  // the source config's key ("/rope_scaling/factor"); "" when the config has none
  std::string written;         // what the converter writes for the config ("absent" when it writes nothing)
  std::string found;           // what the file holds ("absent")
  std::string consequence;     // what llama.cpp then runs, with numbers
  // The one fix that works for what was lost: gguf-set-metadata for a number the file holds, a new conversion (with
  // the converter version that writes it) for a key it lacks, a string or a tensor, another engine for a layout GGUF
  // cannot state.
  std::string remedy;
};

struct ConversionAudit {
  std::string arch;                               // general.architecture of the file
  std::vector<ConversionDifference> differences;  // in the order above, per setup
  // Factor tensors that hold exactly what the converter writes for the config ("rope_freqs.weight").
  std::vector<std::string> tensors_as_converted;

  bool as_converted(std::string_view tensor) const {
    return std::find(tensors_as_converted.begin(), tensors_as_converted.end(), tensor) != tensors_as_converted.end();
  }
};

// The differences between `gguf` (a Model read from a GGUF file) and what the converter writes for `source` (the
// config.json it came from). Empty when the file holds what the converter writes, or when `gguf` is no GGUF model.
ConversionAudit audit_conversion(const Model& source, const Model& gguf);

}  // namespace ropelens
