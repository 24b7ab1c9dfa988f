//! Fuzz target `dotconfig`: the property is `rkbuild::fuzzcheck::dotconfig`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rkbuild::fuzzcheck::dotconfig(data));
