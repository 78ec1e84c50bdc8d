// Whole-path fuzz target for `suggest`: a config through the three searches at 2x, 4x or 8x its declared
// length (the searches must end: libFuzzer's -timeout catches one that does not), and the one-story
// invariant: a suggestion called verified passes check of the edited config, run independently here.
#include <cstddef>
#include <cstdint>
#include <sstream>

#include "fuzz_support.hpp"
#include "ropelens/normalize/normalize.hpp"
#include "ropelens/render/render.hpp"
#include "ropelens/suggest/suggest.hpp"

using namespace ropelens;

namespace {

// What `ropelens check` exits 0 on: no error and no warning (the default --fail-on), and pair figures to verify.
bool check_passes(const FileResult& checked) {
  for (const Diagnostic& d : checked.diagnostics)
    if (d.severity != Severity::info) return false;
  for (const SetupAudit& setup : checked.audit.setups)
    if (setup.missing) return false;  // no pair figures, so nothing to verify against
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Document document;
  try {
    document = parse_config("fuzz-input", std::string(reinterpret_cast<const char*>(data), size));
  } catch (const InputError&) {
    return 0;
  }
  const Model model = normalize(document);
  SuggestRequest request;
  request.target_tokens = std::min<std::int64_t>(
      std::max<std::int64_t>(model.max_position_embeddings.value, 2) * (2 << (size % 3)), kMaxLengthTokens);
  SuggestReport report;
  try {
    report = suggest_changes(document, request);
  } catch (const InputError&) {
    return 0;  // e.g. an edit the document's shape cannot take
  }
  for (const Suggestion& s : report.suggestions) {
    CheckOptions options;
    options.target_tokens = request.target_tokens;
    const FileResult checked = check_model(load_document(document, s.edits), options);
    fuzz::require(s.verified == check_passes(checked), "suggest and check disagree: " + s.check_command);
  }
  std::ostringstream text, json;
  render_suggest_text(report, text);
  render_suggest_json(report, json);
  fuzz::require_bounded(text.str().size() + json.str().size(), size, "suggest output");
  fuzz::require_finite(nlohmann::json::parse(json.str()), "suggest json");
  return 0;
}
