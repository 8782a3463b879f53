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

/// One column: its header, relative width, and the shorter header (from the catalogue's
/// `log.short` table) used only when the full headers' words do not fit across the page.
#[derive(Clone)]
struct Col {
    header: String,
    weight: f64,
    short: Option<String>,
    /// The shorter header is a last resort: taken only when the heads do not fit otherwise,
    /// never just to save a line of head (a store's column named by its owner alone).
    last_resort: bool,
}

impl Col {
    /// A column with no shorter header.
    fn new(header: String, weight: f64) -> Col {
        Col {
            header,
            weight,
            short: None,
            last_resort: false,
        }
    }

    /// This column, with `short` as its shorter header.
    fn or_short(mut self, short: String) -> Col {
        self.short = Some(short);
        self
    }
}

/// The column headers of the log for `rs`, in order.
pub fn headers(rs: &Ruleset, ph: &Phrases) -> Vec<String> {
    columns(rs, ph).into_iter().map(|c| c.header).collect()
}

fn columns(rs: &Ruleset, ph: &Phrases) -> Vec<Col> {
    let total = rs.total_seeds().to_string();
    let mut c = vec![Col::new(ph.get("log.col.move"), 0.8)];
    // A match in rounds (`[next_round]`): which round each row belongs to.
    if rs.next_round.is_some() {
        c.push(Col::new(ph.get("log.col.round"), 1.0));
    }
    c.push(Col::new(ph.get("log.col.player"), 1.5));
    c.push(Col::new(ph.get("log.col.pit"), 1.2));
    if rs.sowing.direction == Direction::Either {
        c.push(Col::new(ph.get("log.col.direction"), 1.8).or_short(ph.get("log.short.direction")));
    }
    c.push(Col::new(ph.get("log.col.last"), 1.6).or_short(ph.get("log.short.last")));
    if rs.extra_turn.last_in_own_store || rs.extra_turn.empty_pit_before_crossing {
        c.push(Col::new(ph.get("log.col.extra"), 1.2).or_short(ph.get("log.short.extra")));
    }
    if rs.capture.kind != CaptureKind::None {
        c.push(Col::new(ph.get("log.col.captured"), 1.4).or_short(ph.get("log.short.captured")));
    }
    for (s, player) in rs.board.stores.iter().zip(&rs.board.players) {
        // A column head starts with a capital, as the others do ("Almacén Sur").
        c.push(Col {
            last_resort: true,
            ..Col::new(super::board::capitalise(s), 1.5).or_short(super::board::capitalise(
                &ph.fmt("log.short.store", &[("store", s), ("player", player)]),
            ))
        });
    }
    if let Some(t) = rs.end.threshold {
        c.push(Col::new(
            ph.fmt(
                "log.col.race",
                &[
                    ("n", &t.to_string()),
                    ("a", &rs.board.players[0]),
                    ("b", &rs.board.players[1]),
                ],
            ),
            1.8,
        ));
    }
    c.push(
        Col::new(ph.fmt("log.col.check", &[("total", &total)]), 1.8)
            .or_short(ph.fmt("log.short.check", &[("total", &total)])),
    );
    c
}

/// Lays out the score log page (portrait `paper`; landscape in large print), in the type
/// sizes `sz`.
pub fn page(rs: &Ruleset, paper: Paper, sz: &Sizes, ph: &Phrases) -> Page {
    first_sheet(rs, paper, sz, ph).0
}

/// The notes under the blanks of the first log sheet, in order.
fn notes(rs: &Ruleset, ph: &Phrases) -> Vec<String> {
    let mut notes = vec![ph.fmt("log.note.how", &[("total", &rs.total_seeds().to_string())])];
    if let Some(t) = rs.end.threshold {
        // Reaching more than half the seeds wins outright; a lower threshold only ends the
        // game (the final count, after the sweep, decides).
        let key = if 2 * u32::from(t) > rs.total_seeds() {
            "log.note.threshold"
        } else {
            "log.note.threshold_low"
        };
        notes.push(ph.fmt(key, &[("n", &t.to_string())]));
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
    notes
}

/// Large print: the fewest table rows the first log sheet keeps; when its notes would leave
/// fewer, the last notes move to the continuation sheet (one at a time, the first note
/// always stays) and the first sheet says where they went.
pub const LARGE_FIRST_ROWS: usize = 10;

/// The first log page, the number of rows its table holds, and how many of the [`notes`] it
/// carries (the rest are on the continuation sheet).
fn first_sheet(rs: &Ruleset, paper: Paper, sz: &Sizes, ph: &Phrases) -> (Page, usize, usize) {
    let all = notes(rs, ph).len();
    if !sz.large {
        let (pg, rows) = first_sheet_with(rs, paper, sz, ph, all);
        return (pg, rows, all);
    }
    for kept in (1..=all).rev() {
        let (pg, rows) = first_sheet_with(rs, paper, sz, ph, kept);
        if rows >= LARGE_FIRST_ROWS || kept == 1 {
            return (pg, rows, kept);
        }
    }
    let (pg, rows) = first_sheet_with(rs, paper, sz, ph, all);
    (pg, rows, all)
}

/// The first log page with the first `kept` notes, and the number of rows its table holds.
fn first_sheet_with(
    rs: &Ruleset,
    paper: Paper,
    sz: &Sizes,
    ph: &Phrases,
    kept: usize,
) -> (Page, usize) {
    let mut pg = sheet("log", paper, sz);
    let w = pg.width;
    let cw = w - 2.0 * MARGIN;
    let title = ph.fmt("log.title", &[("name", &rs.name)]);
    let mut y = sheet_title(&mut pg, sz, &title);
    y += 2.0;

    // Blanks for the players, the round (a match is several games; not when the log has
    // a Round column, a match in rounds kept on one log) and the date.
    let mut blanks: Vec<(String, f64)> = vec![
        (
            ph.fmt("log.player_blank", &[("player", &rs.board.players[0])]),
            NAME_LINE,
        ),
        (
            ph.fmt("log.player_blank", &[("player", &rs.board.players[1])]),
            NAME_LINE,
        ),
    ];
    // Each blank's line in normal print: `None` for a name (the names share what the others
    // leave), else its own length.
    let mut normal: Vec<Option<f64>> = vec![None, None];
    if rs.next_round.is_none() {
        blanks.push((ph.get("log.round_blank"), ROUND_LINE));
        normal.push(Some(ROUND_LINE_NORMAL));
    }
    blanks.push((ph.get("log.date_blank"), DATE_LINE));
    normal.push(Some(DATE_LINE_NORMAL));
    if sz.large {
        y = large_blanks(&mut pg, y, sz.head, &blanks);
    } else {
        let size = 9.0;
        let base = y + text::ascent_mm(size);
        let widths: Vec<f64> = blanks
            .iter()
            .map(|(b, _)| text::width_mm(b, size, Weight::Bold))
            .collect();
        // A name needs more room than a round number or a date: those get their own lines
        // ([`ROUND_LINE_NORMAL`], [`DATE_LINE_NORMAL`]) and the players share what is left.
        // When that leaves a name less than [`NAME_LINE_NORMAL`] (long labels, narrow paper)
        // every blank gets an equal slot instead.
        let fixed: f64 = normal.iter().flatten().sum();
        // 1.5 mm after each label, 4 mm after each line (the last line ends 4 mm inside the
        // margin, as the even slots have it).
        let gaps = blanks.len() as f64 * (1.5 + 4.0);
        let name = (cw - widths.iter().sum::<f64>() - gaps - fixed) / 2.0;
        let mut x = MARGIN;
        if name >= NAME_LINE_NORMAL {
            for (((b, _), tw), own) in blanks.iter().zip(&widths).zip(&normal) {
                let len = own.unwrap_or(name);
                pg.text(x, base, size, Weight::Bold, b);
                blank_line(&mut pg, x + tw + 1.5, x + tw + 1.5 + len, base + 0.8);
                x += tw + 1.5 + len + 4.0;
            }
        } else {
            let slot = cw / blanks.len() as f64;
            for ((b, _), tw) in blanks.iter().zip(&widths) {
                let tw = tw.min(slot - 15.0);
                pg.text(x, base, size, Weight::Bold, b);
                blank_line(&mut pg, x + tw + 1.5, x + slot - 4.0, base + 0.8);
                x += slot;
            }
        }
        y = base + text::descent_mm(size) + 3.0;
    }

    // Notes: the first `kept`, and a pointer to the rest on the continuation sheet.
    let all = notes(rs, ph);
    let mut here: Vec<String> = all[..kept.min(all.len())].to_vec();
    if kept < all.len() {
        here.push(ph.get("log.note.more"));
    }
    for n in &here {
        y = para(&mut pg, MARGIN, y, sz.note, Weight::Regular, cw, n);
    }
    y += 2.0;
    let rows = table(&mut pg, rs, sz, ph, y, 1);
    (pg, rows)
}

/// Large print: the writing space of each blank, mm: its line lies this far below the top
/// of its row (the label sits on the line), room for a name handwritten at the size large
/// body text needs.
pub const BLANK_H: f64 = 12.0;
/// Large print: the shortest line of a player's name blank, mm.
pub const NAME_LINE: f64 = 60.0;
/// Large print: the shortest line of the round blank, mm.
pub const ROUND_LINE: f64 = 18.0;
/// Large print: the shortest line of the date blank, mm.
pub const DATE_LINE: f64 = 40.0;
/// Normal print: the least line of a player's name blank, mm (with less, the blanks share the
/// width evenly).
pub const NAME_LINE_NORMAL: f64 = 25.0;
/// Normal print: the line of the round blank (a game's number), mm.
pub const ROUND_LINE_NORMAL: f64 = 12.0;
/// Normal print: the line of the date blank, mm.
pub const DATE_LINE_NORMAL: f64 = 25.0;
/// Space between a blank's label and its line, and after the line, mm.
const BLANK_GAP: (f64, f64) = (1.5, 6.0);

/// Draws a blank's writing line from `x0` to `x1` at height `y`.
fn blank_line(pg: &mut Page, x0: f64, x1: f64, y: f64) {
    pg.shape(
        line(crate::doc::pt(x0, y), crate::doc::pt(x1, y)),
        None,
        Some(Stroke::solid(0.25, Color::BLACK)),
    );
}

/// Large print: sets the `blanks` (label, shortest line in mm) from `top` in rows of
/// [`BLANK_H`] mm: as few rows as hold them with their shortest lines across the width between
/// the margins, the blanks shared evenly between them; each line then lengthened by an equal share of what the row has left, labels at
/// `pt` bold on the line; returns the y below the last row.
fn large_blanks(pg: &mut Page, top: f64, pt: f64, blanks: &[(String, f64)]) -> f64 {
    let cw = pg.width - 2.0 * MARGIN;
    let need = |(label, min): &(String, f64)| {
        text::width_mm(label, pt, Weight::Bold) + BLANK_GAP.0 + min + BLANK_GAP.1
    };
    // The fewest rows of an even share of blanks each (2 + 2 rather than 3 + 1) in which
    // every blank keeps its shortest line.
    let fits = |row: &[(String, f64)]| row.iter().map(need).sum::<f64>() <= cw + BLANK_GAP.1;
    let per = (1..=blanks.len())
        .rev()
        .find(|&k| blanks.chunks(k).all(fits))
        .unwrap_or(1);
    let per = blanks.len().div_ceil(blanks.len().div_ceil(per));
    let rows: Vec<&[(String, f64)]> = blanks.chunks(per).collect();
    let mut y = top;
    for row in &rows {
        let base = y + BLANK_H;
        let fill: f64 = row.iter().map(need).sum::<f64>() - BLANK_GAP.1;
        let extra = ((cw - fill) / row.len() as f64).max(0.0);
        let mut x = MARGIN;
        for (label, min) in row.iter() {
            let tw = text::width_mm(label, pt, Weight::Bold);
            pg.text(x, base, pt, Weight::Bold, label);
            let x0 = x + tw + BLANK_GAP.0;
            let x1 = (x0 + min + extra).min(MARGIN + cw - 0.5);
            blank_line(pg, x0, x1, base + 0.8);
            x = x1 + BLANK_GAP.1;
        }
        y = base + text::descent_mm(pt);
    }
    y + 3.0
}

/// Rows of the table on the first log page (the continuation sheet numbers on from the next).
pub fn first_page_rows(rs: &Ruleset, paper: Paper, sz: &Sizes, ph: &Phrases) -> usize {
    first_sheet(rs, paper, sz, ph).1
}

/// The score log's continuation sheet (as [`page`], page `log-2`): the same table on the
/// whole page, its rows numbered on from the first sheet's last row, for a game that runs past
/// it; a note says to print it as often as needed and number further copies on by hand.
pub fn continuation(rs: &Ruleset, paper: Paper, sz: &Sizes, ph: &Phrases) -> Page {
    let (_, rows, kept) = first_sheet(rs, paper, sz, ph);
    let first = rows + 1;
    let mut pg = sheet("log-2", paper, sz);
    let cw = pg.width - 2.0 * MARGIN;
    let title = ph.fmt("log.continued", &[("name", &rs.name)]);
    let mut y = sheet_title(&mut pg, sz, &title);
    y += 1.0;
    let mut here = vec![ph.fmt("log.note.continued", &[("n", &first.to_string())])];
    // The notes the first sheet had no room for (large print).
    here.extend(notes(rs, ph).into_iter().skip(kept));
    for n in &here {
        y = para(&mut pg, MARGIN, y, sz.note, Weight::Regular, cw, n);
    }
    table(&mut pg, rs, sz, ph, y + 2.0, first);
    pg
}

/// The widest word of `header` at `pt` bold plus the 2.5 mm a column keeps clear around it,
/// mm: the narrowest the column can be without breaking a word.
fn least_width(header: &str, pt: f64, pad: f64) -> f64 {
    header
        .split_whitespace()
        .map(|w| text::width_mm(w, pt, Weight::Bold) + 2.0 * pad + 0.5)
        .fold(0.0, f64::max)
}

/// Large print: the narrowest column, as a multiple of the row height: room to write a number
/// by hand (a 9 mm row gives 10.8 mm).
const LARGE_MIN_COL: f64 = 1.2;

/// The narrowest width, from `least` up, at which `header` at `pt` bold wraps onto at most
/// `lines` lines inside the column's 2 mm of padding (to 0.25 mm); `None` if no width under
/// its one-line width does.
fn width_for_lines(header: &str, pt: f64, lines: usize, least: f64, pad: f64) -> f64 {
    let one = text::width_mm(header, pt, Weight::Bold) + 2.0 * pad + 0.5;
    if one <= least {
        return least;
    }
    let fits = |w: f64| super::wrap(header, pt, Weight::Bold, w - 2.0 * pad).len() <= lines;
    if fits(least) {
        return least;
    }
    let (mut lo, mut hi) = (least, one);
    while hi - lo > 0.25 {
        let mid = (lo + hi) / 2.0;
        if fits(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// Column widths across `cw` mm: every column at least as wide as its longest head word at
/// `pt` bold (plus padding, [`least_width`]), so no word is ever broken. In normal print
/// the columns' weights share `cw` when that already holds every word. In large print every
/// column is also wide enough to write in ([`LARGE_MIN_COL`]) and the widths make the head
/// as few lines tall as they can; what is left is shared by the weights. `None` when the
/// words alone are wider than `cw`.
fn fit_words(cols: &[Col], cw: f64, pt: f64, sz: &Sizes, pad: f64) -> Option<Vec<f64>> {
    let floor = if sz.large {
        LARGE_MIN_COL * sz.row_h
    } else {
        0.0
    };
    let least: Vec<f64> = cols
        .iter()
        .map(|c| least_width(&c.header, pt, pad).max(floor))
        .collect();
    let total_w: f64 = cols.iter().map(|c| c.weight).sum();
    if least.iter().sum::<f64>() > cw {
        return None;
    }
    let plain: Vec<f64> = cols.iter().map(|c| c.weight / total_w * cw).collect();
    if !sz.large && plain.iter().zip(&least).all(|(p, l)| p >= l) {
        return Some(plain);
    }
    // The fewest head lines the width allows (large print), then the weights share the rest.
    let most = cols
        .iter()
        .map(|c| c.header.split_whitespace().count())
        .max()
        .unwrap_or(1);
    let mut need = least.clone();
    if sz.large {
        for k in 1..=most {
            let w: Vec<f64> = cols
                .iter()
                .zip(&least)
                .map(|(c, l)| width_for_lines(&c.header, pt, k, *l, pad))
                .collect();
            if w.iter().sum::<f64>() <= cw {
                need = w;
                break;
            }
        }
    }
    let spare = cw - need.iter().sum::<f64>();
    Some(
        cols.iter()
            .zip(&need)
            .map(|(c, l)| l + c.weight / total_w * spare)
            .collect(),
    )
}

/// The smallest column head size allowed, pt: [`Sizes::cell_head`] in large print (labels
/// never shrink below it), 6 pt in normal print.
fn least_head_pt(sz: &Sizes) -> f64 {
    if sz.large {
        sz.cell_head
    } else {
        6.0
    }
}

/// Lines the tallest column head takes at `pt` bold in columns `widths` wide.
fn head_lines(cols: &[Col], widths: &[f64], pt: f64, pad: f64) -> usize {
    cols.iter()
        .zip(widths)
        .map(|(c, w)| super::wrap(&c.header, pt, Weight::Bold, w - 2.0 * pad).len())
        .max()
        .unwrap_or(1)
}

/// Fits the column heads across `cw` mm without breaking a word, trying in turn: the full
/// heads at [`Sizes::cell_head`]; smaller sizes in half points down to [`least_head_pt`]; then,
/// at that size, the shorter heads of the catalogue's `log.short` table, the column that saves
/// most first, until they fit. In large print the shorter heads are also taken while each
/// makes the head a line less tall (a line of head is a row of the table). Returns the columns
/// (heads as printed), their widths and the head size; when even the shortest heads do not
/// fit, their weights share `cw` and a head word may be split (a ruleset with very long store
/// names on a narrow page).
fn fit_heads(mut cols: Vec<Col>, cw: f64, sz: &Sizes, pad: f64) -> (Vec<Col>, Vec<f64>, f64, bool) {
    let mut pt = sz.cell_head;
    let least = least_head_pt(sz);
    let mut best: Option<(Vec<Col>, Vec<f64>, usize)> = None;
    loop {
        if let Some(w) = fit_words(&cols, cw, pt, sz, pad) {
            if !sz.large {
                return (cols, w, pt, true);
            }
            let lines = head_lines(&cols, &w, pt, pad);
            best = Some((cols.clone(), w, lines));
            break;
        }
        if pt - 0.5 < least - 1e-9 {
            break;
        }
        pt -= 0.5;
    }
    let floor = if sz.large {
        LARGE_MIN_COL * sz.row_h
    } else {
        0.0
    };
    loop {
        // The column whose shorter head saves the most width; last resorts only while the
        // heads do not fit at all.
        let resort = best.is_some();
        let pick = cols
            .iter()
            .enumerate()
            .filter(|(_, c)| !(resort && c.last_resort))
            .filter_map(|(i, c)| {
                let short = c.short.as_ref()?;
                let saves = least_width(&c.header, pt, pad).max(floor)
                    - least_width(short, pt, pad).max(floor);
                (saves > 1e-9).then_some((i, saves))
            })
            .max_by(|a, b| {
                (!cols[a.0].last_resort)
                    .cmp(&!cols[b.0].last_resort)
                    .then(a.1.total_cmp(&b.1))
                    .then(b.0.cmp(&a.0))
            });
        let Some((i, _)) = pick else { break };
        let short = cols[i].short.take().unwrap_or_default();
        cols[i].header = short;
        if let Some(w) = fit_words(&cols, cw, pt, sz, pad) {
            if !sz.large {
                return (cols, w, pt, true);
            }
            let lines = head_lines(&cols, &w, pt, pad);
            if best.as_ref().is_none_or(|b| lines < b.2) {
                best = Some((cols.clone(), w, lines));
            }
        }
    }
    if let Some((cols, w, _)) = best {
        return (cols, w, pt, true);
    }
    let total_w: f64 = cols.iter().map(|c| c.weight).sum();
    let w = cols.iter().map(|c| c.weight / total_w * cw).collect();
    (cols, w, pt, false)
}

/// Space between a column head and the rules around it, mm: each side, and above and below
/// the head's lines. Large print keeps 2 mm (its 18 pt heads touched the rules at 1 mm),
/// less at the sides (to 1 mm) only where the heads' words would not fit otherwise.
fn head_pad(sz: &Sizes) -> f64 {
    if sz.large {
        2.0
    } else {
        1.0
    }
}

/// Large print: the clear space the log table keeps above the calibration bar, beyond the
/// page's own [`page::BAR_CLEAR`], mm (its foot ran within 2.5 mm of the bar).
pub const LARGE_BAR_GAP: f64 = 3.0;

/// Space between a move number and the rule to its right, mm (as much again is kept to its
/// left, [`number_width`]).
const NUMBER_PAD: f64 = 1.5;

/// The width the move-number column needs for numbers up to `last` at `pt`, mm: the widest
/// number (digits are all one width) with [`NUMBER_PAD`] each side.
fn number_width(last: usize, pt: f64) -> f64 {
    text::width_mm(&last.to_string(), pt, Weight::Regular) + 2.0 * NUMBER_PAD
}

/// `widths` with the first column (the move numbers) at least `need` mm wide: what it lacks
/// is taken from the other columns in proportion to their room beyond their longest head
/// word at `pt` ([`least_width`]), never below it; as much as they can give when that is not
/// enough (the fit check then refuses a number that still sticks out).
fn widen_first(cols: &[Col], mut widths: Vec<f64>, need: f64, pt: f64, pad: f64) -> Vec<f64> {
    let lack = need - widths[0];
    if lack <= 0.0 {
        return widths;
    }
    let slack: Vec<f64> = cols
        .iter()
        .zip(&widths)
        .skip(1)
        .map(|(c, w)| (w - least_width(&c.header, pt, pad)).max(0.0))
        .collect();
    let total: f64 = slack.iter().sum();
    if total <= 1e-9 {
        return widths;
    }
    let take = lack.min(total);
    for (w, s) in widths.iter_mut().skip(1).zip(&slack) {
        *w -= take * s / total;
    }
    widths[0] += take;
    widths
}

/// Draws the log table from `y` down to the content bottom, rows numbered from `first`;
/// returns the number of rows.
fn table(pg: &mut Page, rs: &Ruleset, sz: &Sizes, ph: &Phrases, y: f64, first: usize) -> usize {
    let (cell, row_h) = (sz.cell, sz.row_h);
    let (w, h) = (pg.width, pg.height);
    let cw = w - 2.0 * MARGIN;
    // Table header; the table sits half a millimetre inside the margin so its rules do too.
    let tx = MARGIN + 0.5;
    let cw = cw - 1.0;
    // The most padding (down to normal print's 1 mm) at which every head word still fits.
    let mut pad = head_pad(sz);
    let (cols, widths, head_pt) = loop {
        let (cols, widths, pt, fitted) = fit_heads(columns(rs, ph), cw, sz, pad);
        if fitted || pad <= 1.0 {
            break (cols, widths, pt);
        }
        pad -= 0.5;
    };
    let vpad = head_pad(sz);
    let bottom = page::content_bottom(w, h, sz) - if sz.large { LARGE_BAR_GAP } else { 0.0 };
    // The move numbers' column holds the sheet's widest number (a tall narrow paper's
    // continuation sheet runs past 99: "100" stuck out of a column sized by its head).
    let most_rows = ((bottom - y) / row_h).floor().max(1.0) as usize;
    let widths = widen_first(
        &cols,
        widths,
        number_width(first + most_rows - 1, cell),
        head_pt,
        pad,
    );
    let wrapped: Vec<Vec<String>> = cols
        .iter()
        .zip(&widths)
        .map(|(c, w)| super::wrap(&c.header, head_pt, Weight::Bold, w - 2.0 * pad))
        .collect();
    let lh = text::line_height_mm(head_pt);
    let head_lines = wrapped.iter().map(|v| v.len()).max().unwrap_or(1) as f64;
    let head_h = head_lines * lh + 2.0 * vpad;
    let rows = ((bottom - y - head_h) / row_h).floor().max(1.0) as usize;
    // Large print: the rows share what is left below the last one (up to almost a 9 mm
    // row), so the table reaches the foot of the page; never shorter than `sz.row_h`.
    let row_h = if sz.large {
        ((bottom - y - head_h) / rows as f64).max(row_h)
    } else {
        row_h
    };
    let table_h = head_h + rows as f64 * row_h;
    let thin = Stroke::solid(0.2, Color::BLACK);
    pg.shape(rect(tx, y, cw, head_h), Some(Color::grey(230)), None);
    let mut x = tx;
    for (lines, cw_i) in wrapped.iter().zip(&widths) {
        super::set_lines(pg, x + pad, y + vpad, lines, head_pt, Weight::Bold);
        x += cw_i;
    }
    // Row numbers.
    for r in 0..rows {
        let ry = y + head_h + r as f64 * row_h;
        let s = (first + r).to_string();
        let base = ry + row_h / 2.0 + (text::ascent_mm(cell) - text::descent_mm(cell)) / 2.0;
        let tw = text::width_mm(&s, cell, Weight::Regular);
        pg.text(
            tx + widths[0] - NUMBER_PAD - tw,
            base,
            cell,
            Weight::Regular,
            &s,
        );
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
