#!/usr/bin/env bash
# Generates a directory of N configs from the corpus and prints check's configs/s and peak RSS beside the
# time `cat` takes to read the same files. Usage: bench/scan.sh BINARY [N]
set -euo pipefail
bin=${1:-build/ropelens}
count=${2:-10000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mapfile -t corpus < <(find testdata/configs -name '*.json' | sort)
for ((i = 0; i < count; i++)); do
  mkdir -p "$dir/m$i"
  cp "${corpus[i % ${#corpus[@]}]}" "$dir/m$i/config.json"
done
python3 - "$bin" "$dir" "$count" <<'PY'
import os, subprocess, sys, time
binary, directory, count = sys.argv[1], sys.argv[2], int(sys.argv[3])

def run_once(cmd):
    """Wall time and peak RSS (MiB) of one run."""
    start = time.perf_counter()
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(child.pid, 0)
    return time.perf_counter() - start, usage.ru_maxrss / 1024

def best_of(cmd, runs=5):
    results = [run_once(cmd) for _ in range(runs)]
    return min(t for t, _ in results), max(rss for _, rss in results)

cat, _ = best_of(["bash", "-c", f"find {directory} -name config.json -print0 | xargs -0 cat"])
print(f"cat of the {count} files: {cat:.3f} s (best of 5)")
for fmt in ("text", "json", "sarif"):
    t, rss = best_of([binary, "check", directory, "--target", "131072", "--format", fmt, "--exit-zero"])
    print(f"check --format {fmt:<5}: {t:.3f} s = {count / t:,.0f} configs/s (best of 5), peak RSS {rss:.1f} MiB")
PY
