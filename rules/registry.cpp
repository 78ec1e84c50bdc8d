// The catalog: one line per rule, sorted by code. Codes are never reused.
#include "ropelens/rule.hpp"

namespace ropelens {
namespace rules {
extern const Rule CFG001;
extern const Rule CFG002;
extern const Rule CFG003;
extern const Rule CFG004;
extern const Rule CFG005;
extern const Rule CFG006;
extern const Rule CFG007;
extern const Rule CFG008;
extern const Rule CFG009;
extern const Rule CFG010;
extern const Rule CTX201;
extern const Rule CTX202;
extern const Rule CTX203;
extern const Rule CTX204;
extern const Rule CTX205;
extern const Rule CTX206;
extern const Rule CTX207;
extern const Rule CTX208;
extern const Rule CTX209;
extern const Rule ENG301;
extern const Rule ENG302;
extern const Rule ENG303;
extern const Rule ENG304;
extern const Rule ENG305;
extern const Rule GGUF001;
extern const Rule GGUF002;
extern const Rule GGUF003;
extern const Rule ROPE101;
extern const Rule ROPE102;
extern const Rule ROPE103;
extern const Rule ROPE104;
extern const Rule ROPE105;
extern const Rule ROPE106;
extern const Rule ROPE107;
}  // namespace rules

const std::vector<const Rule*>& rule_registry() {
  static const std::vector<const Rule*> catalog = {
      &rules::CFG001,
      &rules::CFG002,
      &rules::CFG003,
      &rules::CFG004,
      &rules::CFG005,
      &rules::CFG006,
      &rules::CFG007,
      &rules::CFG008,
      &rules::CFG009,
      &rules::CFG010,
      &rules::CTX201,
      &rules::CTX202,
      &rules::CTX203,
      &rules::CTX204,
      &rules::CTX205,
      &rules::CTX206,
      &rules::CTX207,
      &rules::CTX208,
      &rules::CTX209,
      &rules::ENG301,
      &rules::ENG302,
      &rules::ENG303,
      &rules::ENG304,
      &rules::ENG305,
      &rules::GGUF001,
      &rules::GGUF002,
      &rules::GGUF003,
      &rules::ROPE101,
      &rules::ROPE102,
      &rules::ROPE103,
      &rules::ROPE104,
      &rules::ROPE105,
      &rules::ROPE106,
      &rules::ROPE107,
  };
  return catalog;
}

}  // namespace ropelens
