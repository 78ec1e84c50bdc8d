// Whole outputs against reviewed snapshot files (UPDATE_SNAPSHOTS=1 rewrites them; review the git diff).
#include <catch2/catch.hpp>

#include "support.hpp"

using ropelens::test::compare_snapshot;
using ropelens::test::run_cli;

namespace {

struct Case {
  const char* name;
  const char* config;
};

const Case kInspectCases[] = {
    {"llama-3.2-3b", "testdata/configs/llama/llama-3.2-3b.json"},
    {"medgemma-27b-it", "testdata/configs/gemma/medgemma-27b-it.json"},
    {"gemma-4-31b-it", "testdata/configs/gemma/gemma-4-31b-it.json"},
    {"gpt-oss-20b", "testdata/configs/gpt-oss/gpt-oss-20b.json"},
    {"deepseek-v3", "testdata/configs/deepseek/deepseek-v3.json"},
    {"kimi-k2-instruct", "testdata/configs/kimi/kimi-k2-instruct.json"},
    {"phi-3.5-mini-instruct", "testdata/configs/phi/phi-3.5-mini-instruct.json"},
    {"qwen2.5-vl-7b-instruct", "testdata/configs/qwen/qwen2.5-vl-7b-instruct.json"},
    {"mixtral-8x7b-v0.1", "testdata/configs/mistral/mixtral-8x7b-v0.1.json"},
    {"bloom-176b", "testdata/configs/bloom/bloom-176b.json"},
    {"gpt2-xl", "testdata/configs/gpt2/gpt2-xl.json"},
    {"chatglm3-6b-32k-int4", "testdata/configs/chatglm/chatglm3-6b-32k-int4.json"},
    {"rope-parameters-per-layer", "testdata/configs/synthetic/rope-parameters-per-layer.json"},
    {"llama4-nope-chunked", "testdata/configs/synthetic/llama4-nope-chunked.json"},
    {"qwen2.5-coder-historical-yarn", "testdata/configs/qwen/qwen2.5-coder-32b-instruct-historical-yarn.json"},
};

struct CommandCase {
  const char* snapshot;
  const char* arguments;
};

const CommandCase kCommandCases[] = {
    {"fit/llama-3.1-8b-24gib.json",
     "fit testdata/fit/llama-3.1-8b/config.json --memory 24GiB --weights 16060522496B --kv-dtype bf16,fp8,q8_0 "
     "--format json"},
    {"fit/llama-3.1-8b-24gib.txt", "fit testdata/fit/llama-3.1-8b/config.json --memory 24GiB --weights 16060522496B"},
    {"table/llama-3.1-8b.txt", "table testdata/configs/llama/llama-3.1-8b-instruct-bnb8bit-finetune.json"},
    {"table/llava-8192.txt", "table testdata/configs/llava/llava-v1.5-7b.json --target 8192 --pairs 0,32,44-47,63"},
    {"table/qwen2.5-coder-yarn.md",
     "table testdata/configs/qwen/qwen2.5-coder-32b-instruct-historical-yarn.json --format markdown --pairs 20-42"},
    {"table/gpt-oss-20b.csv", "table testdata/configs/gpt-oss/gpt-oss-20b.json --format csv --target 131072"},
    {"table/phi-3-long.json",
     "table testdata/configs/phi/phi-3-mini-128k-instruct.json --format json --seq-len 4097 --pairs 0,47"},
};

}  // namespace

TEST_CASE("inspect snapshots: text and JSON") {
  for (const auto& c : kInspectCases) {
    INFO(c.name);
    auto text = run_cli(std::string("inspect ") + c.config);
    CHECK(text.exit_code == 0);
    CHECK(compare_snapshot(std::string("testdata/snapshots/inspect/") + c.name + ".txt", text.out) == "");
    auto as_json = run_cli(std::string("inspect --format json ") + c.config);
    CHECK(as_json.exit_code == 0);
    CHECK(compare_snapshot(std::string("testdata/snapshots/inspect/") + c.name + ".json", as_json.out) == "");
  }
}

TEST_CASE("table snapshots in every format") {
  for (const auto& c : kCommandCases) {
    INFO(c.arguments);
    auto result = run_cli(c.arguments);
    CHECK(result.exit_code == 0);
    CHECK(compare_snapshot(std::string("testdata/snapshots/") + c.snapshot, result.out) == "");
  }
}
