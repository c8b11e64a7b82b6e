#!/usr/bin/env bash
# The course's send_push_notification.sh, now a front for `pushctl send`. Set the variables
# below (or export them) and run it; extra arguments go to `pushctl send` (e.g. --verbose).
#
#   DEVICETOKEN=a7ae…af38 BUNDLEID=es.ua.mastermoviles.NotificacionesPush \
#   TEAMID=DEF123GHIJ KEYID=ABC123DEFG Scripts/send_push_notification.sh
#   PAYLOAD_FILE=payloads/localized.json Scripts/send_push_notification.sh
#
# What changed from the curl version:
# - JWT may stay empty: pushctl then signs one with the key and reuses it across runs for up
#   to 50 minutes (a cache file, mode 0600), so there is no token to paste, none expiring after
#   an hour, and no TooManyProviderTokenUpdates. A JWT from encode_jwt.sh is used as is.
# - The payload is checked before sending (a JSON object, at most 4096 bytes) and sent without
#   curl --data's stray form content-type; the push type is inferred from it.
# - The answer is one line (status, apns-id, and why APNs said no); the exit status says it too.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

TEAMID="${TEAMID:-${PUSHCTL_TEAM_ID:-}}"   # Team ID, 10 characters (only needed without JWT)
KEYID="${KEYID:-${PUSHCTL_KEY_ID:-}}"      # Key ID of the APNs key (only needed without JWT)
# its .p8 (default: AuthKey_<KEYID>.p8 in the current directory, else beside this script)
if [[ -z "${KEYFILE:-}" && -z "${PUSHCTL_KEY_FILE:-}" && -n "$KEYID" ]]; then
    KEYFILE=$here/AuthKey_$KEYID.p8
    [[ -f "AuthKey_$KEYID.p8" ]] && KEYFILE=$PWD/AuthKey_$KEYID.p8
fi
KEYFILE="${KEYFILE:-${PUSHCTL_KEY_FILE:-}}"
BUNDLEID="${BUNDLEID:-${PUSHCTL_TOPIC:-}}" # the app's bundle id (apns-topic)
DEVICETOKEN="${DEVICETOKEN:-}"             # the device's token in hex, as the app printed it
JWT="${JWT:-${PUSHCTL_JWT:-}}"             # a token from encode_jwt.sh; empty: pushctl signs one
PAYLOAD_FILE="${PAYLOAD_FILE:-}"           # a payload file (see payloads/) instead of PAYLOAD below
# Where to send: empty means APNs' sandbox, as in the course. For `pushctl mock`, set both.
ENDPOINT="${ENDPOINT:-${PUSHCTL_ENDPOINT:-}}"
CACERT="${CACERT:-${PUSHCTL_CACERT:-}}"

if [[ -z "${PAYLOAD:-}" ]]; then
PAYLOAD=$(cat <<'JSON'
{
    "aps" : {
        "alert" : {
            "title" : "Introducción a las notificaciones",
            "subtitle" : "Sesión 707",
            "body" : "La nueva API de notificaciones es genial!!!"
        },
        "category" : "mensaje",
        "badge" : 1
    }
}
JSON
)
fi

# Silent notification: uncomment the next line, or run with SILENT=1. The course also added
# the header apns-push-type: background; pushctl infers it from this payload (and priority 5).
# SILENT=1
if [[ "${SILENT:-}" == 1 ]]; then
    PAYLOAD='{"aps" : {"content-available" : 1}, "mensaje" : "Holaaaa"}'
    PAYLOAD_FILE=
fi

# Which pushctl: the one on PATH (an install), else this checkout's release build, else its debug build.
pushctl=$(command -v pushctl || true)
for candidate in "$here/../.build/release/pushctl" "$here/../.build/debug/pushctl"; do
    [[ -z "$pushctl" && -x "$candidate" ]] && pushctl=$candidate
done
[[ -n "$pushctl" ]] || { echo "pushctl is neither on PATH nor in .build: build it with 'swift build -c release'" >&2; exit 69; }

[[ -n "$BUNDLEID" && -n "$DEVICETOKEN" ]] ||
    { echo "send_push_notification.sh: set BUNDLEID and DEVICETOKEN at the top of the script or in the environment" >&2; exit 64; }
args=(--topic "$BUNDLEID" --device-token "$DEVICETOKEN")
if [[ -n "$JWT" ]]; then
    args+=(--jwt "$JWT")
else
    [[ -n "$TEAMID" && -n "$KEYFILE" ]] ||
        { echo "send_push_notification.sh: set JWT, or TEAMID and KEYID (or KEYFILE), at the top of the script or in the environment" >&2; exit 64; }
    args+=(--key-file "$KEYFILE" --team-id "$TEAMID" ${KEYID:+--key-id "$KEYID"})
fi
[[ -n "$ENDPOINT" ]] && args+=(--endpoint "$ENDPOINT")
[[ -n "$CACERT" ]] && args+=(--cacert "$CACERT")

if [[ -n "$PAYLOAD_FILE" ]]; then
    exec "$pushctl" send "${args[@]}" --payload "$PAYLOAD_FILE" "$@"
fi
printf '%s' "$PAYLOAD" | "$pushctl" send "${args[@]}" --payload - "$@"
