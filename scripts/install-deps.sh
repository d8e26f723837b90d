#!/usr/bin/env bash
# Installs what building and testing tritonc needs, from Debian packages only.
#   build: a C11 compiler (gcc or clang) and make
#   tests: FileCheck/not (llvm-14-tools), clang + libFuzzer runtime (fuzz
#          smoke runs), python3 with numpy and torch (binding and .tri tests),
#          python3-dev (Python.h, for the binding's C launcher), python3-mpmath
#          (references of the fp64 special functions)
# Safe to run again: installs only what is missing.
set -euo pipefail
pkgs=(make gcc clang llvm-14-tools libclang-rt-14-dev python3 python3-dev python3-numpy python3-torch python3-mpmath)
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "install-deps: installing ${missing[*]}"
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
