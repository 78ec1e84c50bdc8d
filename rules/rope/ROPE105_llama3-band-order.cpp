#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace rope105 {

static void check_factors(const RopeSetup& s, Sink& out) {
  const double low = s.llama3.low_freq_factor.value, high = s.llama3.high_freq_factor.value;
  if (high > low || !s.original_max_position_embeddings) return;
  const auto original = static_cast<double>(s.original_max_position_embeddings->value);
  const std::string pointer = pointer_or(s.llama3.high_freq_factor.from, s.pointer);
  if (high == low) {
    out.report_as(Severity::info, pointer,
                  fmt::format("llama3 high_freq_factor {} equals low_freq_factor {}: no smoothed band, a hard step "
                              "at wavelength {} tokens",
                              number(high), number(low), number(original / low)))
        .help(
            "make high_freq_factor greater than low_freq_factor (Llama 3.1 uses 4 and 1) unless the hard step is "
            "what the checkpoint was trained with")
        .related(pointer_or(s.llama3.low_freq_factor.from, s.pointer));
    return;
  }
  out.report(pointer, fmt::format("llama3 high_freq_factor {} is below low_freq_factor {}: the smoothed band of "
                                  "wavelengths {} to {} tokens is inverted",
                                  number(high), number(low), number(original / low), number(original / high)))
      .help("swap the two values: high_freq_factor must exceed low_freq_factor (Llama 3.1 uses 4 and 1)")
      .related(pointer_or(s.llama3.low_freq_factor.from, s.pointer))
      .fact("low_freq_factor", low)
      .fact("high_freq_factor", high);
}

static void check_lengths(const RopeSetup& s, Sink& out) {
  if (!s.original_max_position_embeddings) return;
  const auto& original = *s.original_max_position_embeddings;
  if (original.from.origin != Origin::config || original.value < s.max_position_embeddings.value) return;
  // Equal lengths are what transformers' llama3 validation only warns about; a longer original is inverted.
  const bool equal = original.value == s.max_position_embeddings.value;
  out.report_as(equal ? Severity::warning : Severity::error, original.from.pointer,
                fmt::format("llama3 original_max_position_embeddings {} is {} max_position_embeddings {}: the "
                            "scaling claims {}",
                            original.value, equal ? "equal to" : "above", s.max_position_embeddings.value,
                            equal ? "no extension" : "a context shorter than pretraining"))
      .help(
          "set original_max_position_embeddings to the pretraining length (8192 for Llama 3.x) and "
          "max_position_embeddings to the extended one")
      .related(s.max_position_embeddings.from.pointer)
      .fact("original_max_position_embeddings", original.value)
      .fact("max_position_embeddings", s.max_position_embeddings.value);
}

static void check(const Context& cx, Sink& out) {
  for (int i : distinct_dict_setups(cx.model)) {
    const RopeSetup& s = cx.model.setups[static_cast<std::size_t>(i)];
    if (s.type != RopeType::llama3) continue;
    check_factors(s, out);
    check_lengths(s, out);
  }
}

}  // namespace rope105

extern const Rule ROPE105{{"ROPE105", "llama3-band-order", Severity::error,
                           "llama3 scaling has its frequency bands or lengths in the wrong order"},
                          &rope105::check};

}  // namespace ropelens::rules
