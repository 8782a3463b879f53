//! The board sheet: the board at 100% scale on a landscape page, with the labeled sowing
//! circuit.
//!
//! Geometry (hole numbering as in [`crate::engine`]): side 0's pits run left to right along the
//! bottom row, its store at the right end; side 1's pits run right to left along the top row,
//! its store at the left end, so the circuit order (side 0's pits, store 0, side 1's pits,
//! store 1) goes counter-clockwise round the board and pit `i` of side 0 sits under its
//! opposite pit `n-1-i` of side 1. Numbered arrows hop outside the rows from each sown hole to
//! the next; a store one player passes by gets a dashed bypass arrow and a ⊘ note; stores no one
//! sows stand apart as capture stores. Side 1's pits and store carry a double ring, so the
//! sides differ by pattern and by the names on their rows, never by colour alone.
/// Smallest pit diameter, mm, the board may be shrunk to: a 10 mm pit still holds a small paper counter and its label.
const MIN_PLAYABLE_PIT: f64 = 10.0;

use super::page::{self, MARGIN};
use super::phrases::{join_and, Phrases};
use super::{centred, centred_mid, para, Paper};
use crate::doc::pt as p;
use crate::doc::{circle, line, rect, rounded_rect, Color, Page, Pt, Seg, Stroke, Weight};
use crate::ruleset::{CaptureKind, Chain, Direction, Include, Ruleset};
use crate::text;

/// Outline stroke of pits and stores, mm.
const OUTLINE: f64 = 0.5;
/// Stroke of circuit arrows, mm.
const ARROW_W: f64 = 0.45;
/// Radius of the numbered circle on each circuit arrow, mm.
const NUM_R: f64 = 2.5;
/// How far a row arrow's control points reach out from the pit edge, mm.
const HOP: f64 = 8.0;
/// Space kept outside each row for the arrows and their numbers, mm.
const ARC_SPACE: f64 = 11.0;
/// Row caption size, pt.
const CAPTION_PT: f64 = 9.0;
/// Padding inside the cut line, mm.
const PAD: f64 = 4.0;
/// Offset of the double ring inside side 1's pits and store, mm.
const RING: f64 = 1.6;

/// Holes of the printed circuit in sowing order, starting at side 0's first pit: every hole some
/// player sows into. Counter-clockwise games follow the circuit order, clockwise games run
/// against it; "either" is drawn in circuit order with arrows both ways.
pub fn circuit(rs: &Ruleset) -> Vec<u8> {
    let n = rs.board.pits_per_side;
    let mut holes: Vec<u8> = Vec::new();
    for side in 0..2usize {
        for i in 0..n {
            holes.push((side * n + i) as u8);
        }
        if store_sown_by(rs, side).iter().any(|b| *b) {
            holes.push((2 * n + side) as u8);
        }
    }
    if rs.sowing.direction == Direction::Clockwise {
        holes[1..].reverse();
    }
    holes
}

/// Whether store `side` is sown into by (side 0, side 1).
pub fn store_sown_by(rs: &Ruleset, side: usize) -> [bool; 2] {
    let own = rs.sowing.own_store == Include::Sow;
    let opp = rs.sowing.opponent_store == Include::Sow;
    if side == 0 {
        [own, opp]
    } else {
        [opp, own]
    }
}

/// The label of hole `h` (pit labels, then the two store labels).
pub fn hole_label(rs: &Ruleset, h: usize) -> String {
    let n = rs.board.pits_per_side;
    if h < 2 * n {
        rs.board.pit_labels[h / n.max(1)][h % n.max(1)].clone()
    } else {
        rs.board.stores[(h - 2 * n).min(1)].clone()
    }
}

/// Board measurements after fitting, mm.
#[derive(Clone, Debug, PartialEq)]
pub struct Geometry {
    /// Pits per row.
    pub n: usize,
    /// Pit diameter as printed.
    pub d: f64,
    /// Gap between neighbouring pits as printed.
    pub gap: f64,
    /// Gap between the two rows.
    pub row_gap: f64,
    /// Store width (along the rows) and height (across both rows).
    pub store_w: f64,
    /// Store height.
    pub store_h: f64,
    /// Gap between the end pit column and a store.
    pub end_gap: f64,
    /// Board centre on the page.
    pub cx: f64,
    /// Board centre on the page.
    pub cy: f64,
    /// Scale applied to the ruleset's sizes (1 = as asked).
    pub scale: f64,
}

impl Geometry {
    fn new(rs: &Ruleset, s: f64, end_gap: f64) -> Geometry {
        let l = &rs.layout;
        let d = l.pit_diameter * s;
        let gap = l.pit_gap.max(0.0) * s;
        let row_gap = (l.pit_gap * s).max(8.0);
        Geometry {
            n: rs.board.pits_per_side,
            d,
            gap,
            row_gap,
            store_w: d.max(20.0 * s),
            store_h: (l.store_length * s).max(d),
            end_gap,
            cx: 0.0,
            cy: 0.0,
            scale: s,
        }
    }

    /// Width of the pits and stores block, mm.
    fn core_w(&self) -> f64 {
        let n = self.n as f64;
        (n - 1.0) * (self.d + self.gap) + self.d + 2.0 * (self.end_gap + self.store_w)
    }

    /// Height of the pits and stores block, mm.
    fn core_h(&self) -> f64 {
        (2.0 * self.d + self.row_gap).max(self.store_h)
    }

    /// The cut-out size, mm.
    pub fn cut_size(&self) -> (f64, f64) {
        let cap = text::line_height_mm(CAPTION_PT) + 1.0;
        (
            self.core_w() + 2.0 * PAD,
            self.core_h() + 2.0 * (ARC_SPACE + cap + PAD),
        )
    }

    /// Centre of pit hole `h` (`0..2n`).
    pub fn pit_centre(&self, h: usize) -> Pt {
        let n = self.n;
        let (side, i) = (h / n, h % n);
        let col = if side == 0 { i } else { n - 1 - i };
        let x = self.cx + (col as f64 - (n as f64 - 1.0) / 2.0) * (self.d + self.gap);
        let dy = (self.d + self.row_gap) / 2.0;
        p(
            x,
            if side == 0 {
                self.cy + dy
            } else {
                self.cy - dy
            },
        )
    }

    /// Store rectangle of `side`: (x, y, w, h).
    pub fn store_rect(&self, side: usize) -> (f64, f64, f64, f64) {
        let half_pits = (self.n as f64 - 1.0) / 2.0 * (self.d + self.gap) + self.d / 2.0;
        let x = if side == 0 {
            self.cx + half_pits + self.end_gap
        } else {
            self.cx - half_pits - self.end_gap - self.store_w
        };
        (x, self.cy - self.store_h / 2.0, self.store_w, self.store_h)
    }

    /// The cut-out rectangle: (x, y, w, h).
    pub fn cut_rect(&self) -> (f64, f64, f64, f64) {
        let (w, h) = self.cut_size();
        (self.cx - w / 2.0, self.cy - h / 2.0, w, h)
    }
}

/// One arrow of the drawing: a cubic from `a` to `b` with controls `c1`, `c2`.
#[derive(Clone, Copy, Debug)]
struct Hop {
    a: Pt,
    c1: Pt,
    c2: Pt,
    b: Pt,
}

impl Hop {
    fn mid(&self) -> Pt {
        p(
            (self.a.x + 3.0 * self.c1.x + 3.0 * self.c2.x + self.b.x) / 8.0,
            (self.a.y + 3.0 * self.c1.y + 3.0 * self.c2.y + self.b.y) / 8.0,
        )
    }
}

fn unit(dx: f64, dy: f64) -> (f64, f64) {
    let l = (dx * dx + dy * dy).sqrt();
    if l < 1e-9 {
        (1.0, 0.0)
    } else {
        (dx / l, dy / l)
    }
}

/// A filled arrowhead with its tip at `tip`, pointing along (`dx`, `dy`).
pub(crate) fn arrowhead(page: &mut Page, tip: Pt, dx: f64, dy: f64, len: f64) {
    let (ux, uy) = unit(dx, dy);
    let (bx, by) = (tip.x - ux * len, tip.y - uy * len);
    let hw = len * 0.45;
    page.shape(
        vec![
            Seg::MoveTo(tip),
            Seg::LineTo(p(bx - uy * hw, by + ux * hw)),
            Seg::LineTo(p(bx + uy * hw, by - ux * hw)),
            Seg::Close,
        ],
        Some(Color::BLACK),
        None,
    );
}

/// Draws a hop as a curve with an arrowhead at `b` (and at `a` when `both`).
fn draw_hop(page: &mut Page, h: &Hop, stroke: Stroke, both: bool) {
    let head = 2.4;
    let (ux, uy) = unit(h.b.x - h.c2.x, h.b.y - h.c2.y);
    let b = p(h.b.x - ux * head * 0.8, h.b.y - uy * head * 0.8);
    let (vx, vy) = unit(h.a.x - h.c1.x, h.a.y - h.c1.y);
    let a = if both {
        p(h.a.x - vx * head * 0.8, h.a.y - vy * head * 0.8)
    } else {
        h.a
    };
    page.shape(
        vec![Seg::MoveTo(a), Seg::CubicTo(h.c1, h.c2, b)],
        None,
        Some(stroke),
    );
    arrowhead(page, h.b, ux, uy, head);
    if both {
        arrowhead(page, h.a, vx, vy, head);
    }
}

/// Geometry of the hop between holes `from` and `to` (neighbours on the circuit). `ccw_from`
/// is whichever of the two comes first in counter-clockwise circuit order (decides which end a
/// turn between rows uses).
fn hop(g: &Geometry, from: usize, to: usize, ccw_from: usize) -> Hop {
    let n = g.n;
    let r = g.d / 2.0;
    let is_store = |h: usize| h >= 2 * n;
    let row_out = |h: usize| if h < n { 1.0 } else { -1.0 };
    let anchor = |h: usize, other: usize| -> (Pt, Pt) {
        if is_store(h) {
            let (x, y, w, hh) = g.store_rect(h - 2 * n);
            let out = row_out(other);
            let a = p(x + w / 2.0, if out > 0.0 { y + hh } else { y });
            let reach = (g.cy + out * (g.core_h() / 2.0 + HOP * 0.8) - a.y) * 4.0 / 3.0;
            (a, p(a.x, a.y + reach))
        } else {
            let c = g.pit_centre(h);
            let out = row_out(h);
            if is_store(other) {
                let sx = if other - 2 * n == 0 { 1.0 } else { -1.0 };
                let k = std::f64::consts::FRAC_1_SQRT_2;
                let a = p(c.x + sx * r * k, c.y + out * r * k);
                let reach = (g.cy + out * (g.core_h() / 2.0 + HOP * 0.8) - a.y) * 4.0 / 3.0;
                (a, p(a.x, a.y + reach))
            } else if (h < n) == (other < n) {
                let o = g.pit_centre(other);
                let sx = if o.x > c.x { 1.0 } else { -1.0 };
                let a = p(c.x + sx * r * 0.5, c.y + out * r * 0.866);
                (a, p(a.x, a.y + out * HOP))
            } else {
                // Turn between the rows at one end: right end when leaving side 0
                // counter-clockwise.
                let sx = if ccw_from < n { 1.0 } else { -1.0 };
                let a = p(c.x + sx * r, c.y);
                let k = (g.end_gap - 1.0) * 4.0 / 3.0 - NUM_R;
                (a, p(a.x + sx * k.max(2.0), a.y))
            }
        }
    };
    let (a, c1) = anchor(from, to);
    let (b, c2) = anchor(to, from);
    Hop { a, c1, c2, b }
}

/// Lays out the board page (landscape `paper`). Errors when even a much smaller board does not
/// fit the page.
pub fn page(rs: &Ruleset, paper: Paper, ph: &Phrases) -> Result<Page, String> {
    let mut pg = page::landscape("board", paper);
    let (w, h) = (pg.width, pg.height);
    let n = rs.board.pits_per_side;
    if n == 0 {
        return Err("the board has no pits".into());
    }
    let content_w = w - 2.0 * MARGIN;
    // Title.
    let title = ph.fmt("board.title", &[("name", &rs.name)]);
    let mut y = para(
        &mut pg,
        MARGIN,
        MARGIN,
        14.0,
        Weight::Bold,
        content_w,
        &title,
    );
    // Room above the cut line for the scissors.
    y += 3.0;

    let circ = circuit(rs);
    let any_out = (0..2).any(|s| !store_sown_by(rs, s).iter().any(|b| *b));
    let any_bypass = (0..2).any(|s| {
        let by = store_sown_by(rs, s);
        by[0] != by[1]
    });
    let end_gap = if any_out {
        14.0
    } else if any_bypass {
        10.0
    } else {
        6.0
    };

    // Legend lines, below the board; measured first so the board gets what is left.
    let legend = legend_lines(rs, ph);
    let legend_pt = 8.5;
    let lh = text::line_height_mm(legend_pt);
    let legend_wrapped: Vec<Vec<String>> = legend
        .iter()
        .map(|l| super::wrap(l, legend_pt, Weight::Regular, content_w))
        .collect();
    let legend_lines_n: usize = legend_wrapped.iter().map(|v| v.len()).sum();
    let scale_note_h = lh * 2.0 + 1.0;
    let bottom = page::content_bottom(h);
    let avail_h = bottom - y - legend_lines_n as f64 * lh - scale_note_h - 2.0;
    let fits = |s: f64| {
        let (cw, ch) = Geometry::new(rs, s, end_gap).cut_size();
        cw <= content_w - 1.0 && ch <= avail_h
    };
    let mut s = 1.0;
    if !fits(1.0) {
        let (mut lo, mut hi) = (0.0, 1.0);
        for _ in 0..40 {
            let mid = (lo + hi) / 2.0;
            if fits(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        // Round down to a tenth of a millimetre of pit diameter.
        let d = (rs.layout.pit_diameter * lo * 10.0).floor() / 10.0;
        s = d / rs.layout.pit_diameter;
        if d < MIN_PLAYABLE_PIT || !fits(s) {
            return Err(format!(
                "to fit the {} page the pits would shrink to {d} mm across, below the {MIN_PLAYABLE_PIT} mm that counters need",
                paper.name
            ));
        }
    }
    let mut g = Geometry::new(rs, s, end_gap);
    let (_, ch) = g.cut_size();
    g.cx = w / 2.0;
    g.cy = y + ch / 2.0;

    draw_board(&mut pg, rs, ph, &g, &circ)?;

    // Legend.
    let (_, cy0, _, chh) = g.cut_rect();
    let mut ly = cy0 + chh + 2.0;
    for lines in &legend_wrapped {
        ly = super::set_lines(&mut pg, MARGIN, ly, lines, legend_pt, Weight::Regular);
    }
    let note = if s < 1.0 {
        ph.fmt(
            "board.shrunk",
            &[
                ("d", &ph.mm(g.d)),
                ("asked", &ph.mm(rs.layout.pit_diameter)),
                ("store", &ph.mm(g.store_h)),
                ("paper", &ph.paper(paper.name)),
            ],
        )
    } else {
        ph.fmt("board.actual", &[("d", &ph.mm(g.d))])
    };
    para(
        &mut pg,
        MARGIN,
        ly + 1.0,
        legend_pt,
        Weight::Bold,
        content_w,
        &note,
    );
    Ok(pg)
}

/// A length in mm with at most one decimal, no trailing `.0`.
pub(crate) fn fmt_mm(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if (r - r.round()).abs() < 1e-9 {
        format!("{}", r.round() as i64)
    } else {
        format!("{r:.1}")
    }
}

fn draw_board(
    pg: &mut Page,
    rs: &Ruleset,
    ph: &Phrases,
    g: &Geometry,
    circ: &[u8],
) -> Result<(), String> {
    let n = g.n;
    let r = g.d / 2.0;
    // Cut line and scissors.
    let (x0, y0, cw, ch) = g.cut_rect();
    pg.shape(
        rect(x0, y0, cw, ch),
        None,
        Some(Stroke::dashed(0.25, Color::BLACK, &[3.0, 2.0])),
    );
    // Scissors sitting on the top cut line, near its left end.
    let sc = 16.0;
    pg.text(
        x0 + 8.0,
        y0 + text::ascent_mm(sc) * 0.3,
        sc,
        Weight::Regular,
        "✂",
    );

    // Opposite pairs: dotted lines across the row gap.
    for i in 0..n {
        let a = g.pit_centre(i);
        let b = g.pit_centre(2 * n - 1 - i);
        pg.shape(
            line(p(a.x, a.y - r - 0.8), p(b.x, b.y + r + 0.8)),
            None,
            Some(Stroke::dashed(0.3, Color::BLACK, &[0.5, 0.8])),
        );
    }

    // Pits. A long label gets smaller type so it stays inside the ring (the text's edge
    // farthest from the centre must fit the circle's chord there); all pit labels share the
    // size the longest one needs, so the rows look even.
    let label_pt = if g.d >= 24.0 { 10.0 } else { 8.0 };
    // Baseline of pit `h`'s label at `pt` moved `inward` mm from its place by the rim, and how
    // far the text's outer edge then is from the centre.
    let place = |h: usize, pt: f64, inward: f64| {
        let c = g.pit_centre(h);
        if h < n {
            let base = c.y + r - 1.6 - text::descent_mm(pt) - 1.0 - inward;
            (base, base + text::descent_mm(pt) - c.y)
        } else {
            let base = c.y - r + RING + 1.2 + text::ascent_mm(pt) + 1.0 + inward;
            (base, c.y - (base - text::ascent_mm(pt)))
        }
    };
    let fits = |h: usize, pt: f64, inward: f64| {
        let inner_r = if h >= n { r - RING - 0.4 } else { r - 0.6 };
        let (_, far) = place(h, pt, inward);
        let chord = 2.0 * (inner_r * inner_r - far * far).max(0.0).sqrt();
        text::width_mm(&hole_label(rs, h), pt, Weight::Bold) <= chord - 0.8
    };
    // Smaller type first, then closer to the centre (at most a third of the radius, so the
    // middle of the pit stays free for seeds).
    let mut choice = None;
    'size: for step in 0..=((label_pt - 5.0) * 2.0) as usize {
        let pt = label_pt - 0.5 * step as f64;
        for k in 0..=((r / 3.0) / 0.5) as usize {
            let inward = 0.5 * k as f64;
            if (0..2 * n).all(|h| fits(h, pt, inward)) {
                choice = Some((pt, inward));
                break 'size;
            }
        }
    }
    let (pt, inward) = choice.unwrap_or((5.0, 0.0));
    if let Some(h) = (0..2 * n).find(|&h| !fits(h, pt, inward)) {
        return Err(format!(
            "the pit label {:?} does not fit inside a {:.1} mm pit even at 5 pt: shorten board.pit_labels (or the player names they default to) or use larger pits",
            hole_label(rs, h),
            g.d
        ));
    }
    for h in 0..2 * n {
        let c = g.pit_centre(h);
        pg.shape(
            circle(c, r),
            Some(Color::WHITE),
            Some(Stroke::solid(OUTLINE, Color::BLACK)),
        );
        if h >= n {
            pg.shape(
                circle(c, r - RING),
                None,
                Some(Stroke::solid(0.3, Color::BLACK)),
            );
        }
        let (base, _) = place(h, pt, inward);
        centred(pg, c.x, base, pt, Weight::Bold, &hole_label(rs, h));
    }

    // Stores.
    for side in 0..2 {
        let (x, y, w, hh) = g.store_rect(side);
        let rad = (w / 2.0).min(8.0);
        pg.shape(
            rounded_rect(x, y, w, hh, rad),
            Some(Color::WHITE),
            Some(Stroke::solid(OUTLINE, Color::BLACK)),
        );
        if side == 1 {
            pg.shape(
                rounded_rect(
                    x + RING,
                    y + RING,
                    w - 2.0 * RING,
                    hh - 2.0 * RING,
                    rad - RING,
                ),
                None,
                Some(Stroke::solid(0.3, Color::BLACK)),
            );
        }
        let by = store_sown_by(rs, side);
        let inner = w - 4.0 - RING;
        // On a narrow store, shrink the type until every word fits rather than break words.
        let label_pt = super::size_for_words(&rs.board.stores[side], 9.0, 5.0, Weight::Bold, inner);
        let lines = super::wrap(&rs.board.stores[side], label_pt, Weight::Bold, inner);
        let mut notes: Vec<String> = Vec::new();
        if !by[0] && !by[1] {
            notes.push(ph.get("board.capture_store"));
        } else {
            for (pl, sows) in by.iter().enumerate() {
                if !sows {
                    notes.push(ph.fmt("board.skip_mark", &[("player", &rs.board.players[pl])]));
                }
            }
        }
        let note_pt = notes
            .iter()
            .map(|n| super::size_for_words(n, 7.0, 4.5, Weight::Regular, inner))
            .fold(7.0, f64::min)
            .min(label_pt - 1.0)
            .max(4.5);
        let note_lines: Vec<String> = notes
            .iter()
            .flat_map(|s| super::wrap(s, note_pt, Weight::Regular, inner))
            .collect();
        let lh9 = text::line_height_mm(label_pt);
        let lh7 = text::line_height_mm(note_pt);
        let total = lines.len() as f64 * lh9 + note_lines.len() as f64 * lh7;
        let ty = y + hh / 2.0 - total / 2.0;
        let ty = super::set_lines_centred(pg, x + w / 2.0, ty, &lines, label_pt, Weight::Bold);
        super::set_lines_centred(pg, x + w / 2.0, ty, &note_lines, note_pt, Weight::Regular);
    }

    // Circuit arrows, numbered in sowing order.
    let either = rs.sowing.direction == Direction::Either;
    let cwise = rs.sowing.direction == Direction::Clockwise;
    let k = circ.len();
    for i in 0..k {
        let (a, b) = (circ[i] as usize, circ[(i + 1) % k] as usize);
        let ccw_from = if cwise { b } else { a };
        let hp = hop(g, a, b, ccw_from);
        draw_hop(pg, &hp, Stroke::solid(ARROW_W, Color::BLACK), either);
        let m = hp.mid();
        pg.shape(
            circle(m, NUM_R),
            Some(Color::WHITE),
            Some(Stroke::solid(0.3, Color::BLACK)),
        );
        centred_mid(pg, m.x, m.y, 7.0, Weight::Bold, &(i + 1).to_string());
    }
    // Bypass arrows where one player passes a store by.
    for side in 0..2 {
        let by = store_sown_by(rs, side);
        if by[0] == by[1] {
            continue;
        }
        let s_hole = 2 * n + side;
        let Some(pos) = circ.iter().position(|&x| x as usize == s_hole) else {
            continue;
        };
        let before = circ[(pos + k - 1) % k] as usize;
        let after = circ[(pos + 1) % k] as usize;
        let ccw_from = if cwise { after } else { before };
        let hp = hop(g, before, after, ccw_from);
        draw_hop(
            pg,
            &hp,
            Stroke::dashed(0.35, Color::BLACK, &[1.2, 0.9]),
            either,
        );
    }

    // Row captions, outside the arrows.
    let cap_gap = ARC_SPACE + 1.0;
    let core_half = g.core_h() / 2.0;
    for side in 0..2 {
        let labels = &rs.board.pit_labels[side];
        let first = labels.first().cloned().unwrap_or_default();
        let last = labels.last().cloned().unwrap_or_default();
        let key = if side == 0 {
            "board.row_single"
        } else {
            "board.row_double"
        };
        let s = ph.fmt(
            key,
            &[
                ("player", &rs.board.players[side]),
                ("first", &first),
                ("last", &last),
            ],
        );
        let base = if side == 0 {
            g.cy + core_half + cap_gap + text::ascent_mm(CAPTION_PT)
        } else {
            g.cy - core_half - cap_gap - text::descent_mm(CAPTION_PT)
        };
        centred(pg, g.cx, base, CAPTION_PT, Weight::Bold, &s);
    }
    Ok(())
}

/// The legend under the board: direction, bypasses, opposite pairs, sides, capture chains.
fn legend_lines(rs: &Ruleset, ph: &Phrases) -> Vec<String> {
    let n = rs.board.pits_per_side;
    let mut out = Vec::new();
    let dir = match rs.sowing.direction {
        Direction::Counterclockwise => ph.get("board.legend.ccw"),
        Direction::Clockwise => ph.get("board.legend.cw"),
        Direction::Either => ph.get("board.legend.either"),
    };
    out.push(dir);
    for side in 0..2 {
        let by = store_sown_by(rs, side);
        let store = &rs.board.stores[side];
        if !by[0] && !by[1] {
            continue;
        }
        for (pl, sows) in by.iter().enumerate() {
            if !sows {
                out.push(ph.fmt(
                    "board.legend.skip",
                    &[("player", &rs.board.players[pl]), ("store", store)],
                ));
            }
        }
    }
    if (0..2).all(|s| !store_sown_by(rs, s).iter().any(|b| *b)) {
        out.push(ph.fmt(
            "board.legend.stores_apart",
            &[("a", &rs.board.stores[0]), ("b", &rs.board.stores[1])],
        ));
    }
    let pairs: Vec<String> = (0..n)
        .map(|i| format!("{} ↔ {}", hole_label(rs, i), hole_label(rs, 2 * n - 1 - i)))
        .collect();
    out.push(ph.fmt("board.legend.opposite", &[("pairs", &join_and(ph, &pairs))]));
    out.push(ph.fmt(
        "board.legend.sides",
        &[
            ("a", &rs.board.players[0]),
            ("b", &rs.board.players[1]),
            ("sb", &rs.board.stores[1]),
        ],
    ));
    if rs.capture.kind != CaptureKind::None {
        match rs.capture.chain {
            Chain::Backward => out.push(ph.get("board.legend.chain_backward")),
            Chain::FollowingEmpty => out.push(ph.get("board.legend.chain_following")),
            Chain::None => {}
        }
    }
    out.push(ph.get("board.legend.cut"));
    out.into_iter().map(|s| capitalise(&s)).collect()
}

/// `s` with its first letter in upper case (a sentence may start with a store label).
pub(crate) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
