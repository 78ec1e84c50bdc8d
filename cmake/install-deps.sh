#!/usr/bin/env bash
# Installs the Debian packages ropelens builds and tests with, skipping those already installed.
# Usage: install-deps.sh [build] [browser] [fuzz] [web]   (default: build)
#   build    the compiler, CMake, pkgconf, the five libraries, libyaml (Compose files and Kubernetes manifests)
#            and git (`ropelens diff --git` and .gitignore-aware scans run it); for the tests, git-lfs (the Git LFS
#            test of `diff --git`, skipped with a message where it is absent), python3-jsonschema
#            with python3-rfc3987 (SARIF validated against the official schema with URI format checks on) and python3-yaml (.pre-commit-hooks.yaml and the CI examples in docs/ci.md);
#            for the Python package (python/, `make python`, `pip install .`): python3-dev, python3-pybind11
#            (its CMake files and headers serve any python3; pip's backend needs no setuptools or wheel),
#            python3-venv and python3-pytest (torch, for verify_rotary's tests, is optional: those tests are skipped
#            without it)
#   browser  headless Chromium and a font, for the report's browser test (`make test` adds it)
#   fuzz     clang and its runtimes (libFuzzer, the sanitizers), for `make fuzz`
#   web      Emscripten (with clang 14, lld, binaryen and node) for the WebAssembly module and the page (`make web`)
set -euo pipefail
groups=("${@:-build}")
packages=()
for group in "${groups[@]}"; do
  case "$group" in
    build) packages+=(cmake g++ make pkgconf libcli11-dev nlohmann-json3-dev libfmt-dev libspdlog-dev catch2 libyaml-dev
                      python3 git git-lfs
                      python3-jsonschema python3-rfc3987 python3-yaml
                      python3-dev python3-pybind11 python3-venv python3-pytest) ;;
    browser) packages+=(chromium fonts-dejavu-core) ;;
    fuzz) packages+=(clang libclang-rt-dev) ;;
    web) packages+=(emscripten) ;;
    *) echo "ropelens: unknown dependency group '$group' (expected build, browser, fuzz or web)" >&2; exit 2 ;;
  esac
done
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
