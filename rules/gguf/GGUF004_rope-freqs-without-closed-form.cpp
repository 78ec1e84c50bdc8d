#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace gguf004 {

static std::string describe(const UnrecoverableRopeFreqs& misfit) {
  switch (misfit.reason) {
    case RopeFreqsMisfit::wrong_length:
      return fmt::format("it has {} values for {} rotary pairs", misfit.count, misfit.pairs);
    case RopeFreqsMisfit::unusable_value:
      return fmt::format("entry {} is {}, not a finite divisor above 0", misfit.pair, misfit.value);
    case RopeFreqsMisfit::slowest_not_scaled:
      return fmt::format("the slowest pair ({}) is divided by {}, not by a llama3 factor above 1", misfit.pair,
                         misfit.value);
    case RopeFreqsMisfit::too_few_band_pairs:
      return fmt::format("{} pairs lie between 1 and the factor; two are needed to place llama3's band", misfit.count);
    case RopeFreqsMisfit::band_not_llama3:
      return fmt::format(
          "the divisors between 1 and the factor (from pair {}) do not grow with the wavelength as "
          "llama3's do",
          misfit.pair);
    case RopeFreqsMisfit::closed_form_mismatch:
      return fmt::format("entry {} is {:.9g} where the nearest llama3 closed form gives {:.9g}", misfit.pair,
                         misfit.value, misfit.expected);
  }
  return {};
}

// The tensor is what the converter writes for the source config: it holds that config's llama3 scaling, read there,
// and a difference elsewhere (a changed base, which moves the divisors off the closed form) is its own finding.
static bool as_converted(const Context& cx) {
  const ConversionAudit* audit = cx.conversion_audit();
  return audit != nullptr && audit->as_converted(kRopeFreqsTensor);
}

static void check(const Context& cx, Sink& out) {
  if (as_converted(cx)) return;
  for_each_issue<UnrecoverableRopeFreqs>(cx.model, [&](const std::string& pointer, const UnrecoverableRopeFreqs& m) {
    out.report(pointer, fmt::format("rope_freqs.weight is no llama3 scaling: {}. The length trained before scaling is "
                                    "not in the file, so no angle audit is made",
                                    describe(m)))
        .help(
            "audit the model's config.json, or give the pretraining length with --trained-length (and the "
            "extended one with --extended-length)")
        .fact("reason", static_cast<int>(m.reason))
        .fact("pair", m.pair);
  });
}

}  // namespace gguf004

extern const Rule GGUF004{
    {"GGUF004", "rope-freqs-without-closed-form", Severity::warning,
     "A rope_freqs tensor fits no llama3 closed form, so the length trained before scaling is unknown"},
    &gguf004::check};

}  // namespace ropelens::rules
