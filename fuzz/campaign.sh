#!/usr/bin/env bash
# A longer fuzz campaign for one target, recorded in fuzz/campaigns.tsv (date, commit, target, seconds,
# executions, coverage, result) so executions can be counted across campaigns. What the campaign found that no
# kept corpus covers is added to testdata/fuzz/<target>/ for the next campaign and for CI.
# Usage: fuzz/campaign.sh BUILD_DIR TARGET SECONDS
set -euo pipefail
build=$1 name=$2 seconds=$3
log="fuzz/corpus-work/$name.campaign.log"
mkdir -p fuzz/corpus-work
# Every kept corpus replays through every config-reading target in the suite, so a campaign keeps only the inputs
# that reach coverage none of them reaches: the merge starts from all of them and adds the rest to the target's own.
keep_new_inputs() {
  local target=$1 name=$2 kept dir
  kept=$(mktemp -d)
  for dir in $(kept_corpora "$name"); do cp -r "$dir" "$kept/"; done
  "$target" -merge=1 -max_len=65536 "$kept" "fuzz/corpus-work/$name" >/dev/null 2>&1 || true
  find "$kept" -maxdepth 1 -type f -exec cp {} "testdata/fuzz/$name/" \;
  rm -rf "$kept"
}

# What the suite replays through the target: its own corpus for settings and safetensors (inputs of their own
# shape), every config and GGUF corpus otherwise.
kept_corpora() {
  case "$1" in
    settings|safetensors) echo "testdata/fuzz/$1"; return ;;
  esac
  ls -d testdata/fuzz/*/ testdata/configs | grep -vE '^testdata/fuzz/(settings|safetensors)/$'
}

result=clean
if ! bash fuzz/run.sh "$build" "$seconds" "$name" >"$log" 2>&1; then result=failure; fi
# A build with other sanitizers than the default ASan + UBSan, and extra libFuzzer flags, say so in the result column.
sanitizers=$(sed -n 's/^ROPELENS_FUZZ_SANITIZERS:STRING=//p' "$build/CMakeCache.txt")
if [ -n "$sanitizers" ] && [ "$sanitizers" != "address,undefined" ]; then result="$result (-fsanitize=$sanitizers)"; fi
if [ -n "${FUZZ_FLAGS:-}" ]; then result="$result ($FUZZ_FLAGS)"; fi
runs=$(grep -E "^fuzz: $name: " "$log" | grep -oE '[0-9]+ executions' | awk '{print $1}')
cov=$(grep -E "^fuzz: $name: " "$log" | grep -oE 'cov: [0-9]+' | awk '{print $2}')
keep_new_inputs "$build/fuzz/fuzz_$name" "$name"
# The commit the fuzz binaries were built from (HEAD may have moved during a long campaign), as --version shows it.
built_from=$(sed -n 's/.*version_line() { return "ropelens [^ ]* (\([^)]*\))".*/\1/p' "$build/generated/version.cpp" 2>/dev/null || true)
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%F)" "${built_from:-unknown}" "$name" "$seconds" \
  "${runs:-0}" "${cov:-?}" "$result" >>fuzz/campaigns.tsv
echo "$name: ${runs:-0} executions, coverage ${cov:-?}, $result"
