# Sourced by quickstart.sh, test.sh and install.sh: runs the long compile steps with their output
# in a log file and one line on the terminal, and shows the log's end when a step fails.
#
#   PUSHCTL_SCRATCH_PATH  build folder (swift build --scratch-path; default .build)
#   PUSHCTL_LOG_DIR       where the logs go (default: the build folder's logs/)
#   PUSHCTL_SWIFT         the swift command (default swift; the script tests put a stand-in here)

swift_cmd=${PUSHCTL_SWIFT:-swift}
scratch=${PUSHCTL_SCRATCH_PATH:-.build}
scratch_flags=()
[ -n "${PUSHCTL_SCRATCH_PATH:-}" ] && scratch_flags=(--scratch-path "$PUSHCTL_SCRATCH_PATH")
log_dir=${PUSHCTL_LOG_DIR:-$scratch/logs}

# swift with the build folder chosen above: swift_run build --product pushctl
swift_run() {
  local subcommand=$1
  shift
  "$swift_cmd" "$subcommand" ${scratch_flags[@]+"${scratch_flags[@]}"} "$@"
}

# quietly LABEL LOGNAME COMMAND…: runs COMMAND with its output in $log_dir/LOGNAME.log. On a
# terminal one line shows how far the compile is; elsewhere (CI, a pipe) one line says where the
# log is. On failure: the errors, the last lines of the log and its path, and COMMAND's status.
quietly() {
  local label=$1 log="$log_dir/$2.log" status=0 started=$SECONDS
  shift 2
  mkdir -p "$log_dir"
  if [ -t 2 ] && [ -z "${CI:-}" ]; then
    "$@" >"$log" 2>&1 &
    local pid=$!
    while kill -0 "$pid" 2>/dev/null; do
      local step
      step=$(grep -ao '^\[[0-9]*/[0-9]*\]' "$log" 2>/dev/null | tail -n 1 || true)
      printf '\r\033[K%s… %s %ss (log: %s)' "$label" "$step" "$((SECONDS - started))" "$log" >&2
      sleep 1
    done
    wait "$pid" || status=$?
    printf '\r\033[K' >&2
  else
    echo "$label… (log: $log)" >&2
    "$@" >"$log" 2>&1 || status=$?
  fi
  if [ "$status" -ne 0 ]; then
    {
      echo "$label failed (exit $status) after $((SECONDS - started)) s."
      if grep -aq 'error:' "$log"; then
        echo "errors:"
        grep -a 'error:' "$log" | sort -u | head -n 20 | sed 's/^/  /'
      fi
      echo "the last 30 lines of $log:"
      tail -n 30 "$log" | sed 's/^/  /'
      echo "full log: $log"
    } >&2
    return "$status"
  fi
  echo "$label: done in $((SECONDS - started)) s (log: $log)" >&2
}
