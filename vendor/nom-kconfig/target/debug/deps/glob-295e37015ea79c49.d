/work/main/vendor/nom-kconfig/target/debug/deps/glob-295e37015ea79c49.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/glob-0.3.4/src/lib.rs

/work/main/vendor/nom-kconfig/target/debug/deps/libglob-295e37015ea79c49.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/glob-0.3.4/src/lib.rs

/work/main/vendor/nom-kconfig/target/debug/deps/libglob-295e37015ea79c49.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/glob-0.3.4/src/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/glob-0.3.4/src/lib.rs:
