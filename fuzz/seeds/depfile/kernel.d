rust/kernel.o: /k/rust/kernel/lib.rs /k/rust/kernel/a\ b.rs \
  /k/include/generated/rustc_cfg

/k/rust/kernel/lib.rs:
# env-dep:RUST_MODFILE=x
