// What -v says about one loaded file: that it was read, and every value its config did not give: the defaults
// and derivations normalize applied, read back from the model's provenance.
#pragma once

#include "ropelens/check/check.hpp"
#include "ropelens/load/model_loader.hpp"

namespace ropelens {

// Logs at info level; costs one atomic load when the log is off.
void log_loaded_model(const LoadedModel& loaded);
// The length a checked file was audited at, and whether it was asked for or defaulted to the declared length.
void log_audit_target(const FileResult& result, bool target_given);

}  // namespace ropelens
