//! Whether a laid-out sheet fits its paper: every drawn box inside the printable area (the
//! page less [`MARGIN`] on every side) and no two lines of text on top of each other. Every
//! document is checked before it is written ([`super::kit`], [`super::host_key`]), so a layout
//! that runs off the page or sets labels over each other is refused with a message, never
//! printed.

use super::page::MARGIN;
use crate::doc::{ink_bounds, Item, Page};
use crate::text;

/// How far a box may reach past the printable area, or two texts into each other, before it
/// counts, mm (rounding; lines of a paragraph touch).
const TOLERANCE: f64 = 0.2;

/// A box (x0, y0, x1, y1), mm.
type Box4 = (f64, f64, f64, f64);

/// Ink box of a text: advance width, ascent to descent; a text of digits alone (counts,
/// numbers) from its baseline up to the digit height, 1493/2048 em in DejaVu Sans (digits
/// have no descenders and stand lower than the font's ascent).
fn text_box(t: &crate::doc::Text) -> Box4 {
    let w = text::width_mm(&t.text, t.size_pt, t.weight);
    if !t.text.is_empty() && t.text.chars().all(|c| c.is_ascii_digit()) {
        let digit_h = t.size_pt * 25.4 / 72.0 * 1493.0 / 2048.0;
        return (t.x, t.y - digit_h, t.x + w, t.y);
    }
    (
        t.x,
        t.y - text::ascent_mm(t.size_pt),
        t.x + w,
        t.y + text::descent_mm(t.size_pt),
    )
}

/// The printed items of `items` in order, each with its ink box cut to the clip it is in
/// (items wholly outside their clip are left out), and its text when it is one.
fn inked<'a>(items: &'a [Item], clip: Option<Box4>, out: &mut Vec<(Box4, Option<&'a str>, bool)>) {
    for it in items {
        let (b, t, filled) = match it {
            Item::Clip(c) => {
                let r = (c.x, c.y, c.x + c.w, c.y + c.h);
                let r = match clip {
                    Some(o) => (r.0.max(o.0), r.1.max(o.1), r.2.min(o.2), r.3.min(o.3)),
                    None => r,
                };
                inked(&c.items, Some(r), out);
                continue;
            }
            Item::Text(t) => (text_box(t), Some(t.text.as_str()), false),
            Item::Shape(s) => {
                // Where the path is drawn, not its control points (a steep arc's reach far
                // past it: a 200 mm store's arrow was refused on a 1 m sheet).
                let Some(b) = ink_bounds(&s.segs) else {
                    continue;
                };
                let hw = s.stroke.as_ref().map_or(0.0, |st| st.width / 2.0);
                (
                    (b.0 - hw, b.1 - hw, b.2 + hw, b.3 + hw),
                    None,
                    s.fill.is_some(),
                )
            }
        };
        let b = match clip {
            Some(o) => (b.0.max(o.0), b.1.max(o.1), b.2.min(o.2), b.3.min(o.3)),
            None => b,
        };
        if b.0 < b.2 && b.1 < b.3 {
            out.push((b, t, filled));
        }
    }
}

/// What is wrong with `page`, in words naming the sheet and the text, or `None` when every
/// drawn box lies inside the printable area and no two visible texts overlap by more than
/// [`TOLERANCE`] each way (a text covered by a filled shape drawn after it, such as a tile's
/// glue strip, is not visible).
pub fn problem(page: &Page) -> Option<String> {
    let mut all = Vec::new();
    inked(&page.items, None, &mut all);
    let (x0, y0) = (MARGIN - TOLERANCE, MARGIN - TOLERANCE);
    let (x1, y1) = (page.width - x0, page.height - y0);
    for (b, t, _) in &all {
        if b.0 < x0 || b.1 < y0 || b.2 > x1 || b.3 > y1 {
            let what = t.map_or("a drawing".to_string(), |t| format!("the text {t:?}"));
            return Some(format!(
                "on the {} sheet {what} runs outside the printable area ({MARGIN} mm from each edge): it spans {:.1}–{:.1} mm across and {:.1}–{:.1} mm down a page {:.0} × {:.0} mm",
                page.name, b.0, b.2, b.1, b.3, page.width, page.height
            ));
        }
    }
    // The filled shapes, in drawing order: a text is hidden by one drawn after it that covers it.
    let filled: Vec<(usize, Box4)> = all
        .iter()
        .enumerate()
        .filter(|(_, (_, t, filled))| t.is_none() && *filled)
        .map(|(i, (b, _, _))| (i, *b))
        .collect();
    let texts: Vec<(Box4, &str)> = all
        .iter()
        .enumerate()
        .filter_map(|(i, (b, t, _))| {
            let t = (*t)?;
            let later = &filled[filled.partition_point(|&(k, _)| k <= i)..];
            let covered = later
                .iter()
                .any(|(_, c)| c.0 <= b.0 && c.1 <= b.1 && c.2 >= b.2 && c.3 >= b.3);
            (!covered).then_some((*b, t))
        })
        .collect();
    if !any_overlap(&texts) {
        return None;
    }
    // Name the first pair in drawing order.
    for i in 0..texts.len() {
        for j in i + 1..texts.len() {
            if overlap(texts[i].0, texts[j].0) {
                return Some(format!(
                    "on the {} sheet the texts {:?} and {:?} overlap",
                    page.name, texts[i].1, texts[j].1
                ));
            }
        }
    }
    None
}

/// Whether boxes `a` and `b` overlap by more than [`TOLERANCE`] each way.
fn overlap(a: Box4, b: Box4) -> bool {
    let dx = a.2.min(b.2) - a.0.max(b.0);
    let dy = a.3.min(b.3) - a.1.max(b.1);
    dx > TOLERANCE && dy > TOLERANCE
}

/// Whether any two of `texts` [`overlap`]: swept top to bottom, each box tried only against
/// those that start less than its height and [`TOLERANCE`] below its top.
fn any_overlap(texts: &[(Box4, &str)]) -> bool {
    let mut boxes: Vec<Box4> = texts.iter().map(|t| t.0).collect();
    boxes.sort_by(|a, b| a.1.total_cmp(&b.1));
    boxes.iter().enumerate().any(|(i, &a)| {
        boxes[i + 1..]
            .iter()
            .take_while(|b| b.1 < a.3 - TOLERANCE)
            .any(|&b| overlap(a, b))
    })
}
