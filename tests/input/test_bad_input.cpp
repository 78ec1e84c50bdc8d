// Every class of bad input gets one line on stderr naming the file, and exit 2; or, inside a readable
// config, an issue with a JSON pointer. Never a crash, a hang or a huge allocation.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "ropelens/input/input.hpp"
#include "ropelens/normalize/normalize.hpp"
#include <fmt/format.h>

#include "gguf_writer.hpp"
#include "support.hpp"

using namespace ropelens;
namespace fs = std::filesystem;

namespace {

std::string temp_dir() {
  auto dir = fs::temp_directory_path() / ("ropelens-bad-input-" + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir.string();
}

std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = temp_dir() + "/" + name;
  test::write_file(path, text);
  return path;
}

int count_lines(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

template <class Detail> bool has_issue(const Model& model, const std::string& pointer) {
  return std::any_of(model.issues.begin(), model.issues.end(), [&](const ConfigIssue& issue) {
    return issue.pointer == pointer && std::holds_alternative<Detail>(issue.detail);
  });
}

Model normalize_text(const std::string& text) { return normalize(parse_config("test.json", text)); }

const char* kLlama = R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
  "num_hidden_layers": 4, "max_position_embeddings": 4096, "rope_theta": 10000.0)";

}  // namespace

TEST_CASE("a missing file is one line naming it, exit 2") {
  auto r = test::run_cli("inspect /nonexistent/config.json");
  CHECK(r.exit_code == 2);
  CHECK(r.err == "ropelens: error: /nonexistent/config.json: no such file\n");
  CHECK(r.out.empty());
}

TEST_CASE("a named pipe is refused at once, not waited on") {
  auto path = write_temp("pipe.json", "");
  std::filesystem::remove(path);
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  auto r = test::run_cli("check " + path);
  CHECK(r.exit_code == 2);
  CHECK(r.err == "ropelens: error: " + path + ": not a regular file\n");
  std::filesystem::remove(path);
}

TEST_CASE("non-JSON is reported with the byte offset") {
  auto path = write_temp("garbage.json", "this is not json");
  auto r = test::run_cli("inspect " + path);
  CHECK(r.exit_code == 2);
  CHECK(count_lines(r.err) == 1);
  CHECK_THAT(r.err,
             Catch::Contains(path + ": not valid JSON at byte 2: syntax error while parsing value - invalid literal"));
}

TEST_CASE("truncated JSON is reported with the byte offset") {
  std::string text = std::string(kLlama) + ", \"rope_scaling\": {\"factor\": 8";
  auto path = write_temp("truncated.json", text);
  auto r = test::run_cli("table " + path);
  CHECK(r.exit_code == 2);
  CHECK(count_lines(r.err) == 1);
  CHECK_THAT(r.err, Catch::Contains(fmt::format("not valid JSON at byte {}", text.size() + 1)));
}

TEST_CASE("a JSON array at top level is refused") {
  auto path = write_temp("array.json", "[1, 2, 3]");
  auto r = test::run_cli("check " + path);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains(path + ": top-level JSON value is array, expected an object"));
}

TEST_CASE("a directory without config.json is refused") {
  auto dir = temp_dir() + "/empty-model";
  fs::create_directories(dir);
  auto r = test::run_cli("inspect " + dir);
  CHECK(r.exit_code == 2);
  CHECK(r.err == "ropelens: error: " + dir + ": directory has no config.json\n");
}

TEST_CASE("a 100 MB file is refused by its size without being read") {
  auto path = temp_dir() + "/huge.json";
  { std::ofstream(path) << "{"; }
  fs::resize_file(path, 100u << 20);
  auto r = test::run_cli("inspect " + path);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("larger than 16 MiB"));
  fs::remove(path);
}

TEST_CASE("a 20 MB stream on stdin is refused after the limit") {
  std::string big = "{\"pad\": \"" + std::string(20u << 20, 'x') + "\"}";
  auto r = test::run_cli("inspect -", big);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("<stdin>: larger than 16 MiB"));
}

TEST_CASE("deep nesting is cut and reported, not recursed into") {
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  Model model = normalize_text(std::string(kLlama) + ", \"junk\": " + deep + "}");
  std::string pointer = "/junk";
  for (int i = 0; i < kMaxJsonDepth - 1; ++i) pointer += "/0";
  CHECK(has_issue<ValueCutForDepth>(model, pointer));
  CHECK(model.setups.size() == 1);
}

TEST_CASE("unbalanced deep nesting is a syntax error, not a stack overflow") {
  auto path = write_temp("deep.json", std::string(1'000'000, '['));
  auto r = test::run_cli("inspect " + path);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("not valid JSON at byte 1000001"));
}

TEST_CASE("a string factor is an invalid value at its pointer") {
  Model model = normalize_text(std::string(kLlama) + R"(, "rope_scaling": {"rope_type": "linear", "factor": "8"}})");
  CHECK(has_issue<InvalidValue>(model, "/rope_scaling/factor"));
  REQUIRE(model.setups.size() == 1);
}

TEST_CASE("NaN and Infinity, as Python writes them, are invalid values") {
  Model model = normalize_text(std::string(kLlama) +
                               R"(, "rope_scaling": {"rope_type": "yarn", "factor": NaN,
                                  "original_max_position_embeddings": Infinity}})");
  CHECK(has_issue<InvalidValue>(model, "/rope_scaling/factor"));
  CHECK(has_issue<InvalidValue>(model, "/rope_scaling/original_max_position_embeddings"));
}

TEST_CASE("a negative length is an invalid value") {
  Model model = normalize_text(R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
    "num_hidden_layers": 4, "max_position_embeddings": -4096})");
  CHECK(has_issue<InvalidValue>(model, "/max_position_embeddings"));
  CHECK(model.max_position_embeddings.value == 2048);  // the class default took its place
}

TEST_CASE("layer_types of the wrong length is a layer schedule mismatch") {
  Model model = normalize_text(std::string(kLlama) + R"(, "layer_types": ["full_attention", "sliding_attention"]})");
  CHECK(has_issue<LayerScheduleMismatch>(model, "/layer_types"));
  CHECK(model.layers.size() == 4);
}

TEST_CASE("absurd sizes are refused before anything is allocated") {
  Model model = normalize_text(R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
    "num_hidden_layers": 1e15, "head_dim": 1e12, "max_position_embeddings": 1e300})");
  CHECK(has_issue<InvalidValue>(model, "/num_hidden_layers"));
  CHECK(has_issue<InvalidValue>(model, "/head_dim"));
  CHECK(has_issue<InvalidValue>(model, "/max_position_embeddings"));
  CHECK(model.layers.size() == 1);
  REQUIRE(model.setups.size() == 1);
  CHECK(model.setups[0].rotary_dim == 128);
}

TEST_CASE("wrong container types are issues, not crashes") {
  Model model = normalize_text(std::string(kLlama) + R"(, "rope_scaling": [1, 2], "text_config": 7,
    "layer_types": "full", "no_rope_layers": {"a": 1}})");
  CHECK(has_issue<InvalidValue>(model, "/rope_scaling"));
  CHECK(has_issue<LayerScheduleMismatch>(model, "/layer_types"));
  CHECK(model.setups.size() == 1);
}

TEST_CASE("a directory of thousands of configs is scanned, and one bad file does not stop the scan") {
  auto dir = temp_dir() + "/many";
  for (int i = 0; i < 2000; ++i)
    test::write_file(dir + "/m" + std::to_string(i) + "/config.json", std::string(kLlama) + "}");
  test::write_file(dir + "/broken/config.json", "{");
  auto r = test::run_cli("check " + dir + " --format json --select CTX201");
  CHECK(r.exit_code == 2);
  CHECK(count_lines(r.err) == 1);
  CHECK_THAT(r.err, Catch::Contains("broken/config.json: not valid JSON"));
  CHECK_THAT(r.out, Catch::Contains("\"files\": 2001"));
  fs::remove_all(dir);
}

TEST_CASE(
    "a hostile GGUF blob, a truncated Git LFS object and a pointer to a missing object are one line naming the "
    "file, exit 2") {
  test::ScratchGit repo;
  repo.write("m/config.json", test::read_file(test::source_path(test::kQwen3)));
  repo.commit("a config");
  std::string hostile = "GGUF";
  test::put_u32(hostile, 3);
  test::put_u64(hostile, 0);
  test::put_u64(hostile, std::uint64_t{1} << 40);  // a key-value count no file could hold
  hostile += std::string(64, '\0');
  repo.write("m/model.gguf", hostile);
  repo.commit("a hostile GGUF");
  auto r = test::run_cli_in(repo.path(), "diff --git HEAD~1..HEAD");
  CHECK(r.exit_code == 2);
  CHECK(count_lines(r.err) == 1);
  CHECK_THAT(r.err, Catch::Contains("HEAD:m/model.gguf: key-value count 1099511627776 at byte 16 is beyond the limit"));

  const std::string object = test::qwen3_8b_fixture().bytes();
  const std::string oid(64, 'b');
  repo.write("m/model.gguf", "version https://git-lfs.github.com/spec/v1\noid sha256:" + oid + "\nsize " +
                                 std::to_string(object.size()) + "\n");
  repo.commit("the GGUF through Git LFS");
  repo.write(".git/lfs/objects/bb/bb/" + oid, object.substr(0, 100));
  r = test::run_cli_in(repo.path(), "diff --git HEAD~2..HEAD");
  CHECK(r.exit_code == 2);
  CHECK(count_lines(r.err) == 1);
  CHECK_THAT(r.err, Catch::Contains("HEAD:m/model.gguf: its Git LFS object .git/lfs/objects/bb/bb/bbbb") &&
                        Catch::Contains("is 100 bytes where the pointer says " + std::to_string(object.size()) +
                                        " (an interrupted download); the repository has no remote to fetch it from"));

  fs::remove(repo.file(".git/lfs/objects/bb/bb/" + oid));
  for (const std::string command : {"diff --git HEAD~2..HEAD", "check m/model.gguf"}) {
    INFO(command);
    r = test::run_cli_in(repo.path(), command);
    CHECK(r.exit_code == 2);
    CHECK(count_lines(r.err) == 1);
    CHECK_THAT(r.err, Catch::Contains("m/model.gguf: a Git LFS pointer to an object this clone has not fetched "
                                      "(sha256 bbbbbbbbbbbb…, " +
                                      std::to_string(object.size()) + " bytes)"));
  }
  repo.git({"remote", "add", "upstream", "https://example.invalid/repo.git"});
  r = test::run_cli_in(repo.path(), "check m/model.gguf");
  CHECK_THAT(r.err, Catch::EndsWith("fetch it with: git lfs pull --include=m/model.gguf\n"));
  r = test::run_cli_in(repo.path(), "diff --git HEAD~2..HEAD");
  CHECK_THAT(r.err, Catch::EndsWith("fetch it with: git lfs fetch upstream HEAD --include=m/model.gguf\n"));
}
