#!/usr/bin/env bash
# Installs the Debian packages ropelens builds and tests with, skipping those already installed.
set -euo pipefail
# Build: the compiler, CMake and the five libraries. git: `ropelens diff --git` and .gitignore-aware scans run it.
# Tests only: python3-jsonschema with python3-rfc3987 validates SARIF against the official schema with URI format
# checks on, python3-yaml parses .pre-commit-hooks.yaml and the CI examples in docs/ci.md.
packages=(cmake g++ make libcli11-dev nlohmann-json3-dev libfmt-dev libspdlog-dev catch2 python3 git
          python3-jsonschema python3-rfc3987 python3-yaml)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "ropelens: missing packages: ${missing[*]}; run as root or: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "ropelens: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
