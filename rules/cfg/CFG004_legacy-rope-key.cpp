#include <map>
#include <string>

#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace cfg004 {

// How to spell the method today: 'su' is longrope, 'mrope' is default RoPE that keeps its mrope_section.
static std::string modern_spelling_help(std::string_view legacy_name) {
  if (legacy_name == "su") return "write \"rope_type\": \"longrope\" instead of 'su'";
  if (legacy_name == "mrope") return "write \"rope_type\": \"default\" and keep mrope_section";
  return "rename the key type to rope_type";
}

static std::string meaning(const LegacyRopeTypeName& legacy) {
  if (legacy.means == RopeType::default_rope) return "default RoPE with mrope_section";
  return std::string(to_string(legacy.means));
}

static void check(const Context& cx, Sink& out) {
  for_each_issue<ConflictingTypeKeys>(cx.model, [&](const std::string& pointer, const ConflictingTypeKeys& keys) {
    out.report_as(Severity::error, pointer,
                  fmt::format("type '{}' and rope_type '{}' disagree; transformers uses rope_type, vLLM refuses "
                              "to load",
                              keys.legacy_type, keys.rope_type))
        .help("remove the legacy type key and keep the rope_type the checkpoint was trained with");
  });
  // "type": "mrope" is both a legacy key and a legacy name: one finding says both.
  std::map<std::string, const LegacyRopeTypeName*> names;
  for_each_issue<LegacyRopeTypeName>(
      cx.model, [&](const std::string& pointer, const LegacyRopeTypeName& legacy) { names.emplace(pointer, &legacy); });
  for_each_issue<LegacyTypeKey>(cx.model, [&](const std::string& pointer, const LegacyTypeKey& key) {
    const auto name = names.find(pointer);
    if (name == names.end()) {
      out.report(pointer, fmt::format("legacy key type '{}'; the current key is rope_type", key.type))
          .help(modern_spelling_help(key.type));
      return;
    }
    out.report(pointer, fmt::format("legacy key type '{}'; the current key is rope_type, and '{}' means {}", key.type,
                                    name->second->spelled, meaning(*name->second)))
        .help(modern_spelling_help(name->second->spelled));
    names.erase(name);
  });
  for (const auto& [pointer, legacy] : names)
    out.report(pointer, fmt::format("legacy rope type '{}' means {}", legacy->spelled, meaning(*legacy)))
        .help(modern_spelling_help(legacy->spelled));
}

}  // namespace cfg004

extern const Rule CFG004{{"CFG004", "legacy-rope-key", Severity::info,
                          "The RoPE dict uses a legacy spelling: type instead of rope_type, or an old method name"},
                         &cfg004::check};

}  // namespace ropelens::rules
