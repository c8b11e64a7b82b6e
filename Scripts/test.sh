#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what is missing, builds (the compile's output
# goes to a log; one line shows progress), runs `swift test`. Arguments go to `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/quiet-build.sh
Scripts/install-deps.sh
[ -d "$scratch/checkouts" ] || echo "first build: fetches the Swift packages (network), then compiles them — several minutes" >&2
quietly "building pushctl and its tests" test-build swift_run build --build-tests
swift_run test --skip-build "$@"
