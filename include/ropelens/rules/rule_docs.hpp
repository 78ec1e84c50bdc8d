#pragma once

#include <string_view>
#include <vector>

namespace ropelens {

struct EmbeddedDoc {
  std::string_view code;
  std::string_view markdown;
};

// Every rule's markdown doc, embedded at build time from rules/<family>/<CODE>_<name>.md.
const std::vector<EmbeddedDoc>& embedded_rule_docs();
std::string_view rule_doc(std::string_view code);

}  // namespace ropelens
