#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace cfg011 {
namespace {

// Which key each engine's length starts from: transformers' declared length, then every view that names one.
std::vector<std::string> readers(const Context& cx) {
  std::vector<std::string> out;
  if (auto key = cx.model.max_position_embeddings.from.key(); !key.empty())
    out.push_back(fmt::format("transformers reads {}", key));
  for (const auto& view : cx.engine_views())
    if (!view.length.length_key.empty())
      out.push_back(fmt::format("{} serves {}{}", view.label, view.length.derivation,
                                view.length.limit_tokens ? past_trained(cx, *view.length.limit_tokens) : ""));
  return out;
}

}  // namespace

static void check(const Context& cx, Sink& out) {
  const auto& keys = cx.model.length_keys;
  std::set<std::int64_t> values;
  for (const auto& key : keys) values.insert(key.tokens.value);
  if (values.size() < 2 || from_gguf_file(cx.model)) return;
  std::vector<std::string> stated;
  nlohmann::json facts = nlohmann::json::object();
  for (const auto& key : keys) {
    stated.push_back(fmt::format("{} {}", key.key, key.tokens.value));
    facts[key.key] = key.tokens.value;
  }
  const LengthKey& smallest = *std::min_element(
      keys.begin(), keys.end(), [](const LengthKey& a, const LengthKey& b) { return a.tokens.value < b.tokens.value; });
  out.report(smallest.tokens.from.pointer,
             fmt::format("length keys disagree: {}; {}", fmt::join(stated, ", "), fmt::join(readers(cx), "; ")))
      .help(fmt::format("state the length the model was trained and is served at in every key (the smallest here is "
                        "{} {}), or remove the keys that are wrong",
                        smallest.key, smallest.tokens.value))
      .fact("length_keys", facts);
}

}  // namespace cfg011

extern const Rule CFG011{
    {"CFG011", "length-keys-disagree", Severity::warning, "The config states different lengths under different keys"},
    &cfg011::check};

}  // namespace ropelens::rules
