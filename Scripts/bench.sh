#!/usr/bin/env bash
# Throughput and latency of `pushctl send` against what it is built on and what it replaces,
# all against one `pushctl mock` (a strict local APNs: TLS + HTTP/2, verifies every JWT, reads
# every body), in one run, over loopback:
#
#   1. pushctl send --tokens-file … --output jsonl
#   2. a minimal C client on libcurl's multi interface (Scripts/bench/curl_multi_client.c,
#      compiled here): the ceiling of the library pushctl is built on; and, for context, the
#      same client doing pushctl's per-request libcurl work too (-DPUSHCTL_JOB: apns-id and
#      apns-unique-id read from each answer, request and connect timeouts, an error buffer)
#   3. curl --http2 -Z --parallel-max IN_FLIGHT with a config file of one URL per token
#   4. aioapns from PyPI (Scripts/bench/aioapns_driver.py, in a venv under .build/bench)
#
# each sending N notifications over ONE connection with IN_FLIGHT in flight, measured with
# /usr/bin/time -v (user+sys CPU, peak RSS) and wall time; then one single push, process start
# to answer, median of SINGLE_RUNS: pushctl send (signs its own JWT, cached across runs like a
# CI job), pushctl send --jwt (like for like), and one curl with a JWT made beforehand (the
# course's way).
#
#   Scripts/bench.sh
#   N=20000 ROUNDS=1 Scripts/bench.sh                   # a quick look
#   PUSHCTL_BIN=.build/release/pushctl Scripts/bench.sh # skip the release build
#   ONLY=mock-vs-nginx Scripts/bench.sh                 # only the mock against nginx (below)
#   ONLY=scaling Scripts/bench.sh                       # only the scaling curve (below)
#
# Knobs: N (100000), IN_FLIGHT (100), AIOAPNS_N (20000: aioapns runs ~1k/s, so 100k would take
# minutes a round; its rate is computed from what it sent),
# ROUNDS (5; the clients take turns each round, the median round is reported: this VM's speed
# wanders by 2x from minute to minute, so one round proves little), SINGLE_RUNS (20), INSTRUCTIONS (1),
# PIN (1: the mock on CPU 0, every client on CPU 1, when there are 2+ CPUs),
# STRICT (0; 1: exit 1 when a target is missed), PROFILE (0; 1: also perf-record pushctl sending
# 20000 and print its hottest frames), RECORD (1: append the run's figures as one dated row to
# RESULTS, Scripts/bench-results.md; 0: leave it alone). Exit 1 when a client fails to get N answers 200.
#
# Then, WAN-shaped (WAN=1, the default): a second mock answering every request after 100 ms (a
# stand-in for a round trip to APNs) with APNs' stream profile (1 stream, then 1,000 after the
# first valid token); WAN_N notifications (50000) from pushctl on its defaults, pushctl
# --connections 4, the C libcurl-multi client at 1,000 in flight, and h2load -m 1000.
# Then (INSTRUCTIONS=1, the default; it installs valgrind) the instructions one push costs each
# loopback client in user space (callgrind, 3,000 notifications less 1,000): a count that does not
# wander with the VM's speed.
# Then the scaling curve (SCALING=1, the default): SCALE_N notifications (20000) split into
# S shards (SCALE_SHARDS, "1 2 4": S processes at once on this machine, each --shard k/S) with C
# connections each (SCALE_CONNECTIONS, "1 4"), against the WAN-shaped mock; a table of the
# notifications a second each pair reaches (wall time from the first start to the last exit).
# Then start-up and size: `pushctl --version` (median of SINGLE_RUNS) and the stripped sender.
# Then memory: MEMORY_N (1000000) lines of --requests-file sent to the loopback mock, peak RSS.
# Then the mock against nginx (MOCK_VS_NGINX=1, the default; it installs nginx-light): the CPU
# each server spends per request under h2load (MOCK_N requests, 100000), pinned alike.
#
# Targets: pushctl >= 0.9 x the C libcurl client, >= 1.3 x curl -Z, >= 5 x aioapns;
# --requests-file (a distinct payload per line) >= 0.9 x one template; WAN: pushctl's defaults
# >= 0.9 x h2load; a single push <= 1.6 x one curl (issue 39's floors); --version <= 10 ms; the stripped sender
# <= 25 MB; MEMORY_N requests-file lines under 64 MB RSS; the mock <= 2.5 x nginx's CPU per request
# (issue 40: its HTTP/2 is swift-nio-http2's, with its checks and limits, not a codec of its own).
set -euo pipefail

N=${N:-100000}
IN_FLIGHT=${IN_FLIGHT:-100}
AIOAPNS_N=${AIOAPNS_N:-$((N < 20000 ? N : 20000))}
ROUNDS=${ROUNDS:-5}
SINGLE_RUNS=${SINGLE_RUNS:-20}
PIN=${PIN:-1}
STRICT=${STRICT:-0}
AIOAPNS_VERSION=${AIOAPNS_VERSION:-4.0}
WAN=${WAN:-1}
WAN_N=${WAN_N:-50000}
WAN_DELAY_MS=${WAN_DELAY_MS:-100}
MEMORY_N=${MEMORY_N:-1000000}
MOCK_VS_NGINX=${MOCK_VS_NGINX:-1}
MOCK_N=${MOCK_N:-100000}
SCALING=${SCALING:-1}
SCALE_N=${SCALE_N:-20000}
SCALE_SHARDS=${SCALE_SHARDS:-1 2 4}
SCALE_CONNECTIONS=${SCALE_CONNECTIONS:-1 4}
ONLY=${ONLY:-}
RECORD=${RECORD:-1}
RESULTS=${RESULTS:-Scripts/bench-results.md}
if [[ "$ONLY" == mock-vs-nginx ]]; then
    MOCK_VS_NGINX=1 INSTRUCTIONS=0 MEMORY_N=0 WAN=0 SCALING=0
elif [[ "$ONLY" == scaling ]]; then
    MOCK_VS_NGINX=0 INSTRUCTIONS=0 MEMORY_N=0 WAN=0 SCALING=1
    N=$((N > SCALE_N ? N : SCALE_N))
elif [[ -n "$ONLY" ]]; then
    echo "bench: ONLY takes mock-vs-nginx or scaling; got '$ONLY'" >&2
    exit 64
fi

cd "$(dirname "$0")/.."
repo=$(pwd)
cache=$repo/.build/bench  # the compiled C client and the aioapns venv; ignored by git
mkdir -p "$cache"
say() { echo "bench: $*" >&2; }

# --- tools -------------------------------------------------------------------------------
Scripts/install-deps.sh  # libcurl4-openssl-dev, libssl-dev, pkg-config, openssl, curl, nghttp2-client
missing=()
command -v gcc >/dev/null || missing+=(gcc libc6-dev)
[[ -x /usr/bin/time ]] || missing+=(time)
command -v ss >/dev/null || missing+=(iproute2)
command -v taskset >/dev/null || missing+=(util-linux)
command -v python3 >/dev/null || missing+=(python3)
[[ "${INSTRUCTIONS:-1}" == 1 ]] && ! command -v valgrind >/dev/null && missing+=(valgrind)
[[ "$MOCK_VS_NGINX" == 1 ]] && ! command -v nginx >/dev/null && missing+=(nginx-light)
[[ "$MOCK_VS_NGINX" == 1 ]] && ! command -v pgrep >/dev/null && missing+=(procps)
if ((${#missing[@]})); then
    say "installing ${missing[*]}"
    sudo=""; [[ $(id -u) -ne 0 ]] && sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ -z "${PUSHCTL_BIN:-}" ]]; then
    # Built as Scripts/install.sh ships it: release, with the Swift runtime linked in.
    say "building pushctl (release, static Swift runtime; the first build takes several minutes)"
    swift build -c release --static-swift-stdlib --product pushctl >&2
    swift build -c release --static-swift-stdlib --product pushctl-mock >&2   # what `pushctl mock` runs
    PUSHCTL_BIN=$(swift build -c release --static-swift-stdlib --show-bin-path)/pushctl
fi
[[ -x "$PUSHCTL_BIN" ]] || { say "no pushctl at $PUSHCTL_BIN"; exit 1; }

venv=$cache/venv
if [[ -z "$ONLY" ]]; then
say "compiling Scripts/bench/curl_multi_client.c"
# shellcheck disable=SC2046
gcc -O2 -Wall -o "$cache/curl_multi_client" Scripts/bench/curl_multi_client.c $(pkg-config --cflags --libs libcurl)
# shellcheck disable=SC2046
gcc -O2 -Wall -DPUSHCTL_JOB -o "$cache/curl_multi_client_job" Scripts/bench/curl_multi_client.c $(pkg-config --cflags --libs libcurl)

if ! "$venv/bin/python" -c "import aioapns" 2>/dev/null; then
    say "installing aioapns $AIOAPNS_VERSION into $venv"
    rm -rf "$venv"
    if ! python3 -m venv "$venv" 2>/dev/null; then
        sudo=""; [[ $(id -u) -ne 0 ]] && sudo=sudo
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
        rm -rf "$venv"
        python3 -m venv "$venv"
    fi
    "$venv/bin/python" -m pip install -q "aioapns==$AIOAPNS_VERSION"
fi
fi  # the clients, unless ONLY

# --- the server --------------------------------------------------------------------------
work=$(mktemp -d)
mock_pid=
sampler_pid=
cleanup() {
    [[ -n "$sampler_pid" ]] && kill "$sampler_pid" 2>/dev/null || true
    [[ -n "$mock_pid" ]] && kill -TERM "$mock_pid" 2>/dev/null && wait "$mock_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

server_pin=() client_pin=()
if [[ "$PIN" == 1 ]] && (($(nproc) >= 2)); then
    server_pin=(taskset -c 0) client_pin=(taskset -c 1)
fi

key_id=BENCH12345
team_id=TEAM123456
topic=com.example.app
"$PUSHCTL_BIN" key generate --key-id "$key_id" --out "$work" >/dev/null 2>&1
key=$work/AuthKey_$key_id.p8
# Every connection starts with IN_FLIGHT streams rather than APNs' 1 (which APNs, and the mock,
# raise after the first valid token): curl -Z does not wait for the raise and would spread its
# transfers over up to IN_FLIGHT connections; this way every client runs on one.
mock_args=(--initial-streams "$IN_FLIGHT")
# shellcheck source=Scripts/bench/start-mock.sh
source Scripts/bench/start-mock.sh
start_mock "$PUSHCTL_BIN" "$work" "$key" "$team_id" "${server_pin[@]}" || exit 1
port=${url##*:}

# --- the inputs --------------------------------------------------------------------------
python3 - "$work/tokens.txt" "$N" <<'EOF'
import random, sys
r = random.Random(2024)
with open(sys.argv[1], "w") as f:
    for _ in range(int(sys.argv[2])):
        f.write("%064x\n" % r.getrandbits(256))
EOF
head -n "$AIOAPNS_N" "$work/tokens.txt" >"$work/tokens-aioapns.txt"
printf '{"aps":{"alert":{"title":"Benchmark","body":"Hello from Scripts/bench.sh"}}}' >"$work/payload.json"
# One provider token for the clients that take one ready-made (valid 60 min; the run takes less).
jwt=$("$PUSHCTL_BIN" jwt --key-file "$key" --team-id "$team_id")
export PUSHCTL_CACHE_DIR=$work/jwt-cache  # pushctl's own JWT cache: private to this run
awk -v u="$url/3/device/" '{ printf "url = \"%s%s\"\noutput = \"/dev/null\"\n", u, $1 }' "$work/tokens.txt" >"$work/curl-Z.conf"
# The same tokens as a requests file, every line its own payload (a badge and a body per user).
awk '{ printf "{\"token\":\"%s\",\"payload\":{\"aps\":{\"alert\":{\"title\":\"Benchmark\",\"body\":\"Hello user %d\"},\"badge\":%d}}}\n", $1, NR, NR % 100 }' \
    "$work/tokens.txt" >"$work/requests.jsonl"

mock_cpu() { awk '{ printf "%.2f", ($14 + $15) / 100 }' "/proc/$mock_pid/stat"; }  # USER_HZ 100
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", a - b }'; }
time_field() { sed -n "s/^[[:space:]]*$1: //p" "$2"; }

# Most established connections to the mock seen during a run, sampled 5 times a second.
start_sampler() {
    echo 0 >"$work/conns"
    (
        most=0
        while :; do
            now=$(ss -Htn state established "( sport = :$port )" 2>/dev/null | wc -l)
            ((now > most)) && { most=$now; echo "$most" >"$work/conns"; }
            sleep 0.2
        done
    ) &
    sampler_pid=$!
}
stop_sampler() { kill "$sampler_pid" 2>/dev/null; wait "$sampler_pid" 2>/dev/null || true; sampler_pid=; }

failures=0
# run NAME ROUND PUSHES COMMAND...: times COMMAND, checks its answers, appends a row to runs.tsv.
run() {
    local name=$1 round=$2 pushes=$3
    shift 3
    local out=$work/$name.out err=$work/$name.err timing=$work/$name.time
    start_sampler
    local m0 t0 t1 m1 rc=0
    m0=$(mock_cpu)
    t0=$EPOCHREALTIME
    "${client_pin[@]}" /usr/bin/time -v -o "$timing" "$@" >"$out" 2>"$err" || rc=$?
    t1=$EPOCHREALTIME
    m1=$(mock_cpu)
    stop_sampler
    local ok
    case $name in
        pushctl*) ok=$(grep -c '"status":200' "$out" || true) ;;
        h2load*) ok=$(sed -n 's/^status codes: \([0-9]*\) 2xx.*/\1/p' "$out") ;;
        curl-Z) ok=$(grep -c '^200 ' "$out" || true) ;;
        *) ok=$(sed -n 's/^sent [0-9]* ok \([0-9]*\) .*/\1/p' "$out") ;;
    esac
    local conns
    conns=$(cat "$work/conns")
    if [[ "$rc" != 0 || "${ok:-0}" != "$pushes" ]]; then
        say "$name (round $round): exit $rc, ${ok:-0}/$pushes answered 200; its stderr ends:"
        tail -5 "$err" >&2
        failures=$((failures + 1))
        return
    fi
    ((conns <= ${expected_conns:-1})) || say "$name (round $round): $conns connections seen at once (expected ${expected_conns:-1})"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$round" "$pushes" \
        "$(minus "$t1" "$t0")" "$(time_field 'User time (seconds)' "$timing")" \
        "$(time_field 'System time (seconds)' "$timing")" "$(time_field 'Maximum resident set size (kbytes)' "$timing")" \
        "$(minus "$m1" "$m0")" "$conns" >>"$work/runs.tsv"
    say "$name (round $round): $pushes in $(printf '%.2f' "$(minus "$t1" "$t0")") s"
}

pushctl_batch=("$PUSHCTL_BIN" send --endpoint "$url" --cacert "$work/ca.pem" --key-file "$key" --team-id "$team_id"
    --topic "$topic" --tokens-file "$work/tokens.txt" --payload "$work/payload.json" --output jsonl
    --concurrency "$IN_FLIGHT" --connections 1)
pushctl_requests=("$PUSHCTL_BIN" send --endpoint "$url" --cacert "$work/ca.pem" --key-file "$key" --team-id "$team_id"
    --topic "$topic" --requests-file "$work/requests.jsonl" --output jsonl --concurrency "$IN_FLIGHT" --connections 1)
c_batch=("$cache/curl_multi_client" "$url" "$work/ca.pem" "$jwt" "$topic" "$work/payload.json" "$work/tokens.txt" "$IN_FLIGHT")
c_job_batch=("$cache/curl_multi_client_job" "${c_batch[@]:1}")
# -Z waits for the one HTTP/2 connection and multiplexes on it (PIPEWAIT) unless --parallel-immediate.
curl_batch=(curl --http2 -sS --no-progress-meter -Z --parallel-max "$IN_FLIGHT" --cacert "$work/ca.pem"
    -H "authorization: bearer $jwt" -H "apns-topic: $topic" -H "apns-push-type: alert" -H "apns-priority: 10"
    -H "content-type:" -H "accept:" --data-binary "@$work/payload.json" -w '%{http_code} %{num_connects}\n'
    -K "$work/curl-Z.conf")
aioapns_batch=("$venv/bin/python" Scripts/bench/aioapns_driver.py --url "$url" --cacert "$work/ca.pem"
    --key-file "$key" --key-id "$key_id" --team-id "$team_id" --topic "$topic" --payload "$work/payload.json"
    --tokens-file "$work/tokens-aioapns.txt" --in-flight "$IN_FLIGHT")

say "mock at $url (pid $mock_pid${server_pin:+, CPU 0; clients on CPU 1}); $N pushes per client, $IN_FLIGHT in flight, $ROUNDS round(s)"
# Warm the mock up (allocators, first-connection costs) with a short unmeasured run.
head -n 2000 "$work/tokens.txt" >"$work/warm.txt"
[[ -n "$ONLY" ]] || "$cache/curl_multi_client" "$url" "$work/ca.pem" "$jwt" "$topic" "$work/payload.json" "$work/warm.txt" "$IN_FLIGHT" >/dev/null

: >"$work/runs.tsv"
curl_connects=0
[[ -z "$ONLY" ]] && for round in $(seq "$ROUNDS"); do
    run libcurl-multi-c "$round" "$N" "${c_batch[@]}"
    run c-pushctl-job "$round" "$N" "${c_job_batch[@]}"
    run pushctl "$round" "$N" "${pushctl_batch[@]}"
    run pushctl-requests "$round" "$N" "${pushctl_requests[@]}"
    run curl-Z "$round" "$N" "${curl_batch[@]}"
    run aioapns "$round" "$AIOAPNS_N" "${aioapns_batch[@]}"
done
# curl -Z's one connection, by its own count: the sum of num_connects over every transfer.
[[ -z "$ONLY" ]] && curl_connects=$(awk '{ s += $2 } END { print s + 0 }' "$work/curl-Z.out")

# --- instructions per push (INSTRUCTIONS=1, the default; 0 skips) -------------------------
# Each client once with 1,000 and once with 3,000 notifications under valgrind's callgrind: the
# difference over 2,000 is what one push costs in user space, start-up left out. Unlike time on a
# shared VM it is the same from run to run, so a change of a few percent shows. The kernel's share
# (the socket, poll) is not in it: it is the same for every client on libcurl.
instructions_table=
if [[ "${INSTRUCTIONS:-1}" == 1 ]]; then
    say "instructions per push under callgrind (1,000 and 3,000 notifications per client)"
    strip -o "$work/pushctl-callgrind" "$PUSHCTL_BIN"  # valgrind cannot read the Swift toolchain's debug info
    : >"$work/instructions.tsv"
    for n in 1000 3000; do
        head -n "$n" "$work/tokens.txt" >"$work/tokens-$n.txt"
        head -n "$n" "$work/requests.jsonl" >"$work/requests-$n.jsonl"
        for client in pushctl pushctl-requests libcurl-multi-c c-pushctl-job; do
            case $client in
                pushctl) command=("${pushctl_batch[@]}") ;;
                pushctl-requests) command=("${pushctl_requests[@]}") ;;
                libcurl-multi-c) command=("${c_batch[@]}") ;;
                c-pushctl-job) command=("${c_job_batch[@]}") ;;
            esac
            for i in "${!command[@]}"; do
                case ${command[$i]} in
                    "$PUSHCTL_BIN") command[$i]=$work/pushctl-callgrind ;;
                    "$work/tokens.txt") command[$i]=$work/tokens-$n.txt ;;
                    "$work/requests.jsonl") command[$i]=$work/requests-$n.jsonl ;;
                esac
            done
            count=$(Scripts/bench/instructions.sh "$work" "${command[@]}") \
                || { say "$client under callgrind failed"; failures=$((failures + 1)); continue; }
            printf '%s\t%s\t%s\n' "$client" "$n" "$count" >>"$work/instructions.tsv"
        done
    done
    instructions_table=$(python3 - "$work/instructions.tsv" <<'EOF'
import sys
counts = {}
for line in open(sys.argv[1]):
    client, n, total = line.split()
    counts.setdefault(client, {})[int(n)] = int(total)
per_push = {c: (v[3000] - v[1000]) / 2000 for c, v in counts.items() if 1000 in v and 3000 in v}
print("instructions per push in user space (callgrind: 3,000 notifications less 1,000, over 2,000)")
print(f"{'client':18} {'per push':>10} {'pushctl ×':>10}")
for client, value in per_push.items():
    print(f"{client:18} {value:10,.0f} {value / per_push.get('pushctl', value):10.2f}")
if "pushctl" in per_push and "libcurl-multi-c" in per_push:
    print(f"pushctl's own code and what it asks of libcurl beyond the C client doing pushctl's job: "
          f"{per_push['pushctl'] - per_push.get('c-pushctl-job', per_push['libcurl-multi-c']):,.0f} a push")
if "pushctl-requests" in per_push and "pushctl" in per_push:
    print(f"a payload per line (--requests-file) costs {per_push['pushctl-requests'] - per_push['pushctl']:,.0f} more a push than one template")
EOF
)
fi

# --- one push, process start to answer ---------------------------------------------------
token=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
single_payload='{"aps":{"alert":{"title":"x"}}}'  # what --title x builds
: >"$work/single.tsv"
single() {
    local what=$1 i=$2 t0 t1 rc=0
    shift 2
    t0=$EPOCHREALTIME
    "${client_pin[@]}" "$@" >"$work/single.out" 2>"$work/single.err" || rc=$?
    t1=$EPOCHREALTIME
    if [[ "$rc" != 0 ]]; then
        say "$what: exit $rc"; tail -3 "$work/single.err" >&2; failures=$((failures + 1)); return
    fi
    printf '%s\t%s\t%s\n' "$what" "$i" "$(minus "$t1" "$t0")" >>"$work/single.tsv"
}
[[ -n "$ONLY" ]] && SINGLE_RUNS=0
for i in $(seq "$SINGLE_RUNS"); do
    single "pushctl send (--key-file, JWT cached)" "$i" "$PUSHCTL_BIN" send --endpoint "$url" --cacert "$work/ca.pem" \
        --key-file "$key" --team-id "$team_id" --topic "$topic" --device-token "$token" --title x
    single "pushctl send --jwt" "$i" "$PUSHCTL_BIN" send --endpoint "$url" --cacert "$work/ca.pem" \
        --jwt "$jwt" --topic "$topic" --device-token "$token" --title x
    single "curl --http2 (JWT made beforehand)" "$i" curl --http2 -sS -o /dev/null --fail --cacert "$work/ca.pem" \
        -H "authorization: bearer $jwt" -H "apns-topic: $topic" -H "apns-push-type: alert" -H "apns-priority: 10" \
        -H "content-type:" --data-binary "$single_payload" "$url/3/device/$token"
done

# --- start-up and size -------------------------------------------------------------------
for i in $(seq "$SINGLE_RUNS"); do single "pushctl --version" "$i" "$PUSHCTL_BIN" --version; done
sender_mb=
if [[ -z "$ONLY" ]]; then
    strip -o "$work/pushctl-stripped" "$PUSHCTL_BIN"
    sender_mb=$(awk -v b="$(stat -c %s "$work/pushctl-stripped")" 'BEGIN { printf "%.1f", b / 1048576 }')
fi

# --- memory: a long requests file --------------------------------------------------------
memory_line=
if ((MEMORY_N > 0)); then
    awk -v n="$MEMORY_N" 'BEGIN { srand(7); for (i = 1; i <= n; i++) { t = ""; for (j = 0; j < 8; j++) t = t sprintf("%08x", int(rand() * 4294967296)); printf "{\"token\":\"%s\",\"payload\":{\"aps\":{\"alert\":\"n %d\",\"badge\":%d}}}\n", t, i, i % 100 } }' >"$work/memory.jsonl"
    say "memory: $MEMORY_N lines of --requests-file"
    t0=$EPOCHREALTIME
    "${client_pin[@]}" /usr/bin/time -v -o "$work/memory.time" "$PUSHCTL_BIN" send --endpoint "$url" --cacert "$work/ca.pem" \
        --key-file "$key" --team-id "$team_id" --topic "$topic" --requests-file "$work/memory.jsonl" --output jsonl --quiet \
        >"$work/memory.out" 2>"$work/memory.err" || { say "memory run failed"; tail -3 "$work/memory.err" >&2; failures=$((failures + 1)); }
    t1=$EPOCHREALTIME
    memory_rss=$(time_field 'Maximum resident set size (kbytes)' "$work/memory.time")
    memory_ok=$(grep -c '"status":200' "$work/memory.out" || true)
    memory_line=$(awk -v n="$MEMORY_N" -v ok="$memory_ok" -v kb="$memory_rss" -v s="$(minus "$t1" "$t0")" \
        'BEGIN { printf "memory: %d lines of --requests-file, %d answered 200 in %.0f s; peak RSS %.1f MB (target < 64 MB: %s)", n, ok, s, kb / 1024, (kb < 65536 ? "met" : "MISSED") }')
    rm -f "$work/memory.jsonl" "$work/memory.out"
fi

# --- the mock against nginx: server CPU per request (issue 22, item 3) ---------------------
# The loopback mock and an nginx answering 200 from its config, each pinned to CPU 0 in turn,
# h2load -n MOCK_N -m IN_FLIGHT on CPU 1 sending the same request; the server's user+sys CPU
# over the run, from /proc, per request. ROUNDS interleaved pairs, the median of each.
mock_vs_nginx_line=
if [[ "$MOCK_VS_NGINX" == 1 ]]; then
    mkdir -p "$work/nginx"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$work/nginx/key.pem" \
        -out "$work/nginx/cert.pem" -days 1 -subj /CN=localhost 2>/dev/null
    nginx_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    cat >"$work/nginx/nginx.conf" <<EOF
worker_processes 1;
daemon off;
error_log $work/nginx/error.log warn;
pid $work/nginx/nginx.pid;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 100000000;
    http2_max_concurrent_streams 1000;
    client_body_temp_path $work/nginx/body;
    proxy_temp_path $work/nginx/proxy;
    fastcgi_temp_path $work/nginx/fastcgi;
    uwsgi_temp_path $work/nginx/uwsgi;
    scgi_temp_path $work/nginx/scgi;
    server {
        listen 127.0.0.1:$nginx_port ssl http2;
        ssl_certificate $work/nginx/cert.pem;
        ssl_certificate_key $work/nginx/key.pem;
        location / { return 200; }
    }
}
EOF
    server_cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }  # ticks of USER_HZ (100)
    # h2load_cpu PID URL: the server's CPU per request in µs over MOCK_N requests.
    h2load_cpu() {
        local c0 c1 out
        c0=$(server_cpu "$1")
        out=$("${client_pin[@]}" h2load -n "$MOCK_N" -c 1 -m "$IN_FLIGHT" -d "$work/payload.json" -H "authorization: bearer $jwt" \
            -H "apns-topic: $topic" -H "apns-push-type: alert" "$2/3/device/$token")
        c1=$(server_cpu "$1")
        grep -q "^status codes: $MOCK_N 2xx" <<<"$out" || { say "h2load to $2 did not get $MOCK_N answers 200"; failures=$((failures + 1)); }
        awk -v a="$c0" -v b="$c1" -v n="$MOCK_N" 'BEGIN { printf "%.1f", (b - a) * 10000 / n }'
    }
    "${server_pin[@]}" nginx -c "$work/nginx/nginx.conf" >/dev/null 2>&1 &
    nginx_master=$!
    nginx_worker=
    for _ in $(seq 50); do
        nginx_worker=$(pgrep -P "$nginx_master" | head -1 || true)
        [[ -n "$nginx_worker" ]] && break
        sleep 0.1
    done
    if [[ -z "$nginx_worker" ]]; then
        say "nginx did not start:"; cat "$work/nginx/error.log" >&2; failures=$((failures + 1))
    else
        say "mock against nginx: $MOCK_N requests each, $ROUNDS round(s)"
        h2load_cpu "$nginx_worker" "https://127.0.0.1:$nginx_port" >/dev/null  # warm both up
        h2load_cpu "$mock_pid" "$url" >/dev/null
        : >"$work/mock-nginx.tsv"
        for round in $(seq "$ROUNDS"); do
            printf '%s\t%s\n' "$(h2load_cpu "$mock_pid" "$url")" "$(h2load_cpu "$nginx_worker" "https://127.0.0.1:$nginx_port")" >>"$work/mock-nginx.tsv"
        done
        mock_vs_nginx_line=$(python3 - "$work/mock-nginx.tsv" "$IN_FLIGHT" <<'EOF'
import statistics, sys
rows = [tuple(map(float, line.split())) for line in open(sys.argv[1]) if line.strip()]
mock = statistics.median(r[0] for r in rows)
nginx = statistics.median(r[1] for r in rows)
rounds = ", ".join("%.2f" % (m / n) for m, n in rows if n > 0)
ratio = mock / nginx if nginx else float("inf")
print("mock against nginx, server CPU per request (h2load -m %s, one connection, both pinned): mock %.1f µs, nginx %.1f µs: %.2fx (rounds %s; target <= 2.5x: %s)"
      % (sys.argv[2], mock, nginx, ratio, rounds, "met" if ratio <= 2.5 else "MISSED"))
EOF
)
    fi
    kill -TERM "$nginx_master" 2>/dev/null && wait "$nginx_master" 2>/dev/null || true
fi

# --- WAN-shaped: every answer 100 ms late, APNs' stream profile ---------------------------
if [[ "$WAN" == 1 ]]; then
    kill -TERM "$mock_pid" 2>/dev/null && wait "$mock_pid" 2>/dev/null || true
    mock_args=(--delay "$WAN_DELAY_MS")  # 1 stream until the first valid token, then 1,000: APNs' way
    start_mock "$PUSHCTL_BIN" "$work" "$key" "$team_id" "${server_pin[@]}" || exit 1
    port=${url##*:}
    head -n "$WAN_N" "$work/tokens.txt" >"$work/wan-tokens.txt"
    say "WAN-shaped mock at $url: answers after $WAN_DELAY_MS ms; $((WAN_N < N ? WAN_N : N)) pushes per client"
    wan_n=$(wc -l <"$work/wan-tokens.txt")
    wan_common=("$PUSHCTL_BIN" send --endpoint "$url" --cacert "$work/ca.pem" --key-file "$key" --team-id "$team_id"
        --topic "$topic" --tokens-file "$work/wan-tokens.txt" --payload "$work/payload.json" --output jsonl)
    mv "$work/runs.tsv" "$work/runs-loopback.tsv"
    : >"$work/runs.tsv"
    run pushctl-wan-defaults 1 "$wan_n" "${wan_common[@]}"
    expected_conns=4 run pushctl-wan-connections-4 1 "$wan_n" "${wan_common[@]}" --connections 4
    run libcurl-multi-c-wan-1000 1 "$wan_n" "$cache/curl_multi_client" "$url" "$work/ca.pem" "$jwt" "$topic" "$work/payload.json" "$work/wan-tokens.txt" 1000
    run h2load-wan-m1000 1 "$wan_n" h2load -n "$wan_n" -c 1 -m 1000 -d "$work/payload.json" -H "authorization: bearer $jwt" \
        -H "apns-topic: $topic" -H "apns-push-type: alert" -H "apns-priority: 10" "$url/3/device/$token"
    mv "$work/runs.tsv" "$work/wan.tsv"
    mv "$work/runs-loopback.tsv" "$work/runs.tsv"
fi

# --- the scaling curve: shards x connections on the 100 ms link -----------------------------
scaling_table=
if [[ "$SCALING" == 1 ]]; then
    if [[ "$WAN" != 1 ]]; then
        kill -TERM "$mock_pid" 2>/dev/null && wait "$mock_pid" 2>/dev/null || true
        mock_args=(--delay "$WAN_DELAY_MS")
        start_mock "$PUSHCTL_BIN" "$work" "$key" "$team_id" "${server_pin[@]}" || exit 1
    fi
    head -n "$SCALE_N" "$work/tokens.txt" >"$work/scale-tokens.txt"
    scale_n=$(wc -l <"$work/scale-tokens.txt")
    say "scaling: $scale_n notifications, shards $SCALE_SHARDS x connections $SCALE_CONNECTIONS, answers after $WAN_DELAY_MS ms"
    : >"$work/scaling.tsv"
    for shards in $SCALE_SHARDS; do
        for connections in $SCALE_CONNECTIONS; do
            rm -f "$work"/scale-*.out
            pids=()
            t0=$(date +%s.%N)
            # Unpinned: the shards share this machine's CPUs as a fleet's pods would share a node.
            for k in $(seq "$shards"); do
                "$PUSHCTL_BIN" send --endpoint "$url" --cacert "$work/ca.pem" --key-file "$key" --team-id "$team_id" \
                    --topic "$topic" --tokens-file "$work/scale-tokens.txt" --payload "$work/payload.json" --output jsonl \
                    --shard "$k/$shards" --connections "$connections" >"$work/scale-$k.out" 2>/dev/null &
                pids+=($!)
            done
            ok=1
            for pid in "${pids[@]}"; do wait "$pid" || ok=0; done
            t1=$(date +%s.%N)
            accepted=$(cat "$work"/scale-*.out | grep -c '"status":200' || true)
            if ((ok == 0 || accepted != scale_n)); then
                say "scaling: $shards shard(s) x $connections connection(s): $accepted of $scale_n accepted"
                failures=$((failures + 1))
            fi
            printf '%s\t%s\t%s\t%s\n' "$shards" "$connections" "$accepted" "$(minus "$t1" "$t0")" >>"$work/scaling.tsv"
        done
    done
    scaling_table=$(awk -F'\t' -v n="$scale_n" -v d="$WAN_DELAY_MS" -v cpus="$(nproc)" '
        BEGIN { printf "scaling curve: %d notifications, every answer %d ms late (1 stream, then 1,000 per connection); S shards = S pushctl processes at once on this machine (%d CPUs), each --shard k/S --connections C\n", n, d, cpus
                printf "%8s %12s %16s %8s\n", "shards", "connections", "notifications/s", "wall s" }
        { printf "%8d %12d %16.0f %8.2f\n", $1, $2, $3 / $4, $4 }' "$work/scaling.tsv")
fi

# --- where pushctl spends its CPU (PROFILE=1) ----------------------------------------------
if [[ "${PROFILE:-0}" == 1 ]]; then
    command -v perf >/dev/null || { say "perf is missing (apt-get install linux-perf)"; exit 69; }
    head -n 20000 "$work/tokens.txt" >"$work/profile-tokens.txt" || true
    profile=("${pushctl_batch[@]}")
    for i in "${!profile[@]}"; do [[ "${profile[$i]}" == "$work/tokens.txt" ]] && profile[$i]=$work/profile-tokens.txt; done
    perf record -q -F 2000 --call-graph dwarf,32768 -o "$work/perf.data" -- "${client_pin[@]}" "${profile[@]}" \
        >/dev/null 2>"$work/perf.err" || { say "perf record failed:"; tail -3 "$work/perf.err" >&2; }
    {
        echo "pushctl send, $(wc -l <"$work/profile-tokens.txt") pushes under perf: inclusive share of CPU samples (children), top frames"
        perf report -i "$work/perf.data" --children --sort sym --stdio -g none 2>/dev/null |
            grep -E '^ +[0-9.]+%' | grep -Ev '0x0000|clone3|start_thread|_dispatch|swift_job_run|runJobIn|ArgumentParser' |
            head -40 | cut -c1-200 || true
    } >"$work/profile.txt"
fi

# --- the table ---------------------------------------------------------------------------
echo
echo "pushctl $("$PUSHCTL_BIN" --version 2>/dev/null) ($(git -C "$repo" rev-parse --short HEAD)$(git -C "$repo" diff --quiet HEAD -- Sources Package.swift || echo ', with uncommitted changes')), $(curl --version | head -1 | cut -d' ' -f1-3), aioapns $AIOAPNS_VERSION"
echo "server: pushctl mock at $url (TLS + HTTP/2, verifies every JWT, reads every body)${server_pin:+, pinned to CPU 0; clients pinned to CPU 1}; $(nproc) CPUs"
if [[ -z "$ONLY" ]]; then
echo "$N notifications per client ($AIOAPNS_N for aioapns), one connection, $IN_FLIGHT in flight; median of $ROUNDS round(s); curl -Z opened $curl_connects connection(s) in its last round"
echo
python3 Scripts/bench/report.py "$work/runs.tsv" "$work/single.tsv" | tee "$work/report.txt"
echo
echo "size: stripped sender (pushctl) $sender_mb MB (target <= 25 MB: $(awk -v m="$sender_mb" 'BEGIN { print (m <= 25 ? "met" : "MISSED") }'))"
else
    : >"$work/report.txt"
fi
[[ -n "$memory_line" ]] && echo "$memory_line"
[[ -n "$mock_vs_nginx_line" ]] && echo "$mock_vs_nginx_line"
[[ -n "$instructions_table" ]] && { echo; echo "$instructions_table"; }
if [[ -s "$work/wan.tsv" ]]; then
    echo
    echo "WAN-shaped: every answer $WAN_DELAY_MS ms late, 1 stream then 1,000 per connection; $WAN_N notifications each, one run"
    python3 Scripts/bench/report.py --wan "$work/wan.tsv"
fi
[[ -n "$scaling_table" ]] && { echo; echo "$scaling_table"; }
[[ -f "$work/profile.txt" ]] && { echo; cat "$work/profile.txt"; }

# --- the dated results table (RECORD=1, the default) --------------------------------------
# One row of this run's ratios, appended to RESULTS (created with its header when missing): the
# history of the figures lives there, not in prose.
if [[ "$RECORD" == 1 ]]; then
    commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
    git -C "$repo" diff --quiet HEAD -- Sources Package.swift 2>/dev/null || commit+="+"
    echo
    echo "appended to $RESULTS:"
    python3 Scripts/bench/results-row.py "$RESULTS" "$work" "commit=$commit" "cores=$(nproc)" "n=$N" "rounds=$ROUNDS" \
        "sender_mb=$sender_mb" "memory_n=$MEMORY_N" "memory_kb=${memory_rss:-}" "failures=$failures" \
        || say "could not append the results to $RESULTS"
fi

if ((failures)); then
    say "$failures run(s) did not get every answer 200"
    exit 1
fi
if [[ "$STRICT" == 1 ]] && grep -q MISSED "$work/report.txt"; then exit 1; fi
