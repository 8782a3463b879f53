//! Board geometry: the one source of truth for where pits, stores and circuit arrows sit on a
//! printed board, in board-local millimetres.
//!
//! Board-local coordinates put the top-left corner of the board's cut outline at (0, 0), x to
//! the right, y down (the page convention of [`crate::doc`]). Hole numbering follows
//! [`crate::engine`]: side 0's pits are holes `0..n`, side 1's pits `n..2n`, the stores
//! `2n` (side 0) and `2n + 1` (side 1). Side 0's pits run left to right along the bottom row with
//! its store at the right end; side 1's pits run right to left along the top row with its store
//! at the left end, so the circuit order (side 0's pits, store 0, side 1's pits, store 1) goes
//! counter-clockwise and pit `i` of side 0 sits under its opposite pit `n-1-i`. Side 1's pits
//! and store carry a double ring ([`BoardGeometry::ring_side`]).
//!
//! The play sizes ([`play_pit_diameter`], [`play_store_length`], [`play_counter_diameter`],
//! [`CHILD_SAFE_COUNTER`]) are worked out here too, so the loader's defaults, the board, the
//! counters sheet and a 3D mesh all agree.

use crate::doc::{pt as p, Pt};
use crate::ruleset::{Direction, Include, Ruleset};
use crate::text;

/// Footprint of one seed as the play sizes assume it, mm across: a bean, a pebble or a paper
/// counter of the usual size lies in a circle about this wide.
pub const SEED_FOOTPRINT: f64 = 10.0;
/// Fraction of a pit's floor that loose seeds lying in one layer cover (discs poured into a
/// circle settle at about 0.7; hexagonal packing is 0.907).
pub const SEED_PACKING: f64 = 0.7;
/// How many times its starting count a pit typically holds at most during play (a pit that
/// has been passed over for two laps).
pub const TYPICAL_FILL: f64 = 3.0;
/// Band inside a pit's outline kept for the outline stroke and its label, mm (added to the
/// diameter the seeds need).
pub const PIT_RIM: f64 = 4.0;
/// Smallest default pit diameter, mm: below this a player's fingers cannot pick seeds out.
pub const MIN_PLAY_PIT: f64 = 35.0;
/// Range of `layout.pit_diameter` a ruleset may give, mm (inclusive); the default
/// ([`play_pit_diameter`]) stays inside it too.
pub const PIT_DIAMETER_RANGE: (f64, f64) = (12.0, 80.0);
/// Range of `layout.store_length` a ruleset may give, mm (inclusive); the default
/// ([`play_store_length`]) stays inside it too.
pub const STORE_LENGTH_RANGE: (f64, f64) = (10.0, 200.0);
/// Range of `layout.pit_gap` a ruleset may give, mm (inclusive).
pub const PIT_GAP_RANGE: (f64, f64) = (0.0, 40.0);
/// Range of `layout.counter_diameter` a ruleset may give, mm (inclusive).
pub const COUNTER_DIAMETER_RANGE: (f64, f64) = (5.0, 60.0);
/// Counter diameter with `--child-safe`, mm: wider than the 31.75 mm small-parts test cylinder
/// (16 CFR 1501), so a counter cannot be swallowed.
pub const CHILD_SAFE_COUNTER: f64 = 32.0;

/// Default pit diameter for a game starting with `seeds_per_pit` seeds a pit, mm.
///
/// A pit should take [`TYPICAL_FILL`] × `seeds_per_pit` seeds lying flat: `k` discs of
/// diameter `s` ([`SEED_FOOTPRINT`]) cover `k·π·s²/4`, which is [`SEED_PACKING`] of the floor
/// `π·D²/4`, so `D = s·√(k / packing)`; add [`PIT_RIM`] and round to the nearest millimetre,
/// never under [`MIN_PLAY_PIT`] and never over the largest `pit_diameter` a ruleset may give
/// ([`PIT_DIAMETER_RANGE`], 80 mm: from 14 seeds a pit on, seeds heap up in the pit rather than
/// lie flat). Four seeds a pit (48-seed Oware and Kalah): `k = 12`,
/// `D = 10·√(12/0.7) = 41.4`, + 4 = 45 mm; three seeds: `10·√(9/0.7) + 4 = 39.9` → 40 mm.
pub fn play_pit_diameter(seeds_per_pit: u16) -> f64 {
    let k = TYPICAL_FILL * f64::from(seeds_per_pit.max(1));
    let d = SEED_FOOTPRINT * (k / SEED_PACKING).sqrt() + PIT_RIM;
    d.round().max(MIN_PLAY_PIT).min(PIT_DIAMETER_RANGE.1)
}

/// Gap between the two rows of pits for a pit gap of `pit_gap`, mm (at least 8 mm, so the
/// dotted opposite-pair lines and the row of arrows between have room).
pub fn row_gap(pit_gap: f64) -> f64 {
    pit_gap.max(8.0)
}

/// Default store length (across both rows) for a game of `total_seeds` seeds with pits `d` mm
/// across and `pit_gap` mm between pits, mm.
///
/// A store is as wide as a pit (`d`) and must take at least half the seeds lying flat (the
/// score that wins): area `(total/2)·π·s²/4 / packing` (see [`play_pit_diameter`]), so a length
/// of that area over `d`, rounded up to a millimetre, but never over the longest
/// `store_length` a ruleset may give ([`STORE_LENGTH_RANGE`], 200 mm: the seeds of a bigger
/// game lie in a store more than one deep); and it always spans both rows (`2d + row gap`,
/// at most `2·80 + 40 = 200` mm for the sizes a ruleset may give, so the default stays in
/// range; only `--child-safe` pits, grown past 80 mm, make a longer store). Oware (48 seeds,
/// 45 mm pits, 12 mm gap): 24 seeds need `24·78.5/0.7 = 2693 mm²`, 60 mm of a 45 mm store;
/// both rows span `2·45 + 12 = 102` mm: 102 mm.
pub fn play_store_length(total_seeds: u32, d: f64, pit_gap: f64) -> f64 {
    store_length_for_seeds(total_seeds, d).max(store_span(d, pit_gap))
}

/// The part of [`play_store_length`] that holds the seeds: the length of a store `d` mm wide
/// in which half of `total_seeds` lie flat, rounded up to a millimetre, at most the longest
/// `store_length` ([`STORE_LENGTH_RANGE`]). Oware (48 seeds, 45 mm): 60 mm.
pub fn store_length_for_seeds(total_seeds: u32, d: f64) -> f64 {
    let seed_area = std::f64::consts::PI * SEED_FOOTPRINT * SEED_FOOTPRINT / 4.0;
    let need = f64::from(total_seeds) / 2.0 * seed_area / SEED_PACKING / d.max(1.0);
    need.ceil().min(STORE_LENGTH_RANGE.1)
}

/// The part of [`play_store_length`] that spans both rows of pits `d` mm across with `pit_gap`
/// between pits: `2d +` [`row_gap`], mm. 45 mm pits, 12 mm gap: 102 mm.
pub fn store_span(d: f64, pit_gap: f64) -> f64 {
    2.0 * d + row_gap(pit_gap)
}

/// Default counter diameter for pits `d` mm across, mm: seven counters lie flat in a pit
/// (one in the middle, six round it, which needs a circle three counters wide) inside the
/// [`PIT_RIM`], so `floor((d − rim) / 3)`, at least 8 mm. A 45 mm pit: `41/3` → 13 mm.
pub fn play_counter_diameter(d: f64) -> f64 {
    ((d - PIT_RIM) / 3.0).floor().max(8.0)
}

/// Pit diameter that holds three counters `c` mm across lying flat, mm: three equal circles of
/// radius `r` fit in a circle of radius `r·(1 + 2/√3)`; plus [`PIT_RIM`], rounded up. For
/// [`CHILD_SAFE_COUNTER`]: `16·2.155 = 34.5`, so `69 + 4` → 73 mm.
pub fn pit_for_counters(c: f64) -> f64 {
    (c * (1.0 + 2.0 / 3f64.sqrt()) + PIT_RIM).ceil()
}

/// Most counters a pit is sized to hold lying flat side by side: one in the middle and six
/// round it. Games starting with more seeds a pit heap them up (see [`play_counter_diameter`]).
pub const MOST_FLAT: u16 = 7;

/// Smallest counter `--fit` cuts when it shrinks a board, mm: the floor of
/// [`play_counter_diameter`], a paper disc still picked up between finger and thumb.
pub const MIN_FIT_COUNTER: f64 = 8.0;

/// How many counters a pit must hold lying flat for a game starting with `seeds_per_pit`
/// seeds a pit: that many, from 1 up to [`MOST_FLAT`].
pub fn flat_count(seeds_per_pit: u16) -> u16 {
    seeds_per_pit.clamp(1, MOST_FLAT)
}

/// Radius of the smallest circle holding `k` equal circles of radius 1 side by side (`k`
/// clamped to 1..=[`MOST_FLAT`]): 1; 2; `1 + 2/√3` (three in a triangle); `1 + √2` (four in a
/// square); `1 + 1/sin 36°` (five in a ring); 3 (six in a ring, or six round a seventh).
pub fn flat_ratio(k: u16) -> f64 {
    match k.clamp(1, MOST_FLAT) {
        1 => 1.0,
        2 => 2.0,
        3 => 1.0 + 2.0 / 3f64.sqrt(),
        4 => 1.0 + 2f64.sqrt(),
        5 => 1.0 + 1.0 / 36f64.to_radians().sin(),
        _ => 3.0,
    }
}

/// Widest counter of which a pit `d` mm across holds `k` lying flat inside its [`PIT_RIM`],
/// mm, rounded down to 0.1 mm: `(d − rim) / ratio` ([`flat_ratio`]). A 25 mm pit holding
/// three: `21 / 2.1547 = 9.75` → 9.7 mm.
pub fn counter_held(d: f64, k: u16) -> f64 {
    ((d - PIT_RIM).max(0.0) / flat_ratio(k) * 10.0 + 1e-9).floor() / 10.0
}

/// Smallest pit that holds `k` counters `c` mm across lying flat inside its [`PIT_RIM`], mm,
/// rounded up to 0.1 mm: `c · ratio + rim` ([`flat_ratio`]). Four 8 mm counters:
/// `8 · 2.4142 + 4 = 23.31` → 23.4 mm.
pub fn pit_holding(c: f64, k: u16) -> f64 {
    ((c * flat_ratio(k) + PIT_RIM) * 10.0 - 1e-9).ceil() / 10.0
}

/// Outline stroke of pits and stores, mm.
pub const OUTLINE: f64 = 0.5;
/// Radius of the numbered circle on each circuit arrow, mm.
pub const NUM_R: f64 = 2.5;
/// Least gap between an arrow number's disc and a pit or store outline's stroke, mm.
pub const NUMBER_CLEAR: f64 = 0.5;
/// How far a row arrow's control points reach out from the pit edge, mm.
pub const HOP: f64 = 8.0;
/// Space kept outside each row for the arrows and their numbers, mm.
pub const ARC_SPACE: f64 = 11.0;
/// Row caption size, pt.
pub const CAPTION_PT: f64 = 9.0;
/// Padding inside the cut outline, mm.
pub const PAD: f64 = 4.0;
/// Offset of the double ring inside side 1's pits and store, mm.
pub const RING: f64 = 1.6;

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

/// Whether store `side` (0 or 1) is sown into by (side 0, side 1).
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

/// Board measurements, mm (scaled by [`BoardGeometry::scale`] when a board is shrunk with
/// `--fit` or drawn small).
#[derive(Clone, Debug, PartialEq)]
pub struct BoardGeometry {
    /// Pits per row.
    pub n: usize,
    /// Pit diameter as printed, mm.
    pub d: f64,
    /// Gap between neighbouring pits as printed, mm.
    pub gap: f64,
    /// Gap between the two rows, mm.
    pub row_gap: f64,
    /// Store width (along the rows), mm.
    pub store_w: f64,
    /// Store height (across both rows), mm.
    pub store_h: f64,
    /// Corner radius of the stores, mm.
    pub store_radius: f64,
    /// Gap between the end pit column and a store, mm.
    pub end_gap: f64,
    /// The side (0 or 1) whose pits and store carry the double ring.
    pub ring_side: usize,
    /// Inset of the double ring, mm.
    pub ring: f64,
    /// Counter diameter for this board, mm (the counters sheet cuts counters this size); on a
    /// shrunk board no wider than its pits hold ([`counter_held`]).
    pub counter_d: f64,
    /// Whether the counters are child-safe ([`CHILD_SAFE_COUNTER`] or more across).
    pub child_safe: bool,
    /// Board centre, x (board-local: half the outline width unless moved), mm.
    pub cx: f64,
    /// Board centre, y, mm.
    pub cy: f64,
    /// Scale applied to the ruleset's sizes (1 = as asked).
    pub scale: f64,
    /// Size of the row captions outside the arrows, pt ([`CAPTION_PT`] unless large print
    /// asks for more: [`BoardGeometry::with_caption`]).
    pub caption_pt: f64,
    /// Lines of each row caption (1 unless large print wraps them).
    pub caption_lines: usize,
    /// Both row captions on one line below the board, side 0's then side 1's, so the cut
    /// outline has no caption band above the board ([`BoardGeometry::with_captions_below`]).
    pub captions_below: bool,
    /// Radius of the disc behind each circuit arrow's number, mm ([`NUM_R`] unless large print
    /// asks for more: [`BoardGeometry::with_number_r`]); a turn between the rows bulges only
    /// as far as leaves that disc clear of the store beyond it.
    pub number_r: f64,
}

impl BoardGeometry {
    /// The board of `rs` at its ruleset sizes (scale 1), placed with its cut outline's top-left
    /// at (0, 0). With `child_safe`, counters are at least [`CHILD_SAFE_COUNTER`] mm and pits
    /// and stores grow to hold them ([`pit_for_counters`], [`play_store_length`]).
    pub fn new(rs: &Ruleset, child_safe: bool) -> BoardGeometry {
        BoardGeometry::scaled(rs, child_safe, 1.0)
    }

    /// As [`BoardGeometry::new`], every size multiplied by `s` (`0 < s ≤ 1` for a board shrunk
    /// onto one sheet).
    pub fn scaled(rs: &Ruleset, child_safe: bool, s: f64) -> BoardGeometry {
        let l = &rs.layout;
        let mut d0 = l.pit_diameter;
        let mut store0 = l.store_length;
        let mut counter = l.counter_diameter;
        if child_safe {
            counter = counter.max(CHILD_SAFE_COUNTER);
            d0 = d0.max(pit_for_counters(counter));
            let total = 2 * rs.board.pits_per_side as u32 * u32::from(rs.board.seeds_per_pit);
            store0 = store0.max(play_store_length(total, d0, l.pit_gap));
        }
        let d = d0 * s;
        let any_out = (0..2).any(|side| !store_sown_by(rs, side).iter().any(|b| *b));
        let any_bypass = (0..2).any(|side| {
            let by = store_sown_by(rs, side);
            by[0] != by[1]
        });
        let end_gap = if any_out {
            14.0
        } else if any_bypass {
            10.0
        } else {
            6.0
        };
        let store_w = d.max(20.0 * s);
        let mut g = BoardGeometry {
            n: rs.board.pits_per_side.max(1),
            d,
            gap: l.pit_gap.max(0.0) * s,
            row_gap: (l.pit_gap * s).max(8.0),
            store_w,
            store_h: (store0 * s).max(d),
            store_radius: (store_w / 2.0).min(8.0),
            end_gap,
            ring_side: 1,
            ring: RING,
            // A shrunk board's counters shrink to what its pits hold (never below what the
            // caller allowed: `--fit` refuses pits smaller than [`pit_holding`] those).
            counter_d: if s < 1.0 {
                counter.min(counter_held(d, flat_count(rs.board.seeds_per_pit)))
            } else {
                counter
            },
            child_safe,
            cx: 0.0,
            cy: 0.0,
            scale: s,
            caption_pt: CAPTION_PT,
            caption_lines: 1,
            captions_below: false,
            number_r: NUM_R,
        };
        g.place_cut_at(0.0, 0.0);
        g
    }

    /// The same board drawn small (or large): every length, and the centre, multiplied by `k`
    /// (`k > 0`), so every pit centre is the full board's scaled about the origin. Used for the
    /// mini boards of worked examples, practice sheets and host keys. The counter size is
    /// kept (it is what is cut, not drawn).
    pub fn uniformly_scaled(&self, k: f64) -> BoardGeometry {
        BoardGeometry {
            d: self.d * k,
            gap: self.gap * k,
            row_gap: self.row_gap * k,
            store_w: self.store_w * k,
            store_h: self.store_h * k,
            store_radius: self.store_radius * k,
            end_gap: self.end_gap * k,
            ring: self.ring * k,
            cx: self.cx * k,
            cy: self.cy * k,
            scale: self.scale * k,
            ..self.clone()
        }
    }

    /// The same board with row captions of `lines` lines (at least one) of `pt` points: the
    /// cut outline grows (or shrinks) to hold them, and the board is placed again with its cut
    /// outline's top-left at (0, 0). Pits and stores keep their sizes.
    pub fn with_caption(&self, pt: f64, lines: usize) -> BoardGeometry {
        let mut g = BoardGeometry {
            caption_pt: pt,
            caption_lines: lines.max(1),
            ..self.clone()
        };
        g.place_cut_at(0.0, 0.0);
        g
    }

    /// The same board with both row captions on one line below it (side 0's, then side 1's):
    /// the cut outline loses the caption band above the board ([`BoardGeometry::caption_h`]
    /// shorter), and the board is placed again with its cut outline's top-left at (0, 0).
    /// Tried where that band alone costs a row of tiles.
    pub fn with_captions_below(&self) -> BoardGeometry {
        let mut g = BoardGeometry {
            captions_below: true,
            ..self.clone()
        };
        g.place_cut_at(0.0, 0.0);
        g
    }

    /// Height of the band above the board (mm, from the cut outline's top edge to the top of
    /// the pits and stores block): [`PAD`], the arrows' room and, unless
    /// [`BoardGeometry::captions_below`], a row caption.
    fn band_above(&self) -> f64 {
        let caption = if self.captions_below {
            0.0
        } else {
            self.caption_h()
        };
        PAD + ARC_SPACE + caption
    }

    /// Moves the board so its cut outline's top-left corner is at (`x`, `y`), mm.
    pub fn place_cut_at(&mut self, x: f64, y: f64) {
        let (w, _) = self.cut_size();
        self.cx = x + w / 2.0;
        self.cy = y + self.band_above() + self.core_h() / 2.0;
    }

    /// The same board with circuit numbers on discs of radius `r` mm (large print: larger
    /// numbers on larger discs). Nothing moves but the arrows turning between the rows.
    pub fn with_number_r(&self, r: f64) -> BoardGeometry {
        BoardGeometry {
            number_r: r,
            ..self.clone()
        }
    }

    /// The same board with stores at least `w` mm wide (along the rows), re-centred as
    /// [`BoardGeometry::with_caption`] does: a board shrunk onto one sheet keeps its stores
    /// wide enough for their labels while its pits get smaller.
    pub fn with_store_w_at_least(&self, w: f64) -> BoardGeometry {
        let store_w = self.store_w.max(w);
        let mut g = BoardGeometry {
            store_w,
            store_radius: (store_w / 2.0).min(8.0),
            ..self.clone()
        };
        g.place_cut_at(0.0, 0.0);
        g
    }

    /// The same board moved so its centre is at (`cx`, `cy`).
    pub fn centred_at(&self, cx: f64, cy: f64) -> BoardGeometry {
        BoardGeometry {
            cx,
            cy,
            ..self.clone()
        }
    }

    /// Width of the pits and stores block, mm.
    pub fn core_w(&self) -> f64 {
        let n = self.n as f64;
        (n - 1.0) * (self.d + self.gap) + self.d + 2.0 * (self.end_gap + self.store_w)
    }

    /// Height of the pits and stores block, mm.
    pub fn core_h(&self) -> f64 {
        (2.0 * self.d + self.row_gap).max(self.store_h)
    }

    /// Height of a row caption (its lines, outside the arrows), mm.
    pub fn caption_h(&self) -> f64 {
        self.caption_lines as f64 * text::line_height_mm(self.caption_pt) + 1.0
    }

    /// The cut outline's size (width, height), mm: the pits and stores, the arrows and row
    /// captions outside both rows (both below with [`BoardGeometry::captions_below`]), and
    /// [`PAD`] all round.
    pub fn cut_size(&self) -> (f64, f64) {
        let bands = if self.captions_below { 1.0 } else { 2.0 };
        (
            self.core_w() + 2.0 * PAD,
            self.core_h() + 2.0 * (ARC_SPACE + PAD) + bands * self.caption_h(),
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

    /// Store rectangle of `side`: (x, y, w, h), top-left corner and size, mm.
    pub fn store_rect(&self, side: usize) -> (f64, f64, f64, f64) {
        let half_pits = (self.n as f64 - 1.0) / 2.0 * (self.d + self.gap) + self.d / 2.0;
        let x = if side == 0 {
            self.cx + half_pits + self.end_gap
        } else {
            self.cx - half_pits - self.end_gap - self.store_w
        };
        (x, self.cy - self.store_h / 2.0, self.store_w, self.store_h)
    }

    /// The cut outline: (x, y, w, h), mm.
    pub fn cut_rect(&self) -> (f64, f64, f64, f64) {
        let (w, h) = self.cut_size();
        let top = self.cy - self.core_h() / 2.0 - self.band_above();
        (self.cx - w / 2.0, top, w, h)
    }

    /// Free bands across the board between pit columns, where a vertical seam may fall without
    /// crossing a pit, store, label or arrow number: (x from, x to), mm, left to right. They are
    /// the gaps between neighbouring pit columns and between the end columns and the stores,
    /// each narrowed by the outline stroke plus 0.5 mm. A row arrow's number circle may sit over
    /// a gap: the tiler moves it aside ([`Hop::number_at`]) for the gap a seam falls in.
    pub fn free_columns(&self) -> Vec<(f64, f64)> {
        let n = self.n;
        let r = self.d / 2.0;
        let mut edges: Vec<(f64, f64)> = Vec::new();
        let (sx1, _, sw1, _) = self.store_rect(1);
        let (sx0, _, _, _) = self.store_rect(0);
        let first = self.pit_centre(0).x - r;
        let last = self.pit_centre(n - 1).x + r;
        edges.push((sx1 + sw1, first));
        for i in 0..n.saturating_sub(1) {
            let a = self.pit_centre(i).x + r;
            let b = self.pit_centre(i + 1).x - r;
            edges.push((a, b));
        }
        edges.push((last, sx0));
        let m = OUTLINE + 0.5;
        edges
            .into_iter()
            .map(|(a, b)| (a + m, b - m))
            .filter(|(a, b)| b > a)
            .collect()
    }

    /// Geometry of the circuit arrow ("hop") between holes `from` and `to` (neighbours on the
    /// circuit). `ccw_from` is whichever of the two comes first in counter-clockwise circuit
    /// order (decides which end a turn between rows uses).
    pub fn hop(&self, from: usize, to: usize, ccw_from: usize) -> Hop {
        let g = self;
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
                    // counter-clockwise. Both ends lie on the pits' equators in one column,
                    // so the curve's middle (where the number sits) is 3/4 of the reach `k`
                    // out from the pit: as far as leaves the number's disc
                    // [`NUMBER_CLEAR`] clear of the store's outline `end_gap` away.
                    let sx = if ccw_from < n { 1.0 } else { -1.0 };
                    let a = p(c.x + sx * r, c.y);
                    let k = (g.end_gap - g.number_r - OUTLINE / 2.0 - NUMBER_CLEAR) / 0.75;
                    (a, p(a.x + sx * k.max(2.0), a.y))
                }
            }
        };
        let (a, c1) = anchor(from, to);
        let (b, c2) = anchor(to, from);
        Hop { a, c1, c2, b }
    }

    /// Signed distance from `q` to the nearest pit or store outline's stroke, mm: positive
    /// outside every pit and store, negative inside one (or on a stroke).
    pub fn outline_distance(&self, q: Pt) -> f64 {
        let half = OUTLINE / 2.0;
        let mut best = f64::INFINITY;
        for h in 0..2 * self.n {
            let c = self.pit_centre(h);
            let dist = ((q.x - c.x).powi(2) + (q.y - c.y).powi(2)).sqrt() - self.d / 2.0;
            best = best.min(dist.abs() - half);
        }
        for side in 0..2 {
            let (x, y, w, h) = self.store_rect(side);
            let rho = self.store_radius.min(w / 2.0).min(h / 2.0);
            let (a, b, c, e) = (x + rho, y + rho, x + w - rho, y + h - rho);
            let dx = (a - q.x).max(q.x - c).max(0.0);
            let dy = (b - q.y).max(q.y - e).max(0.0);
            let dist = if dx > 0.0 || dy > 0.0 {
                (dx * dx + dy * dy).sqrt() - rho
            } else {
                -(rho + (q.x - a).min(c - q.x).min(q.y - b).min(e - q.y))
            };
            best = best.min(dist.abs() - half);
        }
        best
    }

    /// Where the number of arrow `hop` sits: the point along the curve nearest its middle
    /// whose disc of radius [`BoardGeometry::number_r`] stays [`NUMBER_CLEAR`] clear of every
    /// pit and store outline and, with its 0.5 mm, of the `keep_clear` x intervals (the free
    /// band round a tile seam). `None` when no point of the curve between t = 0.05 and 0.95
    /// does.
    pub fn number_spot(&self, hop: &Hop, keep_clear: &[(f64, f64)]) -> Option<Pt> {
        let r = self.number_r;
        let off_seams = |q: Pt| {
            keep_clear
                .iter()
                .all(|(a, b)| q.x + r + 0.5 <= *a || q.x - r - 0.5 >= *b)
        };
        (0..=45)
            .flat_map(|k| [0.5 - 0.01 * k as f64, 0.5 + 0.01 * k as f64])
            .map(|t| hop.at(t))
            .find(|&q| off_seams(q) && self.outline_distance(q) >= r + NUMBER_CLEAR)
    }

    /// The numbered circuit arrows of `rs` in sowing order (arrow `i` runs from the `i`-th hole
    /// of [`circuit`] to the next; its number circle, radius [`NUM_R`], sits at [`Hop::mid`]).
    pub fn circuit_hops(&self, rs: &Ruleset) -> Vec<Hop> {
        let circ = circuit(rs);
        let cwise = rs.sowing.direction == Direction::Clockwise;
        let k = circ.len();
        (0..k)
            .map(|i| {
                let (a, b) = (circ[i] as usize, circ[(i + 1) % k] as usize);
                self.hop(a, b, if cwise { b } else { a })
            })
            .collect()
    }
}

/// One circuit arrow: a cubic Bézier from `a` to `b` with controls `c1`, `c2`, mm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hop {
    /// Start (on the edge of the hole sown from).
    pub a: Pt,
    /// First control point.
    pub c1: Pt,
    /// Second control point.
    pub c2: Pt,
    /// End (on the edge of the hole sown into).
    pub b: Pt,
}

impl Hop {
    /// The curve's midpoint (t = 1/2), where the arrow's number sits.
    pub fn mid(&self) -> Pt {
        p(
            (self.a.x + 3.0 * self.c1.x + 3.0 * self.c2.x + self.b.x) / 8.0,
            (self.a.y + 3.0 * self.c1.y + 3.0 * self.c2.y + self.b.y) / 8.0,
        )
    }

    /// The point at parameter `t` (0 at `a`, 1 at `b`) of the curve.
    pub fn at(&self, t: f64) -> Pt {
        let u = 1.0 - t;
        let (k0, k1, k2, k3) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
        p(
            k0 * self.a.x + k1 * self.c1.x + k2 * self.c2.x + k3 * self.b.x,
            k0 * self.a.y + k1 * self.c1.y + k2 * self.c2.y + k3 * self.b.y,
        )
    }

    /// Where the arrow's number circle sits: the midpoint, or, when that circle would reach
    /// into one of the `keep_clear` x intervals (the free band round a tile seam), the point
    /// along the curve nearest the middle whose circle (radius [`NUM_R`] plus 0.5 mm) stays out
    /// of all of them; the midpoint again if there is none.
    pub fn number_at(&self, keep_clear: &[(f64, f64)]) -> Pt {
        self.number_at_r(keep_clear, NUM_R)
    }

    /// As [`Hop::number_at`] for a number circle of radius `r` mm (large print draws larger
    /// numbers in larger circles).
    pub fn number_at_r(&self, keep_clear: &[(f64, f64)], r: f64) -> Pt {
        let out = |q: Pt| {
            keep_clear
                .iter()
                .all(|(a, b)| q.x + r + 0.5 <= *a || q.x - r - 0.5 >= *b)
        };
        for k in 0..=45 {
            for t in [0.5 - 0.01 * k as f64, 0.5 + 0.01 * k as f64] {
                let q = self.at(t);
                if out(q) {
                    return q;
                }
            }
        }
        self.mid()
    }
}
