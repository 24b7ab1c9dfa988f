/work/main/vendor/nom-kconfig/target/debug/deps/nom_locate-7bbc7eb77a95caa8.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/nom_locate-5.0.0/src/lib.rs

/work/main/vendor/nom-kconfig/target/debug/deps/libnom_locate-7bbc7eb77a95caa8.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/nom_locate-5.0.0/src/lib.rs

/work/main/vendor/nom-kconfig/target/debug/deps/libnom_locate-7bbc7eb77a95caa8.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/nom_locate-5.0.0/src/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/nom_locate-5.0.0/src/lib.rs:
