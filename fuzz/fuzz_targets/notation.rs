//! Fuzz target `notation`: see `sowkit::fuzzing::notation` for the properties checked.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| sowkit::fuzzing::notation(data));
