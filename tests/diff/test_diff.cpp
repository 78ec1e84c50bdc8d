// diff as a library: its findings are check's findings on each side, figures come from table's math, and a
// config compared with the GGUF file made from it changes nothing that matters.
#include <algorithm>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "gguf_writer.hpp"
#include "ropelens/check/check.hpp"
#include "ropelens/diff/diff.hpp"
#include "support.hpp"

using namespace ropelens;
using nlohmann::json;
using ropelens::test::read_file;
using ropelens::test::source_path;
using ropelens::test::TempDir;
using ropelens::test::write_file;

namespace {

std::vector<std::string> codes_of(const std::vector<Diagnostic>& findings) {
  std::vector<std::string> codes;
  for (const auto& d : findings) codes.push_back(d.code + " " + d.where.pointer + " " + finding_fingerprint(d));
  std::sort(codes.begin(), codes.end());
  return codes;
}

std::vector<Diagnostic> checked(const std::string& path, const CheckOptions& options) {
  CheckReport report = check_paths({path}, options);
  REQUIRE(report.files.size() == 1);
  REQUIRE_FALSE(report.files[0].error);
  return report.files[0].diagnostics;
}

std::vector<Diagnostic> joined(std::vector<Diagnostic> a, const std::vector<Diagnostic>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// A corpus config with one key replaced.
std::string edited(const std::string& config, const std::string& pointer, const json& value) {
  json document = json::parse(read_file(source_path(config)));
  document[json::json_pointer(pointer)] = value;
  return document.dump(2);
}

}  // namespace

TEST_CASE("diff's findings on each side are exactly what check reports for that side", "[diff]") {
  TempDir dir;
  const std::string qwen3 = "testdata/configs/qwen/qwen3-8b.json";
  const json yarn = {{"rope_type", "yarn"}, {"factor", 4.0}, {"original_max_position_embeddings", 32768}};
  const std::vector<std::pair<std::string, std::string>> changes = {
      {"rope_theta", edited(qwen3, "/rope_theta", 5e6)},
      {"yarn", edited(qwen3, "/rope_scaling", yarn)},
      {"declared length", edited(qwen3, "/max_position_embeddings", 131072)},
  };
  for (const std::optional<std::int64_t> target : {std::optional<std::int64_t>(), std::optional<std::int64_t>(131072)})
    for (const auto& [name, text] : changes) {
      INFO(name << " at " << (target ? std::to_string(*target) : "each declared length"));
      write_file(dir.file("new.json"), text);
      CheckOptions options;
      options.target_tokens = target;
      const DiffReport report = diff_files(source_path(qwen3), dir.file("new.json"), options);
      REQUIRE(report.models.size() == 1);
      const FindingChanges& f = report.models[0].findings;
      CHECK(codes_of(joined(joined(f.fixed, f.kept), f.unchanged)) == codes_of(checked(source_path(qwen3), options)));
      CHECK(codes_of(joined(f.introduced, f.unchanged)) == codes_of(checked(dir.file("new.json"), options)));
    }
}

TEST_CASE("diff: a rope_theta change moves every pair but the first by the same law", "[diff]") {
  TempDir dir;
  write_file(dir.file("new.json"), edited("testdata/configs/qwen/qwen3-8b.json", "/rope_theta", 5e6));
  CheckOptions options;
  options.target_tokens = 131072;
  const ModelDiff diff =
      diff_files(source_path("testdata/configs/qwen/qwen3-8b.json"), dir.file("new.json"), options).models[0];
  REQUIRE(diff.fields.size() == 1);
  CHECK(diff.fields[0].field == "rope_theta");
  CHECK(diff.fields[0].old_value == 1e6);
  CHECK(diff.fields[0].new_value == 5e6);
  CHECK(diff.fields[0].new_from == "/rope_theta");
  REQUIRE(diff.setups.size() == 1);
  const SetupChange& all = diff.setups[0];
  CHECK(all.pairs_compared == 64);
  CHECK(all.changed_pairs.size() == 63);  // theta_0 = 1 whatever the base
  REQUIRE(all.largest);
  CHECK(all.largest->pair == 63);
  // theta_i = base^(-2i/128): the ratio is 5^(-126/128).
  CHECK(all.largest->ratio == Approx(std::pow(5.0, -126.0 / 128.0)).epsilon(1e-12));
  CHECK(all.old_attention_factor == 1.0);
  CHECK(all.new_attention_factor == 1.0);
  CHECK(all.old_out_of_range.front() == 41);  // check's CTX201 before: pairs 41–63
  CHECK(all.new_out_of_range.front() == 37);
  for (const auto& engine : diff.engines) CHECK_FALSE(engine.changed());
}

TEST_CASE("diff: a config against the GGUF file made from it", "[diff][gguf]") {
  TempDir dir;
  ropelens::test::qwen_yarn_fixture().write(dir.file("model.gguf"));
  const std::string config = source_path("testdata/configs/qwen/qwen2.5-coder-32b-instruct-historical-yarn.json");
  const DiffReport report = diff_files(config, dir.file("model.gguf"), CheckOptions{});
  REQUIRE(report.models.size() == 1);
  const ModelDiff& diff = report.models[0];
  REQUIRE_FALSE(diff.error);
  for (const auto& setup : diff.setups) {
    INFO(setup.setup);
    CHECK(setup.changed_pairs.empty());  // float32 theta and factor give the same frequencies
    CHECK(setup.old_attention_factor == Approx(*setup.new_attention_factor));
  }
  for (const auto& field : diff.fields) {
    INFO(field.field << ": " << field.old_value << " → " << field.new_value);
    CHECK(field.field != "rope_theta");
    CHECK(field.field != "factor");
  }
  // Findings about the same facts match across the two formats although their pointers differ.
  CHECK(report.counts.introduced_errors == 0);
}

TEST_CASE("diff: an added file's findings are all new, a deleted file's all fixed", "[diff]") {
  CheckOptions options;
  options.target_tokens = 131072;
  CheckReport report = check_paths({source_path("testdata/configs/qwen/qwen3-8b.json")}, options);
  const FileResult side = report.files[0];
  const ModelDiff added = diff_checked(DiffStatus::added, std::nullopt, side);
  CHECK(added.findings.introduced.size() == side.diagnostics.size());
  CHECK(added.findings.fixed.empty());
  CHECK(added.fields.empty());
  CHECK(added.engines.at(1).new_limit_tokens == 40960);  // vLLM: max_position_embeddings
  CHECK_FALSE(added.engines.at(1).old_limit_tokens);
  const ModelDiff deleted = diff_checked(DiffStatus::deleted, side, std::nullopt);
  CHECK(deleted.findings.fixed.size() == side.diagnostics.size());
  CHECK(deleted.findings.introduced.empty());
}
