//! Fuzz target `kbuild_records`: the property is `rkbuild::fuzzcheck::kbuild_records`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rkbuild::fuzzcheck::kbuild_records(data));
