// Which files are launch manifests, apart from the YAML reader (launch_manifest.cpp, over libyaml), so that a build
// without libyaml (the WebAssembly module) names them alike.
#include <filesystem>

#include "ropelens/input/launch_manifest.hpp"

namespace ropelens {

bool is_launch_manifest(const std::string& path) {
  const std::string extension = std::filesystem::path(path).extension().string();
  return extension == ".yaml" || extension == ".yml";
}

}  // namespace ropelens
