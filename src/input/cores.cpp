#include "ropelens/input/cores.hpp"

#include <sched.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <thread>

namespace ropelens {
namespace {

unsigned affinity_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
    return static_cast<unsigned>(CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

// The cgroup v2 folder of this process ("0::/path" in /proc/self/cgroup), under /sys/fs/cgroup.
std::string cgroup_folder() {
  std::ifstream in("/proc/self/cgroup");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("0::", 0) == 0) return "/sys/fs/cgroup" + line.substr(3);
  return {};
}

// cpu.max holds "QUOTA PERIOD" (microseconds) or "max PERIOD": the quota in whole cores, rounded up, or none.
unsigned quota_cores(unsigned otherwise) {
  const std::string folder = cgroup_folder();
  if (folder.empty()) return otherwise;
  std::ifstream in(folder + "/cpu.max");
  std::string quota;
  double period = 0;
  if (!(in >> quota >> period) || quota == "max" || period <= 0) return otherwise;
  try {
    const double cores = std::ceil(std::stod(quota) / period);
    return cores >= 1 && cores < otherwise ? static_cast<unsigned>(cores) : otherwise;
  } catch (const std::exception&) {
    return otherwise;
  }
}

}  // namespace

unsigned available_cores() {
  static const unsigned cores = quota_cores(affinity_cores());
  return cores;
}

}  // namespace ropelens
