//! Fuzz target `engine`: see `sowkit::fuzzing::engine` for the properties checked.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| sowkit::fuzzing::engine(data));
