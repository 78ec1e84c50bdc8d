// A stack: parsed once, versions checked against the modelled ones, and the views its rules compare.
#include <stdexcept>

#include <catch2/catch.hpp>

#include "ropelens/engines/stack.hpp"
#include "ropelens/engines/deployment.hpp"

using namespace ropelens;
using Catch::Matchers::Contains;

namespace {

std::string error_of(const std::vector<std::string>& entries) {
  try {
    require_modelled_versions(parse_stack(entries, "--stack"), "--stack");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("a stack names engines, each optionally pinned to a modelled version", "[stack]") {
  const Stack stack = parse_stack({"vllm@main", "llama.cpp", "vllm@main"}, "--stack");
  REQUIRE(stack.entries.size() == 2);
  CHECK(stack.entries[0] == StackEntry{Engine::vllm, std::string("main")});
  CHECK(stack.entries[1] == StackEntry{Engine::llama_cpp, std::nullopt});
  CHECK(stack.engines() == std::vector<Engine>{Engine::vllm, Engine::llama_cpp});
  CHECK(stack.describe() == "vllm@main, llama.cpp");
  CHECK(Stack{}.engines() == all_engines());
  CHECK(parse_stack({"gguf"}, "--stack").entries.front().engine == Engine::llama_cpp);  // an alias
}

TEST_CASE("an unknown engine or version is an error naming the modelled ones", "[stack]") {
  CHECK(error_of({"vlm"}) ==
        "--stack: unknown engine 'vlm' (did you mean 'vllm'?); expected transformers, vllm, sglang, llama.cpp, each "
        "optionally @VERSION");
  CHECK(error_of({"vllm@mian"}) ==
        "--stack: vllm version 'mian' is not modelled (did you mean 'main'?); ropelens models main, before-41277, "
        "before-56446");
  CHECK_THAT(error_of({"transformers@4.57"}), Contains("ropelens models v5, 4.5x, 4.4x"));
  CHECK_THAT(error_of({"sglang@"}), Contains("names no version"));
  CHECK(error_of({"transformers@4.4x", "vllm@before-56446"}) == "(no error)");
}

TEST_CASE("the versions a stack compares: its own, and transformers v5 beside a lone engine", "[stack]") {
  using V = EngineVersion;
  CHECK(stack_versions(parse_stack({"vllm@main"}, "")) == std::vector<V>{V::vllm_current});
  CHECK(compared_versions(parse_stack({"vllm@main"}, "")) == std::vector<V>{V::transformers_v5, V::vllm_current});
  CHECK(compared_versions(parse_stack({"vllm"}, "")) ==
        std::vector<V>{V::transformers_v5, V::vllm_current, V::vllm_legacy, V::vllm_dynamic_41277});
  CHECK(compared_versions(parse_stack({"sglang", "llama.cpp"}, "")) == std::vector<V>{V::sglang, V::llama_cpp});
  CHECK(compared_versions(parse_stack({"transformers@4.4x"}, "")) == std::vector<V>{V::transformers_4_4x});
  CHECK(compared_versions(Stack{}).size() == 8);
  CHECK(compared_engines(parse_stack({"llama.cpp"}, "")) ==
        std::vector<Engine>{Engine::transformers, Engine::llama_cpp});
}
