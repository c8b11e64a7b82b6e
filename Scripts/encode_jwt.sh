#!/usr/bin/env bash
# The course's encode_jwt.sh, now a front for `pushctl jwt`: prints an APNs provider token
# (JWT, valid for one hour) on its last line. Set the variables below, or export them.
#
#   TEAMID=DEF123GHIJ KEYID=ABC123DEFG Scripts/encode_jwt.sh
#   Scripts/encode_jwt.sh --explain      # extra arguments go to `pushctl jwt`: every step, for a class
#
# What changed from the openssl version: the signature is standard JOSE ES256 (raw r‖s, 64 bytes)
# rather than openssl's DER, which APNs tolerates but strict JWT libraries reject; `iat` is an
# integer; the Team ID, Key ID and key file are checked before anything is signed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

TEAMID="${TEAMID:-${PUSHCTL_TEAM_ID:-}}"   # Team ID, 10 characters (developer portal, Membership)
KEYID="${KEYID:-${PUSHCTL_KEY_ID:-}}"      # Key ID of the APNs key, 10 characters
# its .p8 (default: AuthKey_<KEYID>.p8 in the current directory, else beside this script)
if [[ -z "${KEYFILE:-}" && -z "${PUSHCTL_KEY_FILE:-}" && -n "$KEYID" ]]; then
    KEYFILE=$here/AuthKey_$KEYID.p8
    [[ -f "AuthKey_$KEYID.p8" ]] && KEYFILE=$PWD/AuthKey_$KEYID.p8
fi
KEYFILE="${KEYFILE:-${PUSHCTL_KEY_FILE:-}}"

# Which pushctl: the one on PATH (an install), else this checkout's release build, else its debug build.
pushctl=$(command -v pushctl || true)
for candidate in "$here/../.build/release/pushctl" "$here/../.build/debug/pushctl"; do
    [[ -z "$pushctl" && -x "$candidate" ]] && pushctl=$candidate
done
[[ -n "$pushctl" ]] || { echo "pushctl is neither on PATH nor in .build: build it with 'swift build -c release'" >&2; exit 69; }

[[ -n "$TEAMID" && -n "$KEYFILE" ]] ||
    { echo "encode_jwt.sh: set TEAMID and KEYID (or KEYFILE) at the top of the script or in the environment" >&2; exit 64; }
# KEYID may stay empty when the key file is named AuthKey_<KEYID>.p8: pushctl reads it from the name.
exec "$pushctl" jwt --key-file "$KEYFILE" --team-id "$TEAMID" ${KEYID:+--key-id "$KEYID"} "$@"
