//! Fuzz target `call_log`: the property is `rkbuild::fuzzcheck::call_log`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rkbuild::fuzzcheck::call_log(data));
