#!/usr/bin/env bash
# Builds pushctl and shows what it does, offline: `pushctl demo` makes a throwaway key, starts
# a local APNs on loopback and narrates key → JWT → HTTP/2 request → APNs' answers.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
swift build --product pushctl
swift build --product pushctl-mock   
.build/debug/pushctl demo "$@"
echo
echo "pushctl is at .build/debug/pushctl — next: .build/debug/pushctl --help"
