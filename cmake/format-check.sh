#!/usr/bin/env bash
# Fails when a C++ file differs from what clang-format (.clang-format) would write. With a git revision as its
# argument it checks only the files changed since then; with none, every tracked C++ file.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-}
if ! command -v clang-format >/dev/null 2>&1; then
  echo "format-check: clang-format is not installed (apt-get install clang-format)" >&2
  exit 2
fi
if [ -n "$base" ]; then
  if ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
    echo "format-check: no git revision '$base'; pass FORMAT_BASE=<revision>, or FORMAT_BASE= for every file" >&2
    exit 2
  fi
  mapfile -t files < <(git diff --name-only --diff-filter=ACMR "$base" -- '*.cpp' '*.hpp')
  scope="changed since $base"
else
  mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
  scope="tracked"
fi
if [ ${#files[@]} -eq 0 ]; then
  echo "format-check: no C++ files $scope"
  exit 0
fi
clang-format --dry-run --Werror "${files[@]}"
echo "format-check: ${#files[@]} C++ file(s) $scope match .clang-format"
