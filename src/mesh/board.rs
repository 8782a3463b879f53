//! The 3D board: a solid block with bowl-shaped pits and stores, raised rims that tell the
//! sides apart by touch (single, and double on the side with the paper board's double ring), engraved pit and store labels and engraved circuit arrows; split at seams between
//! pit columns into parts that fit the bed, joined from below by [`joiner`]s.
//!
//! Axes: x to the right along the rows, y away from side 0's player (side 0's row is at
//! negative y, as at the bottom of the paper board), z up; millimetres; board centre at the
//! origin. Pit centres and sizes come from [`crate::geometry::BoardGeometry`], the geometry
//! the paper board uses, at the ruleset's own sizes.

use super::grid::{self, Field, Grid};
use super::{Bed, Mesh};
use crate::doc::{Color, Seg, Text, Weight};
use crate::geometry::{circuit, hole_label, BoardGeometry};
use crate::ruleset::{Direction, Ruleset};
use crate::text;
use rayon::prelude::*;

/// Target grid step, mm (the exact steps divide the pit pitch and row spacing).
pub const STEP: f64 = 0.35;
/// Most grid points a board's top surface may have: a larger board gets a coarser grid, up to
/// [`MAX_STEP`]. This bounds the board's mesh (at most two triangles a cell on each surface,
/// fewer where [`grid::solid`] merges cells into squares: the 1.06 million points of the
/// Giuthi `--child-safe` board give 0.43 million triangles) and with it the time and memory of
/// `--3d`.
/// The largest bundled board, giuthi with `--child-safe`, has 1.06 million at [`STEP`].
pub const MAX_GRID_POINTS: f64 = 1.1e6;
/// Coarsest grid step, mm: at [`MAX_GRID_POINTS`] this covers 0.54 m² of board
/// ([`MAX_BOARD_AREA`]); a larger board is refused, as its 1 mm engraved grooves and rim beads
/// would no longer come out.
pub const MAX_STEP: f64 = 0.7;
/// Largest board top area `--3d` makes, mm² ([`MAX_GRID_POINTS`] at [`MAX_STEP`]).
pub const MAX_BOARD_AREA: f64 = MAX_GRID_POINTS * MAX_STEP * MAX_STEP;
/// Floor under the deepest bowl, mm.
const FLOOR: f64 = 3.0;
/// Least board thickness (room for the joiner pocket and screw pilot holes), mm.
const MIN_THICK: f64 = 11.0;
/// Radius of the rounding where a bowl meets the top, mm.
const RIM_ROUND: f64 = 1.6;
/// Rounding of the block's top edge, mm.
const EDGE_ROUND: f64 = 1.5;
/// Rim bead: distances outside a pit's edge of the first and second bead, half-width, height, mm.
const BEADS: [f64; 2] = [1.2, 2.4];
const BEAD_HW: f64 = 0.55;
const BEAD_H: f64 = 0.6;
/// Engraving depth, mm.
const ENGRAVE: f64 = 0.6;
/// Arrow groove half-width, head length and head half-width, mm.
const GROOVE_HW: f64 = 0.5;
const HEAD_LEN: f64 = 2.6;
const HEAD_HW: f64 = 1.4;
/// Space between the outer beads and the label band, and outside the band, mm.
const BAND_IN: f64 = 3.5;
const BAND_OUT: f64 = 4.0;
/// Joiner: length (across the seam), width, thickness, mm.
pub const JOINER_L: f64 = 24.0;
/// Joiner width, mm.
pub const JOINER_W: f64 = 8.0;
/// Joiner thickness, mm.
pub const JOINER_T: f64 = 3.0;
/// Peg radius, mm.
pub const PEG_R: f64 = 2.0;
/// Peg height, mm.
pub const PEG_H: f64 = 2.5;
/// Peg distance from the seam, mm.
pub const PEG_X: f64 = 8.5;
/// Screw hole (through the joiner) radius, mm.
pub const SCREW_R: f64 = 1.3;
/// Screw distance from the seam, mm.
pub const SCREW_X: f64 = 3.2;
/// Pilot hole radius for a ~2.2 mm self-tapping screw, mm.
pub const PILOT_R: f64 = 0.9;
/// Pilot hole depth into the board above the pocket, mm.
pub const PILOT_DEPTH: f64 = 6.0;
/// Clearance of the pocket round the joiner and of the peg holes round the pegs, mm.
pub const CLEARANCE: f64 = 0.2;

/// A closed outline (flattened glyph contour), board mm.
type Contour = Vec<(f64, f64)>;

/// An engraved arrow: a polyline with heads at its ends.
#[derive(Clone, Debug)]
struct Arrow {
    pts: Vec<(f64, f64)>,
    head_end: bool,
    head_start: bool,
    /// The shaft: `pts` with the ends under a head pulled back so the tips stay sharp.
    shaft: Vec<(f64, f64)>,
    /// Bounding box of everything [`Arrow::contains`] can accept (the points, grown by the
    /// larger of the groove half-width and the head's reach from its tip), board mm.
    lo: (f64, f64),
    hi: (f64, f64),
}

/// An engraved label: contours filled with the non-zero rule, and their bounding box.
#[derive(Clone, Debug)]
struct Label {
    contours: Vec<Contour>,
    lo: (f64, f64),
    hi: (f64, f64),
}

/// Everything the board's surfaces depend on.
#[derive(Clone, Debug)]
pub struct Design {
    /// Pits per row.
    pub n: usize,
    /// Pit centres (holes `0..2n`), board mm.
    pub pits: Vec<(f64, f64)>,
    /// Pit radius, mm.
    pub r: f64,
    /// Pit depth, mm.
    pub pit_depth: f64,
    /// Stores: centre x, centre y, width, height, corner radius, mm.
    pub stores: [(f64, f64, f64, f64, f64); 2],
    /// Store depth, mm.
    pub store_depth: f64,
    /// Board thickness, mm.
    pub thick: f64,
    /// Counter (seed) diameter for this board, mm.
    pub counter_d: f64,
    /// The side whose pits and store have a double rim (the paper board's double ring).
    pub ring_side: usize,
    /// Grid step along x and y, mm (pit centres and seams lie on grid lines).
    pub sx: f64,
    /// Grid step along y, mm.
    pub sy: f64,
    /// Half-extents of the board in grid cells.
    pub ix: usize,
    /// Half-extent in y, cells.
    pub iy: usize,
    /// Pit pitch along a row, mm.
    pub pitch: f64,
    /// y of the label band of each side, mm.
    pub band_y: [f64; 2],
    /// Half the depth the two rows of pits need with their label bands, mm: the half-depth
    /// of the block ([`Design::half_size`]) is the larger of this and `stores_half_depth`,
    /// rounded up to a grid line.
    pub pits_half_depth: f64,
    /// Half the depth the stores need with their rims and margin, mm.
    pub stores_half_depth: f64,
    /// Distance of the joiner's pegs and screws from the seam, mm ([`PEG_X`] and [`SCREW_X`]
    /// moved onto grid lines, so the holes are symmetric about their centres).
    pub peg_x: f64,
    /// Screw distance from the seam, mm.
    pub screw_x: f64,
    labels: Vec<Label>,
    arrows: Vec<Arrow>,
}

/// DejaVu Sans cap height as a fraction of the em.
const CAP_EM: f64 = 0.729;

/// Flattens a glyph outline to contours through `map` (from page mm, y down, to board mm).
fn contours(segs: &[Seg], map: &dyn Fn(f64, f64) -> (f64, f64)) -> Vec<Contour> {
    let mut out: Vec<Contour> = Vec::new();
    let mut cur: Contour = Vec::new();
    let mut last = (0.0, 0.0);
    for s in segs {
        match *s {
            Seg::MoveTo(p) => {
                if cur.len() > 2 {
                    out.push(std::mem::take(&mut cur));
                }
                cur.clear();
                last = (p.x, p.y);
                cur.push(map(p.x, p.y));
            }
            Seg::LineTo(p) => {
                last = (p.x, p.y);
                cur.push(map(p.x, p.y));
            }
            Seg::CubicTo(a, b, p) => {
                let p0 = last;
                for k in 1..=8 {
                    let t = k as f64 / 8.0;
                    let u = 1.0 - t;
                    let x = u * u * u * p0.0
                        + 3.0 * u * u * t * a.x
                        + 3.0 * u * t * t * b.x
                        + t * t * t * p.x;
                    let y = u * u * u * p0.1
                        + 3.0 * u * u * t * a.y
                        + 3.0 * u * t * t * b.y
                        + t * t * t * p.y;
                    cur.push(map(x, y));
                }
                last = (p.x, p.y);
            }
            Seg::Close => {
                if cur.len() > 2 {
                    out.push(std::mem::take(&mut cur));
                }
                cur.clear();
            }
        }
    }
    if cur.len() > 2 {
        out.push(cur);
    }
    out
}

/// A label of cap height `cap` mm centred on `(cx, cy)`, turned by `quarter` quarter turns
/// counter-clockwise (0: reads along +x).
fn label(s: &str, cap: f64, cx: f64, cy: f64, quarter: u8) -> Label {
    let pt = cap / (CAP_EM * text::MM_PER_PT);
    let w = text::width_mm(s, pt, Weight::Bold);
    let segs = text::outline(&Text {
        x: 0.0,
        y: 0.0,
        size_pt: pt,
        weight: Weight::Bold,
        color: Color::BLACK,
        text: s.to_string(),
    });
    let map = |x: f64, y: f64| {
        let (u, v) = (x - w / 2.0, -y - cap / 2.0);
        let (u, v) = match quarter % 4 {
            0 => (u, v),
            1 => (-v, u),
            2 => (-u, -v),
            _ => (v, -u),
        };
        (cx + u, cy + v)
    };
    let cs = contours(&segs, &map);
    let mut lo = (f64::INFINITY, f64::INFINITY);
    let mut hi = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    for c in &cs {
        for &(x, y) in c {
            lo = (lo.0.min(x), lo.1.min(y));
            hi = (hi.0.max(x), hi.1.max(y));
        }
    }
    Label {
        contours: cs,
        lo,
        hi,
    }
}

impl Label {
    /// Non-zero winding test.
    fn contains(&self, x: f64, y: f64) -> bool {
        if x < self.lo.0 || x > self.hi.0 || y < self.lo.1 || y > self.hi.1 {
            return false;
        }
        let mut wn = 0i32;
        for c in &self.contours {
            for k in 0..c.len() {
                let (a, b) = (c[k], c[(k + 1) % c.len()]);
                let side = (b.0 - a.0) * (y - a.1) - (x - a.0) * (b.1 - a.1);
                if a.1 <= y {
                    if b.1 > y && side > 0.0 {
                        wn += 1;
                    }
                } else if b.1 <= y && side < 0.0 {
                    wn -= 1;
                }
            }
        }
        wn != 0
    }
}

fn seg_dist(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let l2 = dx * dx + dy * dy;
    let t = if l2 < 1e-12 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / l2).clamp(0.0, 1.0)
    };
    ((p.0 - a.0 - t * dx).powi(2) + (p.1 - a.1 - t * dy).powi(2)).sqrt()
}

fn in_head(p: (f64, f64), tip: (f64, f64), from: (f64, f64)) -> bool {
    let (dx, dy) = (tip.0 - from.0, tip.1 - from.1);
    let l = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (ux, uy) = (dx / l, dy / l);
    // Along the arrow from the tip backwards, and across.
    let along = (tip.0 - p.0) * ux + (tip.1 - p.1) * uy;
    let across = ((p.0 - tip.0) * -uy + (p.1 - tip.1) * ux).abs();
    (0.0..=HEAD_LEN).contains(&along) && across <= HEAD_HW * along / HEAD_LEN
}

impl Arrow {
    /// An arrow along `pts` with heads at the chosen ends; precomputes its shaft and bounds.
    fn new(pts: Vec<(f64, f64)>, head_end: bool, head_start: bool) -> Arrow {
        let n = pts.len();
        let mut shaft = pts.clone();
        // Shorten the shaft under the heads so the tips stay sharp.
        let trim = |a: (f64, f64), b: (f64, f64)| {
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let l = (dx * dx + dy * dy).sqrt().max(1e-9);
            (b.0 - dx / l * HEAD_LEN * 0.7, b.1 - dy / l * HEAD_LEN * 0.7)
        };
        if head_end {
            shaft[n - 1] = trim(pts[n - 2], pts[n - 1]);
        }
        if head_start {
            shaft[0] = trim(pts[1], pts[0]);
        }
        // A head reaches at most hypot(HEAD_LEN, HEAD_HW) from its tip; the shaft GROOVE_HW
        // from its segments (which lie on the original ones). 0.01 mm spare for rounding.
        let reach = HEAD_LEN.hypot(HEAD_HW).max(GROOVE_HW) + 0.01;
        let mut lo = (f64::INFINITY, f64::INFINITY);
        let mut hi = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        for &(x, y) in &pts {
            lo = (lo.0.min(x - reach), lo.1.min(y - reach));
            hi = (hi.0.max(x + reach), hi.1.max(y + reach));
        }
        Arrow {
            pts,
            head_end,
            head_start,
            shaft,
            lo,
            hi,
        }
    }

    fn contains(&self, x: f64, y: f64) -> bool {
        if x < self.lo.0 || x > self.hi.0 || y < self.lo.1 || y > self.hi.1 {
            return false;
        }
        let p = (x, y);
        let n = self.pts.len();
        if self.head_end && in_head(p, self.pts[n - 1], self.pts[n - 2]) {
            return true;
        }
        if self.head_start && in_head(p, self.pts[0], self.pts[1]) {
            return true;
        }
        self.shaft
            .windows(2)
            .any(|w| seg_dist(p, w[0], w[1]) <= GROOVE_HW)
    }
}

/// Depth profile of a bowl whose rim is at signed distance 0: a spherical cap of depth `h`
/// over half-width `a`, followed outward by its rim slope so [`smin`] can round the rim.
/// Returns the height below the top (negative outside the rim).
fn bowl_depth(sdf: f64, a: f64, h: f64) -> f64 {
    let delta = h / a;
    let rn = (1.0 + delta * delta) / (2.0 * delta);
    let edge = (rn * rn - 1.0).sqrt();
    if sdf >= 0.0 {
        -sdf / edge
    } else {
        let u = (1.0 + sdf / a).max(0.0);
        a * ((rn * rn - u * u).sqrt() - edge)
    }
}

/// Polynomial smooth minimum with blend width `k`; exactly `min(a, b)` once they differ by `k`.
fn smin(a: f64, b: f64, k: f64) -> f64 {
    let h = (k - (a - b).abs()).max(0.0) / k;
    a.min(b) - h * h * k / 4.0
}

/// A store's outline: the superellipse `(|x|/a)^4 + (|y|/b)^4 = 1` inscribed in its
/// rectangle (close to the paper's rounded rectangle, but smooth, so its bowl, an elliptic cap
/// in the normalised radius `u`, has no creases). Returns `u` (1 on the outline) and the
/// first-order signed distance to the outline, mm.
fn superellipse(x: f64, y: f64, a: f64, b: f64) -> (f64, f64) {
    let (p, q) = (x.abs() / a, y.abs() / b);
    let s = p.powi(4) + q.powi(4);
    let u = s.powf(0.25);
    if u < 1e-9 {
        return (0.0, -a.min(b));
    }
    // ∇u = u^-3 (p³/a, q³/b).
    let gx = p.powi(3) / a;
    let gy = q.powi(3) / b;
    let grad = gx.hypot(gy) / u.powi(3);
    (u, (u - 1.0) / grad.max(1e-9))
}

/// Height of the rim bead(s) at signed distance `sdf` outside a bowl: one bead, or two on the
/// side with the paper board's double ring.
fn bead(sdf: f64, double: bool) -> f64 {
    let mut b: f64 = 0.0;
    for &e in &BEADS[..if double { 2 } else { 1 }] {
        let t = (sdf - e) / BEAD_HW;
        if t.abs() < 1.0 {
            b = b.max(BEAD_H * (1.0 - t * t).sqrt());
        }
    }
    b
}

impl Design {
    /// Lays out the board of `rs` at its own sizes (grown for child-safe counters with
    /// `child_safe`, as the paper board). Errors: sizes that leave no room for a label or a
    /// bowl (message names the field).
    pub fn new(rs: &Ruleset, child_safe: bool) -> Result<Design, String> {
        let g = BoardGeometry::new(rs, child_safe).centred_at(0.0, 0.0);
        let n = g.n;
        if n == 0 {
            return Err("the board has no pits".into());
        }
        let r = g.d / 2.0;
        if r < 4.0 {
            return Err(format!(
                "layout.pit_diameter {} mm is too small for a printed bowl (at least 8 mm)",
                g.d
            ));
        }
        let pitch = g.d + g.gap;
        let pit_depth = (0.32 * g.d).min(12.0);
        let pits: Vec<(f64, f64)> = (0..2 * n)
            .map(|h| {
                let c = g.pit_centre(h);
                (c.x, -c.y)
            })
            .collect();
        let mut stores = [(0.0, 0.0, 0.0, 0.0, 0.0); 2];
        for (side, st) in stores.iter_mut().enumerate() {
            let (x, y, w, h) = g.store_rect(side);
            *st = (x + w / 2.0, -(y + h / 2.0), w, h, (w / 2.0).min(8.0));
        }
        let store_depth = (0.32 * g.store_w.min(g.store_h)).min(14.0);
        let thick = (pit_depth.max(store_depth) + FLOOR).max(MIN_THICK);
        let half_row = (g.d + g.row_gap) / 2.0;
        // Labels: cap height 4 mm, smaller if the widest label needs more than 45% of a pitch.
        let widest = (0..2 * n)
            .map(|h| text::width_mm(&hole_label(rs, h), 10.0, Weight::Bold) / 10.0)
            .fold(0.0, f64::max);
        let cap_pt_per_mm = 1.0 / (CAP_EM * text::MM_PER_PT);
        let mut cap = 4.0f64;
        if widest * cap * cap_pt_per_mm > 0.45 * pitch {
            cap = 0.45 * pitch / (widest * cap_pt_per_mm);
        }
        if cap < 2.0 {
            return Err(format!(
                "the pit labels are too long to engrave between {pitch:.0} mm pits: shorten board.pit_labels"
            ));
        }
        let row_out = half_row + r;
        let band = row_out + BEADS[1] + BEAD_HW + BAND_IN + cap / 2.0;
        // The depth is set by the pit rows with their label bands or by the stores, whichever
        // needs more; both are kept, so a board too deep for the bed names the right one.
        let pits_half_depth = band + cap / 2.0 + BAND_OUT;
        let stores_half_depth = g.store_h / 2.0 + BEADS[1] + 4.0;
        let y_half = pits_half_depth.max(stores_half_depth);
        let band_y = [-band, band];
        let mut labels = Vec::new();
        let lw = widest * cap * cap_pt_per_mm;
        for (h, &(x, _)) in pits.iter().enumerate() {
            let side = h / n;
            labels.push(label(
                &hole_label(rs, h),
                cap,
                x,
                band_y[side],
                if side == 0 { 0 } else { 2 },
            ));
        }
        // Store labels run along the board's ends, beyond the stores.
        let store_cap = 3.5f64;
        let mut x_half = 0.0f64;
        for (side, &(cx, _, w, h, _)) in stores.iter().enumerate() {
            let s = &rs.board.stores[side];
            let pt = store_cap * cap_pt_per_mm;
            let len = text::width_mm(s, pt, Weight::Bold);
            let c = if len > h {
                store_cap * h / len
            } else {
                store_cap
            };
            let out = cx.abs() + w / 2.0 + BEADS[1] + BEAD_HW + 2.0;
            x_half = x_half.max(out + c + BAND_OUT);
            let lx = (out + c / 2.0) * cx.signum();
            labels.push(label(s, c, lx, 0.0, if side == 0 { 1 } else { 3 }));
        }
        // Circuit arrows in sowing order.
        let circ = circuit(rs);
        let either = rs.sowing.direction == Direction::Either;
        let mut arrows = Vec::new();
        let gapx = lw / 2.0 + 1.5;
        for i in 0..circ.len() {
            let (a, b) = (circ[i] as usize, circ[(i + 1) % circ.len()] as usize);
            let pts = match (a < 2 * n, b < 2 * n) {
                (true, true) if a / n == b / n => {
                    let (xa, xb) = (pits[a].0, pits[b].0);
                    let s = (xb - xa).signum();
                    let y = band_y[a / n];
                    vec![(xa + s * gapx, y), (xb - s * gapx, y)]
                }
                (true, true) => {
                    // Turn between the rows at the end both pits share.
                    let x = pits[a].0;
                    let xo = x + x.signum() * (r + g.end_gap / 2.0);
                    let (ya, yb) = (pits[a].1, pits[b].1);
                    let k = 0.4 * r;
                    vec![
                        (xo, ya + (yb - ya).signum() * k),
                        (xo, yb - (yb - ya).signum() * k),
                    ]
                }
                (true, false) => {
                    let (sx_, sy_, _, sh, _) = stores[b - 2 * n];
                    let (xa, ya) = pits[a];
                    let y = band_y[a / n];
                    let s = (sx_ - xa).signum();
                    let edge = sy_ + ya.signum() * (sh / 2.0 + BEADS[1] + BEAD_HW + 1.0);
                    vec![(xa + s * gapx, y), (sx_, y), (sx_, edge)]
                }
                (false, true) => {
                    let (sx_, sy_, _, sh, _) = stores[a - 2 * n];
                    let (xb, yb) = pits[b];
                    let y = band_y[b / n];
                    let s = (xb - sx_).signum();
                    let edge = sy_ + yb.signum() * (sh / 2.0 + BEADS[1] + BEAD_HW + 1.0);
                    vec![(sx_, edge), (sx_, y), (xb - s * gapx, y)]
                }
                (false, false) => continue,
            };
            arrows.push(Arrow::new(pts, true, either));
        }
        // Grid: x step divides half the pitch; y step divides half the row spacing. A board so
        // large that [`STEP`] would pass [`MAX_GRID_POINTS`] gets a coarser grid (bounded
        // memory and time), up to [`MAX_STEP`].
        let area = 4.0 * x_half * y_half;
        if area > MAX_BOARD_AREA {
            // Child-safe pits are grown to hold three counters: the counter size is then
            // what sets them.
            let pit_now = if g.d > rs.layout.pit_diameter {
                format!(
                    "layout.pit_diameter (now {} mm, grown to {} mm to hold three {} mm child-safe counters: a smaller layout.counter_diameter, at least {}, shrinks them)",
                    rs.layout.pit_diameter,
                    g.d,
                    g.counter_d,
                    crate::geometry::CHILD_SAFE_COUNTER
                )
            } else {
                format!("layout.pit_diameter (now {} mm)", rs.layout.pit_diameter)
            };
            return Err(format!(
                "the 3D board would be {:.0} × {:.0} mm ({:.2} m²), more than the {:.2} m² a 3D board may have (limit: {:.1} million grid points at most {MAX_STEP} mm apart): use a smaller {pit_now} or layout.pit_gap (now {} mm), or fewer board.pits_per_side (now {n})",
                2.0 * x_half,
                2.0 * y_half,
                area / 1e6,
                MAX_BOARD_AREA / 1e6,
                MAX_GRID_POINTS / 1e6,
                rs.layout.pit_gap,
            ));
        }
        let step = STEP.max((area / MAX_GRID_POINTS).sqrt());
        let m = (2.0 * (pitch / (2.0 * step)).round()).max(2.0);
        let sx = pitch / m;
        let sy = half_row / (half_row / step).round().max(1.0);
        let ix = (x_half / sx).ceil() as usize;
        let iy = (y_half / sy).ceil() as usize;
        Ok(Design {
            n,
            pits,
            r,
            pit_depth,
            stores,
            store_depth,
            thick,
            counter_d: g.counter_d,
            ring_side: g.ring_side,
            sx,
            sy,
            ix,
            iy,
            pitch,
            band_y,
            pits_half_depth,
            stores_half_depth,
            peg_x: (PEG_X / sx).round() * sx,
            screw_x: (SCREW_X / sx).round() * sx,
            labels,
            arrows,
        })
    }

    /// Half-width and half-depth of the block, mm.
    pub fn half_size(&self) -> (f64, f64) {
        (self.ix as f64 * self.sx, self.iy as f64 * self.sy)
    }

    /// Height of the top surface at `(x, y)`, mm.
    pub fn top(&self, x: f64, y: f64) -> f64 {
        let t = self.thick;
        let mut z = t;
        let mut bump: f64 = 0.0;
        // A pit more than its radius and 6 mm away on either axis cannot reach (x, y) (the
        // 0.01 mm spare covers rounding of the distance).
        let reach = self.r + 6.01;
        for (h, &(px, py)) in self.pits.iter().enumerate() {
            if (x - px).abs() > reach || (y - py).abs() > reach {
                continue;
            }
            let sdf = ((x - px).powi(2) + (y - py).powi(2)).sqrt() - self.r;
            if sdf < 6.0 {
                let zb = t - bowl_depth(sdf, self.r, self.pit_depth);
                z = z.min(smin(t, zb, RIM_ROUND));
                bump = bump.max(bead(sdf, h / self.n == self.ring_side));
            }
        }
        for (side, &(cx, cy, w, h, _)) in self.stores.iter().enumerate() {
            let (u, sdf) = superellipse(x - cx, y - cy, w / 2.0, h / 2.0);
            if sdf < 6.0 {
                let a = w.min(h) / 2.0;
                let inside = if u < 1.0 { (u - 1.0) * a } else { sdf };
                let zb = t - bowl_depth(inside, a, self.store_depth);
                z = z.min(smin(t, zb, RIM_ROUND));
                bump = bump.max(bead(sdf, side == self.ring_side));
            }
        }
        z += bump;
        let engraved = self.labels.iter().any(|l| l.contains(x, y))
            || self.arrows.iter().any(|a| a.contains(x, y));
        if engraved {
            z = z.min(t - ENGRAVE);
        }
        // Rounded top edge of the block.
        let (hx, hy) = self.half_size();
        let d = (hx - x.abs()).min(hy - y.abs());
        if d < EDGE_ROUND {
            let e = EDGE_ROUND - d.max(0.0);
            z = z.min(t - (EDGE_ROUND - (EDGE_ROUND * EDGE_ROUND - e * e).max(0.0).sqrt()));
        }
        z
    }

    /// x of the seams that can split the board: half-way between neighbouring pit columns.
    pub fn seam_candidates(&self) -> Vec<f64> {
        (0..self.n.saturating_sub(1))
            .map(|c| self.pits[c].0 + self.pitch / 2.0)
            .collect()
    }

    /// Centres of the joiners on the seam at `xs`: one in each label band (on a grid line).
    pub fn joiner_centres(&self, xs: f64) -> [(f64, f64); 2] {
        let snap = |y: f64| (y / self.sy).round() * self.sy;
        [(xs, snap(self.band_y[0])), (xs, snap(self.band_y[1]))]
    }

    /// Height of the bottom surface at `(x, y)` for a part with seams at `seams`: 0, raised
    /// into a pocket for each joiner, with peg holes and screw pilot holes above it.
    pub fn bottom(&self, x: f64, y: f64, seams: &[f64]) -> f64 {
        let pocket = JOINER_T + CLEARANCE;
        for &xs in seams {
            for (cx, cy) in self.joiner_centres(xs) {
                let (dx, dy) = (x - cx, y - cy);
                if dx.abs() > JOINER_L / 2.0 + CLEARANCE || dy.abs() > JOINER_W / 2.0 + CLEARANCE {
                    continue;
                }
                for s in [-1.0, 1.0] {
                    if (dx - s * self.peg_x).hypot(dy) <= PEG_R + CLEARANCE {
                        return pocket + PEG_H + 0.5;
                    }
                    if (dx - s * self.screw_x).hypot(dy) <= PILOT_R {
                        return pocket + PILOT_DEPTH;
                    }
                }
                return pocket;
            }
        }
        0.0
    }
}

/// One printable part of the board.
#[derive(Clone, Debug)]
pub struct Part {
    /// The mesh, placed on the bed: bounding box from the origin, turned if `turned`.
    pub mesh: Mesh,
    /// Whether the part was turned a quarter (counter-clockwise) to fit the bed.
    pub turned: bool,
    /// Its x range on the board, mm.
    pub x_range: (f64, f64),
}

/// Chooses the seams: the fewest parts that fit `bed`, and of those the split whose widest part
/// is narrowest. Errors: the board is too deep for the bed, or one pit column with its end
/// is wider than the bed.
pub fn seams(d: &Design, bed: Bed) -> Result<Vec<f64>, String> {
    let (hx, hy) = d.half_size();
    let depth = 2.0 * hy;
    if depth > bed.w.max(bed.h) {
        // What sets the depth: the term of the block's depth that is larger, the stores' or
        // the pit rows' with their label bands (comparing the stores with the rows' span
        // alone blamed 178 mm stores for a depth the 80 mm pits' rows set).
        let field = if d.stores_half_depth > d.pits_half_depth {
            "layout.store_length (the stores set the depth)"
        } else {
            "layout.pit_diameter or layout.pit_gap"
        };
        return Err(format!(
            "the board is {depth:.0} mm deep, more than the {}x{} mm bed: use a larger --bed or a smaller {field}",
            bed.w, bed.h
        ));
    }
    let cand = d.seam_candidates();
    let fits = |xs: &[f64]| -> Option<f64> {
        let mut edges = vec![-hx];
        edges.extend_from_slice(xs);
        edges.push(hx);
        let mut widest: f64 = 0.0;
        for w in edges.windows(2) {
            let width = w[1] - w[0];
            if !bed.fits(width, depth) {
                return None;
            }
            widest = widest.max(width);
        }
        Some(widest)
    };
    // Every choice of k seams, fewest first.
    fn choose(k: usize, from: usize, n: usize, cur: &mut Vec<usize>, all: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            all.push(cur.clone());
            return;
        }
        for i in from..n {
            cur.push(i);
            choose(k, i + 1, n, cur, all);
            cur.pop();
        }
    }
    for k in 0..=cand.len() {
        let mut all = Vec::new();
        choose(k, 0, cand.len(), &mut Vec::new(), &mut all);
        let mut best: Option<(f64, Vec<f64>)> = None;
        for idx in all {
            let xs: Vec<f64> = idx.iter().map(|&i| cand[i]).collect();
            if let Some(w) = fits(&xs) {
                if best.as_ref().is_none_or(|(bw, _)| w < *bw - 1e-9) {
                    best = Some((w, xs));
                }
            }
        }
        if let Some((_, xs)) = best {
            return Ok(xs);
        }
    }
    // The widest part when cut at every candidate: it fits the bed neither way round.
    let mut edges = vec![-hx];
    edges.extend_from_slice(&cand);
    edges.push(hx);
    let widest = edges
        .windows(2)
        .map(|w| w[1] - w[0])
        .fold(0.0_f64, f64::max);
    Err(format!(
        "even cut between every pit column, the widest part is {widest:.0} × {depth:.0} mm, which fits the {}x{} mm bed neither way round: use a larger --bed or smaller layout.pit_diameter / layout.pit_gap",
        bed.w, bed.h
    ))
}

/// The board's top heights over the whole grid, and the grid.
pub fn top_field(d: &Design) -> (Grid, Vec<f64>) {
    let g = Grid {
        x0: -(d.ix as f64) * d.sx,
        y0: -(d.iy as f64) * d.sy,
        sx: d.sx,
        sy: d.sy,
        nx: 2 * d.ix,
        ny: 2 * d.iy,
    };
    // Rows in parallel (each height depends only on its point, so the result is the same
    // as row by row).
    let rows: Vec<Vec<f64>> = (0..=g.ny)
        .into_par_iter()
        .map(|j| {
            (0..=g.nx)
                .map(|i| {
                    let (x, y) = g.xy(i, j);
                    d.top(x, y)
                })
                .collect()
        })
        .collect();
    let mut top = Vec::with_capacity((g.nx + 1) * (g.ny + 1));
    for r in rows {
        top.extend_from_slice(&r);
    }
    (g, top)
}

/// Splits the board into parts that fit `bed`, each a closed solid on the bed.
/// Errors: see [`seams`]; a too-thin place (see [`grid::solid`]).
pub fn parts(d: &Design, bed: Bed) -> Result<Vec<Part>, String> {
    let xs = seams(d, bed)?;
    let (g, top) = top_field(d);
    let col = |x: f64| ((x - g.x0) / g.sx).round() as usize;
    let mut edges = vec![0usize];
    edges.extend(xs.iter().map(|&x| col(x)));
    edges.push(g.nx);
    // Parts in parallel; collected in order, so the first error is the first part's.
    let built: Vec<Result<Part, String>> = edges
        .windows(2)
        .enumerate()
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|(p, w)| {
            let (c0, c1) = (w[0], w[1]);
            let sub = Grid {
                x0: g.x0 + c0 as f64 * g.sx,
                nx: c1 - c0,
                ..g
            };
            let mut t = Vec::with_capacity((sub.nx + 1) * (sub.ny + 1));
            let mut b = Vec::with_capacity(t.capacity());
            let near: Vec<f64> = [p.checked_sub(1).map(|i| xs[i]), xs.get(p).copied()]
                .into_iter()
                .flatten()
                .collect();
            for j in 0..=sub.ny {
                for i in 0..=sub.nx {
                    t.push(top[g.v(c0 + i, j)]);
                    let (x, y) = sub.xy(i, j);
                    b.push(d.bottom(x, y, &near));
                }
            }
            let f = Field {
                grid: sub,
                top: t,
                bottom: b,
                present: vec![true; sub.nx * sub.ny],
            };
            let mut mesh = grid::solid(&f).map_err(|e| format!("board part {}: {e}", p + 1))?;
            let (lo, hi) = mesh.bbox();
            let (w_, h_) = (hi[0] - lo[0], hi[1] - lo[1]);
            let turned = !(w_ <= bed.w && h_ <= bed.h);
            if turned {
                mesh.rotate_quarter();
            }
            mesh.to_origin();
            Ok(Part {
                mesh,
                turned,
                x_range: (sub.x0, sub.x0 + sub.nx as f64 * sub.sx),
            })
        })
        .collect();
    built.into_iter().collect()
}

/// The joiner: a bar laid in the pockets under two neighbouring parts across their seam, with a
/// peg for each part's peg hole and a screw hole over each part's pilot hole. Printed pegs up;
/// centred on the origin in x and y.
pub fn joiner(d: &Design) -> Mesh {
    // About 0.1 mm cells, the peg centres on grid lines so each peg is symmetric about its
    // centre (as the holes are on the board's grid).
    let sx = d.peg_x / (d.peg_x / 0.1).round().max(1.0);
    let half = (JOINER_L / 2.0 / sx).round() as usize;
    let nx = 2 * half;
    let ny = (JOINER_W / 0.1).round() as usize;
    let g = Grid {
        x0: -(half as f64) * sx,
        y0: -JOINER_W / 2.0,
        sx,
        sy: JOINER_W / ny as f64,
        nx,
        ny,
    };
    let top = |x: f64, y: f64| {
        for sgn in [-1.0, 1.0] {
            let rho = (x - sgn * d.peg_x).hypot(y);
            if rho <= PEG_R {
                // A 0.4 mm chamfer on the peg's tip eases it into its hole.
                return JOINER_T + PEG_H - (rho - (PEG_R - 0.4)).max(0.0);
            }
        }
        JOINER_T
    };
    let mut f = Field::sample(g, top, |_, _| 0.0);
    for j in 0..ny {
        for i in 0..nx {
            let (x, y) = g.xy(i, j);
            let (x, y) = (x + g.sx / 2.0, y + g.sy / 2.0);
            if [-1.0, 1.0]
                .iter()
                .any(|sgn| (x - sgn * d.screw_x).hypot(y) <= SCREW_R)
            {
                f.present[j * nx + i] = false;
            }
        }
    }
    // The field is well formed by construction (thickness ≥ 3 mm everywhere).
    grid::solid(&f).unwrap_or_default()
}
