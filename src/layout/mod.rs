//! Layout: turns a ruleset (and what the engine says about its worked examples) into pages,
//! in millimetres. Knows nothing of PDF or SVG syntax.
use crate::doc::Document;
use crate::ruleset::Ruleset;

/// A paper size, millimetres, portrait orientation (width < height).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paper {
    /// Name shown in messages and footers (`A4`, `Letter`).
    pub name: &'static str,
    /// Portrait width, mm.
    pub width: f64,
    /// Portrait height, mm.
    pub height: f64,
}

/// ISO A4, 210 × 297 mm (595.276 × 841.890 pt).
pub const A4: Paper = Paper { name: "A4", width: 210.0, height: 297.0 };
/// US Letter, 8.5 × 11 in = 215.9 × 279.4 mm (612 × 792 pt).
pub const LETTER: Paper = Paper { name: "Letter", width: 215.9, height: 279.4 };

/// Lays out the whole kit for `rs` on `paper`. The ruleset's worked examples must already have
/// been checked (see [`crate::examples`]); layout replays them for the diagrams.
pub fn kit(rs: &Ruleset, paper: Paper) -> Result<Document, String> {
    let _ = (rs, paper);
    todo!("layout (layout helper)")
}
