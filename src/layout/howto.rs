//! The sheet that opens every kit: "How to make this kit". Which pages to print, how many
//! copies, on which paper; then what to cut and glue onto what, in order; and, for a board
//! printed in tiles, the assembly map.

use super::page::{self, MARGIN};
use super::phrases::Phrases;
use super::style::Sizes;
use super::{para, sheet_title, tile, Paper};
use crate::doc::{Page, Weight};
use crate::ruleset::Ruleset;
use crate::text;

/// Least gap between the assembly map and anything else on the sheet, mm.
pub const MAP_CLEAR: f64 = 3.0;

/// Least height left for the assembly map on the how-to sheet, mm; with less the map is left
/// out there (the board's first page carries it).
pub const MIN_MAP_ROOM: f64 = 10.0;

/// Page numbers (1-based, counting the `first` how-to pages before `names`) of the pages named
/// `prefix` or `prefix-…`, written "Page 4" or "Pages 4–6" (phrases `howto.page_one`,
/// `howto.page_range`); `None` if there are none.
fn range(names: &[String], prefix: &str, ph: &Phrases, first: usize) -> Option<String> {
    let pos: Vec<usize> = names
        .iter()
        .enumerate()
        .filter(|(_, n)| *n == prefix || n.starts_with(&format!("{prefix}-")))
        .map(|(i, _)| i + 1 + first)
        .collect();
    match (pos.first(), pos.last()) {
        (Some(a), Some(b)) if a == b => Some(ph.fmt("howto.page_one", &[("n", &a.to_string())])),
        (Some(a), Some(b)) => Some(ph.fmt(
            "howto.page_range",
            &[("a", &a.to_string()), ("b", &b.to_string())],
        )),
        _ => None,
    }
}

/// The how-to sheet (portrait `paper`) for a kit whose other pages, in print order, are
/// `pages`; `tiles` is the board's drawing and tiling plan when the board is printed in tiles.
/// Type sizes come from `sz` (large print: [`Sizes::LARGE`]).
///
/// `three_d` names the 3D-printable files written beside the kit (`--3d`; empty without it):
/// one more line of the page list names them (the `.stl` parts, their `.png` pictures and
/// `3d.txt`).
///
/// One page (`howto`) where it all fits above the calibration bar; else two: the page list on
/// `howto`, the steps (and the assembly map) on `howto-2`, with every page number after them
/// one higher (large print on a narrow paper, in a language of long words).
pub fn pages(
    rs: &Ruleset,
    paper: Paper,
    sz: &Sizes,
    ph: &Phrases,
    pages: &[Page],
    tiles: Option<&(tile::Drawing, tile::Plan)>,
    three_d: &[String],
) -> Vec<Page> {
    match sheet(rs, paper, sz, ph, pages, tiles, three_d, false) {
        (one, true) => one,
        _ => sheet(rs, paper, sz, ph, pages, tiles, three_d, true).0,
    }
}

/// The page-list line naming the 3D files `three_d` (phrase `howto.row_3d`): the `.stl`
/// parts, then their `.png` pictures, in the order written; `None` when there are none.
fn three_d_line(ph: &Phrases, three_d: &[String]) -> Option<String> {
    let with = |ext: &str| -> Vec<String> {
        three_d
            .iter()
            .filter(|f| f.ends_with(ext))
            .cloned()
            .collect()
    };
    let (stl, png) = (with(".stl"), with(".png"));
    if stl.is_empty() {
        return None;
    }
    Some(ph.fmt(
        "howto.row_3d",
        &[("stl", &ph.and_list(&stl)), ("png", &ph.and_list(&png))],
    ))
}

/// [`pages`] on one page (`split` false; with whether its text ended above the bottom band),
/// or on two.
#[allow(clippy::too_many_arguments)]
fn sheet(
    rs: &Ruleset,
    paper: Paper,
    sz: &Sizes,
    ph: &Phrases,
    pages: &[Page],
    tiles: Option<&(tile::Drawing, tile::Plan)>,
    three_d: &[String],
    split: bool,
) -> (Vec<Page>, bool) {
    let first = if split { 2 } else { 1 };
    let range = |names: &[String], prefix: &str, ph: &Phrases| range(names, prefix, ph, first);
    let mut done = Vec::new();
    let mut pg = page::portrait("howto", paper);
    let (w, h) = (pg.width, pg.height);
    let cw = w - 2.0 * MARGIN;
    let names: Vec<String> = pages.iter().map(|p| p.name.clone()).collect();
    let body = sz.howto;
    // Step titles: a point above the body, and at least the large-print label size.
    let head = if sz.large { sz.head } else { body + 1.0 };
    let mut y = sheet_title(&mut pg, sz, &ph.fmt("howto.title", &[("name", &rs.name)]));
    y += 2.0;
    y = para(
        &mut pg,
        MARGIN,
        y,
        body,
        Weight::Regular,
        cw,
        &ph.fmt("howto.intro", &[("paper", &ph.paper(&paper.name))]),
    );
    y += 1.0;
    let bullet = |pg: &mut Page, y: f64, s: &str| -> f64 {
        pg.text(
            MARGIN + 1.0,
            y + text::ascent_mm(body),
            body,
            Weight::Regular,
            "•",
        );
        para(pg, MARGIN + 5.0, y, body, Weight::Regular, cw - 5.0, s) + 0.8
    };
    let ntiles = tiles.map_or(0, |(_, p)| p.count());
    if let Some(r) = range(&names, "board", ph) {
        let s = if ntiles > 0 {
            ph.fmt(
                "howto.row_board_tiles",
                &[("pages", &r), ("tiles", &ntiles.to_string())],
            )
        } else {
            ph.fmt("howto.row_board_one", &[("pages", &r)])
        };
        y = bullet(&mut pg, y, &s);
    }
    for (prefix, key) in [
        ("log", "howto.row_log"),
        ("rules", "howto.row_rules"),
        ("practice", "howto.row_practice"),
        ("counters", "howto.row_counters"),
        ("labels", "howto.row_labels"),
        ("markers", "howto.row_markers"),
    ] {
        if let Some(r) = range(&names, prefix, ph) {
            // A practice page with no exercises (every game ends at once) is not worth printing.
            let key = if prefix == "practice" && !super::practice::has_exercises(rs) {
                "howto.row_practice_none"
            } else {
                key
            };
            y = bullet(&mut pg, y, &ph.fmt(key, &[("pages", &r)]));
        }
    }
    // The files `--3d` wrote beside the kit.
    if let Some(s) = three_d_line(ph, three_d) {
        y = bullet(&mut pg, y, &s);
    }
    y += 2.0;
    if split {
        done.push(std::mem::replace(&mut pg, page::portrait("howto-2", paper)));
        y = sheet_title(&mut pg, sz, &ph.fmt("howto.title", &[("name", &rs.name)])) + 2.0;
    }
    y = para(
        &mut pg,
        MARGIN,
        y,
        head,
        Weight::Bold,
        cw,
        &ph.get("howto.steps_title"),
    ) + 1.0;
    let mut steps: Vec<String> = Vec::new();
    if ntiles > 0 {
        let which = if ntiles == 2 {
            ph.get("howto.tiles_one")
        } else if ntiles == 3 {
            ph.get("howto.tiles_two")
        } else {
            ph.fmt("howto.tiles_range", &[("n", &ntiles.to_string())])
        };
        // Two pieces have one seam, and the step says "the seam", not "each seam".
        let key = if ntiles == 2 {
            "howto.step_tiles_one"
        } else {
            "howto.step_tiles"
        };
        steps.push(ph.fmt(key, &[("which", &which)]));
    }
    steps.push(ph.get("howto.step_cut_board"));
    if range(&names, "counters", ph).is_some() {
        // "the counters sheets" when there are several (a Spanish child-safe kit has three).
        let sheets = names
            .iter()
            .filter(|n| *n == "counters" || n.starts_with("counters-"))
            .count();
        steps.push(ph.fmt("howto.step_counters", &[("n", &sheets.to_string())]));
    }
    if range(&names, "labels", ph).is_some() {
        steps.push(ph.get("howto.step_labels"));
    }
    if range(&names, "markers", ph).is_some() {
        steps.push(ph.get("howto.step_markers"));
    }
    steps.push(ph.get("howto.step_play"));
    // Where a step's text starts: 6 mm in, or in large print past the widest number.
    let indent = if sz.large {
        let widest = format!("{}.", steps.len());
        (1.0 + text::width_mm(&widest, body, Weight::Bold) + 1.5).max(6.0)
    } else {
        6.0
    };
    for (i, s) in steps.iter().enumerate() {
        let n = format!("{}.", i + 1);
        pg.text(
            MARGIN + 1.0,
            y + text::ascent_mm(body),
            body,
            Weight::Bold,
            &n,
        );
        y = para(
            &mut pg,
            MARGIN + indent,
            y,
            body,
            Weight::Regular,
            cw - indent,
            s,
        ) + 0.8;
    }
    let (_, bar_y, _, _) = page::bar_rect(h, sz);
    let label_top = page::bar_label_at(pg.width, h, sz).1 - text::ascent_mm(sz.bar_label);
    // The last step's line (`y` is 0.8 mm under it) ends above the bar and its label.
    let fits = y - 0.8 <= bar_y.min(label_top);
    if let Some((d, plan)) = tiles {
        // The map, under its heading, down to [`MAP_CLEAR`] above the calibration bar and its
        // label (whose larger type in large print stands taller than the bar). On paper too
        // short for a readable map under the steps, or where the map would be drawn so small
        // that its tile numbers run into each other, it is left out: the board's first page
        // carries the same map.
        let title = ph.get("howto.map_title");
        let title_h =
            super::wrap(&title, head, Weight::Bold, cw).len() as f64 * text::line_height_mm(head);
        let map_top = y + 3.0 + title_h + MAP_CLEAR;
        let room = bar_y.min(label_top) - MAP_CLEAR - map_top;
        if room >= MIN_MAP_ROOM && tile::map_numbers_apart(d, plan, sz, cw, room) {
            y = para(&mut pg, MARGIN, y + 3.0, head, Weight::Bold, cw, &title) + MAP_CLEAR;
            tile::draw_map(&mut pg, d, plan, sz, MARGIN, y, cw, room);
        }
    }
    done.push(pg);
    (done, fits)
}
