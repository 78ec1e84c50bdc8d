// Prints how long `table` work takes on real configs: read + normalize, the table report, rendering.
// A benchmark, not a test: it prints figures and asserts nothing.
#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "ropelens/load/model_loader.hpp"
#include "ropelens/render/render.hpp"
#include "ropelens/report/table_report.hpp"

namespace {

using Clock = std::chrono::steady_clock;

template <class F> double microseconds_per_call(int calls, F&& f) {
  auto start = Clock::now();
  for (int i = 0; i < calls; ++i) f();
  std::chrono::duration<double, std::micro> elapsed = Clock::now() - start;
  return elapsed.count() / calls;
}

}  // namespace

int main(int argc, char** argv) {
  std::string root = argc > 1 ? argv[1] : "testdata/configs";
  const std::vector<std::string> configs = {"llama/llama-3.1-8b-instruct-bnb8bit-finetune.json", "qwen/qwen3-8b.json",
                                            "gpt-oss/gpt-oss-20b.json", "gemma/gemma-4-31b-it.json",
                                            "phi/phi-3.5-mini-instruct.json"};
  const int calls = 2000;
  // "10M / plain": the cost of a 10M-token target over the declared length (the rows do not depend on it).
  std::printf("%-52s %12s %12s %12s %12s %12s\n", "config", "load us", "table us", "target=10M", "10M / plain",
              "render us");
  for (const auto& name : configs) {
    std::string path = root + "/" + name;
    ropelens::Model model = ropelens::load_model(path).model;
    ropelens::TableRequest plain, far;
    far.target_tokens = 10'000'000;
    double load = microseconds_per_call(calls, [&] { (void)ropelens::load_model(path); });
    double table = microseconds_per_call(calls, [&] { (void)ropelens::build_table_report(model, plain); });
    double table_far = microseconds_per_call(calls, [&] { (void)ropelens::build_table_report(model, far); });
    auto report = ropelens::build_table_report(model, far);
    double render = microseconds_per_call(calls / 10, [&] {
      std::ostringstream out;
      ropelens::render_table_text(report, out);
    });
    std::printf("%-52s %12.1f %12.1f %12.1f %12.2f %12.1f\n", name.c_str(), load, table, table_far, table_far / table,
                render);
  }
  return 0;
}
