//! Fuzz target `depfile`: the property is `rkbuild::fuzzcheck::depfile`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rkbuild::fuzzcheck::depfile(data));
