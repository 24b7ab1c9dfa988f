//! Fuzz target `target_spec`: the property is `rkbuild::fuzzcheck::target_spec`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rkbuild::fuzzcheck::target_spec(data));
