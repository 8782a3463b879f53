//! The test suite in one binary: every `tests/<name>.rs` is a module here, so the test
//! harness runs all tests over all cores at once and the suite is linked once (one binary
//! per file linked 38 times and ran them one after another). Run one file's tests with
//! `cargo test --test suite <name>::`.

mod common;

mod advice;
mod cli;
mod conformance;
#[path = "loop.rs"]
mod designer_loop;
mod diagnose;
mod emit;
mod examples;
mod extras;
mod fastpath;
mod fit_cli;
mod fit_labels;
mod fuzz_regressions;
mod hostile;
mod kill;
mod kit;
mod lang;
mod layout;
mod mesh;
mod mesh_cli;
mod notation;
mod overlap;
mod phase;
mod practice_fill;
mod print;
mod properties;
mod readme;
mod render;
mod robust;
mod rules;
mod rules_fill;
mod schema;
mod serve;
mod solve;
mod style;
mod tiles;
mod words;
mod write;
