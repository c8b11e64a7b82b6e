#!/usr/bin/env bash
# One push, process start to answer: pushctl send against one curl with a JWT made beforehand,
# interleaved, the median of RUNS (21) each, against one `pushctl mock` on loopback (pinned apart
# from the clients when there are 2+ CPUs). Also `pushctl --version` against `curl --version`.
#
#   PUSHCTL_BIN=/path/to/release/pushctl Scripts/bench-single.sh   # pushctl-mock beside it
#
# Target (issue 39's floor): a single push <= 1.6 x one curl.
#
# Then, when valgrind is installed (INSTRUCTIONS=0 skips it), each command once more under
# callgrind: the instructions it runs in user space. Unlike time on a shared VM, that count is
# the same from run to run, so it shows a change of a few percent. pushctl runs from a stripped
# copy (valgrind cannot read the Swift toolchain's debug info); the kernel's share (exec, page
# faults, the socket) is not in it.
set -euo pipefail
export PUSHCTL_LANG=en  # the mock's banner is read below, in English
cd "$(dirname "$0")/.."
RUNS=${RUNS:-21}
bin=${PUSHCTL_BIN:?set PUSHCTL_BIN to a release pushctl (pushctl-mock beside it)}
work=$(mktemp -d)
mock_pid=
cleanup() { [ -n "$mock_pid" ] && kill "$mock_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
server=(); client=()
if [ "$(nproc)" -ge 2 ]; then server=(taskset -c 0); client=(taskset -c 1); fi

"$bin" key generate --key-id ABC123DEFG --out "$work" >/dev/null 2>&1
"${server[@]}" "$bin" mock --port 0 --ca-out "$work/ca.pem" --key-file "$work/AuthKey_ABC123DEFG.p8" --team-id DEF123GHIJ \
    --initial-streams 100 >"$work/mock.out" 2>&1 &
mock_pid=$!
for _ in $(seq 100); do grep -q "Ctrl-C stops it" "$work/mock.out" 2>/dev/null && break; sleep 0.05; done
url=$(grep -o 'https://[0-9.]*:[0-9]*' "$work/mock.out" | head -1)
token=$(printf 'ab%.0s' $(seq 32))
jwt=$("$bin" jwt --key-file "$work/AuthKey_ABC123DEFG.p8" --team-id DEF123GHIJ)
export PUSHCTL_CACHE_DIR=$work/cache NO_COLOR=1
mkdir -m 700 "$PUSHCTL_CACHE_DIR"
payload='{"aps":{"alert":{"title":"x"}}}'

now() { date +%s%N; }
: >"$work/times.tsv"
measure() {
    local what=$1; shift
    local t0 t1
    t0=$(now)
    "${client[@]}" "$@" >/dev/null 2>"$work/err" || { echo "$what failed:" >&2; tail -3 "$work/err" >&2; exit 1; }
    t1=$(now)
    printf '%s\t%s\n' "$what" "$(( (t1 - t0) / 1000 ))" >>"$work/times.tsv"
}
for _ in $(seq "$RUNS"); do
    measure "pushctl send --jwt" "$bin" send --endpoint "$url" --cacert "$work/ca.pem" --jwt "$jwt" --topic com.example.app \
        --device-token "$token" --title x --quiet
    measure "pushctl send --key-file (JWT cached)" "$bin" send --endpoint "$url" --cacert "$work/ca.pem" \
        --key-file "$work/AuthKey_ABC123DEFG.p8" --team-id DEF123GHIJ --topic com.example.app --device-token "$token" --title x --quiet
    measure "curl --http2 (JWT made beforehand)" curl --http2 -sS -o /dev/null --fail --cacert "$work/ca.pem" \
        -H "authorization: bearer $jwt" -H "apns-topic: com.example.app" -H "apns-push-type: alert" \
        -H "content-type:" --data-binary "$payload" "$url/3/device/$token"
    measure "pushctl --version" "$bin" --version
    measure "curl --version" curl --version
done
python3 - "$work/times.tsv" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    what, micros = line.rstrip("\n").split("\t")
    rows.setdefault(what, []).append(int(micros) / 1000)
median = {what: statistics.median(values) for what, values in rows.items()}
curl = median["curl --http2 (JWT made beforehand)"]
for what, value in median.items():
    ratio = f"  {value / curl:.2f} x curl" if what.startswith("pushctl send") else ""
    print(f"{what:40} {value:7.1f} ms (median of {len(rows[what])}){ratio}")
print(f"{'pushctl --version vs curl --version':40} {median['pushctl --version'] / median['curl --version']:.2f} x")
EOF

[ "${INSTRUCTIONS:-1}" = 1 ] && command -v valgrind >/dev/null || exit 0
strip -o "$work/pushctl" "$bin"
instructions() {  # what, command…: one run under callgrind, its user-space instruction count
    local what=$1 count; shift
    count=$(Scripts/bench/instructions.sh "$work" "$@") || { echo "$what failed under valgrind" >&2; exit 1; }
    printf '%s\t%s\n' "$what" "$count"
}
{
    instructions "pushctl send --jwt" "$work/pushctl" send --endpoint "$url" --cacert "$work/ca.pem" --jwt "$jwt" \
        --topic com.example.app --device-token "$token" --title x --quiet
    instructions "curl --http2 (JWT made beforehand)" curl --http2 -sS -o /dev/null --fail --cacert "$work/ca.pem" \
        -H "authorization: bearer $jwt" -H "apns-topic: com.example.app" -H "apns-push-type: alert" \
        -H "content-type:" --data-binary "$payload" "$url/3/device/$token"
    instructions "pushctl --version" "$work/pushctl" --version
    instructions "curl --version" curl --version
} >"$work/instructions.tsv"
python3 - "$work/instructions.tsv" <<'EOF'
import sys
rows = dict(line.rstrip("\n").split("\t") for line in open(sys.argv[1]))
curl = int(rows["curl --http2 (JWT made beforehand)"])
print("instructions in user space (valgrind callgrind, one run each):")
for what, count in rows.items():
    ratio = f"  {int(count) / curl:.2f} x curl" if what.startswith("pushctl") and "version" not in what else ""
    print(f"  {what:52} {int(count) / 1e6:6.1f} M{ratio}")
EOF
