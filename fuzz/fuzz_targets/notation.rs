//! Fuzz target `notation`: see `sowkit::fuzzing::notation` for the properties checked.
#![no_main]

/// The `sowkit` command's allocator (mimalloc), as in `src/main.rs`.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

libfuzzer_sys::fuzz_target!(|data: &[u8]| sowkit::fuzzing::notation(data));
