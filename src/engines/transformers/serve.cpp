// transformers has no server: a change is the config edit itself, and there is no snippet to print.
#include "transformers.hpp"

namespace ropelens::engine_detail {

std::vector<EngineSnippet> transformers_snippets(const SnippetRequest& /*request*/) { return {}; }

}  // namespace ropelens::engine_detail
