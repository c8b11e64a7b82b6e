#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what is missing, builds (the compile's output
# goes to a log; one line shows progress), runs `swift test`. Arguments go to `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/quiet-build.sh
Scripts/install-deps.sh
[ -d "$scratch/checkouts" ] || echo "first build: fetches the Swift packages (network), then compiles them — several minutes" >&2
quietly "building pushctl and its tests" test-build swift_run build --build-tests
# The suite takes ~3 minutes; past PUSHCTL_TEST_TIMEOUT seconds (default 40 minutes) it is stopped,
# and the tests that started but never finished are named. Output is line-buffered, so a stopped
# run's log ends where the run did.
log="$log_dir/test-run.log"
buffered=()
command -v stdbuf >/dev/null && buffered=(stdbuf -oL -eL)
status=0
timeout --kill-after=30 "${PUSHCTL_TEST_TIMEOUT:-2400}" ${buffered[@]+"${buffered[@]}"} \
  "$swift_cmd" test ${scratch_flags[@]+"${scratch_flags[@]}"} --skip-build "$@" 2>&1 | tee "$log" || status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  echo "the test run was stopped after ${PUSHCTL_TEST_TIMEOUT:-2400} s; started and never finished:" >&2
  sed -n 's/^.* Test \(.*\) started\.$/\1/p' "$log" | grep -v '^case passing' | sort -u > "$log.started"
  sed -n 's/^.* Test \(.*\) \(passed\|failed\).*$/\1/p' "$log" | sed 's/ with [0-9]* test cases*$//' | sort -u > "$log.ended"
  comm -23 "$log.started" "$log.ended" | sed 's/^/  /' >&2
fi
exit "$status"
