#include <string>
#include <vector>

#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace cfg013 {

// How a value the reading rests on was obtained: derived (with its formula) or assumed (with whose default).
static std::string how(const Provenance& from) {
  switch (from.origin) {
    case Origin::derived: return "derived as " + from.note;
    case Origin::defaulted: return "assumed (" + from.note + ")";
    case Origin::config: break;
  }
  return "read from " + from.pointer;
}

static std::vector<std::string> guesses(const Model& model) {
  std::vector<std::string> out;
  if (model.setups.empty()) return out;
  const RopeSetup& setup = model.setups.front();
  out.push_back(fmt::format("head_dim {} {}", setup.head_dim.value, how(setup.head_dim.from)));
  out.push_back(fmt::format("{} pairing assumed", to_string(model.pairing.value)));
  if (setup.rope_theta.from.origin == Origin::defaulted)
    out.push_back(fmt::format("rope_theta {:g} {}", setup.rope_theta.value, how(setup.rope_theta.from)));
  return out;
}

static std::string subject(const BestEffortReading& reading) {
  std::string text =
      reading.model_type.empty() ? "the config has no model_type" : fmt::format("model_type '{}'", reading.model_type);
  if (!reading.architecture.empty()) text += fmt::format(" (architectures[0] '{}')", reading.architecture);
  return text;
}

static void check(const Context& cx, Sink& out) {
  for_each_issue<BestEffortReading>(cx.model, [&](const std::string& pointer, const BestEffortReading& reading) {
    std::string message = subject(reading) + " is not known: read with Llama semantics";
    for (const auto& guess : guesses(cx.model)) message += "; " + guess;
    out.report(pointer, message)
        .help(
            "check the model's own modeling code: if it is a Llama-style model, set the values it assumes "
            "(head_dim, rope_theta) explicitly; otherwise its RoPE figures here may be wrong");
  });
}

}  // namespace cfg013

extern const Rule CFG013{
    {"CFG013", "best-effort-semantics", Severity::warning, "The config was read with guessed (Llama) semantics"},
    &cfg013::check};

}  // namespace ropelens::rules
