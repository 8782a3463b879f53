//! Fuzz target `loader`: see `sowkit::fuzzing::loader` for the properties checked.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| sowkit::fuzzing::loader(data));
