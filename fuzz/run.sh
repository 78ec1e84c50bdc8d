#!/usr/bin/env bash
# Runs every fuzz target for a bounded time on a copy of its seed corpus (testdata/fuzz/<target>/).
# Usage: fuzz/run.sh BUILD_DIR SECONDS_PER_TARGET
set -euo pipefail
build=${1:-build-fuzz}
seconds=${2:-60}
status=0
for target in "$build"/fuzz/fuzz_*; do
  [ -x "$target" ] || continue
  name=$(basename "$target")
  seeds="testdata/fuzz/${name#fuzz_}"
  work="fuzz/corpus-work/$name"
  mkdir -p "$work"
  [ -d "$seeds" ] && cp -n "$seeds"/* "$work"/ 2>/dev/null || true
  echo "fuzz: $name for ${seconds}s (seeds: $seeds)"
  if ! "$target" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="fuzz/corpus-work/$name-" "$work" 2>"fuzz/corpus-work/$name.log"; then
    echo "fuzz: $name found a failure; see fuzz/corpus-work/$name.log" >&2
    tail -n 40 "fuzz/corpus-work/$name.log" >&2
    status=1
  fi
  grep -E "^#[0-9]+.*(DONE|pulse)" "fuzz/corpus-work/$name.log" | tail -n 1 || true
done
exit $status
