// `suggest`'s document.
#include "ropelens/documents/documents.hpp"
#include "ropelens/render/formats.hpp"

namespace ropelens {

void apply_trained_length_rules(SuggestRequest& request, const std::vector<TrainedLengthRule>& trained_lengths,
                                const std::string& shown) {
  TrainingOverrides stated;
  stated.trained_length = request.original_tokens;
  const TrainingOverrides training = training_for(stated, trained_lengths, shown);
  request.original_tokens = training.trained_length;
  request.original_from = training.trained_length_from;
}

void write_suggest_document(const SuggestReport& report, std::string_view format, std::ostream& out,
                            const TextOptions& text) {
  find_format(suggest_formats(), format, "suggest")(report, out, text);
}

}  // namespace ropelens
