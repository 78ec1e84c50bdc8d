// Whole-path fuzz target for `diff`: the input holds two sides, split at the first "\n---\n" (without one, both
// sides are the input). Each side is loaded and checked as `check` does, compared with diff_checked, and
// rendered in every diff format. Beyond "no crash" it checks that the comparison accounts for every finding of
// each side exactly once (diff and check agree), that every number is finite, that the JSON and SARIF output
// parse, and that the output stays within a bound of the input size.
#include <cstddef>
#include <cstdint>
#include <sstream>

#include "fuzz_support.hpp"
#include "ropelens/diff/diff.hpp"
#include "ropelens/render/render.hpp"

using namespace ropelens;

namespace {

constexpr std::string_view kSeparator = "\n---\n";

DiffSide checked_side(std::string_view bytes, std::size_t input_size) {
  InputFile input = fuzz::input_of(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  LoadedModel loaded;
  try {
    loaded = load_input(std::move(input), {});
  } catch (const InputError&) {
    return std::nullopt;  // treated as a side that does not exist (added or deleted)
  }
  CheckOptions options;
  options.target_tokens = fuzz::target_for(loaded.model, input_size);
  options.engines = all_engines();
  return check_model(std::move(loaded), options);
}

void require_accounted(const DiffSide& side, std::size_t listed, const char* which) {
  const std::size_t found = side ? side->diagnostics.size() : 0;
  fuzz::require(found == listed, std::string("diff lists ") + std::to_string(listed) + " findings of the " + which +
                                     " side, check reports " + std::to_string(found));
}

void render_all(const DiffReport& report, std::size_t input_size) {
  using Render = void (*)(const DiffReport&, std::ostream&);
  const std::pair<std::string_view, Render> formats[] = {
      {"text", [](const DiffReport& r, std::ostream& o) { render_diff_text(r, o); }},
      {"json", render_diff_json},
      {"markdown", render_diff_markdown},
      {"sarif", render_diff_sarif},
      {"github", render_diff_github}};
  for (const auto& [name, render] : formats) {
    std::ostringstream out;
    render(report, out);
    const std::string text = out.str();
    fuzz::require_bounded(text.size(), 2 * input_size, std::string(name) + " diff output");
    fuzz::require_document(name, text);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto split = bytes.find(kSeparator);
  const std::string_view old_bytes = split == std::string_view::npos ? bytes : bytes.substr(0, split);
  const std::string_view new_bytes = split == std::string_view::npos ? bytes : bytes.substr(split + kSeparator.size());
  const DiffSide old_side = checked_side(old_bytes, size);
  const DiffSide new_side = checked_side(new_bytes, size);
  if (!old_side && !new_side) return 0;
  const DiffStatus status = !old_side ? DiffStatus::added : !new_side ? DiffStatus::deleted : DiffStatus::modified;
  DiffReport report;
  report.old_label = "old";
  report.new_label = "new";
  report.models.push_back(diff_checked(status, old_side, new_side));
  report.counts = count_changes(report.models);
  const ModelDiff& model = report.models.front();
  require_accounted(old_side,
                    model.findings.fixed.size() + model.findings.kept.size() +
                        (old_side && new_side ? model.findings.unchanged.size() : 0),
                    "old");
  require_accounted(
      new_side, model.findings.introduced.size() + (old_side && new_side ? model.findings.unchanged.size() : 0), "new");
  render_all(report, size);
  return 0;
}
