//! Rulesets: the TOML schema, loading with line/column diagnostics, and the typed model.

pub mod check;
pub mod load;
pub mod locate;
mod model;
pub mod schema;

pub use check::{check_source, Checked};
pub use load::{load_file, load_str, Diagnostic};
pub use model::*;
