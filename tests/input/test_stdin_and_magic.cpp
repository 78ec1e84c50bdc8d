// Inputs are recognised by their bytes: a GGUF file on stdin works like a GGUF file on disk, and a file named
// *.gguf that is not one says so instead of failing as JSON.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support.hpp"

using Catch::Matchers::Contains;
using ropelens::test::read_file;
using ropelens::test::run_cli;
using ropelens::test::source_path;
using ropelens::test::TempDir;
using ropelens::test::write_file;

TEST_CASE("a GGUF file on stdin is read like the same file on disk") {
  const std::string fixture = "testdata/fuzz/gguf/minimal-llama.gguf";
  const auto from_disk = run_cli("inspect " + fixture + " --format json");
  REQUIRE(from_disk.exit_code == 0);
  const auto piped = run_cli("inspect - --format json", read_file(source_path(fixture)));
  CHECK(piped.exit_code == 0);
  CHECK(piped.err.empty());
  // The same model, shown as read from <stdin>.
  std::string expected = from_disk.out;
  for (std::size_t at; (at = expected.find(fixture)) != std::string::npos;)
    expected.replace(at, fixture.size(), "<stdin>");
  CHECK(piped.out == expected);
  CHECK(run_cli("check - --exit-zero", read_file(source_path(fixture))).exit_code == 0);
}

TEST_CASE("a file named .gguf that is not GGUF says so, with its first bytes") {
  TempDir dir;
  write_file(dir.file("model.gguf"), R"({"model_type": "llama"})");
  const auto r = run_cli("inspect " + dir.file("model.gguf"));
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("model.gguf: not a GGUF file (it starts with 7b 22 6d 6f, not the magic GGUF)"));
  write_file(dir.file("empty.gguf"), "");
  CHECK_THAT(run_cli("inspect " + dir.file("empty.gguf")).err, Contains("not a GGUF file (it starts with nothing"));
}

// Found by the table fuzz target: a GGUF key that is not UTF-8 ended inspect --format json with nlohmann's
// "invalid UTF-8" exception. Every JSON renderer prints such bytes as U+FFFD.
TEST_CASE("a GGUF key that is not UTF-8 prints as U+FFFD in every JSON output") {
  const std::string input = "testdata/fuzz/regressions/gguf-key-not-utf8.gguf";
  for (const std::string command : {"inspect", "table"}) {
    const auto run = run_cli(command + " " + input + " --format json");
    INFO(command << ": " << run.err);
    CHECK(run.exit_code == 0);
    CHECK(run.err.empty());
    CHECK_NOTHROW(nlohmann::json::parse(run.out));
  }
  CHECK_THAT(run_cli("inspect " + input + " --format json").out, Contains("\xEF\xBF\xBD"));
  const auto engines = run_cli("table " + input + " --engine all --format json");
  CHECK(engines.exit_code == 0);
  CHECK_NOTHROW(nlohmann::json::parse(engines.out));
}
