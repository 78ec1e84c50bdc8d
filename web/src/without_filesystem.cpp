// The WebAssembly module's file system: none. Linked with -sFILESYSTEM=0, Emscripten's JavaScript stand-ins for the
// file system calls return 0 ("done") without writing their answer: stat() left its struct stat as the stack held it,
// so std::filesystem::is_directory("config.json") answered from what earlier calls had left there (after a launch
// check, fit's served model name became `--model-path config.json` in the page, not the command line's `.`), and
// open() "opened" descriptor 0. Defined here, these calls answer as on a machine with no such file: every path is
// missing (ENOENT) and no descriptor but the standard streams is open (EBADF), so the core's questions about paths
// get the answers the command line gets in a folder that holds nothing but the model it was given.
#include <cerrno>

#include <syscall_arch.h>

extern "C" {

long __syscall_open(long, long, ...) { return -ENOENT; }
long __syscall_stat64(long, long) { return -ENOENT; }
long __syscall_lstat64(long, long) { return -ENOENT; }
long __syscall_fstatat64(long, long, long, long) { return -ENOENT; }
long __syscall_fstat64(long, long) { return -EBADF; }
long __syscall_readlink(long, long, long) { return -ENOENT; }
long __syscall_getdents64(long, long, long) { return -EBADF; }
// No working folder: std::filesystem::current_path(ec) reports the error rather than a path read from the stack.
long __syscall_getcwd(long, long) { return -ENOENT; }

}  // extern "C"
