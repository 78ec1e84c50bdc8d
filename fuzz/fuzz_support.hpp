// Shared by the whole-path fuzz targets: loading arbitrary bytes as a config or a GGUF file, picking a
// target length from the input, and the invariants every target checks beyond "no crash".
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "ropelens/check/check.hpp"
#include "ropelens/input/gguf.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/normalize/normalize.hpp"
#include "render/writers/sarif_common.hpp"

namespace ropelens::fuzz {

// A broken invariant is a finding: print it and abort so libFuzzer saves the input.
[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz invariant broken: %s\n", what.c_str());
  std::abort();
}

inline void require(bool holds, const std::string& what) {
  if (!holds) fail(what);
}

inline InputFile input_of(const std::uint8_t* data, std::size_t size) {
  InputFile input;
  input.shown = "fuzz-input";
  input.text.assign(reinterpret_cast<const char*>(data), size);
  input.gguf = looks_like_gguf_bytes(input.text);
  return input;
}

// A target length chosen by the input itself, so the corpus covers short, declared and far targets.
inline std::int64_t target_for(const Model& model, std::size_t input_size) {
  const std::int64_t declared = std::max<std::int64_t>(model.max_position_embeddings.value, 1);
  switch (input_size % 6) {
    case 0: return declared;
    case 1: return std::min<std::int64_t>(declared * 4, kMaxLengthTokens);
    case 2: return 1;
    case 3: return 131072;
    case 4: return 1'000'000'000;
    default: return std::min<std::int64_t>(declared * 64, kMaxLengthTokens);
  }
}

// Every number a JSON document holds is finite (nlohmann would print NaN and infinity as null).
inline void require_finite(const nlohmann::json& value, const std::string& where) {
  if (value.is_number_float()) require(std::isfinite(value.get<double>()), "non-finite number in " + where);
  if (value.is_structured())
    for (const auto& item : value) require_finite(item, where);
}

// A JSON or SARIF document parses and holds only finite numbers. A SARIF log's rule catalog is the same bytes in
// every log (render_detail::sarif_tool_member()): it is checked once per process and cut out before the rest is
// parsed, since parsing it again took more than half of every run.
inline void require_document(std::string_view format, std::string text) {
  const std::string where(format);
  if (format == "sarif") {
    const std::string& tool = render_detail::sarif_tool_member();
    static const bool catalog_checked = [&] {
      require_finite(nlohmann::json::parse("{" + tool.substr(1) + "}"), "sarif tool");
      return true;
    }();
    (void)catalog_checked;
    const auto at = text.find(tool);
    require(at != std::string::npos, "sarif output without the tool member");
    text.erase(at, tool.size());
  }
  if (format == "json" || format == "sarif") require_finite(nlohmann::json::parse(text), where);
}

// What is printed grows with what was read, never without bound. A few bytes can declare a large model, so the
// fixed part covers the largest one docs/limits.md lets through: 100,000 layers are about 15 MB of inspect JSON.
inline void require_bounded(std::size_t output_bytes, std::size_t input_bytes, const std::string& what) {
  constexpr std::size_t kPerInputByte = 256;
  constexpr std::size_t kFixed = 32u << 20;
  require(output_bytes <= kFixed + kPerInputByte * input_bytes, what + " printed " + std::to_string(output_bytes) +
                                                                    " bytes for " + std::to_string(input_bytes) +
                                                                    " bytes of input");
}

// Every pointer a finding names is in the document it was read from (GGUF findings name metadata keys).
inline void require_pointers_resolve(const FileResult& result, const std::string& text, bool gguf) {
  if (gguf) return;
  const Document document = parse_config("fuzz-input", text);
  auto resolves = [&](const std::string& pointer) {
    if (pointer.empty()) return true;
    try {
      return document.root.contains(nlohmann::json::json_pointer(pointer));
    } catch (const nlohmann::json::exception&) {
      return false;
    }
  };
  for (const auto& d : result.diagnostics) {
    require(resolves(d.where.pointer), d.code + " names " + d.where.pointer + ", which is not in the document");
    for (const auto& r : d.related)
      require(resolves(r.pointer), d.code + " relates " + r.pointer + ", which is not in the document");
  }
}

}  // namespace ropelens::fuzz
