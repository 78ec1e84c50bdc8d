#!/usr/bin/env bash
# Runs every fuzz target for a bounded time. Each target's corpus is a working copy of its seeds
# (testdata/fuzz/<target>/, grown by earlier campaigns) plus the configs and GGUF fixtures it can read, and its
# dictionary (fuzz/<target>.dict when there is one, else the config dictionary fuzz/config.dict). Prints each
# target's executions; exits 1 when a target finds a failure.
# FUZZ_SEED fixes libFuzzer's seed; FUZZ_FLAGS adds libFuzzer flags (e.g. -entropic=0); FUZZ_JOBS runs that many
# targets at once (default: one per core).
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

# One target's bounded run; returns 1 when it finds a failure.
fuzz_one() {
  local name=$1 target="$build/fuzz/fuzz_$1" work="fuzz/corpus-work/$1" log="fuzz/corpus-work/$1.log"
  local dict="fuzz/$1.dict" runs cov failed=0
  [ -x "$target" ] || { echo "fuzz: no target $target" >&2; return 1; }
  mkdir -p "$work" "testdata/fuzz/$name"
  [ -f "$dict" ] || dict=fuzz/config.dict
  echo "fuzz: $name for ${seconds}s"
  # shellcheck disable=SC2046
  if ! "$target" ${FUZZ_SEED:+-seed="$FUZZ_SEED"} ${FUZZ_FLAGS:-} -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -dict="$dict" -artifact_prefix="fuzz/corpus-work/$name-" \
      "$work" "testdata/fuzz/$name" $(seeds_for "$name") 2>"$log"; then
    echo "fuzz: $name found a failure; see $log" >&2
    tail -n 40 "$log" >&2
    failed=1
  fi
  runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
  cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | grep -oE 'cov: [0-9]+' || true)
  echo "fuzz: $name: ${runs:-0} executions, ${cov:-cov: ?}"
  return $failed
}

# FUZZ_JOBS targets at a time (default: one per core); each keeps its own log, so only the summary lines interleave.
jobs_max=${FUZZ_JOBS:-$(nproc)}
status=0
running=()
for name in "${targets[@]}"; do
  fuzz_one "$name" &
  running+=($!)
  if [ ${#running[@]} -ge "$jobs_max" ]; then
    wait "${running[0]}" || status=1
    running=("${running[@]:1}")
  fi
done
for pid in "${running[@]}"; do wait "$pid" || status=1; done
exit $status
