#!/usr/bin/env bash
# `cmake --install BUILD --prefix /usr` with DESTDIR installs the binary, the man page, the completions and the
# docs, and the installed binary runs. Usage: test_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
source_dir=$2
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

DESTDIR=$stage cmake --install "$build" --prefix /usr >/dev/null

fail() { echo "test_install: $*" >&2; exit 1; }
expect() { [ -f "$stage/$1" ] || fail "not installed: /$1"; }

expect usr/bin/ropelens
[ -x "$stage/usr/bin/ropelens" ] || fail "/usr/bin/ropelens is not executable"
if [ -f "$stage/usr/share/man/man1/ropelens.1.gz" ]; then
  man_page=$(gzip -dc "$stage/usr/share/man/man1/ropelens.1.gz")
else
  expect usr/share/man/man1/ropelens.1
  man_page=$(cat "$stage/usr/share/man/man1/ropelens.1")
fi
expect usr/share/bash-completion/completions/ropelens
expect usr/share/zsh/vendor-completions/_ropelens
expect usr/share/fish/vendor_completions.d/ropelens.fish
for doc in README.md CHANGELOG.md LICENSE docs/rules.md docs/ARCHITECTURE.md docs/output-formats.md; do
  expect "usr/share/doc/ropelens/$doc"
done
cmp -s "$source_dir/LICENSE" "$stage/usr/share/doc/ropelens/LICENSE" || fail "LICENSE differs from the source tree's"

# The installed files are the ones the installed binary generates.
installed=$stage/usr/bin/ropelens
[ "$man_page" = "$("$installed" --generate man)" ] || fail "the man page is not what ropelens --generate man prints"
cmp -s <("$installed" --generate bash) "$stage/usr/share/bash-completion/completions/ropelens" ||
  fail "the bash completion is not what ropelens --generate bash prints"
grep -q '^\.SH COMMANDS$' <<<"$man_page" || fail "the man page has no COMMANDS section"

"$installed" --version | grep -Eq '^ropelens [0-9]+\.[0-9]+\.[0-9]+' || fail "--version: $("$installed" --version)"
status=0
"$installed" check "$source_dir/testdata/configs/qwen/qwen3-8b.json" --target 131072 --select CTX201 >/dev/null ||
  status=$?
[ "$status" -eq 1 ] || fail "check exited $status, expected 1 (CTX201: Qwen3-8B at 131072 tokens)"
# The Python module (built with ROPELENS_PYTHON): Debian's python3 imports it from /usr/lib/python3/dist-packages,
# and it answers as the installed binary does.
if grep -qs '^ROPELENS_PYTHON:BOOL=ON' "$build/CMakeCache.txt"; then
  packages=$stage/usr/lib/python3/dist-packages
  expect usr/lib/python3/dist-packages/ropelens/__init__.py
  expect usr/lib/python3/dist-packages/ropelens/__init__.pyi
  expect usr/lib/python3/dist-packages/ropelens/py.typed
  ls "$packages"/ropelens/_ropelens*.so >/dev/null 2>&1 || fail "not installed: the module ropelens._ropelens"
  python=$(sed -n 's/^Python3_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt")
  version=$(PYTHONPATH=$packages "${python:-/usr/bin/python3}" -c 'import ropelens; print(ropelens.__version__)') ||
    fail "the installed package does not import"
  "$installed" --version | grep -q "^ropelens $version\b" || fail "ropelens.__version__ $version is not the binary's"
fi
echo "test_install: $(find "$stage" -type f | wc -l) files installed under $stage/usr"
