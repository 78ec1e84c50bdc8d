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
import resource, subprocess, sys, time
binary, directory, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
def timed(cmd):
    best = None
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best
cat = timed(["bash", "-c", f"find {directory} -name config.json -print0 | xargs -0 cat"])
for fmt in ("text", "json"):
    t = timed([binary, "check", directory, "--target", "131072", "--format", fmt, "--exit-zero"])
    rss_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"check --format {fmt:<5}: {count} configs in {t:.3f} s = {count / t:,.0f} configs/s "
          f"(peak RSS so far {rss_mib:.1f} MiB); cat of the same files: {cat:.3f} s")
PY
