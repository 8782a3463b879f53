//! The bundled font (DejaVu Sans, regular and bold): measuring with real glyph advances,
//! line breaking, and glyph outlines for SVG. Both backends use these same advances.
use crate::doc::Weight;

/// Advance width of `text` set at `size_pt` points, in millimetres (no kerning).
pub fn width_mm(text: &str, size_pt: f64, weight: Weight) -> f64 {
    let _ = (text, size_pt, weight);
    todo!("text (render helper)")
}

/// Greedy line breaking at spaces so that no line is wider than `max_mm`; a single word
/// wider than `max_mm` is broken between characters. Returns the lines without trailing spaces.
pub fn wrap(text: &str, size_pt: f64, weight: Weight, max_mm: f64) -> Vec<String> {
    let _ = (text, size_pt, weight, max_mm);
    todo!("text (render helper)")
}

/// Distance from baseline to the top of the tallest glyphs (font ascent), millimetres.
pub fn ascent_mm(size_pt: f64) -> f64 {
    size_pt * 25.4 / 72.0 * 0.928
}

/// Distance from baseline to the bottom of descenders (positive), millimetres.
pub fn descent_mm(size_pt: f64) -> f64 {
    size_pt * 25.4 / 72.0 * 0.236
}

/// Recommended baseline-to-baseline distance, millimetres (1.2 × the size).
pub fn line_height_mm(size_pt: f64) -> f64 {
    size_pt * 25.4 / 72.0 * 1.2
}
