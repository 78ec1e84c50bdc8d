// suggest: the smallest config change that brings every RoPE pair within the angles seen in training at a
// target length, one per method (YaRN factor, linear factor, NTK-aware base), each verified by running `check`
// on the edited config at the target, with ready-to-paste engine snippets that make the same edit.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ropelens/engines/deployment.hpp"
#include "ropelens/engines/engine_views.hpp"
#include "ropelens/engines/snippets.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/model/diagnostic.hpp"

namespace ropelens {

using SuggestMethod = RopeChangeMethod;
std::string_view to_string(SuggestMethod method);

struct SuggestRequest {
  std::int64_t target_tokens = 0;
  // The length the model was trained at. Default: the audit's pretraining length (original_max_position_embeddings
  // when the config gives one, else the declared length: with no scaling the declared length is the trained one).
  std::optional<std::int64_t> original_tokens;
  std::string original_from = "--trained-length";  // where original_tokens comes from, as the audit names it
  Deployment deployment;                           // the stack the edits are verified under (check's views and rules)
  std::vector<Engine> engines = Deployment{}.served();  // which snippets to print (Deployment::served)
  std::optional<std::string> revision;                  // for a Hugging Face id (locate_model)
};

// What the change does at every length, compared with the config as it is (static scaling: ROPE103).
struct ShortInputEffect {
  int pairs_changed = 0;  // pairs whose frequency changes
  int pairs_total = 0;
  double max_ratio = 1.0;  // the largest change among them, as a factor ≥ 1 (slower or faster)
  double magnitude_before = 1.0;
  double magnitude_after = 1.0;
};

// A finding that makes `ropelens check` fail (exit 1 at the default --fail-on warning) on the edited config.
struct RemainingFinding {
  std::string code;  // "" when the edited config could not be read
  Severity severity = Severity::warning;
  std::string pointer;
  std::string message;
};

struct Suggestion {
  SuggestMethod method = SuggestMethod::yarn;
  double value = 0.0;                      // the factor, or the new rope_theta
  std::string change;                      // one line: what is changed
  std::vector<Edit> edits;                 // applied to the config (JSON pointers)
  nlohmann::ordered_json config_fragment;  // the same edits as a config.json fragment, nested like the model
  bool verified = false;      // `check` of the edited config at the target exits 0 (default rules, --fail-on)
  std::string check_command;  // that check, as a user runs it
  std::vector<RemainingFinding> remaining;  // the errors and warnings that keep it from exiting 0
  std::vector<int> still_out_of_range;      // pairs of the audited setups that remain out of range
  ShortInputEffect short_inputs;
  std::vector<std::pair<std::string, std::int64_t>> engine_limits;  // each engine view's limit after the change
  std::vector<EngineSnippet> snippets;
};

struct SuggestReport {
  std::string source;
  std::string model_type;
  std::int64_t target_tokens = 0;
  std::int64_t original_tokens = 0;
  std::string original_from;             // where the trained length comes from (Provenance::describe)
  std::string trained_sentence;          // the sentence check and report print for it (SetupAudit)
  std::vector<int> out_of_range_before;  // pairs out of range in the config as it is
  std::vector<Suggestion> suggestions;   // empty when nothing is out of range
  std::vector<std::string> notes;
};

// Reads `path` once (throws InputError like load_model; "-" reads stdin), audits it at the target and builds each
// suggestion, verified by check_model on the config loaded with the suggestion's edits (what
// `ropelens check PATH --set … --target T` runs).
SuggestReport suggest_changes(const std::string& path, const SuggestRequest& request);
SuggestReport suggest_changes(const Document& document, const SuggestRequest& request);
// The same for a file held in memory (a browser's): a config.json whole, a GGUF file's header (BytesNotRead asks for
// what is missing).
SuggestReport suggest_changes(const FileBytes& file, const SuggestRequest& request);

}  // namespace ropelens
