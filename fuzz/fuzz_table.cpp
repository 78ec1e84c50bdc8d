// Whole-path fuzz target for `table` and `inspect`: bytes through loading, the per-pair tables at a target and
// a sequence length the input picks, the engine views, and every table and inspect renderer. Checks that the
// JSON output parses with finite numbers and that the output stays within a bound of the input size.
#include <cstddef>
#include <cstdint>
#include <sstream>

#include "fuzz_support.hpp"
#include "ropelens/check/check.hpp"
#include "ropelens/engines/engine_report.hpp"
#include "ropelens/render/render.hpp"
#include "ropelens/report/table_report.hpp"

using namespace ropelens;

namespace {

// Inspect and the KV-cache report list every layer, so their cost grows with the layer count, and a few bytes of
// GGUF can declare 100,000 layers: such an input costs about a second under instrumentation, and the fuzzer kept
// choosing them (65 executions a second over a campaign). Past this count the target stops after loading.
// tests/input/test_resource_limits.cpp runs table and inspect on 100,000 layers, and the check target's campaigns
// keep such inputs.
constexpr std::size_t kLayersMax = 4096;

template <class Render> void bounded(Render render, std::size_t input_size, const char* what, bool json) {
  std::ostringstream out;
  render(out);
  const std::string text = out.str();
  fuzz::require_bounded(text.size(), input_size, what);
  if (json) fuzz::require_finite(nlohmann::json::parse(text), what);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  LoadedModel loaded;
  try {
    loaded = load_input(fuzz::input_of(data, size), {});
  } catch (const InputError&) {
    return 0;
  }
  const Model& model = loaded.model;
  if (model.layers.size() > kLayersMax) return 0;
  TableRequest request;
  request.target_tokens = fuzz::target_for(model, size);
  request.seq_len = fuzz::target_for(model, size / 7);
  const TableReport table = build_table_report(model, request);
  bounded([&](std::ostream& o) { render_table_text(table, o); }, size, "table text", false);
  bounded([&](std::ostream& o) { render_table_json(table, o); }, size, "table json", true);
  bounded([&](std::ostream& o) { render_table_csv(table, o); }, size, "table csv", false);
  bounded([&](std::ostream& o) { render_table_markdown(table, o); }, size, "table markdown", false);

  const EngineReport engines = build_engine_report(model, all_engines(), *table.target_tokens);
  bounded([&](std::ostream& o) { render_engines_text(model, engines, o); }, size, "engines text", false);
  bounded([&](std::ostream& o) { render_engines_json(model, engines, o); }, size, "engines json", true);

  InspectReport inspected = build_inspect_report(loaded, {request.target_tokens, std::nullopt});
  inspected.problems = config_findings(loaded);
  bounded([&](std::ostream& o) { render_inspect_text(inspected, o); }, size, "inspect text", false);
  bounded([&](std::ostream& o) { render_inspect_json(inspected, o); }, size, "inspect json", true);
  return 0;
}
