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

timed_install() {  # BUILD-DIRECTORY: "wall cpu" seconds of one `pip install .` (cpu: user+sys of every process it ran)
  (cd "$root" && CCACHE_DISABLE=1 ROPELENS_BUILD="$1" /usr/bin/time -f '%e %U %S' -o "$work/time" \
     "$work/venv/bin/python" -m pip install --no-build-isolation --no-index --force-reinstall -q . \
     >"$work/pip.log" 2>&1) || { tail -20 "$work/pip.log"; exit 1; }
  "$work/venv/bin/python" -c 'import ropelens' || exit 1
  awk '{printf "%.1f %.1f", $1, $2 + $3}' "$work/time"
}

report() {  # LABEL "wall cpu" BUDGET
  read -r wall cpu <<<"$2"
  printf '%-30s %6.1f s wall, %6.1f s of CPU (budget %s s wall on 2 cores; load average now %s)\n' "$1" "$wall" "$cpu" \
    "$3" "$(cut -d' ' -f1 /proc/loadavg)"
}

make -C "$root" run >/dev/null
rm -rf "$root"/build/python-*  # the module of an earlier install: compiled again, as on a first install
report "pip install . after make run:" "$(timed_install "$root/build")" 180
if [ "$cold" = 1 ]; then
  report "pip install . from nothing:" "$(timed_install "$work/build")" 360
fi
