#!/usr/bin/env bash
# A scan of N model folders generated from the corpus configs (testdata/configs, taken in turn), with a warm cache:
# check's configs/s and peak RSS per output format, its time over the time `cat` takes to read the same files
# (`find | xargs cat`), and its rate over the text rate. cat and the three formats are timed in turn in every round,
# so a burst of load on a shared machine slows one round of all of them rather than every run of one; each figure is
# the best of its rounds. Exits 1 when a format takes more than MAX_RATIO (default 3) times cat's time: far outside
# the noise of a shared machine, where a regression of the kind that once made scans ten times slower lands.
# Usage: bench/scan.sh BINARY [N] [ROUNDS]
set -euo pipefail
bin=${1:-build/ropelens}
count=${2:-10000}
rounds=${3:-5}
max_ratio=${MAX_RATIO:-3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

python3 - "$bin" "$dir" "$count" "$rounds" "$max_ratio" <<'PY'
import glob, os, subprocess, sys, time

binary, directory, count, rounds, max_ratio = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])

# The folders: one config.json each, the corpus configs in turn (a Python loop: 10,000 cp processes took minutes).
corpus = [open(path, "rb").read() for path in sorted(glob.glob("testdata/configs/**/*.json", recursive=True))]
for i in range(count):
    os.mkdir(f"{directory}/m{i}")
    with open(f"{directory}/m{i}/config.json", "wb") as out:
        out.write(corpus[i % len(corpus)])

def run_time(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start

def best_times(commands):
    best = {name: float("inf") for name in commands}
    for _ in range(rounds):
        for name, cmd in commands.items():
            best[name] = min(best[name], run_time(cmd))
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
for cmd in commands.values():
    run_time(cmd)  # a warm cache, and each program's pages in memory
best = best_times(commands)
cat = best["cat"]
load = os.getloadavg()[0]
print(f"scan of {count} folders on {os.cpu_count()} cores (load average {load:.2f}); best of {rounds} rounds, "
      f"cat and the three formats taken in turn in each")
print(f"  cat of the files      {cat:.3f} s = {count / cat:,.0f} files/s")
failed = []
for fmt in formats:
    t = best[fmt]
    ratio = t / cat
    print(f"  check --format {fmt:<6} {t:.3f} s = {count / t:,.0f} configs/s, {ratio:.2f}x cat's time, "
          f"{best['text'] / t:.0%} of the text rate, peak RSS {peak_rss_mib(commands[fmt]):.1f} MiB")
    if ratio > max_ratio:
        failed.append(f"check --format {fmt} took {ratio:.2f}x cat's time (limit {max_ratio:g}x)")
for failure in failed:
    print(f"bench/scan.sh: {failure}", file=sys.stderr)
sys.exit(1 if failed else 0)
PY
