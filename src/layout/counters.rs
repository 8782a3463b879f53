//! The counters sheet: paper seeds to cut out, enough for the game plus spares.
//!
//! Each counter is a circle of the ruleset's `layout.counter_diameter` with a small dot in the
//! middle, centred in a square cell; the cells touch and share their cut lines, drawn once per
//! grid line and run out past the grid (research print-and-play §5.3: never a line around each
//! part). Small counters fit more to a page; as many pages as needed (`counters-1`, …).
use super::page::{self, CUT_RUN, MARGIN};
use super::phrases::Phrases;
use super::{board::fmt_mm, para, Paper};
use crate::doc::{circle, pt as p, Color, Page, Stroke, Weight};
use crate::ruleset::Ruleset;

/// Title size, pt.
const TITLE_PT: f64 = 14.0;
/// Note size, pt.
const NOTE_PT: f64 = 8.5;

/// Counters to print for `rs`: (for play, spare). Spares are a tenth of the seeds, rounded up,
/// at least two.
pub fn count(rs: &Ruleset) -> (u32, u32) {
    let total = rs.total_seeds();
    (total, total.div_ceil(10).max(2))
}

/// Side of one counter's square cell, mm: the diameter plus a margin of a tenth of it (at
/// least 1.5 mm) each side.
pub fn cell(diameter: f64) -> f64 {
    diameter + 2.0 * (diameter * 0.1).max(1.5)
}

/// Lays out the counter pages (portrait `paper`). Errors when not even one counter fits.
pub fn pages(rs: &Ruleset, paper: Paper, ph: &Phrases) -> Result<Vec<Page>, String> {
    let d = rs.layout.counter_diameter;
    let c = cell(d);
    let (play, spare) = count(rs);
    let total = (play + spare) as usize;
    let mut pages = Vec::new();
    let mut done = 0usize;
    while done < total {
        let mut pg = page::portrait(&format!("counters-{}", pages.len() + 1), paper);
        let (w, h) = (pg.width, pg.height);
        let cw = w - 2.0 * MARGIN;
        let title = ph.fmt(
            "counters.title",
            &[
                ("name", &rs.name),
                ("n", &total.to_string()),
                ("play", &play.to_string()),
                ("spare", &spare.to_string()),
            ],
        );
        let mut y = para(&mut pg, MARGIN, MARGIN, TITLE_PT, Weight::Bold, cw, &title);
        if pages.is_empty() {
            y += 1.0;
            let note = ph.fmt("counters.note", &[("d", &fmt_mm(d))]);
            y = para(&mut pg, MARGIN, y, NOTE_PT, Weight::Regular, cw, &note);
            y = para(
                &mut pg,
                MARGIN,
                y + 1.0,
                NOTE_PT,
                Weight::Bold,
                cw,
                &ph.get("counters.small_parts"),
            );
        }
        let top = y + 2.0;
        let bottom = page::content_bottom(h);
        let cols = ((cw - 2.0 * CUT_RUN) / c).floor().max(0.0) as usize;
        let rows = ((bottom - top - 2.0 * CUT_RUN) / c).floor().max(0.0) as usize;
        if cols == 0 || rows == 0 {
            return Err(format!(
                "counters of {} mm do not fit the {} page",
                fmt_mm(d),
                paper.name
            ));
        }
        let here = (total - done).min(cols * rows);
        let used_rows = here.div_ceil(cols);
        let x0 = (w - cols as f64 * c) / 2.0;
        let y0 = top + CUT_RUN;
        for k in 0..here {
            let (row, col) = (k / cols, k % cols);
            let centre = p(x0 + (col as f64 + 0.5) * c, y0 + (row as f64 + 0.5) * c);
            pg.shape(
                circle(centre, d / 2.0),
                None,
                Some(Stroke::solid(0.3, Color::BLACK)),
            );
            pg.shape(
                circle(centre, (d * 0.05).max(0.6)),
                Some(Color::BLACK),
                None,
            );
        }
        let grid_bottom = y0 + used_rows as f64 * c;
        page::cut_grid(
            &mut pg,
            x0,
            y0,
            c,
            c,
            cols,
            used_rows,
            top,
            (grid_bottom + CUT_RUN).min(bottom),
        );
        done += here;
        pages.push(pg);
    }
    Ok(pages)
}
