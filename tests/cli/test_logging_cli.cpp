// -v/--verbose and --log-level: spdlog lines on stderr, standard output byte for byte as without them.
#include <unistd.h>

#include <filesystem>

#include <catch2/catch.hpp>

#include "support.hpp"

using ropelens::test::kQwen3;
using ropelens::test::run_cli;
using ropelens::test::source_path;
using ropelens::test::write_file;
namespace fs = std::filesystem;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("verbose: -v logs the file read, its defaults, the target and the timings on stderr, stdout is unchanged",
          "[cli][logging]") {
  const auto quiet = run_cli("check " + kQwen3 + " --target 131072");
  const auto verbose = run_cli("-v check " + kQwen3 + " --target 131072");
  CHECK(verbose.out == quiet.out);
  CHECK(verbose.exit_code == quiet.exit_code);
  CHECK(quiet.err.empty());
  CHECK(contains(verbose.err, "[info] read " + kQwen3 + ": qwen3 rope, 36 layers, 1 RoPE setup(s)"));
  // Qwen3-8B has no rope_scaling: transformers' defaults apply, and the log names them.
  CHECK(contains(verbose.err, kQwen3 + ": setup all: rope_type = default (default: no RoPE dict: default RoPE)"));
  CHECK(contains(verbose.err, kQwen3 + ": setup all: partial_rotary_factor = 1 (default: transformers default "
                                       "partial_rotary_factor 1.0)"));
  CHECK(contains(verbose.err, kQwen3 + ": audited at 131072 tokens (--target or .ropelens.json)"));
  CHECK(contains(verbose.err, "[info] found 1 file(s) under 1 path(s) in "));
  CHECK(contains(verbose.err, "[info] checked 1 file(s) in "));
  CHECK(contains(verbose.err, "read+normalize "));
  CHECK(contains(verbose.err, "[info] done in "));
  CHECK_FALSE(contains(verbose.err, "[debug]"));  // -v is info; values read from the config are not listed
  CHECK_FALSE(contains(verbose.err, "rope_theta ="));
}

TEST_CASE("verbose: -v after the subcommand, -vv and --log-level choose the level", "[cli][logging]") {
  const auto after = run_cli("check " + kQwen3 + " -v");
  CHECK(contains(after.err, "audited at 40960 tokens (default: the declared max_position_embeddings)"));
  const auto debug = run_cli("-vv check " + kQwen3);
  CHECK(contains(debug.err, "[debug] " + kQwen3 + ": 1 file(s) to check"));
  CHECK(contains(run_cli("--log-level debug check " + kQwen3).err, "[debug]"));
  CHECK(run_cli("-v --log-level warn check " + kQwen3).err.empty());  // --log-level wins over -v
  const auto bad = run_cli("--log-level loud check " + kQwen3);
  CHECK(bad.exit_code == 2);
  CHECK(contains(bad.err, "--log-level: 'loud' is not one of trace, debug, info, warn, error, off"));
}

TEST_CASE("verbose: -v on a scan says which entries it skipped and why, stdout is unchanged", "[cli][logging]") {
  const fs::path root = fs::temp_directory_path() / ("ropelens-log-scan-" + std::to_string(::getpid()));
  fs::remove_all(root);
  const std::string config = ropelens::test::read_file(source_path(kQwen3));
  write_file((root / "a/config.json").string(), config);
  write_file((root / "b/config.json").string(), config);
  write_file((root / "b/tokenizer.json").string(), "{}");
  write_file((root / "c/config.json").string(), R"({"port": 8080})");  // an app's config, not a model's
  fs::create_directory_symlink(root / "a", root / "link");
  const std::string r = root.string();

  const auto quiet = run_cli("check " + r + " --exit-zero");
  const auto verbose = run_cli("-vv check " + r + " --exit-zero");
  CHECK(verbose.out == quiet.out);
  CHECK(contains(verbose.err, "[info] skipped " + r + "/link: link to a directory, not followed"));
  CHECK(contains(verbose.err, "[debug] skipped " + r + "/b/tokenizer.json: not named config.json or *.gguf"));
  CHECK(contains(verbose.err, "[info] found 3 file(s) under 1 path(s)"));
  CHECK(contains(verbose.err, "[info] checked 2 file(s) (1 skipped: not model configs) in "));
  CHECK(contains(verbose.err, "[info] skipped " + r + "/c/config.json: not a model config: it sets none of "));
  CHECK(ropelens::test::occurrences(verbose.err, r + "/c/config.json") == 1);
  CHECK(contains(verbose.err, "[info] read " + r + "/a/config.json"));
  CHECK(contains(verbose.err, "[info] read " + r + "/b/config.json"));
  CHECK(contains(run_cli("-v check " + r + " --exit-zero").err, "[info] skipped " + r + "/link"));
  CHECK_FALSE(contains(run_cli("-v check " + r + " --exit-zero").err, "tokenizer.json"));  // other names: -vv only
  fs::remove_all(root);
}

TEST_CASE("verbose: -v on inspect and table logs the file read and leaves stdout alone", "[cli][logging]") {
  for (const std::string command : {"inspect ", "table "}) {
    INFO(command);
    const auto quiet = run_cli(command + kQwen3);
    const auto verbose = run_cli("-v " + command + kQwen3);
    CHECK(verbose.out == quiet.out);
    CHECK(contains(verbose.err, "[info] read " + kQwen3));
    CHECK(contains(verbose.err, "[info] done in "));
  }
}

TEST_CASE("verbose: a model without RoPE logs its scheme's default, and no pairing", "[cli][logging]") {
  const std::string bart = "testdata/configs/bart/bart-large-cnn.json";
  const auto verbose = run_cli("-v check " + bart + " --exit-zero");
  CHECK(contains(verbose.err, bart + ": positional scheme = learned_absolute (default: model_type 'bart')"));
  CHECK_FALSE(contains(verbose.err, "pairing"));
  CHECK(contains(run_cli("-v check " + kQwen3).err, kQwen3 + ": pairing = rotate_half (default: "));
}
