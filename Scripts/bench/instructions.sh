#!/usr/bin/env bash
# The instructions a command runs in user space, counted by valgrind's callgrind: one number on
# stdout. Unlike time on a shared VM, the count is the same from run to run. The kernel's share
# (exec, page faults, the socket) is not in it.
#
# Usage: Scripts/bench/instructions.sh WORKDIR COMMAND [ARG...]
# The command's stdout is discarded. If it fails, the end of valgrind's stderr goes to stderr and
# the status is 1. Give valgrind a stripped Swift binary: it cannot read the toolchain's debug info.
set -euo pipefail
work=$1
shift
valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" -q "$@" >/dev/null 2>"$work/callgrind.err" \
    || { tail -3 "$work/callgrind.err" >&2; exit 1; }
callgrind_annotate "$work/callgrind.out" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
