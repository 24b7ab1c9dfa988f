//! Fuzz target `makefile`: the property is `rkbuild::fuzzcheck::makefile`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rkbuild::fuzzcheck::makefile(data));
