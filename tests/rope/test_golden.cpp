// Every config in testdata/configs and testdata/hub that has a golden against transformers' own float64 frequencies
// in testdata/golden (a golden's "source" names its config below testdata/).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "ropelens/load/model_loader.hpp"
#include "ropelens/rope/rope.hpp"
#include "model_support.hpp"
#include "support.hpp"

using namespace ropelens;
using nlohmann::json;

namespace {

double relative_error(double a, double b) {
  if (a == b) return 0.0;
  return std::abs(a - b) / std::max({std::abs(a), std::abs(b), 1e-300});
}

std::vector<std::string> golden_files() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(test::source_path("testdata/golden")))
    if (entry.path().string().ends_with(".golden.json")) files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::set<int> layer_set(const json& layers) {
  std::set<int> out;
  for (const auto& l : layers) out.insert(l.get<int>());
  return out;
}

// Worst relative error of our setups covering the reference setup's layers, at an optional sequence length.
double worst_error(const Model& model, const json& reference, const json& expected,
                   std::optional<std::int64_t> seq_len) {
  auto wanted = layer_set(reference["layers"]);
  std::set<int> covered;
  double worst = 0.0;
  for (const auto& setup : model.setups) {
    std::set<int> ours(setup.layers.begin(), setup.layers.end());
    if (ours.empty() || !std::includes(wanted.begin(), wanted.end(), ours.begin(), ours.end())) continue;
    covered.insert(ours.begin(), ours.end());
    auto table = compute_rope_table(setup, seq_len);
    const auto& inv = expected["inv_freq_f64"];
    if (inv.size() != table.inv_freq.size()) return std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < inv.size(); ++i)
      worst = std::max(worst, relative_error(table.inv_freq[i], inv[i].get<double>()));
    double af = expected.contains("attention_factor_f64_run") ? expected["attention_factor_f64_run"].get<double>()
                                                              : expected["attention_factor"].get<double>();
    worst = std::max(worst, relative_error(table.attention_factor, af));
  }
  return covered == wanted ? worst : std::numeric_limits<double>::infinity();
}

bool has_error(const std::string& config, const std::string& code) {
  const auto found = test::findings(config, code);
  return std::any_of(found.begin(), found.end(), [](const Diagnostic& d) { return d.severity == Severity::error; });
}

}  // namespace

TEST_CASE("golden: transformers float64 frequencies and attention factors to 1e-12") {
  int checks = 0;
  for (const auto& file : golden_files()) {
    json golden = json::parse(test::read_file(file));
    std::string config = "testdata/" + golden["source"].get<std::string>();
    INFO(config);
    Model model = load_model(test::source_path(config)).model;
    const auto& meta = golden["meta"];
    if (!meta.value("validation_error", json()).is_null()) {
      // transformers refuses to load these; ropelens must report them as errors.
      CHECK(has_error(config, "CFG003"));
      continue;
    }
    const auto& setups = golden["rope_setups"];
    if (setups.empty()) {
      CHECK(model.setups.empty());
      continue;
    }
    for (const auto& reference : setups) {
      CHECK(worst_error(model, reference, reference, std::nullopt) <= 1e-12);
      ++checks;
      if (!reference.contains("variants")) continue;
      for (const auto& [key, variant] : reference["variants"].items()) {
        std::smatch match;
        std::string k = key;
        std::optional<std::int64_t> seq_len;
        if (std::regex_search(k, match, std::regex(R"(seq_len=(\d+))"))) seq_len = std::stoll(match[1]);
        INFO(key);
        CHECK(worst_error(model, reference, variant, seq_len) <= 1e-12);
        ++checks;
      }
    }
  }
  CHECK(checks == 111);  // every reference setup and variant in testdata/golden
}
