#!/usr/bin/env bash
# Generates a directory of N configs from the corpus and prints check's configs/s and peak RSS per output format,
# with two ratios: its time over the time `cat` takes to read the same files, and its rate over the text rate.
# Usage: bench/scan.sh BINARY [N]
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
import subprocess, sys, time
binary, directory, count = sys.argv[1], sys.argv[2], int(sys.argv[3])

def best_time(cmd, runs=5):
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best

def peak_rss_mib(cmd):
    """VmHWM of the process itself, sampled until it exits (getrusage would also count the Python that forked it)."""
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    while child.poll() is None:
        try:
            with open(f"/proc/{child.pid}/status") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        peak = max(peak, int(line.split()[1]))
        except (FileNotFoundError, ProcessLookupError):
            break
        time.sleep(0.005)
    return peak / 1024

cat = best_time(["bash", "-c", f"find {directory} -name config.json -print0 | xargs -0 cat"])
print(f"cat of the {count} files: {cat:.3f} s (best of 5)")
text_time = None
for fmt in ("text", "json", "sarif"):
    cmd = [binary, "check", directory, "--target", "131072", "--format", fmt, "--exit-zero"]
    t = best_time(cmd)
    text_time = text_time or t
    print(f"check --format {fmt:<5}: {t:.3f} s = {count / t:,.0f} configs/s (best of 5), peak RSS {peak_rss_mib(cmd):.1f} MiB, "
          f"{t / cat:.2f}x cat's time, {text_time / t:.0%} of the text rate")
PY
