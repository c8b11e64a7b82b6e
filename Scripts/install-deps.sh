#!/usr/bin/env bash
# Installs the system packages pushctl builds and tests with, when they are missing:
#   Scripts/install-deps.sh [--build-only] [MORE_PACKAGES…]
# --build-only: what building needs (quickstart.sh and install.sh), not the tests' tools.
# Debian/Ubuntu only (apt-get); uses sudo when not root. Safe to run again.
set -euo pipefail

build_only=false
if [ "${1:-}" = --build-only ]; then build_only=true; shift; fi

packages=(
  libcurl4-openssl-dev  # libcurl with HTTP/2 (nghttp2) over OpenSSL: every request pushctl sends
  libssl-dev            # OpenSSL libcrypto: every signature pushctl makes
  pkg-config            # how SwiftPM finds both
)
$build_only || packages+=(
  openssl curl          # the tests check pushctl and the mock against these independent clients
  nghttp2-client        # nghttp and h2load: the mock's tests and Scripts/bench-mock.sh
  tinyproxy microsocks  # real HTTP CONNECT and SOCKS5 proxies for the --proxy tests
  ca-certificates
  python3               # Scripts/manpage.py writes the man page
  python3-yaml shellcheck  # Scripts/check-workflows.py checks the README's workflows
)
# Headless Chromium draws the mock's web view in a test (and keeps a screenshot). Debian's is a real
# package; Ubuntu's is a stub for a snap, which cannot run in a container, so it is asked for on Debian only.
if ! $build_only && grep -qs '^ID=debian' /etc/os-release; then packages+=(chromium); fi
# Extra packages a caller needs too (.ci/run: man-db groff-base, to check the man page).
packages+=("$@")

if [ "$(uname)" = Darwin ]; then
  # Homebrew's libcurl and OpenSSL, found through pkg-config (PKG_CONFIG_PATH names their kegs).
  pkg-config --exists libcurl libcrypto 2>/dev/null && exit 0
  echo "pushctl needs libcurl and OpenSSL through pkg-config: brew install openssl@3 curl pkg-config, then" \
    "export PKG_CONFIG_PATH=\"\$(brew --prefix openssl@3)/lib/pkgconfig:\$(brew --prefix curl)/lib/pkgconfig\"" >&2
  exit 69
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null; then
  echo "pushctl needs: ${missing[*]} (Debian names). Install them with your package manager (macOS: brew install openssl@3 curl pkg-config)." >&2
  exit 69
fi
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "Installing ${missing[*]} …" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
