// Internal to renderers: the normalized settings of a model and of each RoPE setup as (name, value, provenance)
// rows, in the order `inspect` prints them; the HTML report shows the same rows.
#pragma once

#include <string>
#include <vector>

#include "ropelens/model/model.hpp"

namespace ropelens::render_detail {

struct SettingRow {
  std::string name;
  std::string value;
  Provenance from;
};

std::vector<SettingRow> model_settings(const Model& model);
std::vector<SettingRow> setup_settings(const RopeSetup& setup);

}  // namespace ropelens::render_detail
