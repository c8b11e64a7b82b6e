# Sourced by Scripts/bench*.sh. Starts `pushctl mock` in the background and waits for it.
#   start_mock BIN WORKDIR KEYFILE TEAMID [COMMAND-PREFIX...]   (e.g. taskset -c 0)
# Extra mock options may be set in the array mock_args.
# Sets mock_pid and url; the CA certificate is WORKDIR/ca.pem. Returns 1 if it did not start.
start_mock() {
    local bin=$1 work=$2 key=$3 team=$4
    shift 4
    PUSHCTL_LANG=en "$@" "$bin" mock --port 0 --ca-out "$work/ca.pem" --key-file "$key" --team-id "$team" ${mock_args[@]+"${mock_args[@]}"} >"$work/mock.out" 2>&1 &
    mock_pid=$!
    for _ in $(seq 100); do
        grep -q "listening on" "$work/mock.out" 2>/dev/null && break
        sleep 0.1
    done
    url=$(grep -o 'https://[^ ]*' "$work/mock.out" | head -1)
    [[ -n "$url" ]] || { echo "the mock did not start:" >&2; cat "$work/mock.out" >&2; return 1; }
}
