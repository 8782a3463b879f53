#![warn(missing_docs)]
//! sowkit: turns a mancala ruleset (TOML) into a print-and-play kit, PDF and SVG at 100% scale.
//!
//! Data flows one way (see `README.md`, "Architecture"):
//! `ruleset` (load + validate) → `engine` (rules) → `examples` (worked examples replayed; any
//! mismatch stops the build) → `layout` (pages in millimetres, a [`doc::Document`]) →
//! `render::svg` / `render::pdf` → `kit` (files written atomically). The `sowkit` binary
//! (`src/main.rs`, clap) turns it into commands.

pub mod advice;
pub mod build;
pub mod bundled;
pub mod doc;
pub mod engine;
pub mod examples;
#[doc(hidden)]
pub mod fuzzing;
pub mod geometry;
pub mod kit;
pub mod kitdiff;
pub mod kitdir;
pub mod layout;
pub mod live;
pub mod memo;
pub mod mesh;
pub mod notation;
pub mod paper;
pub mod render;
pub mod replay;
pub mod rng;
pub mod ruleset;
pub mod serve;
pub mod solve;
pub mod text;
