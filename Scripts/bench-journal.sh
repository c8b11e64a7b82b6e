#!/usr/bin/env bash
# What --journal costs: N tokens (20000) sent to one `pushctl mock` on loopback with and without a
# journal, ROUNDS (5) rounds taking turns, medians of wall time and CPU (user + sys); the mock on
# CPU 0, pushctl on CPU 1 when there are 2+ CPUs. Then the same against a mock answering every
# request DELAY_MS (100) late, APNs' stream profile, as on a real link (WAN_N tokens, 20000).
#
#   PUSHCTL_BIN=/path/to/release/pushctl Scripts/bench-journal.sh   # pushctl-mock beside it
#
# Target (issue 19): the journal costs at most 5 %.
set -euo pipefail
export PUSHCTL_LANG=en  # the mock's banner is read below, in English
cd "$(dirname "$0")/.."
N=${N:-20000}
WAN_N=${WAN_N:-20000}
ROUNDS=${ROUNDS:-5}
DELAY_MS=${DELAY_MS:-100}
bin=${PUSHCTL_BIN:?set PUSHCTL_BIN to a release pushctl (pushctl-mock beside it)}
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
server=(); client=()
if [ "$(nproc)" -ge 2 ]; then server=(taskset -c 0); client=(taskset -c 1); fi

"$bin" key generate --key-id ABC123DEFG --out "$work" >/dev/null 2>&1
start_mock() {  # name, extra flags…
    local name=$1; shift
    "${server[@]}" "$bin" mock --port 0 --ca-out "$work/$name-ca.pem" --key-file "$work/AuthKey_ABC123DEFG.p8" \
        --team-id DEF123GHIJ "$@" >"$work/$name.out" 2>&1 &
    pids+=($!)
    for _ in $(seq 200); do grep -q "Ctrl-C stops it" "$work/$name.out" 2>/dev/null && break; sleep 0.05; done
    grep -o 'https://[0-9.]*:[0-9]*' "$work/$name.out" | head -1
}
loopback=$(start_mock loopback --initial-streams 100)
wan=$(start_mock wan --delay "$DELAY_MS")
python3 -c "
import random
r = random.Random(7)
for n, name in (($N, 'loopback'), ($WAN_N, 'wan')):
    with open('$work/' + name + '.txt', 'w') as f:
        for _ in range(n): f.write('%064x\n' % r.getrandbits(256))
"
export PUSHCTL_CACHE_DIR=$work/cache NO_COLOR=1
mkdir -m 700 "$PUSHCTL_CACHE_DIR"
: >"$work/times.tsv"
run() {  # label, url, tokens, extra…
    local label=$1 url=$2 tokens=$3; shift 3
    rm -f "$work/journal.jsonl"
    /usr/bin/time -f "%e %U %S" -o "$work/time" "${client[@]}" "$bin" send --endpoint "$url" --cacert "$work/${url##*/}.pem" \
        --key-file "$work/AuthKey_ABC123DEFG.p8" --team-id DEF123GHIJ --topic com.example.app --tokens-file "$tokens" \
        --content-available --output jsonl "$@" >/dev/null 2>"$work/err" || { echo "$label failed" >&2; tail -3 "$work/err" >&2; exit 1; }
    read -r wall user sys <"$work/time"
    printf '%s\t%s\t%s\n' "$label" "$wall" "$(python3 -c "print($user + $sys)")" >>"$work/times.tsv"
}
cp "$work/loopback-ca.pem" "$work/${loopback##*/}.pem"
cp "$work/wan-ca.pem" "$work/${wan##*/}.pem"
for _ in $(seq "$ROUNDS"); do
    run "loopback" "$loopback" "$work/loopback.txt"
    run "loopback --journal" "$loopback" "$work/loopback.txt" --journal "$work/journal.jsonl"
done
for _ in $(seq "$ROUNDS"); do
    run "100 ms link" "$wan" "$work/wan.txt"
    run "100 ms link --journal" "$wan" "$work/wan.txt" --journal "$work/journal.jsonl"
done
python3 - "$work/times.tsv" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    label, wall, cpu = line.split("\t")
    rows.setdefault(label, []).append((float(wall), float(cpu)))
for base in ("loopback", "100 ms link"):
    plain, journal = rows[base], rows[base + " --journal"]
    w0, c0 = statistics.median(w for w, _ in plain), statistics.median(c for _, c in plain)
    w1, c1 = statistics.median(w for w, _ in journal), statistics.median(c for _, c in journal)
    print(f"{base:12} without {w0:6.2f} s wall {c0:6.2f} s CPU | --journal {w1:6.2f} s wall {c1:6.2f} s CPU | "
          f"{(w1 / w0 - 1) * 100:+5.1f} % wall, {(c1 / c0 - 1) * 100:+5.1f} % CPU (medians of {len(plain)})")
EOF
