#!/usr/bin/env bash
# Start-up cost: `ropelens --version` against a C++ hello world compiled here with the same compiler, and one
# `check` of one config. Prints each time and the ratios. Uses hyperfine when installed (median of RUNS runs
# after a warm-up); otherwise the best of 7 rounds, each timing a batch of RUNS runs of the three commands in turn.
# Usage: bench/startup.sh BINARY [RUNS]
set -euo pipefail
bin=$(realpath "${1:-build/ropelens}")
runs=${2:-300}
config=testdata/configs/qwen/qwen3-8b.json
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

printf '#include <iostream>\nint main() { std::cout << "hello, world\\n"; }\n' >"$dir/hello.cpp"
${CXX:-g++} -O2 -o "$dir/hello" "$dir/hello.cpp"

hello_cmd=("$dir/hello")
version_cmd=("$bin" --version)
check_cmd=("$bin" check "$config" --target 131072 --exit-zero)

if command -v hyperfine >/dev/null 2>&1; then
  method="hyperfine, median of $runs runs"
  # Milliseconds per run of the command given as arguments.
  time_ms() {
    hyperfine -N --warmup 30 --runs "$runs" --export-json "$dir/times.json" -- "$*" >/dev/null 2>&1
    python3 -c 'import json, sys; print("%.3f" % (json.load(open(sys.argv[1]))["results"][0]["median"] * 1e3))' \
      "$dir/times.json"
  }
  hello=$(time_ms "${hello_cmd[@]}")
  version=$(time_ms "${version_cmd[@]}")
  check=$(time_ms "${check_cmd[@]}")
else
  # The three commands take turns within each round, so a machine that slows down or speeds up during the run
  # moves all three alike and the ratios hold.
  method="no hyperfine: best of 7 rounds, each timing a batch of $runs runs of every command in turn with date +%s%N"
  # Nanoseconds for a batch of `runs` runs of the command given as arguments.
  batch_ns() {
    local start end i
    start=$(date +%s%N)
    for ((i = 0; i < runs; i++)); do "$@" >/dev/null 2>&1 || true; done
    end=$(date +%s%N)
    echo $((end - start))
  }
  lower() { if [ -z "$1" ] || [ "$2" -lt "$1" ]; then echo "$2"; else echo "$1"; fi; }
  best_hello="" best_version="" best_check=""
  for round in 1 2 3 4 5 6 7; do
    best_hello=$(lower "$best_hello" "$(batch_ns "${hello_cmd[@]}")")
    best_version=$(lower "$best_version" "$(batch_ns "${version_cmd[@]}")")
    best_check=$(lower "$best_check" "$(batch_ns "${check_cmd[@]}")")
  done
  per_run_ms() { awk -v ns="$1" -v n="$runs" 'BEGIN { printf "%.3f\n", ns / n / 1e6 }'; }
  hello=$(per_run_ms "$best_hello")
  version=$(per_run_ms "$best_version")
  check=$(per_run_ms "$best_check")
fi

echo "start-up ($method):"
awk -v h="$hello" -v v="$version" -v c="$check" -v config="$config" 'BEGIN {
  printf "  C++ hello world          %7.3f ms\n", h
  printf "  ropelens --version       %7.3f ms = %.2fx hello world\n", v, v / h
  printf "  ropelens check (1 file)  %7.3f ms = %.2fx hello world, %.3f ms beyond --version (%s)\n", c, c / h, c - v, config
}'
