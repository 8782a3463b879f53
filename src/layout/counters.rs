//! The counters sheet: paper seeds to cut out, enough for the game plus spares.
//!
//! Each counter is a circle of the ruleset's `layout.counter_diameter` with a small dot in the
//! middle, centred in a square cell; the cells touch and share their cut lines, drawn once per
//! grid line and only along the cells, with crop marks where they end ([`super::cut`]). Small
//! counters fit more to a page; as many pages as needed (`counters-1`, …), the last one filled
//! with spares so no paper is wasted. The sheet says plainly whether the counters are a small
//! part or (with `layout.child_safe`) too large to swallow.
use super::cut::{self, MARK_ROOM};
use super::page::{self, MARGIN};
use super::phrases::Phrases;
use super::style::Sizes;
use super::{board::fmt_mm, para, sheet_title, Paper};
use crate::doc::{circle, pt as p, Color, Page, Stroke, Weight};
use crate::ruleset::Ruleset;

/// Outline of the extra counters that fill the last page beyond what the game needs: grey in
/// the default and low-ink styles, black in contrast. What tells them apart in every style is
/// the dash ([`EXTRA_DASH`]) and the missing centre dot, and that is what the sheet says.
pub const EXTRA_GREY: Color = Color::grey(150);
/// Dash pattern of an extra counter's outline, mm (on, off).
pub const EXTRA_DASH: [f64; 2] = [1.2, 1.0];

/// Counters `rs` needs at least: (for play, spare), spares by [`spares`]. The sheets print
/// more spares when the last page has room for them.
pub fn count(rs: &Ruleset) -> (u32, u32) {
    let total = rs.total_seeds();
    (total, spares(total))
}

/// Spare counters for `seeds` in play, the paper kit's and the 3D kit's alike: a tenth,
/// rounded up, at least two. 48 seeds: 5; 108: 11.
pub fn spares(seeds: u32) -> u32 {
    seeds.div_ceil(10).max(2)
}

/// Side of one counter's square cell, mm: the diameter plus a margin of a tenth of it (at
/// least 1.5 mm) each side.
pub fn cell(diameter: f64) -> f64 {
    diameter + 2.0 * (diameter * 0.1).max(1.5)
}

/// More counter pages than this are not printed one by one: a single full page is printed,
/// with a note to print it as many times as needed (every counter is the same).
pub const MAX_COUNTER_PAGES: usize = 3;

/// Lays out the counter pages (portrait `paper`, type sizes `sz`). The counters the game needs (seeds and
/// spares, [`count`]) are printed solid with a centre dot; the rest of the last page is filled
/// with dashed extras without a dot, and a note says they are extras to cut only when some get lost (a user cutting 168
/// counters for a 48-seed game would be cutting for an hour for nothing). Errors when not even
/// one counter fits.
pub fn pages(rs: &Ruleset, paper: Paper, sz: &Sizes, ph: &Phrases) -> Result<Vec<Page>, String> {
    let (play, spare) = count(rs);
    let all = lay_out(rs, paper, sz, ph, None, spare, false)?;
    if all.len() <= MAX_COUNTER_PAGES {
        // Fill the last page with dashed extras; the note about them can take a row, so check
        // that some are still left with it.
        let filled = lay_out(rs, paper, sz, ph, None, spare, true)?;
        let held = filled.iter().map(counters_on).sum::<usize>() as u32;
        if held > play + spare && filled.len() == all.len() {
            return Ok(filled);
        }
        return Ok(all);
    }
    // One full page, printed several times: find what a page holds with that title.
    let total = (play + spare) as usize;
    let mut times = all.len();
    for _ in 0..3 {
        let one = lay_out(rs, paper, sz, ph, Some(times), spare, false)?;
        let per = counters_on(&one[0]);
        let need = total.div_ceil(per.max(1));
        if need == times {
            return Ok(one);
        }
        times = need;
    }
    lay_out(rs, paper, sz, ph, Some(times), spare, false)
}

/// How many counters a laid-out page holds: the counter outlines (unfilled circles).
fn counters_on(pg: &Page) -> usize {
    pg.shapes()
        .filter(|s| s.segs.len() == 6 && s.fill.is_none())
        .count()
}

/// The counter pages for `spare` spares; with `repeat = Some(k)`, a single full page titled to
/// be printed `k` times; with `fill_last`, the last page is filled with dashed extras (and the
/// note says what they are).
fn lay_out(
    rs: &Ruleset,
    paper: Paper,
    sz: &Sizes,
    ph: &Phrases,
    repeat: Option<usize>,
    spare: u32,
    fill_last: bool,
) -> Result<Vec<Page>, String> {
    let d = rs.layout.counter_diameter;
    let c = cell(d);
    let play = count(rs).0;
    let total = (play + spare) as usize;
    let mut pages = Vec::new();
    let mut done = 0usize;
    while done < total {
        let mut pg = page::portrait(&format!("counters-{}", pages.len() + 1), paper);
        let (w, h) = (pg.width, pg.height);
        let cw = w - 2.0 * MARGIN;
        let args = [
            ("name", rs.name.clone()),
            ("n", total.to_string()),
            ("play", play.to_string()),
            ("spare", spare.to_string()),
            ("times", repeat.unwrap_or(1).to_string()),
        ];
        let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let title = match repeat {
            None => ph.fmt("counters.title", &args),
            Some(_) => ph.fmt("counters.title_repeat", &args),
        };
        let mut y = sheet_title(&mut pg, sz, &title);
        if pages.is_empty() {
            y += 1.0;
            let note = ph.fmt("counters.note", &[("d", &ph.mm(d))]);
            y = para(&mut pg, MARGIN, y, sz.note, Weight::Regular, cw, &note);
            // Said plainly, in bold: a small part, or too large to swallow.
            let safety = if rs.layout.child_safe {
                ph.fmt("counters.child_safe", &[("d", &ph.mm(d))])
            } else {
                ph.get("counters.small_parts")
            };
            let (spt, sw) = super::board::strong(sz, sz.note);
            y = para(&mut pg, MARGIN, y + 1.0, spt, sw, cw, &safety);
        }
        if fill_last && repeat.is_none() {
            // Said on the page that has the extras: the last, the one the rest fits on.
            let cols = ((cw - 2.0 * (MARK_ROOM + page::CUT_W)) / c)
                .floor()
                .max(0.0) as usize;
            let rows = ((page::content_bottom(w, h, sz) - y - 2.0 - 2.0 * MARK_ROOM) / c)
                .floor()
                .max(0.0) as usize;
            if total - done <= cols * rows {
                y = para(
                    &mut pg,
                    MARGIN,
                    y + 1.0,
                    sz.note,
                    Weight::Regular,
                    cw,
                    &ph.fmt("counters.extras", &[("n", &total.to_string())]),
                );
            }
        }
        let top = y + 2.0;
        let bottom = page::content_bottom(w, h, sz);
        let cols = ((cw - 2.0 * (MARK_ROOM + page::CUT_W)) / c)
            .floor()
            .max(0.0) as usize;
        let rows = ((bottom - top - 2.0 * MARK_ROOM) / c).floor().max(0.0) as usize;
        if cols == 0 || rows == 0 {
            return Err(format!(
                "counters of {} mm do not fit the {} page",
                fmt_mm(d),
                paper.name
            ));
        }
        // A repeated page is a full page; otherwise what is still needed.
        let here = match repeat {
            Some(_) => cols * rows,
            None if fill_last => cols * rows,
            None => (total - done).min(cols * rows),
        };
        let x0 = (w - cols as f64 * c) / 2.0;
        let y0 = top + MARK_ROOM;
        for k in 0..here {
            let (row, col) = (k / cols, k % cols);
            let centre = p(x0 + (col as f64 + 0.5) * c, y0 + (row as f64 + 0.5) * c);
            // Past what the game needs: an extra, dashed and without a dot (the sheet says so;
            // it names no colour, which the contrast style would turn black).
            let extra = done + k >= total;
            let outline = if extra {
                Stroke::dashed(0.3, EXTRA_GREY, &EXTRA_DASH)
            } else {
                Stroke::solid(0.3, Color::BLACK)
            };
            pg.shape(circle(centre, d / 2.0), None, Some(outline));
            if !extra {
                pg.shape(
                    circle(centre, (d * 0.05).max(0.6)),
                    Some(Color::BLACK),
                    None,
                );
            }
        }
        cut::draw(&mut pg, &cut::grid(x0, y0, c, c, cols, here));
        done += here;
        pages.push(pg);
        if repeat.is_some() {
            break;
        }
    }
    Ok(pages)
}
