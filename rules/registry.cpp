// The catalog: one line per rule, sorted by code. Codes are never reused.
#include "ropelens/rule.hpp"

namespace ropelens {
namespace rules {
extern const Rule CFG001;
}  // namespace rules

const std::vector<const Rule*>& rule_registry() {
  static const std::vector<const Rule*> catalog = {
      &rules::CFG001,
  };
  return catalog;
}

}  // namespace ropelens
