#!/usr/bin/env bash
# Builds pushctl and shows what it does, offline: `pushctl demo` makes a throwaway key, starts
# a local APNs on loopback and narrates key → JWT → HTTP/2 request → APNs' answers.
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/quiet-build.sh
Scripts/install-deps.sh --build-only
[ -d "$scratch/checkouts" ] || echo "first build: fetches the Swift packages (network), then compiles them — several minutes" >&2
build() { swift_run build --product pushctl && swift_run build --product pushctl-mock; }
quietly "building pushctl and pushctl-mock" quickstart-build build
bin=$(cd "$scratch/debug" && pwd)
"$bin/pushctl" demo "$@"
echo
echo "pushctl is at $bin/pushctl — put it on PATH with: export PATH=\"$bin:\$PATH\" (or install it: Scripts/install.sh)"
