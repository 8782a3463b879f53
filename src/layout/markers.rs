//! The closed-pit markers sheet: paper discs that cover the pits closed off when a ruleset's
//! next round shortens the board (`[next_round]`, e.g. Giuthi's second phase after the Giuthi
//! rules page). Printed only when the ruleset allows shortening.
//!
//! A marker is a disc [`RIM`] mm wider than the ruleset's pit diameter (so it covers the pit's
//! outline and its double rim), crossed like a closed pit in the worked-example diagrams and
//! with the word "closed" across it; the discs sit in square cells cut apart on a grid
//! ([`super::cut`]). There is one marker for every pit that can be closed, both rows:
//! `2 × (pits_per_side − min_pits)`.
use super::cut::{self, MARK_ROOM};
use super::page::{self, MARGIN};
use super::phrases::Phrases;
use super::style::Sizes;
use super::{centred_mid, para, sheet_title, Paper};
use crate::doc::{circle, line, pt as p, Color, Page, Stroke, Weight};
use crate::ruleset::Ruleset;
use crate::text;

/// How much wider a marker is than a pit, mm (covers the printed outline and rim).
pub const RIM: f64 = 4.0;
/// Air round a marker inside its cell, each side, mm.
const AIR: f64 = 1.5;

/// Markers `rs` needs: one for every pit its next round may close (0 when it never shortens).
pub fn count(rs: &Ruleset) -> usize {
    match &rs.next_round {
        Some(nr) if nr.shorten_below > 0 => 2 * rs.board.pits_per_side.saturating_sub(nr.min_pits),
        _ => 0,
    }
}

/// Diameter of one marker, mm: the pit diameter plus [`RIM`].
pub fn diameter(rs: &Ruleset) -> f64 {
    rs.layout.pit_diameter + RIM
}

/// The markers pages (portrait `paper`, named `markers-1`, …, type sizes `sz`); none when
/// [`count`] is 0.
/// Errors when not even one marker fits the page.
pub fn pages(rs: &Ruleset, paper: Paper, sz: &Sizes, ph: &Phrases) -> Result<Vec<Page>, String> {
    let total = count(rs);
    let d = diameter(rs);
    let c = d + 2.0 * AIR;
    let mut pages = Vec::new();
    let mut done = 0;
    while done < total {
        let mut pg = page::portrait(&format!("markers-{}", pages.len() + 1), paper);
        let (w, h) = (pg.width, pg.height);
        let cw = w - 2.0 * MARGIN;
        let title = ph.fmt(
            "markers.title",
            &[("name", &rs.name), ("n", &total.to_string())],
        );
        let mut y = sheet_title(&mut pg, sz, &title);
        if pages.is_empty() {
            let note = ph.fmt("markers.note", &[("d", &ph.mm(d))]);
            y = para(
                &mut pg,
                MARGIN,
                y + 1.0,
                sz.note,
                Weight::Regular,
                cw,
                &note,
            );
        }
        let top = y + 2.0;
        let bottom = page::content_bottom(w, h, sz);
        let cols = ((cw - 2.0 * (MARK_ROOM + page::CUT_W)) / c)
            .floor()
            .max(0.0) as usize;
        let rows = ((bottom - top - 2.0 * MARK_ROOM) / c).floor().max(0.0) as usize;
        if cols == 0 || rows == 0 {
            return Err(format!(
                "closed-pit markers of {} mm do not fit the {} page",
                super::board::fmt_mm(d),
                paper.name
            ));
        }
        let here = (total - done).min(cols * rows);
        let x0 = (w - cols.min(here) as f64 * c) / 2.0;
        let y0 = top + MARK_ROOM;
        let word = ph.get("markers.word");
        for k in 0..here {
            let (row, col) = (k / cols, k % cols);
            let o = p(x0 + (col as f64 + 0.5) * c, y0 + (row as f64 + 0.5) * c);
            pg.shape(
                circle(o, d / 2.0),
                Some(Color::grey(225)),
                Some(Stroke::solid(0.4, Color::BLACK)),
            );
            let k = 0.3 * d;
            for (dx, dy) in [(k, k), (k, -k)] {
                pg.shape(
                    line(p(o.x - dx, o.y - dy), p(o.x + dx, o.y + dy)),
                    None,
                    Some(Stroke::solid(1.2, Color::BLACK)),
                );
            }
            // The word on a white band, readable across the cross.
            let band = if sz.large {
                (0.2 * d).max(text::line_height_mm(sz.marker))
            } else {
                0.2 * d
            };
            pg.shape(
                crate::doc::rounded_rect(o.x - 0.32 * d, o.y - band / 2.0, 0.64 * d, band, 1.0),
                Some(Color::WHITE),
                None,
            );
            centred_mid(&mut pg, o.x, o.y, sz.marker, Weight::Bold, &word);
        }
        cut::draw(&mut pg, &cut::grid(x0, y0, c, c, cols.min(here), here));
        done += here;
        pages.push(pg);
    }
    Ok(pages)
}
