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

RUNS = 7

def run_time(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start

def best_times(commands, runs=RUNS):
    """Best wall time of each command, the commands taken in turn in every round: a burst of load on a shared
    machine then slows one round of all of them rather than every run of one."""
    best = {name: None for name in commands}
    for _ in range(runs):
        for name, cmd in commands.items():
            t = run_time(cmd)
            best[name] = t if best[name] is None else min(best[name], t)
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

formats = ("text", "json", "sarif")
commands = {"cat": ["bash", "-c", f"find {directory} -name config.json -print0 | xargs -0 cat"]}
for fmt in formats:
    commands[fmt] = [binary, "check", directory, "--target", "131072", "--format", fmt, "--exit-zero"]
best = best_times(commands)
cat = best["cat"]
print(f"cat of the {count} files: {cat:.3f} s (best of {RUNS}; cat and the three formats taken in turn)")
for fmt in formats:
    t = best[fmt]
    print(f"check --format {fmt:<5}: {t:.3f} s = {count / t:,.0f} configs/s (best of {RUNS}), "
          f"peak RSS {peak_rss_mib(commands[fmt]):.1f} MiB, {t / cat:.2f}x cat's time, "
          f"{best['text'] / t:.0%} of the text rate")
PY
