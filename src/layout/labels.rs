//! Labels for playing with real bowls or trays instead of the printed board: one label per pit
//! and store, [`LABEL_W`] × [`LABEL_H`] mm, each with the ruleset's label, its side's name and
//! that side's pattern from the board (single ring for the first side, double ring for the
//! second), then one wide label spelling out the sowing circuit, skipped stores included, to keep
//! by the bowls. The labels share their cut lines (research print-and-play §5.3).
use super::board::{capitalise, store_sown_by};
use super::cut::{self, MARK_ROOM};
use super::page::{self, CUT_W, MARGIN};
use super::phrases::Phrases;
use super::style::{Sizes, SIDE_INK};
use super::{para, sheet_title, Paper};
use crate::doc::{circle, pt as p, rounded_rect, Page, Stroke, Weight};
use crate::ruleset::{Direction, Ruleset};
use crate::text;

/// Label width in normal print, mm (large print: [`Sizes::label_cell`]).
pub const LABEL_W: f64 = Sizes::NORMAL.label_cell.0;
/// Label height in normal print, mm.
pub const LABEL_H: f64 = Sizes::NORMAL.label_cell.1;
/// Width of the pattern icon area at a label's left, mm.
const ICON_W: f64 = 17.0;
/// Offset of the double ring, mm (as on the board's pits, scaled down).
const RING: f64 = 1.2;

/// One label: the hole it names (engine hole order: pits, then the two stores).
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// Hole index.
    pub hole: usize,
    /// The ruleset's label for it.
    pub text: String,
    /// Side owning it, 0 or 1.
    pub side: usize,
    /// Whether it is a store.
    pub store: bool,
}

/// Every label of `rs`: side 0's pits, side 0's store, side 1's pits, side 1's store.
pub fn labels(rs: &Ruleset) -> Vec<Label> {
    let n = rs.board.pits_per_side;
    let mut out = Vec::new();
    for side in 0..2 {
        for i in 0..n {
            out.push(Label {
                hole: side * n + i,
                text: rs.board.pit_labels[side][i].clone(),
                side,
                store: false,
            });
        }
        out.push(Label {
            hole: 2 * n + side,
            text: rs.board.stores[side].clone(),
            side,
            store: true,
        });
    }
    out
}

/// The circuit as each player sows it, in words: one line per player (one line for both when
/// they sow alike), each store a player passes by marked as skipped, then the direction.
/// Each player's line starts at that player's own first pit (Norte's at N1) and ends "back
/// to" it; the shared line starts at the first player's first pit.
pub fn circuit_lines(rs: &Ruleset, ph: &Phrases) -> Vec<String> {
    let n = rs.board.pits_per_side;
    let arrow = " → ";
    // Counter-clockwise circuit order of all holes as `player` sows it, starting at the pits
    // of side `from`: each hole's name or a skip note.
    let order = |player: usize, from: usize| -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for side in [from, 1 - from] {
            for i in 0..n {
                v.push(rs.board.pit_labels[side][i].clone());
            }
            let by = store_sown_by(rs, side);
            if by[player] {
                v.push(rs.board.stores[side].clone());
            } else if by[1 - player] {
                v.push(ph.fmt("labels.skip", &[("store", &rs.board.stores[side])]));
            }
        }
        if rs.sowing.direction == Direction::Clockwise && v.len() > 1 {
            v[1..].reverse();
        }
        v
    };
    let mut out = Vec::new();
    let (a, b) = (order(0, 0), order(1, 0));
    if a == b {
        let first = a.first().cloned().unwrap_or_default();
        out.push(ph.fmt(
            "labels.sow_both",
            &[("order", &a.join(arrow)), ("first", &first)],
        ));
    } else {
        for pl in 0..2 {
            let o = order(pl, pl);
            let first = o.first().cloned().unwrap_or_default();
            out.push(ph.fmt(
                "labels.sow_player",
                &[
                    ("player", &rs.board.players[pl]),
                    ("order", &o.join(arrow)),
                    ("first", &first),
                ],
            ));
        }
    }
    if (0..2).all(|s| !store_sown_by(rs, s).iter().any(|x| *x)) {
        out.push(ph.fmt(
            if rs.no_seed_reaches_a_store() {
                "labels.stores_apart_end"
            } else {
                "labels.stores_apart"
            },
            &[("a", &rs.board.stores[0]), ("b", &rs.board.stores[1])],
        ));
    }
    out.push(match rs.sowing.direction {
        Direction::Counterclockwise => ph.get("labels.dir_ccw"),
        Direction::Clockwise => ph.get("labels.dir_cw"),
        Direction::Either => ph.get("labels.dir_either"),
    });
    out.into_iter().map(|s| capitalise(&s)).collect()
}

/// Draws one pit or store label in the cell with top-left (`x`, `y`), of the size and type
/// `sz` gives. The name is wrapped at its spaces only, never inside a word, shrunk a point at
/// a time down to the style's least label size (large print: 18 pt) until every word fits
/// the label's width and every line its height. Errors naming the field (`board.stores`,
/// `board.pit_labels`, or the `[text.<lang>]` key) and the word when it does not fit even then.
fn draw_label(
    pg: &mut Page,
    rs: &Ruleset,
    sz: &Sizes,
    ph: &Phrases,
    l: &Label,
    x: f64,
    y: f64,
) -> Result<(), String> {
    let (label_w, label_h) = sz.label_cell;
    // Pattern icon: a pit is a ring, a store a rounded bar; side 1 has the double ring.
    let cx = x + ICON_W / 2.0 + 1.0;
    let cy = y + label_h / 2.0;
    let line = Stroke::solid(0.4, SIDE_INK[l.side]);
    if l.store {
        let (iw, ih) = (9.0, 17.0);
        let (ix, iy) = (cx - iw / 2.0, cy - ih / 2.0);
        pg.shape(rounded_rect(ix, iy, iw, ih, 3.0), None, Some(line));
        if l.side == 1 {
            pg.shape(
                rounded_rect(
                    ix + RING,
                    iy + RING,
                    iw - 2.0 * RING,
                    ih - 2.0 * RING,
                    3.0 - RING,
                ),
                None,
                Some(Stroke::solid(0.25, SIDE_INK[1])),
            );
        }
    } else {
        let r = 7.0;
        pg.shape(circle(p(cx, cy), r), None, Some(line));
        if l.side == 1 {
            pg.shape(
                circle(p(cx, cy), r - RING),
                None,
                Some(Stroke::solid(0.25, SIDE_INK[1])),
            );
        }
    }
    // Text: the label large (shrunk and wrapped to fit), then whose pit or store it is.
    let tx = x + ICON_W + 2.0;
    let tw = x + label_w - 2.0 - tx;
    let player = &rs.board.players[l.side];
    let ring = if l.side == 1 {
        ph.get("labels.double")
    } else {
        ph.get("labels.single")
    };
    let who = if l.store {
        // A store nobody sows into is named for what it holds, as the board names it, not
        // called a store when the ruleset calls it something else.
        // A sown store says who sows into it and who skips it, rather than repeat its
        // label ("South store / South's store").
        let sown = store_sown_by(rs, l.side);
        let key = match (sown[l.side], sown[1 - l.side]) {
            (true, true) => "labels.store_sown_both",
            (true, false) => "labels.store_sown_owner",
            (false, true) => "labels.store_sown_other",
            (false, false) if rs.no_seed_reaches_a_store() => "labels.store_end",
            (false, false) => "labels.store_captures",
        };
        let other = &rs.board.players[1 - l.side];
        ph.fmt(
            key,
            &[("player", player), ("other", other), ("ring", &ring)],
        )
    } else {
        ph.fmt("labels.pit_of", &[("player", player), ("ring", &ring)])
    };
    let small = sz.label_who;
    let who_lines = super::wrap(&who, small, Weight::Regular, tw);
    let (mut size, least) = sz.label_name;
    let room = label_h - 3.0 - who_lines.len() as f64 * text::line_height_mm(small);
    let widest = |size: f64| {
        l.text
            .split_whitespace()
            .map(|w| (text::width_mm(w, size, Weight::Bold), w))
            .fold((0.0, ""), |a, b| if b.0 > a.0 { b } else { a })
    };
    let mut big = super::wrap(&l.text, size, Weight::Bold, tw);
    while size > least
        && (big.len() as f64 * text::line_height_mm(size) > room || widest(size).0 > tw)
    {
        size = (size - 1.0).max(least);
        big = super::wrap(&l.text, size, Weight::Bold, tw);
    }
    let (word_w, word) = widest(size);
    let tall = big.len() as f64 * text::line_height_mm(size) > room + 1e-6;
    if word_w > tw + 1e-6 || tall {
        let key = if l.store { "stores" } else { "pit_labels" };
        let why = if word_w > tw + 1e-6 {
            format!(
                "its word {word:?} is {} mm wide at {least} pt, the least label size of this style, and a bowl label has {} mm for it (words are never broken)",
                super::board::fmt_mm(word_w),
                super::board::fmt_mm(tw)
            )
        } else {
            format!(
                "at {least} pt, the least label size of this style, its {} lines need {} mm and a bowl label has {} mm",
                big.len(),
                super::board::fmt_mm(big.len() as f64 * text::line_height_mm(size)),
                super::board::fmt_mm(room)
            )
        };
        return Err(format!(
            "{}: the label {:?} does not fit its bowl label: {why}; use a shorter label or split long words with a space",
            super::board::field_place(rs, key),
            l.text
        ));
    }
    let total = big.len() as f64 * text::line_height_mm(size)
        + who_lines.len() as f64 * text::line_height_mm(small);
    let ty = y + (label_h - total) / 2.0;
    let ty = super::set_lines(pg, tx, ty, &big, size, Weight::Bold);
    super::set_lines(pg, tx, ty, &who_lines, small, Weight::Regular);
    Ok(())
}

/// Lays out the label pages (portrait `paper`, `labels-1`, …): the pit and store labels on a
/// grid, then the circuit label across the grid's width, in the cells and type `sz` gives.
/// Errors when a label does not fit.
pub fn pages(rs: &Ruleset, paper: Paper, sz: &Sizes, ph: &Phrases) -> Result<Vec<Page>, String> {
    let (label_w, label_h) = sz.label_cell;
    let (circuit_pt, circuit_head) = (sz.circuit, sz.circuit_head);
    let all = labels(rs);
    let circ = circuit_lines(rs, ph);
    let mut pages: Vec<Page> = Vec::new();
    let mut done = 0usize;
    let mut circuit_done = false;
    while done < all.len() || !circuit_done {
        let mut pg = page::portrait(&format!("labels-{}", pages.len() + 1), paper);
        let (w, h) = (pg.width, pg.height);
        let cw = w - 2.0 * MARGIN;
        let title = ph.fmt("labels.title", &[("name", &rs.name)]);
        let mut y = sheet_title(&mut pg, sz, &title);
        if pages.is_empty() {
            y = para(
                &mut pg,
                MARGIN,
                y + 1.0,
                sz.note,
                Weight::Regular,
                cw,
                &ph.get("labels.note"),
            );
        }
        let top = y + 2.0;
        let bottom = page::content_bottom(w, h, sz);
        let cols = ((cw - 2.0 * (MARK_ROOM + CUT_W)) / label_w)
            .floor()
            .max(0.0) as usize;
        let rows = ((bottom - top - 2.0 * MARK_ROOM) / label_h)
            .floor()
            .max(0.0) as usize;
        if cols == 0 || rows == 0 {
            return Err(format!("labels do not fit the {} page", paper.name));
        }
        let gw = cols as f64 * label_w;
        let x0 = (w - gw) / 2.0;
        let y0 = top + MARK_ROOM;
        let here = (all.len() - done).min(cols * rows);
        let used_rows = here.div_ceil(cols);
        for (k, l) in all[done..done + here].iter().enumerate() {
            let (row, col) = (k / cols, k % cols);
            draw_label(
                &mut pg,
                rs,
                sz,
                ph,
                l,
                x0 + col as f64 * label_w,
                y0 + row as f64 * label_h,
            )?;
        }
        done += here;
        let grid_bottom = y0 + used_rows as f64 * label_h;
        // The circuit label, once every pit and store label is placed, if it fits below.
        let head = super::wrap(
            &ph.get("labels.circuit_title"),
            circuit_head,
            Weight::Bold,
            gw - 6.0,
        );
        let head_h = head.len() as f64 * text::line_height_mm(circuit_head);
        let lh = text::line_height_mm(circuit_pt);
        let wrapped: Vec<Vec<String>> = circ
            .iter()
            .map(|s| super::wrap(s, circuit_pt, Weight::Regular, gw - 6.0))
            .collect();
        let circ_h = (4.0
            + head_h
            + 1.0
            + wrapped
                .iter()
                .map(|v| v.len() as f64 * lh + 0.8)
                .sum::<f64>())
        .max(label_h);
        // The circuit label goes right under a full last row, sharing its cut line; under a
        // short one it stands apart, with room for both blocks' crop marks, so no empty cell
        // is outlined beside the short row.
        let cy = if used_rows == 0 {
            y0
        } else if here.is_multiple_of(cols) {
            grid_bottom
        } else {
            grid_bottom + 2.0 * MARK_ROOM
        };
        let place_circuit = done == all.len() && cy + circ_h + MARK_ROOM <= bottom;
        // The pieces on this page: the labels placed, then the circuit label.
        let mut pieces = cut::grid(x0, y0, label_w, label_h, cols, here);
        if place_circuit {
            pieces.push((x0, cy, gw, circ_h));
        }
        cut::draw(&mut pg, &pieces);
        if place_circuit {
            let ty = cy + 2.5;
            let mut ty = super::set_lines(&mut pg, x0 + 3.0, ty, &head, circuit_head, Weight::Bold);
            ty += 1.0;
            for lines in &wrapped {
                ty = super::set_lines(&mut pg, x0 + 3.0, ty, lines, circuit_pt, Weight::Regular)
                    + 0.8;
            }
            circuit_done = true;
        } else if here == 0 {
            // Nothing placed and the circuit label does not fit an empty page.
            return Err(format!(
                "the circuit label does not fit the {} page",
                paper.name
            ));
        }
        pages.push(pg);
    }
    Ok(pages)
}
