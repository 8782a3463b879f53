#![warn(missing_docs)]
//! sowkit: turns a mancala ruleset (TOML) into a print-and-play kit, PDF and SVG at 100% scale.
//!
//! Data flows one way (see `README.md`, "Architecture"):
//! `ruleset` (load + validate) → `engine` (rules) → `examples` (worked examples replayed; any
//! mismatch stops the build) → `layout` (pages in millimetres, a [`doc::Document`]) →
//! `render::svg` / `render::pdf` → `kit` (files written atomically). The `sowkit` binary
//! (`src/main.rs`, clap) turns it into commands.

pub mod doc;
pub mod engine;
pub mod examples;
pub mod kit;
pub mod layout;
pub mod notation;
pub mod render;
pub mod rng;
pub mod ruleset;
pub mod solve;
pub mod text;
