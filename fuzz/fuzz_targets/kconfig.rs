//! Fuzz target `kconfig`: the property is `rkbuild::fuzzcheck::kconfig`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rkbuild::fuzzcheck::kconfig(data));
