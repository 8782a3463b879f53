//! PDF backend (printpdf 0.12, default features off): exact page sizes, embedded subset font,
//! deterministic bytes.
use crate::doc::Document;

/// Draws every page of `doc` into one PDF and returns its bytes. Deterministic: the same
/// document gives the same bytes, in any process, any number of times.
pub fn render(doc: &Document) -> Vec<u8> {
    let _ = doc;
    todo!("pdf backend (render helper)")
}
