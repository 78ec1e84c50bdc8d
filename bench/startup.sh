#!/usr/bin/env bash
# Start-up cost: `ropelens --version` against a C++ hello world compiled here with the same compiler, and one
# `check` of one config. Prints each time and the ratios. Uses hyperfine when installed (median of RUNS runs
# after a warm-up); otherwise the best of 5 batches of RUNS runs, each batch timed with `date +%s%N`.
# Usage: bench/startup.sh BINARY [RUNS]
set -euo pipefail
bin=$(realpath "${1:-build/ropelens}")
runs=${2:-300}
config=testdata/configs/qwen/qwen3-8b.json
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

printf '#include <iostream>\nint main() { std::cout << "hello, world\\n"; }\n' >"$dir/hello.cpp"
${CXX:-g++} -O2 -o "$dir/hello" "$dir/hello.cpp"

# Milliseconds per run of the command given as arguments.
if command -v hyperfine >/dev/null 2>&1; then
  method="hyperfine, median of $runs runs"
  time_ms() {
    hyperfine -N --warmup 30 --runs "$runs" --export-json "$dir/times.json" -- "$*" >/dev/null 2>&1
    python3 -c 'import json, sys; print("%.3f" % (json.load(open(sys.argv[1]))["results"][0]["median"] * 1e3))' \
      "$dir/times.json"
  }
else
  method="no hyperfine: best of 5 batches of $runs runs, timed with date +%s%N"
  time_ms() {
    local best="" batch start end i
    for batch in 1 2 3 4 5; do
      start=$(date +%s%N)
      for ((i = 0; i < runs; i++)); do "$@" >/dev/null 2>&1 || true; done
      end=$(date +%s%N)
      if [ -z "$best" ] || [ $((end - start)) -lt "$best" ]; then best=$((end - start)); fi
    done
    awk -v ns="$best" -v n="$runs" 'BEGIN { printf "%.3f\n", ns / n / 1e6 }'
  }
fi

hello=$(time_ms "$dir/hello")
version=$(time_ms "$bin" --version)
check=$(time_ms "$bin" check "$config" --target 131072 --exit-zero)
echo "start-up ($method):"
awk -v h="$hello" -v v="$version" -v c="$check" -v config="$config" 'BEGIN {
  printf "  C++ hello world          %7.3f ms\n", h
  printf "  ropelens --version       %7.3f ms = %.2fx hello world\n", v, v / h
  printf "  ropelens check (1 file)  %7.3f ms = %.2fx hello world, %.3f ms beyond --version (%s)\n", c, c / h, c - v, config
}'
