#!/usr/bin/env bash
# Linux 7.3's host tests (x86_64 oracle configuration; rustc 1.95, LLVM 22): `rkbuild test -j2`
# vs the kernel's `make -j2 rusttest`, measured in the same run (hyperfine, interleaved rounds).
#
# cold:  both start from a copy of one object tree whose C side make prepared (the rust/ steps
#        the test libraries need are built by both, then every test library, the test binary,
#        its run and the doctests);
# again: both run a second time on a tree where they already ran once (nothing changed):
#        make rebuilds every test library (its rules have no depfile), rkbuild rebuilds nothing
#        and runs the tests.
# Usage: benches/rusttest_linux73.sh [RUNS]   (default 3)
set -euo pipefail
RUNS=${1:-3}
source "$(dirname "$0")/linux73-setup.sh"
RKT="$RK test -S $S -j2 -q"
MKT="$M -j2 rusttest"

cold_and_again test "$RKT" "$MKT"
