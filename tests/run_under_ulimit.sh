#!/bin/sh
# Usage: run_under_ulimit.sh <KiB> <command> [args...]
# Runs the command with its address space limited to <KiB> (ulimit -v), as a
# container or phone limits an app; used by the malformed_under_ulimit test.
limit=$1
shift
ulimit -v "$limit" || { echo "ulimit -v $limit failed" >&2; exit 1; }
exec "$@"
