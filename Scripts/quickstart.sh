#!/usr/bin/env bash
# Builds pushctl and shows what it does, offline: makes a throwaway test key and walks
# through signing an APNs provider token step by step.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
swift build --product pushctl
pushctl=.build/debug/pushctl
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$pushctl" key generate --key-id DEMO123456 --out "$work" >/dev/null
"$pushctl" jwt --key-file "$work/AuthKey_DEMO123456.p8" --team-id TEAM123456 --explain
echo
echo "pushctl is at $pushctl — try: $pushctl --help"
