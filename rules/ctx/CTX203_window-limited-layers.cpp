#include <map>

#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace ctx203 {

static void check(const Context& cx, Sink& out) {
  const auto& layers = cx.model.layers;
  std::vector<int> global;
  std::map<std::pair<AttentionKind, std::int64_t>, std::vector<int>> limited;  // (kind, window) -> layers
  int attending = 0;
  for (const Layer& layer : layers) {
    if (!layer.attends) continue;  // linear attention and recurrent mixers hold no positions
    ++attending;
    if (layer.attention == AttentionKind::global || !layer.window_tokens) global.push_back(layer.index);
    else if (*layer.window_tokens < cx.target_tokens)
      limited[{layer.attention, *layer.window_tokens}].push_back(layer.index);
  }
  for (const auto& [key, indices] : limited) {
    const auto& [kind, window] = key;
    const auto& source = kind == AttentionKind::chunked ? cx.model.attention_chunk_size : cx.model.sliding_window;
    std::string rest = global.empty() ? "no layer attends globally, so longer-range information only travels "
                                        "through stacked windows"
                                      : fmt::format("{} layer{} attend{} globally", global.size(),
                                                    global.size() == 1 ? "" : "s", global.size() == 1 ? "s" : "");
    out.report(source ? pointer_or(source->from, "") : "",
               fmt::format("at {} tokens {} of {} layers use {} attention within {} tokens and never see longer "
                           "distances; {}",
                           cx.target_tokens, indices.size(), attending,
                           kind == AttentionKind::chunked ? "chunked" : "sliding", window, rest))
        .help(global.empty()
                  ? fmt::format("evaluate retrieval across more than {} tokens directly before relying on it", window)
                  : fmt::format("evaluate retrieval across more than {} tokens directly: only the {} global layers "
                                "can connect such distances",
                                window, global.size()))
        .fact("target", cx.target_tokens)
        .fact("window", window)
        .fact("limited_layers", indices)
        .fact("global_layers", global);
  }
}

}  // namespace ctx203

extern const Rule CTX203{
    {"CTX203", "window-limited-layers", Severity::info,
     "Some layers attend only within a window or chunk shorter than the target", DefaultSet::opt_in},
    &ctx203::check};

}  // namespace ropelens::rules
