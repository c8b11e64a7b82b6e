#!/usr/bin/env bash
# Builds pushctl in release mode and installs it with its man page and shell completions, on Linux
# and macOS (Homebrew's formula, Formula/pushctl.rb, installs the same files):
#   Scripts/install.sh [PREFIX]        (default /usr/local; uses sudo when PREFIX is not writable)
# Installs pushctl (the sender), pushctl-mock (what `pushctl mock` and `pushctl demo` run) and
# pushctl-app (what `pushctl check` runs).
# PUSHCTL_SENDER_ONLY=1 installs pushctl alone: its build compiles neither SwiftNIO, BoringSSL
#   nor swift-syntax, which is most of a full build's time (what a CI job that only sends needs).
# PUSHCTL_CONFIGURATION=debug installs a debug build instead (CI uses it to check this script quickly).
# The compile's output goes to a log (Scripts/quiet-build.sh: PUSHCTL_SCRATCH_PATH, PUSHCTL_LOG_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-${PREFIX:-/usr/local}}
configuration=${PUSHCTL_CONFIGURATION:-release}
products=(pushctl)
[ "${PUSHCTL_SENDER_ONLY:-0}" = 1 ] || products+=(pushctl-mock pushctl-app)

source Scripts/quiet-build.sh
# What building needs, and python3 for the man page (not the tests' tools).
Scripts/install-deps.sh --build-only python3
for product in "${products[@]}"; do
  flags=(-c "$configuration" --product "$product")
  # A release binary carries the Swift runtime, so it runs wherever it is copied (on Linux; macOS
  # has the runtime in the system, and no static one to link).
  [ "$configuration" = release ] && [ "$(uname)" = Linux ] && flags+=(--static-swift-stdlib)
  quietly "building $product ($configuration)" "install-$product" swift_run build "${flags[@]}"
done
bindir="$(swift_run build -c "$configuration" --show-bin-path)"
bin="$bindir/pushctl"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
# The man page comes from the binaries' own argument definitions (their --experimental-dump-help),
# with the environment, exit statuses and files added, and non-ASCII written for groff.
companion=()
[ "${PUSHCTL_SENDER_ONLY:-0}" = 1 ] || companion=("$bindir/pushctl-mock" "$bindir/pushctl-app")
python3 Scripts/manpage.py "$bin" ${companion[@]+"${companion[@]}"} > "$stage/pushctl.1"
"$bin" --generate-completion-script bash > "$stage/pushctl.bash"
"$bin" --generate-completion-script zsh > "$stage/_pushctl"
"$bin" --generate-completion-script fish > "$stage/pushctl.fish"

sudo=""
mkdir -p "$prefix" 2>/dev/null || true
if [ ! -w "$prefix" ] && [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
  "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
for product in "${products[@]}"; do
  $sudo install -m 0755 "$bindir/$product" "$prefix/bin/$product"
  # Symbols are for debugging the build tree, not for the installed tool (a fraction of the size).
  command -v strip >/dev/null && $sudo strip "$prefix/bin/$product"
  # macOS runs only signed code on Apple silicon: the linker's ad-hoc signature, made anew after strip.
  if [ "$(uname)" = Darwin ]; then $sudo codesign --force --sign - "$prefix/bin/$product"; fi
done
$sudo install -m 0644 "$stage/pushctl.1" "$prefix/share/man/man1/pushctl.1"
$sudo install -m 0644 "$stage/pushctl.bash" "$prefix/share/bash-completion/completions/pushctl"
$sudo install -m 0644 "$stage/_pushctl" "$prefix/share/zsh/site-functions/_pushctl"
$sudo install -m 0644 "$stage/pushctl.fish" "$prefix/share/fish/vendor_completions.d/pushctl.fish"

(cd / && "$prefix/bin/pushctl" --version >/dev/null)
# The man command that finds this page: man's own path covers /usr and /usr/local only. Elsewhere
# man-db (Linux) takes -l FILE; macOS's man takes the file's path.
case "$prefix" in
  /usr|/usr/local) man_command="man pushctl" ;;
  *) if [ "$(uname)" = Darwin ]; then man_command="man $prefix/share/man/man1/pushctl.1"
     else man_command="man -l $prefix/share/man/man1/pushctl.1"; fi ;;
esac
echo "installed ${products[*]} $("$prefix/bin/pushctl" --version) in $prefix/bin ($man_command; completions for bash, zsh and fish)"
