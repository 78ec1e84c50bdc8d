// Hostile inputs at the edges of the limits (docs/limits.md): each ends at once with a one-line message naming
// the file and exit 2, or exit 0 where the input is valid. Every command runs under `timeout 5`, so a hang
// fails the test with exit 124 instead of stalling the suite.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "ropelens/input/input.hpp"
#include "ropelens/normalize/normalize.hpp"
#include "support.hpp"

using namespace ropelens;
using namespace ropelens::test;
namespace fs = std::filesystem;

namespace {

const std::string kLlamaFields = R"("model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
  "max_position_embeddings": 4096, "rope_theta": 10000.0)";

std::string shell_quoted(const std::string& text) { return "'" + text + "'"; }

// ropelens with `arguments` under a 5 s bound.
RunResult bounded(const std::string& arguments) {
  return run_shell("timeout 5 " + shell_quoted(binary()) + " " + arguments);
}

// One line on stderr that names `file`.
void require_one_line_naming(const RunResult& r, const std::string& file) {
  INFO(r.err);
  CHECK(r.err.find(file) != std::string::npos);
  CHECK(r.err.find('\n') == r.err.size() - 1);
}

}  // namespace

TEST_CASE("a directory of 100,000 entries is scanned, not hung on") {
  TempDir dir;
  for (int i = 0; i < 100'000; ++i) std::ofstream(dir.file("f" + std::to_string(i) + ".txt"));
  const RunResult r = bounded("check " + shell_quoted(dir.path()));
  CHECK(r.exit_code == 2);  // no config.json among them
  require_one_line_naming(r, dir.path());
}

TEST_CASE("a symlink loop is one line, exit 2") {
  TempDir dir;
  fs::create_symlink(dir.file("b"), dir.file("a"));
  fs::create_symlink(dir.file("a"), dir.file("b"));
  const RunResult r = bounded("check " + shell_quoted(dir.file("a")));
  CHECK(r.exit_code == 2);
  require_one_line_naming(r, dir.file("a"));
  CHECK(r.err.find("symlink loop") != std::string::npos);
  // and inside a scanned folder, a loop of directories is not followed forever
  fs::create_directories(dir.file("model"));
  fs::create_directory_symlink(dir.file("model"), dir.file("model/again"));
  write_file(dir.file("model/config.json"), "{" + kLlamaFields + ", \"num_hidden_layers\": 2}");
  const RunResult scan = bounded("check " + shell_quoted(dir.path()) + " --exit-zero");
  INFO(scan.err);
  CHECK(scan.exit_code != 124);
}

TEST_CASE("a FIFO named config.json is refused without blocking") {
  TempDir dir;
  REQUIRE(::mkfifo(dir.file("config.json").c_str(), 0600) == 0);
  for (const std::string& path : {dir.path(), dir.file("config.json")}) {
    const RunResult r = bounded("check " + shell_quoted(path));
    CHECK(r.exit_code == 2);
    require_one_line_naming(r, dir.file("config.json"));
  }
}

TEST_CASE("/dev/zero and /dev/urandom as input stop at the size cap") {
  for (const std::string device : {"/dev/zero", "/dev/urandom"}) {
    const RunResult named = bounded("inspect " + device);
    CHECK(named.exit_code == 2);
    require_one_line_naming(named, device);
    const RunResult piped =
        run_shell("head -c 20000000 " + device + " | timeout 5 " + shell_quoted(binary()) + " inspect -");
    CHECK(piped.exit_code == 2);
    CHECK(piped.err.find("<stdin>: larger than 16 MiB") != std::string::npos);
  }
}

TEST_CASE("a file of 16 MiB + 1 bytes is refused, 16 MiB is read") {
  TempDir dir;
  const std::string head = "{" + kLlamaFields + ", \"num_hidden_layers\": 2, \"pad\": \"";
  const std::string tail = "\"}";
  const std::size_t pad = kMaxConfigBytes - head.size() - tail.size();
  write_file(dir.file("limit.json"), head + std::string(pad, 'x') + tail);
  write_file(dir.file("over.json"), head + std::string(pad + 1, 'x') + tail);
  REQUIRE(fs::file_size(dir.file("limit.json")) == kMaxConfigBytes);
  // Reading a full 16 MiB config takes seconds on a loaded machine, so this one runs without the 5 s bound.
  CHECK(run_program({binary(), "inspect", dir.file("limit.json")}).exit_code == 0);
  const RunResult over = bounded("inspect " + shell_quoted(dir.file("over.json")));
  CHECK(over.exit_code == 2);
  require_one_line_naming(over, dir.file("over.json"));
  CHECK(over.err.find("larger than 16 MiB") != std::string::npos);
}

TEST_CASE("a file and a folder the user may not read are one line, exit 2") {
  if (run_shell("command -v setpriv").exit_code != 0) {
    WARN("skipped: setpriv is missing, so the check cannot drop root's permissions");
    return;
  }
  TempDir dir;
  fs::permissions(dir.path(), fs::perms::owner_all | fs::perms::others_exec | fs::perms::others_read);
  write_file(dir.file("secret.json"), "{" + kLlamaFields + ", \"num_hidden_layers\": 2}");
  fs::permissions(dir.file("secret.json"), fs::perms::owner_read | fs::perms::owner_write);
  fs::create_directories(dir.file("closed"));
  write_file(dir.file("closed/config.json"), "{" + kLlamaFields + ", \"num_hidden_layers\": 2}");
  fs::permissions(dir.file("closed"), fs::perms::owner_all);
  const std::string as_nobody =
      "timeout 5 setpriv --reuid=nobody --regid=nogroup --clear-groups " + shell_quoted(binary());
  for (const std::string& path : {dir.file("secret.json"), dir.file("closed")}) {
    const RunResult r = run_shell(as_nobody + " check " + shell_quoted(path));
    CHECK(r.exit_code == 2);
    require_one_line_naming(r, path);
    CHECK(r.err.find("ermission denied") != std::string::npos);
  }
}

TEST_CASE("a path of 4,096 bytes is one line, exit 2") {
  std::string path = "/tmp";
  while (path.size() < 4096) path += "/" + std::string(std::min<std::size_t>(200, 4096 - path.size() - 1), 'd');
  REQUIRE(path.size() == 4096);
  const RunResult r = bounded("check " + shell_quoted(path));
  CHECK(r.exit_code == 2);
  require_one_line_naming(r, path.substr(0, 300));
}

TEST_CASE("num_hidden_layers 1e9 is refused at its pointer without allocating a billion layers") {
  TempDir dir;
  write_file(dir.file("config.json"), "{" + kLlamaFields + ", \"num_hidden_layers\": 1000000000}");
  const RunResult r = bounded("check " + shell_quoted(dir.file("config.json")) + " --format json --exit-zero");
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("\"/num_hidden_layers\"") != std::string::npos);
}

TEST_CASE("a layer_types list of 100,000 entries is read") {
  TempDir dir;
  std::string layers;
  for (int i = 0; i < kMaxLayers; ++i)
    layers += (i ? ", " : "") + std::string(i % 4 == 3 ? "\"full_attention\"" : "\"sliding_attention\"");
  write_file(dir.file("config.json"), "{" + kLlamaFields + ", \"num_hidden_layers\": " + std::to_string(kMaxLayers) +
                                          ", \"sliding_window\": 512, \"layer_types\": [" + layers + "]}");
  const std::string config = shell_quoted(dir.file("config.json"));
  const RunResult r = bounded("check " + config + " --exit-zero");
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("in 1 file") != std::string::npos);

  // Inspect and the KV-cache report list every layer.
  for (const std::string command : {"table --target 131072 ", "inspect "}) {
    const RunResult listed = bounded(command + config);
    INFO(command << listed.err);
    CHECK(listed.exit_code == 0);
    CHECK(listed.out.find("99999") != std::string::npos);
  }
  // The largest outputs ropelens prints (about 12 and 21 MB): a wider bound, for the sanitizer build.
  for (const std::string command : {"table --target 131072 --format json ", "inspect --format json "}) {
    const RunResult listed = run_shell("timeout 30 " + shell_quoted(binary()) + " " + command + config);
    INFO(command << listed.err);
    CHECK(listed.exit_code == 0);
    CHECK(listed.out.find("99999") != std::string::npos);
  }
}

TEST_CASE("JSON nested 100,000 deep is cut, not recursed into") {
  TempDir dir;
  write_file(dir.file("config.json"), "{" + kLlamaFields + ", \"num_hidden_layers\": 2, \"junk\": " +
                                          std::string(100'000, '[') + std::string(100'000, ']') + "}");
  const RunResult r = bounded("check " + shell_quoted(dir.file("config.json")) + " --exit-zero");
  INFO(r.err);
  CHECK(r.exit_code == 0);
}
