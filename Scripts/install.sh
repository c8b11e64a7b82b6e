#!/usr/bin/env bash
# Builds pushctl in release mode and installs it with its man page and shell completions:
#   Scripts/install.sh [PREFIX]        (default /usr/local; uses sudo when PREFIX is not writable)
# PUSHCTL_CONFIGURATION=debug installs a debug build instead (CI uses it to check this script quickly).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-${PREFIX:-/usr/local}}
configuration=${PUSHCTL_CONFIGURATION:-release}

Scripts/install-deps.sh
flags=(-c "$configuration" --product pushctl)
# A release binary carries the Swift runtime, so it runs wherever it is copied.
[ "$configuration" = release ] && flags+=(--static-swift-stdlib)
swift build "${flags[@]}"
bin="$(swift build -c "$configuration" --show-bin-path)/pushctl"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
# The man page comes from the argument definitions, through swift-argument-parser's tool.
swift build --product generate-manual >/dev/null
"$(swift build --show-bin-path)/generate-manual" "$bin" --output-directory "$stage"
"$bin" --generate-completion-script bash > "$stage/pushctl.bash"
"$bin" --generate-completion-script zsh > "$stage/_pushctl"
"$bin" --generate-completion-script fish > "$stage/pushctl.fish"

sudo=""
mkdir -p "$prefix" 2>/dev/null || true
if [ ! -w "$prefix" ] && [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
  "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
$sudo install -m 0755 "$bin" "$prefix/bin/pushctl"
# Symbols are for debugging the build tree, not for the installed tool (141 MB → a fraction).
command -v strip >/dev/null && $sudo strip "$prefix/bin/pushctl"
$sudo install -m 0644 "$stage/pushctl.1" "$prefix/share/man/man1/pushctl.1"
$sudo install -m 0644 "$stage/pushctl.bash" "$prefix/share/bash-completion/completions/pushctl"
$sudo install -m 0644 "$stage/_pushctl" "$prefix/share/zsh/site-functions/_pushctl"
$sudo install -m 0644 "$stage/pushctl.fish" "$prefix/share/fish/vendor_completions.d/pushctl.fish"

(cd / && "$prefix/bin/pushctl" --version >/dev/null)
echo "installed pushctl $("$prefix/bin/pushctl" --version) in $prefix/bin (man pushctl; completions for bash, zsh and fish)"
