//! Fuzz target `wrapper_args`: the property is `rkbuild::fuzzcheck::wrapper_args`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rkbuild::fuzzcheck::wrapper_args(data));
