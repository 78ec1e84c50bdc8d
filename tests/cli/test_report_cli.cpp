// `ropelens report` end to end: a self-contained page whose charts show exactly what `table --format json`
// prints; several files with a summary; unreadable files; hostile names; and -o on every command.
#include <filesystem>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support.hpp"

using nlohmann::json;
using ropelens::test::chart_values;
using ropelens::test::kLlama31;
using ropelens::test::kQwen3;
using ropelens::test::occurrences;
using ropelens::test::read_file;
using ropelens::test::run_cli;
using ropelens::test::run_cli_in;
using ropelens::test::source_path;
using ropelens::test::TempDir;
using ropelens::test::write_file;

namespace {

const std::string kGemma3 = "testdata/configs/gemma/medgemma-27b-it.json";
const std::string kLlama31Gguf = "testdata/gguf/llama-3.1-rope-freqs.gguf";
const std::string kYarn =
    "--set '/rope_scaling={\"rope_type\":\"yarn\",\"factor\":4,\"original_max_position_embeddings\":32768}'";

std::string report_page(const std::string& arguments, TempDir& dir) {
  const auto run = run_cli("report " + arguments + " --exit-zero -o " + dir.file("r.html"));
  REQUIRE(run.exit_code == 0);
  CHECK(run.out == dir.file("r.html") + "\n");
  return read_file(dir.file("r.html"));
}

// Every chart value of the page against `table --format json` with the same arguments, setup after setup.
void check_agrees_with_table(const std::string& page, const std::string& table_arguments) {
  const json table = json::parse(run_cli("table " + table_arguments + " --format json").out);
  std::vector<double> base, effective, seen, needed;
  for (const auto& setup : table["setups"])
    for (const auto& row : setup["pairs"]) {
      base.push_back(row["base_wavelength_tokens"].get<double>());
      effective.push_back(row["wavelength_tokens"].get<double>());
      seen.push_back(row["seen_deg"].get<double>());
      needed.push_back(row["needed_deg"].get<double>());
    }
  CHECK(chart_values(page, "base") == base);
  CHECK(chart_values(page, "effective") == effective);
  CHECK(chart_values(page, "seen") == seen);
  CHECK(chart_values(page, "needed") == needed);
}

}  // namespace

TEST_CASE("report: Llama-3.1-8B at 262144 tokens on one page that loads nothing", "[cli][report]") {
  TempDir dir;
  // Every rule, the opt-in facts CTX205 and CTX206 included (by default the page selects as check does).
  const std::string page = report_page(kLlama31 + " --target 262144 --select ALL", dir);
  for (const char* loads : {"<script", "<link", " src=", "href=\"http", "url(", "@import", "<iframe", "<object"}) {
    INFO(loads);
    CHECK(page.find(loads) == std::string::npos);
  }
  CHECK(occurrences(page, "default-src 'none'") == 1);
  CHECK(occurrences(page, "<svg class=\"chart\"") == 2);
  CHECK(occurrences(page, "class=\"pt base\"") == 64);
  CHECK(occurrences(page, "class=\"pt effective ") == 64);
  CHECK(occurrences(page, "band-interpolated") == 6);
  CHECK(occurrences(page, ">target 262144<") == 2);  // the line's label and the legend
  CHECK(occurrences(page, ">trained 8192<") == 2);
  CHECK(occurrences(page, ">extended = declared 131072<") == 2);
  CHECK(occurrences(page, "<rect class=\"oor\"") == 2 * 25);
  // Findings link to their rule docs, embedded in the page.
  for (const char* code : {"CTX201", "CTX202", "CTX205", "CTX206"}) {
    INFO(code);
    CHECK(occurrences(page, std::string("href=\"#rule-") + code + "\"") == 1);
    CHECK(occurrences(page, std::string("id=\"rule-") + code + "\"") == 1);
  }
  CHECK(page.find("<h3>CTX201 unseen-angles</h3>") != std::string::npos);
  CHECK(page.find("<h4>error (1)</h4>") != std::string::npos);
  CHECK(page.find("<h4>warning (1)</h4>") != std::string::npos);  // CTX202; CTX206 is info
  CHECK(page.find("<td>rope_type</td><td>llama3</td><td class=\"muted\">/rope_scaling/rope_type</td>") !=
        std::string::npos);
  CHECK(page.find("[4] llama.cpp") != std::string::npos);  // the engine comparison
  check_agrees_with_table(page, kLlama31 + " --target 262144");
}

TEST_CASE("report agrees with table for an edited config, two setups and a GGUF file", "[cli][report]") {
  TempDir dir;
  check_agrees_with_table(report_page(kQwen3 + " " + kYarn + " --target 131072", dir),
                          kQwen3 + " " + kYarn + " --target 131072");
  const std::string gemma = report_page(kGemma3 + " --target 131072", dir);
  CHECK(occurrences(gemma, "<svg class=\"chart\"") == 4);
  CHECK(occurrences(gemma, ">window 1024<") == 2);
  check_agrees_with_table(gemma, kGemma3 + " --target 131072");
  check_agrees_with_table(report_page(kLlama31Gguf + " --target 262144", dir), kLlama31Gguf + " --target 262144");
}

TEST_CASE("report: several files under a summary, an unreadable one is listed and exits 2", "[cli][report]") {
  TempDir dir;
  write_file(dir.file("broken/config.json"), "{\"rope_theta\": 1e6,");
  const auto run = run_cli("report " + kLlama31 + " " + kQwen3 + " " + dir.file("broken") + " --target 131072 -o " +
                           dir.file("all.html"));
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("ropelens: error: " + dir.file("broken/config.json") + ": not valid JSON") == 0);
  const std::string page = read_file(dir.file("all.html"));
  CHECK(occurrences(page, "<section id=\"summary\">") == 1);
  CHECK(occurrences(page, "<a href=\"#model-") == 3);
  CHECK(occurrences(page, "could not be read") == 2);  // the header's count and the summary row
  // Qwen3-8B at 131072 tokens: 23 pairs out of range (41–63), one error.
  CHECK(page.find("<td class=\"num oor\">23</td><td class=\"num\">1</td>") != std::string::npos);
}

TEST_CASE("report exits as its help says: 1 on a finding at --fail-on, 0 below it or with --exit-zero",
          "[cli][report]") {
  TempDir dir;
  std::string help = run_cli("report --help").out;  // wrapped at 80 columns: read as one line
  for (std::size_t at = help.find("\n  "); at != std::string::npos; at = help.find("\n  ", at))
    help.replace(at, 3, " ");
  CHECK(help.find("1 when a finding reaches --fail-on, 2 when a file could not be read") != std::string::npos);
  const std::string page = " --target 131072 -q -o " + dir.file("r.html");
  CHECK(run_cli("report " + kQwen3 + page).exit_code == 1);  // CTX201, an error
  CHECK(run_cli("report " + kQwen3 + page + " --exit-zero").exit_code == 0);
  CHECK(run_cli("report " + kQwen3 + " -q -o " + dir.file("r.html")).exit_code == 0);  // at its declared 40960
}

TEST_CASE("report without -o writes ropelens-report.html and prints its path, -q prints nothing", "[cli][report]") {
  TempDir dir;
  const auto run = run_cli_in(dir.path(), "report " + source_path(kQwen3));
  CHECK(run.exit_code == 0);
  CHECK(run.out == std::filesystem::absolute(dir.file("ropelens-report.html")).string() + "\n");
  CHECK(std::filesystem::file_size(dir.file("ropelens-report.html")) > 10000);
  CHECK(run_cli_in(dir.path(), "report -q " + source_path(kQwen3)).out.empty());
  const auto to_stdout = run_cli("report " + kQwen3 + " -o -");
  CHECK(to_stdout.out.rfind("<!DOCTYPE html>", 0) == 0);
}

TEST_CASE("report: names from hostile files are text, never markup", "[cli][report]") {
  TempDir dir;
  const std::string config = dir.file("<img src=x onerror=alert(1)>/config.json");
  std::string text = read_file(source_path(kQwen3));
  text.replace(text.find("\"qwen3\""), 7, "\"<script>alert(1)</script>\\u0001\"");
  write_file(config, text);
  const auto run = run_cli("report '" + config + "' -o " + dir.file("r.html"));
  const std::string page = read_file(dir.file("r.html"));
  CHECK(page.find("<script") == std::string::npos);
  CHECK(page.find("<img") == std::string::npos);
  CHECK(page.find('\x01') == std::string::npos);
  CHECK(page.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
  CHECK(page.find("&lt;img src=x onerror=alert(1)&gt;") != std::string::npos);
}

TEST_CASE("every command that writes a document takes -o FILE", "[cli][output]") {
  TempDir dir;
  for (const std::string& command :
       std::vector<std::string>{"table " + kLlama31 + " --target 131072", "table " + kLlama31 + " --format svg",
                                "check " + kQwen3 + " --exit-zero --format json", "inspect " + kQwen3, "explain CTX201",
                                "rules --format json", "suggest " + kQwen3 + " --target 131072"}) {
    INFO(command);
    const auto to_file = run_cli(command + " -o " + dir.file("out"));
    CHECK(to_file.exit_code == 0);
    CHECK(to_file.out.empty());
    CHECK(read_file(dir.file("out")) == run_cli(command).out);
  }
  const auto unwritable = run_cli("table " + kQwen3 + " -o " + dir.file("missing/dir/out.txt"));
  CHECK(unwritable.exit_code == 2);
  CHECK(unwritable.err ==
        "ropelens: error: " + dir.file("missing/dir/out.txt") + ": cannot write: No such file or directory\n");
}

TEST_CASE("table --format svg is well-formed SVG with one point per pair", "[cli][svg]") {
  const auto run = run_cli("table " + kGemma3 + " --format svg --target 131072");
  CHECK(run.exit_code == 0);
  CHECK(ropelens::test::xml_parse_error(run.out) == "");
  CHECK(run.out.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(occurrences(run.out, "<svg class=\"chart\"") == 2);
  CHECK(occurrences(run.out, "class=\"pt base\"") == 128);
  CHECK(occurrences(run.out, "class=\"pt seen\"") == 0);  // the wavelength chart alone
}
