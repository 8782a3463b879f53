//! Fuzz target `kit`: see `sowkit::fuzzing::kit` for the properties checked.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| sowkit::fuzzing::kit(data));
