#!/usr/bin/env bash
# Measures how many requests per second `pushctl mock` answers, with h2load (Debian: nghttp2-client).
#
#   Scripts/bench-mock.sh                 # 100000 requests, 1 connection, 100 streams
#   REQUESTS=200000 CONNECTIONS=2 STREAMS=200 Scripts/bench-mock.sh
#   PUSHCTL_BIN=.build/debug/pushctl Scripts/bench-mock.sh   # skip the release build
#
# The mock must not be what limits pushctl's own benchmark; the aim is >= 25k requests/s.
set -euo pipefail

REQUESTS=${REQUESTS:-100000}
CONNECTIONS=${CONNECTIONS:-1}
STREAMS=${STREAMS:-100}
cd "$(dirname "$0")/.."

for tool in h2load openssl; do
    command -v "$tool" >/dev/null || { echo "bench-mock: $tool is missing (apt-get install nghttp2-client openssl)" >&2; exit 69; }
done

if [[ -z "${PUSHCTL_BIN:-}" ]]; then
    swift build -c release --static-swift-stdlib --product pushctl >&2   # as Scripts/install.sh ships it
    swift build -c release --static-swift-stdlib --product pushctl-mock >&2
    PUSHCTL_BIN=$(swift build -c release --static-swift-stdlib --show-bin-path)/pushctl
fi

work=$(mktemp -d)
mock_pid=
cleanup() {
    [[ -n "$mock_pid" ]] && kill -TERM "$mock_pid" 2>/dev/null && wait "$mock_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

key_id=BENCH12345
team_id=TEAM123456
openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out "$work/AuthKey_$key_id.p8"

# shellcheck source=Scripts/bench/start-mock.sh
source Scripts/bench/start-mock.sh
start_mock "$PUSHCTL_BIN" "$work" "$work/AuthKey_$key_id.p8" "$team_id" || exit 1

# A provider token the way the course's script made it: openssl signs, in DER.
b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
header=$(printf '{"alg":"ES256","kid":"%s"}' "$key_id" | b64url)
claims=$(printf '{"iss":"%s","iat":%s}' "$team_id" "$(date +%s)" | b64url)
signature=$(printf '%s.%s' "$header" "$claims" | openssl dgst -sha256 -sign "$work/AuthKey_$key_id.p8" | b64url)
printf '{"aps":{"alert":"Hello from h2load"}}' >"$work/payload.json"

command=(h2load -n "$REQUESTS" -c "$CONNECTIONS" -m "$STREAMS" -d "$work/payload.json"
    -H "authorization: bearer $header.$claims.$signature"
    -H "apns-topic: com.example.app" -H "apns-push-type: alert"
    "$url/3/device/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef")
echo "h2load -n $REQUESTS -c $CONNECTIONS -m $STREAMS -d payload.json -H 'authorization: bearer <JWT>' -H 'apns-topic: com.example.app' -H 'apns-push-type: alert' $url/3/device/<token>"
report=$("${command[@]}")
echo "$report" | grep -E "^(finished in|requests:|status codes:)"

rate=$(echo "$report" | sed -n 's/^finished in .*, \([0-9.]*\) req\/s.*/\1/p')
succeeded=$(echo "$report" | sed -n 's/^requests: .* \([0-9]*\) succeeded.*/\1/p')
echo "mock: ${rate} requests/s (${succeeded}/${REQUESTS} answered 200) on $(nproc) cores"
[[ "$succeeded" == "$REQUESTS" ]]
