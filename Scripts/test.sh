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

# tree SIGNAL PID: sends SIGNAL to PID and to every process below it, the lowest first.
tree() {
  local child
  for child in $(pgrep -P "$2" 2>/dev/null); do tree "$1" "$child"; done
  kill -s "$1" "$2" 2>/dev/null || true
}

# limited SECONDS COMMAND…: runs COMMAND; past SECONDS it and its children get SIGTERM (SIGKILL 30 s
# later) and the status is 124, as with GNU timeout. macOS has no timeout(1): there a watcher in the
# background does the same (macOS's bash 3.2 is enough).
limited() {
  local seconds=$1 pid watcher status=0 flag="$log.timed-out"
  shift
  if command -v timeout >/dev/null; then
    timeout --kill-after=30 "$seconds" "$@" || status=$?
    return "$status"
  fi
  rm -f "$flag"
  "$@" &
  pid=$!
  (
    nap=""
    trap 'kill "$nap" 2>/dev/null; exit 0' TERM
    sleep "$seconds" & nap=$!; wait "$nap"
    : > "$flag"
    tree TERM "$pid"
    sleep 30 & nap=$!; wait "$nap"
    tree KILL "$pid"
  ) </dev/null >/dev/null 2>&1 &
  watcher=$!
  trap 'tree TERM "$pid"' INT TERM
  while :; do  # a signal's trap ends a wait early: wait again until the command has ended
    status=0
    wait "$pid" || status=$?
    kill -0 "$pid" 2>/dev/null || break
  done
  trap - INT TERM
  kill "$watcher" 2>/dev/null || true
  if [ -e "$flag" ]; then
    rm -f "$flag"
    status=124
  fi
  return "$status"
}

buffered=()
command -v stdbuf >/dev/null && buffered=(stdbuf -oL -eL)
status=0
limited "${PUSHCTL_TEST_TIMEOUT:-2400}" ${buffered[@]+"${buffered[@]}"} \
  "$swift_cmd" test ${scratch_flags[@]+"${scratch_flags[@]}"} --skip-build "$@" 2>&1 | tee "$log" || status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  echo "the test run was stopped after ${PUSHCTL_TEST_TIMEOUT:-2400} s; started and never finished:" >&2
  sed -n 's/^.* Test \(.*\) started\.$/\1/p' "$log" | grep -v '^case passing' | sort -u > "$log.started"
  sed -nE 's/^.* Test (.*) (passed|failed).*$/\1/p' "$log" | sed 's/ with [0-9]* test cases*$//' | sort -u > "$log.ended"
  comm -23 "$log.started" "$log.ended" | sed 's/^/  /' >&2
fi
exit "$status"
