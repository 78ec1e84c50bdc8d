#!/usr/bin/env bash
# The Python install as docs/python.md gives it, in a venv made with --system-site-packages from a python3 that is not
# Debian's (pyenv's, conda's: the one an ML engineer has first on PATH), then the package's pytest suite there:
#   python3 -m venv --system-site-packages .venv
#   .venv/bin/pip install --no-build-isolation --no-index .
#   .venv/bin/python python/backend/venv_pytest.py
#   .venv/bin/python -m pytest python/tests
# The interpreter: ROPELENS_VENV_PYTHON, else the first python3 on PATH whose installation is not /usr. Without one
# the test is skipped (exit 77), saying so.
# usage: test_python_venv.sh BUILD-DIRECTORY SOURCE-DIRECTORY
set -euo pipefail
build=$(cd "$1" && pwd)
source=$(cd "$2" && pwd)

base_prefix() { "$1" -c 'import sys; print(sys.base_prefix)' 2>/dev/null || true; }

python=${ROPELENS_VENV_PYTHON:-}
if [ -z "$python" ]; then
  for candidate in $(type -ap python3); do
    prefix=$(base_prefix "$candidate")
    if [ -n "$prefix" ] && [ "$prefix" != /usr ]; then
      python=$candidate
      break
    fi
  done
fi
if [ -z "$python" ]; then
  echo "skipped: no python3 other than Debian's on PATH (ROPELENS_VENV_PYTHON=... names one)"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" -m venv --system-site-packages "$work/venv"
venv_python=$work/venv/bin/python
echo "venv of $("$venv_python" -c 'import sys; print(sys.version.split()[0], sys.base_prefix)')"

cd "$source"
ROPELENS_BUILD=$build "$work/venv/bin/pip" install --no-build-isolation --no-index -q . >"$work/pip.log" 2>&1 ||
  { tail -30 "$work/pip.log"; echo "FAIL: pip install . in a venv of $python"; exit 1; }
"$venv_python" python/backend/venv_pytest.py

cd "$work"  # the installed package, not a copy in the source tree
installed=$("$venv_python" -c 'import ropelens; print(ropelens.__file__)')
case "$installed" in
  "$work/venv/"*) echo "imports $installed" ;;
  *) echo "FAIL: import ropelens found $installed, not the venv's"; exit 1 ;;
esac
ROPELENS_BIN=$build/ropelens PYTHONDONTWRITEBYTECODE=1 "$venv_python" -m pytest -q -rs -p no:cacheprovider \
  "$source/python/tests"
