//! Backends: each draws a [`crate::doc::Document`] and knows nothing of mancala.
//!
//! Both backends read the same page model and apply the same sanitising rules (below), so an
//! odd value (NaN, a negative width) is treated identically in PDF and SVG and never panics.
use crate::doc::{Seg, Stroke};

pub mod pdf;
pub mod svg;

/// A usable stroke: finite positive width, and a dash pattern (mm) that is either empty
/// (solid) or all finite, non-negative values with a positive sum. Returns `None` for a stroke
/// that draws nothing (width ≤ 0 or not finite); an unusable dash pattern becomes solid. The
/// pattern is borrowed from `s` (asked for every shape drawn, mostly for the width alone).
pub(crate) fn clean_stroke(s: &Stroke) -> Option<(f64, &[f64])> {
    if !(s.width.is_finite() && s.width > 0.0) {
        return None;
    }
    let ok = s.dash.iter().all(|d| d.is_finite() && *d >= 0.0) && s.dash.iter().sum::<f64>() > 0.0;
    Some((s.width, if ok { &s.dash } else { &[] }))
}

/// The drawable part of a path: everything from the first `MoveTo` on (a path must start with
/// a current point; leading `LineTo`/`CubicTo`/`Close` segments have none and are dropped).
pub(crate) fn clean_segs(segs: &[Seg]) -> &[Seg] {
    let start = segs
        .iter()
        .position(|s| matches!(s, Seg::MoveTo(_)))
        .unwrap_or(segs.len());
    &segs[start..]
}

/// A page side in mm made safe for output: finite and at least 1 mm (0 or NaN becomes 1 mm).
pub(crate) fn clean_side(mm: f64) -> f64 {
    if mm.is_finite() && mm >= 1.0 {
        mm
    } else {
        1.0
    }
}

/// A coordinate made finite (non-finite values become 0 mm) so one bad point cannot
/// corrupt the output.
pub(crate) fn finite(v: f64) -> f64 {
    if v.is_finite() {
        v
    } else {
        0.0
    }
}
