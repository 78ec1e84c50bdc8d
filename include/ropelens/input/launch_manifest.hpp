// Compose files, Kubernetes manifests and vLLM production-stack Helm values, read for what their containers run: each
// Compose service, each entry of a `containers` list anywhere in a Kubernetes document (Pod, Deployment, StatefulSet,
// Job, CronJob, a List, …), and each `servingEngineSpec.modelSpec[]` entry as the chart renders its vllm container.
// Nothing is run or interpolated; the engines' images and their entrypoints are the engines' knowledge
// (src/engines/launch.cpp).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ropelens {

constexpr std::size_t kMaxManifestBytes = 1u << 20;  // 1 MiB: Compose files and manifests are a few KiB

struct ManifestContainer {
  std::string name;   // "service vllm", "Deployment qwen3-vllm, container vllm"
  std::string image;  // as written ("" when none)
  int line = 1;       // the line of its command (or, without one, of the container)
  // Compose `entrypoint`, Kubernetes `command`: replaces the image's entrypoint when given.
  std::optional<std::vector<std::string>> entrypoint;
  // Compose `command`, Kubernetes `args`: the arguments after the entrypoint.
  std::vector<std::string> arguments;
  std::map<std::string, std::string> env;  // Compose `environment`, Kubernetes `env` (plain values only)
};

// Whether a path names a YAML file (*.yaml, *.yml) that check reads as a launch manifest.
bool is_launch_manifest(const std::string& path);

// Every container in a Compose file, a Kubernetes manifest (several documents allowed) or production-stack values.
// Throws std::invalid_argument for YAML that does not parse ("line 4, column 3: mapping values are not allowed here"),
// a file over kMaxManifestBytes, or a command that is neither a string nor a list of strings.
std::vector<ManifestContainer> read_launch_manifest(std::string_view text);

// A scalar of a YAML settings file (an engine's own YAML: TensorRT-LLM's --extra_llm_api_options, TabbyAPI's
// config.yml) and the line it is on.
struct YamlSetting {
  std::string value;
  int line = 1;
};
using YamlSettings = std::map<std::string, YamlSetting, std::less<>>;

// The scalars of a YAML file's first document by their dotted path ("kv_cache_config.dtype"; a list's items by
// index, "gpu_split.0"), with the same bounds as read_launch_manifest; a document that is not a mapping has none.
// Throws std::invalid_argument as read_launch_manifest does.
YamlSettings read_yaml_settings(std::string_view text);

}  // namespace ropelens
