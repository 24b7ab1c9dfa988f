#!/usr/bin/env bash
# Linux 7.3's documentation (x86_64 oracle configuration; rustc 1.95, LLVM 22): `rkbuild doc
# -j2` vs the kernel's `make -j2 rustdoc`, measured in the same run (hyperfine, interleaved).
#
# cold:  both start from a copy of one object tree whose C side make prepared (both build the
#        rust/ steps rustdoc reads, then document the 12 crates and retouch the pages);
# again: a second run on a tree where each already ran once, nothing changed: make cleans the
#        folder and documents everything again; rkbuild documents nothing.
# Usage: benches/rustdoc_linux73.sh [RUNS]   (default 3)
set -euo pipefail
RUNS=${1:-3}
source "$(dirname "$0")/linux73-setup.sh"
RKD="$RK doc -S $S -j2 -q"
MKD="$M -j2 rustdoc"

cold_and_again doc "$RKD" "$MKD"
