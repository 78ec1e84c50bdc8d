// Whole-path fuzz target for `check`: bytes (a config.json or a GGUF file) through loading, every rule, every
// engine view and all four renderers, at a target the input picks. Beyond "no crash" it checks that every
// pointer a finding names is in the document, that every number is finite, that the JSON and SARIF output
// parse, and that the output stays within a bound of the input size.
#include <cstddef>
#include <cstdint>
#include <sstream>

#include "fuzz_support.hpp"
#include "ropelens/render/render.hpp"

using namespace ropelens;

namespace {

void check_output(const FileResult& result, std::string_view format, std::size_t input_size) {
  std::ostringstream out;
  auto renderer = make_check_renderer(format, out);
  renderer->begin();
  renderer->file(result);
  CheckCounts counts;
  counts.add(result);
  renderer->end(counts);
  const std::string text = out.str();
  fuzz::require_bounded(text.size(), input_size, std::string(format) + " check output");
  fuzz::require_document(format, text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  InputFile input = fuzz::input_of(data, size);
  const bool gguf = input.gguf;
  const std::string text = input.text;
  LoadedModel loaded;
  try {
    loaded = load_input(std::move(input), {});
  } catch (const InputError&) {
    return 0;
  }
  CheckOptions options;
  options.target_tokens = fuzz::target_for(loaded.model, size);
  options.selection.select = {"ALL"};
  options.engines = all_engines();
  const FileResult result = check_model(std::move(loaded), options);
  fuzz::require_pointers_resolve(result, text, gguf);
  for (const auto& d : result.diagnostics) fuzz::require_finite(d.facts, d.code + " facts");
  for (std::string_view format : {"text", "json", "sarif", "github"}) check_output(result, format, size);
  return 0;
}
