// Replays inputs through one fuzz target's entry point, in-process and without libFuzzer:
// `ropelens_replay_<target> DIR...` runs every regular file under each DIR that exists (sorted, so a run is the
// same every time) and names each file on stderr before it runs, so a crash or a broken invariant points at its
// input.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> inputs_under(const std::vector<fs::path>& dirs) {
  std::vector<fs::path> files;
  for (const auto& dir : dirs) {
    if (!fs::is_directory(dir)) continue;  // git keeps no empty corpus folder
    for (const auto& entry : fs::recursive_directory_iterator(dir))
      if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: " << argv[0] << " DIR...\n";
    return 2;
  }
  const std::vector<fs::path> files = inputs_under({argv + 1, argv + argc});
  for (const auto& file : files) {
    std::cerr << file.string() << '\n';
    const std::string bytes = bytes_of(file);
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  std::cout << "replayed " << files.size() << " inputs\n";
  return files.empty() ? 1 : 0;
}
