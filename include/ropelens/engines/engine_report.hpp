// What `--engine` adds to a report: the selected views at the target and their comparison.
#pragma once

#include <cstdint>
#include <vector>

#include "ropelens/engines/engine_comparison.hpp"
#include "ropelens/engines/engine_views.hpp"

namespace ropelens {

struct EngineReport {
  std::int64_t target_tokens = 0;
  std::vector<EngineView> views;
  EngineComparison comparison;
};

EngineReport build_engine_report(const Model& model, const std::vector<Engine>& engines, std::int64_t target_tokens);
// The same report from views already built for every engine (the rules' views): the selected engines' views,
// compared among themselves. Versions merge only within an engine, so this equals build_engine_report.
EngineReport select_engine_report(const std::vector<EngineView>& every_engine, const std::vector<Engine>& engines,
                                  std::int64_t target_tokens);

}  // namespace ropelens
