// The output formats of every command: name → renderer, the only list of formats. The command line takes its
// --format choices, its help, the man page and completions, and its refusals from these maps.
#pragma once

#include <memory>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ropelens/render/render.hpp"
#include "ropelens/rules/rule.hpp"

namespace ropelens {

template <class Render> struct Format {
  std::string_view name;
  Render render;
};
// In the order --help lists them; the first is the default.
template <class Render> using FormatMap = std::span<const Format<Render>>;

using InspectRender = void (*)(const InspectReport&, std::ostream&, const TextOptions&);
using TableRender = void (*)(const TableReport&, std::ostream&, const TextOptions&);
using EngineRender = void (*)(const Model&, const EngineReport&, std::ostream&, const TextOptions&);  // table --engine
using CheckRendererFactory = std::unique_ptr<CheckRenderer> (*)(std::ostream&, const TextOptions&);
using DiffRender = void (*)(const DiffReport&, std::ostream&, const TextOptions&);
using SuggestRender = void (*)(const SuggestReport&, std::ostream&, const TextOptions&);
using RulesRender = void (*)(std::ostream&, const TextOptions&);
using ExplainRender = void (*)(const Rule&, std::ostream&);
using FitRender = void (*)(const FitReport&, std::ostream&, const TextOptions&);

FormatMap<InspectRender> inspect_formats();
FormatMap<TableRender> table_formats();
FormatMap<EngineRender> engine_formats();
FormatMap<CheckRendererFactory> check_formats();
FormatMap<DiffRender> diff_formats();
FormatMap<SuggestRender> suggest_formats();
FormatMap<RulesRender> rules_formats();
FormatMap<ExplainRender> explain_formats();
FormatMap<FitRender> fit_formats();

template <class Render> std::vector<std::string> format_names(FormatMap<Render> formats) {
  std::vector<std::string> names;
  for (const auto& format : formats) names.emplace_back(format.name);
  return names;
}

// "no csv output for table --engine; it prints text or json".
std::string no_such_format(std::string_view name, std::string_view what, const std::vector<std::string>& available);

// The renderer of `name`; a name the map lacks is a usage error (std::invalid_argument) naming what `what`
// prints instead, never a fallback to another format.
template <class Render> Render find_format(FormatMap<Render> formats, std::string_view name, std::string_view what) {
  for (const auto& format : formats)
    if (format.name == name) return format.render;
  throw std::invalid_argument(no_such_format(name, what, format_names(formats)));
}

}  // namespace ropelens
