//! The score log: one portrait page with numbered rows for a game, and a continuation sheet
//! numbered on, to print as often as a long game needs.
//!
//! Columns follow the ruleset: move number, round (only for a match in rounds, `[next_round]`,
//! whose seeds carry from round to round on a row of their own), player, pit (plus the way round when the mover
//! chooses the direction), where the last seed landed, extra turn (only with an extra-turn
//! rule), seeds captured (only with captures), one column per store (named by the store
//! labels), a race column when a store threshold ends the game, and a check column whose header
//! prints the total seeds every count must add up to.
use super::page::{self, MARGIN};
use super::phrases::Phrases;
use super::style::Sizes;
use super::{para, sheet_title, Paper};
use crate::doc::{line, rect, Color, Page, Stroke, Weight};
use crate::ruleset::{CaptureKind, Direction, NoLegalMove, Ruleset};
use crate::text;

/// Height of one log row in normal print, mm ([`Sizes::row_h`]).
pub const ROW_H: f64 = Sizes::NORMAL.row_h;

/// A log page named `name`: portrait, or in large print landscape, so the larger column heads
/// keep room to wrap.
fn sheet(name: &str, paper: Paper, sz: &Sizes) -> Page {
    if sz.large {
        page::landscape(name, paper)
    } else {
        page::portrait(name, paper)
    }
}

/// One column: its header and relative width.
struct Col {
    header: String,
    weight: f64,
}

/// The column headers of the log for `rs`, in order.
pub fn headers(rs: &Ruleset, ph: &Phrases) -> Vec<String> {
    columns(rs, ph).into_iter().map(|c| c.header).collect()
}

fn columns(rs: &Ruleset, ph: &Phrases) -> Vec<Col> {
    let mut c = vec![Col {
        header: ph.get("log.col.move"),
        weight: 0.8,
    }];
    // A match in rounds (`[next_round]`): which round each row belongs to.
    if rs.next_round.is_some() {
        c.push(Col {
            header: ph.get("log.col.round"),
            weight: 1.0,
        });
    }
    c.extend([
        Col {
            header: ph.get("log.col.player"),
            weight: 1.5,
        },
        Col {
            header: ph.get("log.col.pit"),
            weight: 1.2,
        },
    ]);
    if rs.sowing.direction == Direction::Either {
        c.push(Col {
            header: ph.get("log.col.direction"),
            weight: 1.8,
        });
    }
    c.push(Col {
        header: ph.get("log.col.last"),
        weight: 1.6,
    });
    if rs.extra_turn.last_in_own_store || rs.extra_turn.empty_pit_before_crossing {
        c.push(Col {
            header: ph.get("log.col.extra"),
            weight: 1.2,
        });
    }
    if rs.capture.kind != CaptureKind::None {
        c.push(Col {
            header: ph.get("log.col.captured"),
            weight: 1.4,
        });
    }
    for s in &rs.board.stores {
        c.push(Col {
            // A column head starts with a capital, as the others do ("Almacén Sur").
            header: super::board::capitalise(s),
            weight: 1.5,
        });
    }
    if let Some(t) = rs.end.threshold {
        c.push(Col {
            header: ph.fmt(
                "log.col.race",
                &[
                    ("n", &t.to_string()),
                    ("a", &rs.board.players[0]),
                    ("b", &rs.board.players[1]),
                ],
            ),
            weight: 1.8,
        });
    }
    c.push(Col {
        header: ph.fmt("log.col.check", &[("total", &rs.total_seeds().to_string())]),
        weight: 1.8,
    });
    c
}

/// Lays out the score log page (portrait `paper`; landscape in large print), in the type
/// sizes `sz`.
pub fn page(rs: &Ruleset, paper: Paper, sz: &Sizes, ph: &Phrases) -> Page {
    first_sheet(rs, paper, sz, ph).0
}

/// The first log page and the number of rows its table holds.
fn first_sheet(rs: &Ruleset, paper: Paper, sz: &Sizes, ph: &Phrases) -> (Page, usize) {
    let mut pg = sheet("log", paper, sz);
    let w = pg.width;
    let cw = w - 2.0 * MARGIN;
    let title = ph.fmt("log.title", &[("name", &rs.name)]);
    let mut y = sheet_title(&mut pg, sz, &title);
    y += 2.0;

    // Blanks for the players, the round (a match is several games) and the date.
    let size = if sz.large { sz.head } else { 9.0 };
    let base = y + text::ascent_mm(size);
    let mut x = MARGIN;
    let blanks: Vec<String> = vec![
        ph.fmt("log.player_blank", &[("player", &rs.board.players[0])]),
        ph.fmt("log.player_blank", &[("player", &rs.board.players[1])]),
        ph.get("log.round_blank"),
        ph.get("log.date_blank"),
    ];
    let slot = cw / blanks.len() as f64;
    for b in &blanks {
        let tw = text::width_mm(b, size, Weight::Bold).min(slot - 15.0);
        pg.text(x, base, size, Weight::Bold, b);
        pg.shape(
            line(
                crate::doc::pt(x + tw + 1.5, base + 0.8),
                crate::doc::pt(x + slot - 4.0, base + 0.8),
            ),
            None,
            Some(Stroke::solid(0.25, Color::BLACK)),
        );
        x += slot;
    }
    y = base + text::descent_mm(size) + 3.0;

    // Notes.
    let mut notes = vec![ph.fmt("log.note.how", &[("total", &rs.total_seeds().to_string())])];
    if let Some(t) = rs.end.threshold {
        notes.push(ph.fmt("log.note.threshold", &[("n", &t.to_string())]));
    }
    if rs.end.no_legal_move == NoLegalMove::Pass {
        notes.push(ph.get("log.note.pass"));
    }
    if rs.sowing.direction == Direction::Either {
        notes.push(ph.get("log.note.direction"));
    }
    if let Some(&max) = rs.board.seeds_per_pit_options.iter().max() {
        let pits = 2 * rs.board.pits_per_side;
        notes.push(ph.fmt(
            "log.note.options",
            &[
                ("pits", &pits.to_string()),
                ("max", &max.to_string()),
                ("max_total", &(pits * max as usize).to_string()),
            ],
        ));
    }
    notes.push(ph.get(if rs.next_round.is_some() {
        "log.note.carry"
    } else {
        "log.note.rounds"
    }));
    for n in &notes {
        y = para(&mut pg, MARGIN, y, sz.note, Weight::Regular, cw, n);
    }
    y += 2.0;
    let rows = table(&mut pg, rs, sz, ph, y, 1);
    (pg, rows)
}

/// Rows of the table on the first log page (the continuation sheet numbers on from the next).
pub fn first_page_rows(rs: &Ruleset, paper: Paper, sz: &Sizes, ph: &Phrases) -> usize {
    first_sheet(rs, paper, sz, ph).1
}

/// The score log's continuation sheet (as [`page`], page `log-2`): the same table on the
/// whole page, its rows numbered on from the first sheet's last row, for a game that runs past
/// it; a note says to print it as often as needed and number further copies on by hand.
pub fn continuation(rs: &Ruleset, paper: Paper, sz: &Sizes, ph: &Phrases) -> Page {
    let first = first_page_rows(rs, paper, sz, ph) + 1;
    let mut pg = sheet("log-2", paper, sz);
    let cw = pg.width - 2.0 * MARGIN;
    let title = ph.fmt("log.continued", &[("name", &rs.name)]);
    let mut y = sheet_title(&mut pg, sz, &title);
    y = para(
        &mut pg,
        MARGIN,
        y + 1.0,
        sz.note,
        Weight::Regular,
        cw,
        &ph.fmt("log.note.continued", &[("n", &first.to_string())]),
    );
    table(&mut pg, rs, sz, ph, y + 2.0, first);
    pg
}

/// Column widths across `cw` mm (large print): every column at least as wide as its longest
/// head word at `pt` bold (plus 2 mm of padding), so no word is broken; what is left is shared
/// by the columns' weights. When even the words do not fit, the weights alone.
fn fit_words(cols: &[Col], cw: f64, pt: f64) -> Vec<f64> {
    let least: Vec<f64> = cols
        .iter()
        .map(|c| {
            c.header
                .split_whitespace()
                .map(|w| text::width_mm(w, pt, Weight::Bold) + 2.5)
                .fold(0.0, f64::max)
        })
        .collect();
    let total_w: f64 = cols.iter().map(|c| c.weight).sum();
    let spare = cw - least.iter().sum::<f64>();
    if spare < 0.0 {
        return cols.iter().map(|c| c.weight / total_w * cw).collect();
    }
    cols.iter()
        .zip(&least)
        .map(|(c, l)| l + c.weight / total_w * spare)
        .collect()
}

/// Draws the log table from `y` down to the content bottom, rows numbered from `first`;
/// returns the number of rows.
fn table(pg: &mut Page, rs: &Ruleset, sz: &Sizes, ph: &Phrases, y: f64, first: usize) -> usize {
    let (cell, head_pt, row_h) = (sz.cell, sz.cell_head, sz.row_h);
    let (w, h) = (pg.width, pg.height);
    let cw = w - 2.0 * MARGIN;
    // Table header; the table sits half a millimetre inside the margin so its rules do too.
    let tx = MARGIN + 0.5;
    let cw = cw - 1.0;
    let cols = columns(rs, ph);
    let total_w: f64 = cols.iter().map(|c| c.weight).sum();
    let mut widths: Vec<f64> = cols.iter().map(|c| c.weight / total_w * cw).collect();
    if sz.large {
        widths = fit_words(&cols, cw, head_pt);
    }
    let wrapped: Vec<Vec<String>> = cols
        .iter()
        .zip(&widths)
        .map(|(c, w)| super::wrap(&c.header, head_pt, Weight::Bold, w - 2.0))
        .collect();
    let lh = text::line_height_mm(head_pt);
    let head_lines = wrapped.iter().map(|v| v.len()).max().unwrap_or(1) as f64;
    let head_h = head_lines * lh + 2.0;
    let bottom = page::content_bottom(h, sz);
    let rows = ((bottom - y - head_h) / row_h).floor().max(1.0) as usize;
    let table_h = head_h + rows as f64 * row_h;
    let thin = Stroke::solid(0.2, Color::BLACK);
    pg.shape(rect(tx, y, cw, head_h), Some(Color::grey(230)), None);
    let mut x = tx;
    for (lines, cw_i) in wrapped.iter().zip(&widths) {
        super::set_lines(pg, x + 1.0, y + 1.0, lines, head_pt, Weight::Bold);
        x += cw_i;
    }
    // Row numbers.
    for r in 0..rows {
        let ry = y + head_h + r as f64 * row_h;
        let s = (first + r).to_string();
        let base = ry + row_h / 2.0 + (text::ascent_mm(cell) - text::descent_mm(cell)) / 2.0;
        let tw = text::width_mm(&s, cell, Weight::Regular);
        pg.text(tx + widths[0] - 1.5 - tw, base, cell, Weight::Regular, &s);
    }
    // Grid.
    for r in 0..=rows {
        let ry = y + head_h + r as f64 * row_h;
        pg.shape(
            line(crate::doc::pt(tx, ry), crate::doc::pt(tx + cw, ry)),
            None,
            Some(thin.clone()),
        );
    }
    let mut x = tx;
    for cw_i in &widths[..widths.len() - 1] {
        x += cw_i;
        pg.shape(
            line(crate::doc::pt(x, y), crate::doc::pt(x, y + table_h)),
            None,
            Some(thin.clone()),
        );
    }
    pg.shape(
        rect(tx, y, cw, table_h),
        None,
        Some(Stroke::solid(0.4, Color::BLACK)),
    );
    rows
}
