#!/usr/bin/env bash
# Times the Python package's documented install (docs/python.md) on this machine and prints the figures:
#   after `make run`  the build directory holds the command's core already: pip compiles the module alone
#   from nothing      a fresh build directory: pip builds the core, the command and the module
# Both compile with the compiler cache off (CCACHE_DISABLE=1), as a first install on a new machine does, into a venv
# made from PYTHON with --system-site-packages.
# usage: bench/python_install.sh [PYTHON] [--skip-cold]   (PYTHON default: python3, the first on PATH)
set -euo pipefail
python=python3
cold=1
for arg in "$@"; do
  case "$arg" in
    --skip-cold) cold=0 ;;
    *) python=$arg ;;
  esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" -m venv --system-site-packages "$work/venv"
echo "python: $("$work/venv/bin/python" -c 'import sys; print(sys.version.split()[0], sys.base_prefix)'), cores: $(nproc)"

timed_install() {  # BUILD-DIRECTORY: seconds of one `pip install .`, the package then imported
  local start end
  start=$(date +%s.%N)
  (cd "$root" && CCACHE_DISABLE=1 ROPELENS_BUILD="$1" "$work/venv/bin/python" -m pip install --no-build-isolation \
     --no-index --force-reinstall -q . >"$work/pip.log" 2>&1) || { tail -20 "$work/pip.log"; exit 1; }
  end=$(date +%s.%N)
  "$work/venv/bin/python" -c 'import ropelens' || exit 1
  echo "$end - $start" | bc
}

make -C "$root" run >/dev/null
rm -rf "$root"/build/python-*  # the module of an earlier install: compiled again, as on a first install
warm=$(timed_install "$root/build")
printf 'pip install . after make run:  %6.1f s (the module only; budget 180 s)\n' "$warm"
if [ "$cold" = 1 ]; then
  cold_time=$(timed_install "$work/build")
  printf 'pip install . from nothing:    %6.1f s (core, command and module; budget 360 s)\n' "$cold_time"
fi
