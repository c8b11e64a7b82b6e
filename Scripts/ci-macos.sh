#!/usr/bin/env bash
# The macOS runners of .github/workflows (ci.yml, release.yml), before they build:
#   bash Scripts/ci-macos.sh FORMULA…        (e.g. openssl@3 curl pkgconf)
# - Xcode 26 when the runner's default Swift is older than 6.2 (the package's tools version): the
#   macOS 15 images keep Xcode 16 as their default and Xcode 26 beside it;
# - the Homebrew formulae given, without updating Homebrew or upgrading what is installed;
# - for the steps after this one (GITHUB_ENV, GITHUB_PATH): DEVELOPER_DIR, PKG_CONFIG_PATH naming
#   the openssl@3 and curl kegs (curl is keg-only: macOS has its own libcurl, on LibreSSL), and
#   Homebrew's curl first on PATH, as Scripts/install-deps.sh asks of a Mac.
set -euo pipefail
env_file=${GITHUB_ENV:-/dev/null}
path_file=${GITHUB_PATH:-/dev/null}

# Whether `swift` is 6.2 or later.
recent_swift() {
  local major minor
  read -r major minor <<<"$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p' | head -n 1)" || true
  [ -n "${minor:-}" ] && { [ "$major" -gt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -ge 2 ]; }; }
}

if ! recent_swift; then
  xcode=""
  for candidate in /Applications/Xcode_2[6-9]*.app; do [ -d "$candidate" ] && xcode=$candidate; done
  if [ -z "$xcode" ]; then
    echo "no Xcode 26 or later on this runner, and its default Swift is older than 6.2:" /Applications/Xcode*.app >&2
    exit 1
  fi
  export DEVELOPER_DIR="$xcode/Contents/Developer"
  echo "DEVELOPER_DIR=$DEVELOPER_DIR" >> "$env_file"
  recent_swift || { echo "$xcode has no Swift 6.2" >&2; exit 1; }
fi
swift --version

export HOMEBREW_NO_AUTO_UPDATE=1 HOMEBREW_NO_INSTALL_UPGRADE=1 HOMEBREW_NO_INSTALL_CLEANUP=1 HOMEBREW_NO_INSTALLED_DEPENDENTS_CHECK=1
[ $# -eq 0 ] || brew install "$@"
brew=$(brew --prefix)
echo "PKG_CONFIG_PATH=$brew/opt/openssl@3/lib/pkgconfig:$brew/opt/curl/lib/pkgconfig" >> "$env_file"
echo "$brew/opt/curl/bin" >> "$path_file"
