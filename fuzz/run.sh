#!/usr/bin/env bash
# Runs every fuzz target for a bounded time. Each target's corpus is a working copy of its seeds
# (testdata/fuzz/<target>/, grown by earlier campaigns) plus the configs and GGUF fixtures it can read, and its
# dictionary (fuzz/<target>.dict when there is one, else the config dictionary fuzz/config.dict). Prints each
# target's executions; exits 1 when a target finds a failure.
# FUZZ_SEED fixes libFuzzer's seed; FUZZ_FLAGS adds libFuzzer flags (e.g. -entropic=0).
# Usage: fuzz/run.sh BUILD_DIR SECONDS_PER_TARGET [TARGET...]
set -euo pipefail
build=${1:-build-fuzz}
seconds=${2:-60}
shift 2 || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=($(cd "$build/fuzz" && ls fuzz_* | sed 's/^fuzz_//'))

# Extra seed folders per target: what the target reads as input.
seeds_for() {
  case "$1" in
    config|suggest|diff) echo "testdata/configs" ;;
    gguf) echo "" ;;
    check|table) echo "testdata/configs testdata/fuzz/gguf" ;;
    settings|safetensors) echo "" ;;
    *) echo "" ;;
  esac
}

status=0
for name in "${targets[@]}"; do
  target="$build/fuzz/fuzz_$name"
  [ -x "$target" ] || { echo "fuzz: no target $target" >&2; status=1; continue; }
  work="fuzz/corpus-work/$name"
  mkdir -p "$work" "testdata/fuzz/$name"
  log="fuzz/corpus-work/$name.log"
  dict="fuzz/$name.dict"
  [ -f "$dict" ] || dict=fuzz/config.dict
  echo "fuzz: $name for ${seconds}s"
  # shellcheck disable=SC2046
  if ! "$target" ${FUZZ_SEED:+-seed="$FUZZ_SEED"} ${FUZZ_FLAGS:-} -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -dict="$dict" -artifact_prefix="fuzz/corpus-work/$name-" \
      "$work" "testdata/fuzz/$name" $(seeds_for "$name") 2>"$log"; then
    echo "fuzz: $name found a failure; see $log" >&2
    tail -n 40 "$log" >&2
    status=1
  fi
  runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
  cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | grep -oE 'cov: [0-9]+' || true)
  echo "fuzz: $name: ${runs:-0} executions, ${cov:-cov: ?}"
done
exit $status
