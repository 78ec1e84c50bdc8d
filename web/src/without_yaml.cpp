// The WebAssembly module's stand-in for the YAML reader (src/input/launch_manifest.cpp needs libyaml, which Debian
// builds for no WebAssembly target): a Compose file or Kubernetes manifest gets a one-line error, as any launch file
// the build cannot read; so does a YAML file of an engine's own (TensorRT-LLM's --extra_llm_api_options, TabbyAPI's
// config.yml).
#include <stdexcept>

#include "ropelens/input/launch_manifest.hpp"

namespace ropelens {

std::vector<ManifestContainer> read_launch_manifest(std::string_view) {
  throw std::invalid_argument(
      "Compose files and Kubernetes manifests are read by the ropelens command, not in the browser (no libyaml "
      "here): paste the container's command as a launch line");
}

YamlSettings read_yaml_settings(std::string_view) {
  throw std::invalid_argument(
      "YAML files (TensorRT-LLM's --extra_llm_api_options, TabbyAPI's config.yml) are read by the ropelens command, "
      "not in the browser (no libyaml here): give their settings as flags on the launch line");
}

}  // namespace ropelens
