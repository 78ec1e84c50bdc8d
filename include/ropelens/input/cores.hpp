// How many cores this process may run on, for the threads of a directory scan.
#pragma once

namespace ropelens {

// The CPUs the process may be scheduled on (its affinity mask, as `nproc` counts them), fewer when a cgroup v2 CPU
// quota (cpu.max, as containers and CI runners set it) allows less; at least 1.
unsigned available_cores();

}  // namespace ropelens
