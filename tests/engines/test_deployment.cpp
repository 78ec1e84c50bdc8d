// A stack resolved once into a deployment: versions by key or by release, placed in each engine's version table,
// and the versions and engines each command then covers.
#include <stdexcept>

#include <catch2/catch.hpp>

#include "ropelens/engines/deployment.hpp"
#include "ropelens/engines/versions.hpp"

using namespace ropelens;
using Catch::Matchers::Contains;

namespace {

Deployment deployment_of(const std::vector<std::string>& entries) {
  return resolve_deployment(parse_stack(entries, "--stack"), "--stack");
}

std::string error_of(const std::vector<std::string>& entries) {
  try {
    deployment_of(entries);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

EngineVersion placed(Engine engine, std::string_view release) { return resolve_version(engine, release)->version; }

}  // namespace

TEST_CASE("a stack names engines, each optionally pinned to a version", "[stack]") {
  const Stack stack = parse_stack({"vllm@main", "llama.cpp", "vllm@main"}, "--stack");
  REQUIRE(stack.entries.size() == 2);
  CHECK(stack.entries[0] == StackEntry{Engine::vllm, std::string("main")});
  CHECK(stack.entries[1] == StackEntry{Engine::llama_cpp, std::nullopt});
  const Deployment deployment = resolve_deployment(stack, "--stack");
  CHECK(deployment.served() == std::vector<Engine>{Engine::vllm, Engine::llama_cpp});
  CHECK(deployment.describe() == "vllm@main, llama.cpp");
  CHECK(deployment.stack_option() == "vllm@main,llama.cpp");
  CHECK(Deployment{}.served() ==
        std::vector<Engine>{Engine::transformers, Engine::vllm, Engine::sglang, Engine::llama_cpp});  // default stack
  CHECK_FALSE(Deployment{}.stated());
  CHECK(parse_stack({"gguf"}, "--stack").entries.front().engine == Engine::llama_cpp);  // an alias
}

TEST_CASE("an unknown engine or a malformed version is an error naming what is expected", "[stack]") {
  CHECK(error_of({"vlm"}) ==
        "--stack: unknown engine 'vlm' (did you mean 'vllm'?); expected transformers, vllm, sglang, llama.cpp, "
        "mlx-lm, trtllm, exllamav3, each optionally @VERSION");
  CHECK(error_of({"vllm@mian"}) ==
        "--stack: vllm version 'mian' is not modelled (did you mean 'main'?); expected main, before-41277, "
        "before-56446, or a release such as 0.8.5");
  CHECK(error_of({"llama.cpp@5000"}) ==
        "--stack: llama.cpp version '5000' is not modelled; expected main, or a release such as b5000");
  for (const std::string version : {"0.8.x", "-1.0", "0.", "v", "1.2.3.4.5", "0.8.5.post", "99999999999999999999.1"})
    CHECK_THAT(error_of({"vllm@" + version}), Contains("or a release such as 0.8.5"));
  CHECK_THAT(error_of({"llama.cpp@b-1"}), Contains("or a release such as b5000"));
  CHECK_THAT(error_of({"transformers@four"}), Contains("expected v5, 4.5x, 4.4x, or a release such as 4.57.1"));
  CHECK_THAT(error_of({"sglang@"}), Contains("names no version"));
  CHECK(error_of({"transformers@4.4x", "vllm@before-56446"}) == "(no error)");
}

TEST_CASE("a release is placed by the first release of each change", "[stack]") {
  using V = EngineVersion;
  // vLLM: #41277 first in 0.22.0, #56446 in no release yet.
  CHECK(placed(Engine::vllm, "0.8.5") == V::vllm_legacy);
  CHECK(placed(Engine::vllm, "0.21.1") == V::vllm_legacy);
  CHECK(placed(Engine::vllm, "0.22.0") == V::vllm_dynamic_41277);
  CHECK(placed(Engine::vllm, "v0.22.0") == V::vllm_dynamic_41277);
  CHECK(placed(Engine::vllm, "0.22.0rc1") == V::vllm_legacy);  // a release candidate comes before its release
  CHECK(placed(Engine::vllm, "0.29.3") == V::vllm_dynamic_41277);
  // transformers: 4.48 to 4.55 replaced the YaRN factor, 4.56.0 stopped it.
  CHECK(placed(Engine::transformers, "4.45.2") == V::transformers_4_4x);
  CHECK(placed(Engine::transformers, "4.48.0") == V::transformers_4_5x);
  CHECK(placed(Engine::transformers, "4.55.4") == V::transformers_4_5x);
  CHECK(placed(Engine::transformers, "4.57.1") == V::transformers_v5);
  CHECK(placed(Engine::transformers, "5.0.0") == V::transformers_v5);
  CHECK(placed(Engine::sglang, "0.4.6") == V::sglang);
  CHECK(placed(Engine::sglang, "0.5.6.post2") == V::sglang);
  CHECK(placed(Engine::llama_cpp, "b5000") == V::llama_cpp);
}

TEST_CASE("a release ropelens cannot place exactly says so, and @main stays the newest", "[stack]") {
  const auto newer = resolve_version(Engine::vllm, "0.30.0");
  REQUIRE(newer);
  CHECK(newer->version == EngineVersion::vllm_current);
  CHECK(newer->note == "vllm@0.30.0 is newer than 0.29, the newest release ropelens places; read as vllm@main");
  CHECK_FALSE(resolve_version(Engine::vllm, "0.29.9")->note);  // 0.29.x is placed
  CHECK_FALSE(resolve_version(Engine::vllm, "main")->note);
  CHECK(resolve_version(Engine::vllm, "main")->version == EngineVersion::vllm_current);
  const auto older = resolve_version(Engine::sglang, "0.4.6");
  REQUIRE(older->note);
  CHECK_THAT(*older->note, Contains("sglang@0.4.6 is older than 0.5.16, the oldest release ropelens has checked"));
  CHECK_THAT(*older->note, Contains("PR #31232"));
  CHECK_THAT(*resolve_version(Engine::llama_cpp, "b5000")->note, Contains("PR #17945"));
  CHECK_FALSE(resolve_version(Engine::llama_cpp, "b7371")->note);
  // The notes travel with the deployment; the command line prints them as warnings.
  CHECK(deployment_of({"vllm@0.30.0", "sglang@0.5.16"}).notes.size() == 1);
}

TEST_CASE("the versions a deployment compares: its own, and the reference beside a lone engine", "[stack]") {
  using V = EngineVersion;
  CHECK(deployment_of({"vllm@main"}).versions() == std::vector<V>{V::vllm_current});
  CHECK(deployment_of({"vllm@main"}).compared_versions() == std::vector<V>{V::transformers_v5, V::vllm_current});
  CHECK(deployment_of({"vllm@0.8.5"}).compared_versions() == std::vector<V>{V::transformers_v5, V::vllm_legacy});
  CHECK(deployment_of({"vllm"}).compared_versions() ==
        std::vector<V>{V::transformers_v5, V::vllm_legacy, V::vllm_dynamic_41277});  // releases, not main
  CHECK(deployment_of({"sglang", "llama.cpp"}).compared_versions() == std::vector<V>{V::sglang, V::llama_cpp});
  CHECK(deployment_of({"transformers@4.4x"}).compared_versions() == std::vector<V>{V::transformers_4_4x});
  CHECK(Deployment{}.compared_versions().size() == 7);  // every released behaviour; vllm@main only when pinned
  CHECK(deployment_of({"llama.cpp"}).compared_engines() ==
        std::vector<Engine>{Engine::transformers, Engine::llama_cpp});
  CHECK(deployment_of({"transformers@4.50"}).pins(V::transformers_4_5x));
  CHECK_FALSE(deployment_of({"transformers"}).pins(V::transformers_4_5x));
}

TEST_CASE("the engine option within a deployment: views may add the reference, fit and snippets only what it serves",
          "[stack]") {
  const Deployment vllm = deployment_of({"vllm@0.22.0"});
  CHECK(vllm.viewed("all") == std::vector<Engine>{Engine::transformers, Engine::vllm});
  CHECK(vllm.viewed("transformers") == std::vector<Engine>{Engine::transformers});
  CHECK(vllm.served("all") == std::vector<Engine>{Engine::vllm});
  CHECK_THROWS_WITH(vllm.served("transformers"), "--engine transformers is not in the stack (vllm@0.22.0)");
  CHECK_THROWS_WITH(vllm.viewed("sglang"), "--engine sglang is not in the stack (vllm@0.22.0)");
  CHECK(Deployment{}.served("all") == Deployment{}.served());
  CHECK(Deployment{}.viewed("sglang") == std::vector<Engine>{Engine::sglang});
}
