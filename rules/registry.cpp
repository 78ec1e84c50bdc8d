// The catalog: one RULE line per rule, sorted by code. Codes are never reused.
#include "ropelens/rules/rule.hpp"

// clang-format off
#define ROPELENS_CATALOG(RULE) \
  RULE(CFG001) \
  RULE(CFG002) \
  RULE(CFG003) \
  RULE(CFG004) \
  RULE(CFG005) \
  RULE(CFG006) \
  RULE(CFG007) \
  RULE(CFG008) \
  RULE(CFG009) \
  RULE(CFG010) \
  RULE(CFG011) \
  RULE(CFG012) \
  RULE(CFG013) \
  RULE(CKPT401) \
  RULE(CKPT402) \
  RULE(CKPT403) \
  RULE(CKPT404) \
  RULE(CTX201) \
  RULE(CTX202) \
  RULE(CTX203) \
  RULE(CTX204) \
  RULE(CTX205) \
  RULE(CTX206) \
  RULE(CTX207) \
  RULE(CTX208) \
  RULE(CTX209) \
  RULE(CTX210) \
  RULE(CTX211) \
  RULE(ENG301) \
  RULE(ENG302) \
  RULE(ENG303) \
  RULE(ENG304) \
  RULE(ENG305) \
  RULE(ENG306) \
  RULE(ENG307) \
  RULE(GGUF001) \
  RULE(GGUF002) \
  RULE(GGUF003) \
  RULE(GGUF004) \
  RULE(GGUF005) \
  RULE(GGUF006) \
  RULE(GGUF007) \
  RULE(GGUF008) \
  RULE(ROPE101) \
  RULE(ROPE102) \
  RULE(ROPE103) \
  RULE(ROPE104) \
  RULE(ROPE105) \
  RULE(ROPE106) \
  RULE(ROPE107) \
  RULE(SRV501) \
  RULE(SRV502) \
  RULE(SRV503) \
  RULE(SRV504) \
  RULE(SRV505) \
  RULE(SRV506) \
  RULE(SRV507) \
  /* end of the catalog */
// clang-format on

namespace ropelens {
namespace rules {
#define ROPELENS_DECLARE_RULE(code) extern const Rule code;
ROPELENS_CATALOG(ROPELENS_DECLARE_RULE)
}  // namespace rules

const std::vector<const Rule*>& rule_registry() {
#define ROPELENS_LIST_RULE(code) &rules::code,
  static const std::vector<const Rule*> catalog = {ROPELENS_CATALOG(ROPELENS_LIST_RULE)};
  return catalog;
}

}  // namespace ropelens
