# Sourced by the cold-build benchmarks. c_side VERSION: $C, an object tree of the oracle's
# x86_64 configuration of linux-VERSION whose C side make ($M) prepared (`make prepare0
# tools/objtool`, what `rkbuild build` runs first on a fresh tree), made once in $WORK.
c_side() {
    C=$WORK/c-side
    if [ ! -x "$C/tools/objtool/objtool" ]; then
        rm -rf "$C"; mkdir -p "$C"
        cp "../shared/oracle/linux-$1/x86_64-defconfig-rust/config" "$C/.config"
        $M O="$C" olddefconfig
        $M O="$C" -j2 prepare0 tools/objtool
    fi
}
