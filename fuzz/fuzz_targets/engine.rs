//! Fuzz target `engine`: see `sowkit::fuzzing::engine` for the properties checked.
#![no_main]

/// The `sowkit` command's allocator (mimalloc), as in `src/main.rs`.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

libfuzzer_sys::fuzz_target!(|data: &[u8]| sowkit::fuzzing::engine(data));
