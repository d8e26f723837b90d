#!/usr/bin/env bash
# The whole test suite on a fresh machine: install dependencies, build, test.
# Ends with the line `N passed, N failed`.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
make -j"$(nproc)" all >/dev/null
exec make -j"$(nproc)" --no-print-directory test
