#!/usr/bin/env bash
# Fails when a build log holds a compiler warning in this repository's own code:
#   Scripts/check-warnings.sh LOG…        (e.g. .build/logs/test-build.log)
# Only files under Sources/ and Tests/ count: the dependencies' warnings are theirs to fix. Each
# warning is printed once with its place. A build that compiled nothing again prints no warning,
# so run it on the log of a clean build (.ci/run runs in a fresh clone: every build there is one).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
found=""
for log in "$@"; do
  [ -f "$log" ] || { echo "no build log at $log" >&2; exit 2; }
  mine=$(awk -v root="$root/" '
    index($0, ": warning: ") && (index($0, root "Sources/") == 1 || index($0, root "Tests/") == 1) {
      print substr($0, length(root) + 1)
    }' "$log" | sort -u)
  [ -z "$mine" ] || found="$found$mine"$'\n'
done
if [ -n "$found" ]; then
  count=$(printf '%s' "$found" | grep -c . || true)
  echo "$count compiler warning(s) in Sources/ and Tests/ (a model codebase builds clean):" >&2
  printf '%s' "$found" | sed 's/^/  /' >&2
  exit 1
fi
echo "no compiler warning in Sources/ or Tests/" >&2
