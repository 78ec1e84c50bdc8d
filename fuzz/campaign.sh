#!/usr/bin/env bash
# A longer fuzz campaign for one target, recorded in fuzz/campaigns.tsv (date, commit, target, seconds,
# executions, coverage, result) so executions can be counted across campaigns. The grown corpus is merged
# (minimized) back into testdata/fuzz/<target>/ for the next campaign and for CI.
# Usage: fuzz/campaign.sh BUILD_DIR TARGET SECONDS
set -euo pipefail
build=$1 name=$2 seconds=$3
log="fuzz/corpus-work/$name.campaign.log"
mkdir -p fuzz/corpus-work
result=clean
if ! bash fuzz/run.sh "$build" "$seconds" "$name" >"$log" 2>&1; then result=failure; fi
runs=$(grep -E "^fuzz: $name: " "$log" | grep -oE '[0-9]+ executions' | awk '{print $1}')
cov=$(grep -E "^fuzz: $name: " "$log" | grep -oE 'cov: [0-9]+' | awk '{print $2}')
"$build/fuzz/fuzz_$name" -merge=1 -max_len=65536 "testdata/fuzz/$name" "fuzz/corpus-work/$name" >/dev/null 2>&1 || true
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%F)" "$(git rev-parse --short HEAD)" "$name" "$seconds" \
  "${runs:-0}" "${cov:-?}" "$result" >>fuzz/campaigns.tsv
echo "$name: ${runs:-0} executions, coverage ${cov:-?}, $result"
