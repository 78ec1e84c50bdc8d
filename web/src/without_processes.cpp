// The WebAssembly module's stand-ins for starting a process (src/input/git.cpp starts git with posix_spawnp over
// pipe2): Emscripten has no posix_spawnp, and its pipe2 needs the pipe file system the module is linked without
// (-sFILESYSTEM=0). The page never reads from git; a path that reached here would get git.cpp's one-line error that
// git cannot run.
#include <cerrno>

#include <spawn.h>
#include <unistd.h>

extern "C" {

int pipe2(int[2], int) {
  errno = ENOSYS;
  return -1;
}

int posix_spawnp(pid_t*, const char*, const posix_spawn_file_actions_t*, const posix_spawnattr_t*, char* const[],
                 char* const[]) {
  return ENOSYS;
}

}  // extern "C"
