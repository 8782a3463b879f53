//! Rulesets: the TOML schema, loading with line/column diagnostics, and the typed model.

pub mod load;
pub mod locate;
mod model;
pub mod schema;

pub use load::{load_file, load_str, Diagnostic};
pub use model::*;
