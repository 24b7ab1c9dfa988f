#!/usr/bin/env bash
# The cold build of Linux 7.3's Rust side against the kernel's make: benches/build_cold.sh 73.
# Usage: benches/build_linux73.sh [RUNS]
exec bash "$(dirname "$0")/build_cold.sh" 73 "$@"
