#!/usr/bin/env bash
# Installs the system packages pushctl builds and tests with, when they are missing:
#   Scripts/install-deps.sh [--build-only] [MORE_PACKAGES…]
# --build-only: what building needs (quickstart.sh and install.sh), not the tests' tools.
# Debian/Ubuntu: apt-get installs them (sudo when not root). macOS: nothing is installed behind your
# back; what is missing is named as one `brew install` line and the exports to run, and the exit
# status is 69. Safe to run again; works with macOS's bash 3.2.
set -euo pipefail

build_only=false
if [ "${1:-}" = --build-only ]; then build_only=true; shift; fi

if [ "$(uname)" = Darwin ]; then
  formulae=()  # Homebrew formulae to install
  hints=()     # what else to do, one line each
  # Swift 6.2 (the package's tools version) comes with Xcode 26.
  swift=${PUSHCTL_SWIFT:-swift}
  if ! command -v "$swift" >/dev/null; then
    hints+=("Swift 6.2 or later: install Xcode 26 or later, then: sudo xcode-select -s /Applications/Xcode.app")
  else
    read -r major minor <<<"$("$swift" --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p' | head -n 1)" || true
    if [ -n "${minor:-}" ] && { [ "$major" -lt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -lt 2 ]; }; }; then
      hints+=("Swift 6.2 or later (this is Swift $major.$minor, from $(xcode-select -p 2>/dev/null)): install Xcode 26 or later, then: sudo xcode-select -s /Applications/Xcode.app")
    fi
  fi
  if ! command -v brew >/dev/null; then
    echo "pushctl builds with Homebrew's libcurl and OpenSSL: install Homebrew (https://brew.sh), then run this again" >&2
    exit 69
  fi
  brew=$(brew --prefix)
  [ -d "$brew/opt/openssl@3" ] || formulae+=(openssl@3)
  # Homebrew's curl is keg-only: macOS has a libcurl of its own, built on LibreSSL, which cannot take
  # a client key from memory or have ALPN set on its TLS context with OpenSSL 3's calls.
  [ -d "$brew/opt/curl" ] || formulae+=(curl)
  command -v pkg-config >/dev/null || formulae+=(pkgconf)
  # pkg-config must find Homebrew's libcurl (or another built on OpenSSL): Homebrew's pkg-config also
  # describes macOS's own, which it finds first unless PKG_CONFIG_PATH names the curl keg.
  curl_on_openssl() {
    case "$(pkg-config --variable=prefix libcurl 2>/dev/null)" in "$brew"/*) return 0 ;; esac
    pkg-config --print-requires-private libcurl 2>/dev/null | grep -Eq '^(openssl|libssl)'
  }
  if [ ${#formulae[@]} -gt 0 ] || ! pkg-config --exists libcurl libcrypto 2>/dev/null || ! curl_on_openssl; then
    hints+=("export PKG_CONFIG_PATH=\"\$(brew --prefix openssl@3)/lib/pkgconfig:\$(brew --prefix curl)/lib/pkgconfig\"")
  elif ! unresolved=$(pkg-config --static --cflags --libs libcurl 2>&1 >/dev/null) || [ -n "$unresolved" ]; then
    # SwiftPM reads libcurl.pc and every .pc it names, the private ones too: when one is missing it
    # drops all of libcurl's flags, and the build would take macOS's own curl headers and libcurl
    # (LibreSSL). Sources/CCurl/build_check.h stops such a build too; this says why first.
    hints+=("pkg-config cannot resolve every .pc file Homebrew's libcurl.pc names, so SwiftPM would build against macOS's own libcurl: ${unresolved:-pkg-config --static --cflags libcurl failed} (brew install the formula that provides it, or add its lib/pkgconfig to PKG_CONFIG_PATH)")
  fi
  notes=()     # what the tests will skip, said without failing
  tools=()
  # Each formula named here is in homebrew-core's Formula/ folder (read in Homebrew/homebrew-core,
  # 2026-11): openssl@3, curl, pkgconf, nghttp2, tinyproxy, microsocks, softhsm, libp11, shellcheck,
  # prometheus, nats-server. No formula gives a Pushgateway, so none is asked for (see below).
  $build_only || tools=(curl openssl nghttp h2load tinyproxy microsocks softhsm libp11 shellcheck python3 yaml promtool pushgateway nats-server)
  # Extra packages by their Debian names (install.sh: python3; .ci/run: shellcheck, python3-yaml, ruby).
  for package in ${1+"$@"}; do
    case $package in
      python3 | shellcheck | ruby) tools+=("$package") ;;
      python3-yaml) tools+=(yaml) ;;
    esac
  done
  for tool in ${tools[@]+"${tools[@]}"}; do
    case $tool in
      # The tests' curl and openssl are Homebrew's (HTTP/2 and client keys over OpenSSL 3), not macOS's.
      curl) curl --version 2>/dev/null | head -n 1 | grep -q 'OpenSSL/3' ||
              hints+=("the tests need Homebrew's curl first on PATH: export PATH=\"\$(brew --prefix curl)/bin:\$PATH\"") ;;
      openssl) openssl version 2>/dev/null | grep -q '^OpenSSL 3' || if [ -d "$brew/opt/openssl@3" ]; then
                 hints+=("the tests need Homebrew's openssl first on PATH: export PATH=\"\$(brew --prefix openssl@3)/bin:\$PATH\"")
               else formulae+=(openssl@3); fi ;;
      nghttp | h2load) command -v "$tool" >/dev/null || formulae+=(nghttp2) ;;
      softhsm) command -v softhsm2-util >/dev/null || formulae+=(softhsm) ;;
      libp11) [ -d "$brew/opt/libp11" ] || formulae+=(libp11) ;;
      promtool) command -v promtool >/dev/null || formulae+=(prometheus) ;;
      # homebrew-core has no pushgateway formula: the --metrics-push test is skipped without one.
      pushgateway) command -v pushgateway >/dev/null ||
                     notes+=("no Pushgateway (Homebrew has no formula for one): the --metrics-push test will be skipped") ;;
      python3 | ruby) command -v "$tool" >/dev/null || hints+=("$tool: xcode-select --install") ;;
      yaml) python3 -c 'import yaml' 2>/dev/null ||
              hints+=("PyYAML for Scripts/check-workflows.py: python3 -m pip install --user pyyaml (Homebrew's python3: brew install pyyaml)") ;;
      *) command -v "$tool" >/dev/null || formulae+=("$tool") ;;
    esac
  done
  [ ${#notes[@]} -eq 0 ] || printf '%s\n' "${notes[@]}" >&2
  [ ${#formulae[@]} -gt 0 ] || [ ${#hints[@]} -gt 0 ] || exit 0
  {
    echo "pushctl needs more on this Mac:"
    # Each once (nghttp and h2load are both nghttp2's).
    [ ${#formulae[@]} -eq 0 ] || echo "  brew install $(printf '%s\n' "${formulae[@]}" | awk '!seen[$0]++' | tr '\n' ' ' | sed 's/ $//')"
    [ ${#hints[@]} -eq 0 ] || printf '  %s\n' "${hints[@]}" | awk '!seen[$0]++'
  } >&2
  exit 69
fi

packages=(
  libcurl4-openssl-dev  # libcurl with HTTP/2 (nghttp2) over OpenSSL: every request pushctl sends
  libssl-dev            # OpenSSL libcrypto: every signature pushctl makes
  pkg-config            # how SwiftPM finds both
)
$build_only || packages+=(
  openssl curl          # the tests check pushctl and the mock against these independent clients
  nghttp2-client        # nghttp and h2load: the mock's tests and Scripts/bench-mock.sh
  tinyproxy microsocks  # real HTTP CONNECT and SOCKS5 proxies for the --proxy tests
  softhsm2 libengine-pkcs11-openssl  # a PKCS#11 token (SoftHSM2) and OpenSSL's pkcs11 engine (libp11) for the key-in-a-token tests
  ca-certificates
  python3               # Scripts/manpage.py writes the man page
  python3-yaml shellcheck  # Scripts/check-workflows.py checks the README's workflows
  prometheus prometheus-pushgateway  # promtool checks --metrics-file; a real Pushgateway takes --metrics-push
  nats-server           # a real queue drives send --follow in a test
)
# Headless Chromium draws the mock's web view in a test (and keeps a screenshot). Debian's is a real
# package; Ubuntu's is a stub for a snap, which cannot run in a container, so it is asked for on Debian only.
if ! $build_only && grep -qs '^ID=debian' /etc/os-release; then packages+=(chromium); fi
# Extra packages a caller needs too (.ci/run: man-db groff-base, to check the man page).
[ $# -eq 0 ] || packages+=("$@")

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null; then
  echo "pushctl needs: ${missing[*]} (Debian names). Install them with your package manager." >&2
  exit 69
fi
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "Installing ${missing[*]} …" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
