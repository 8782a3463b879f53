//! Tiling: a drawing larger than the printable area of a sheet, split over the fewest sheets.
//!
//! Works on any drawing (a [`Drawing`]: items in drawing millimetres, with a band round the
//! part to be cut out where registration marks go), knowing nothing of mancala. The drawing is
//! made once at 1:1; each tile shows its part through a clip rectangle ([`crate::doc::Clip`]),
//! moved onto the page by a translation only, so tiles put back together give the drawing
//! exactly.
//!
//! Seams are straight lines across the drawing, chosen in the free bands between its "solid"
//! items (filled shapes such as pits, stores, arrow numbers and arrowheads, and every line of
//! text), in the middle of a band, so no seam cuts through one or runs close by, and with the
//! tiles as even as the bands allow. Each seam has an overlap of [`OVERLAP`] mm: the tile
//! before the seam runs on past it as a plain grey glue strip (the drawing is not printed
//! there: the later tile covers it); the tile after it starts at the seam with a solid cut
//! line there. Crosshair registration marks ([`MARK_R`]) sit in the
//! overlap, in the band outside the cut-out part, on both tiles at the same drawing position:
//! lay the later tile over the glue strip with its marks on the earlier tile's marks.

use super::page::{self, MARGIN};
use super::phrases::Phrases;
use super::style::Sizes;
use super::Paper;
use crate::doc::{
    self, circle, line, pt as p, rect, Clip, Color, Item, Page, Pt, Seg, Stroke, Weight,
};
use crate::text;

/// Overlap at each seam, mm (the glue strip's width; at least 10 mm).
pub const OVERLAP: f64 = 12.0;
/// Radius of a registration mark's circle, mm (its cross arms reach [`MARK_ARM`]).
pub const MARK_R: f64 = 3.0;
/// Half-length of a registration mark's cross arms, mm.
pub const MARK_ARM: f64 = 4.5;
/// Stroke of registration marks and the tile cut line, mm.
pub const MARK_W: f64 = 0.2;
/// Width of the band round the cut-out part that holds the registration marks, mm.
pub const BAND: f64 = 11.0;
/// Least distance between a seam (the cut line) and any solid item (pit rim, store, label,
/// arrow number, arrowhead), mm. Seams sit in the middle of their free band, so most have more.
pub const SEAM_CLEAR: f64 = 2.0;
/// Grey of the glue strip.
const GLUE_GREY: Color = Color::grey(215);

/// A drawing to tile: `w` × `h` mm of items with the part to be cut out at `part` (x, y, w, h),
/// at least [`BAND`] mm inside the drawing's edges.
#[derive(Clone, Debug)]
pub struct Drawing {
    /// Width, mm.
    pub w: f64,
    /// Height, mm.
    pub h: f64,
    /// Items in drawing millimetres (origin top-left).
    pub items: Vec<Item>,
    /// The part to be cut out: (x, y, w, h), mm.
    pub part: (f64, f64, f64, f64),
}

/// Where the seams of a drawing fall and how the tiles sit on their pages.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Vertical seams, drawing x, mm, left to right.
    pub seams_x: Vec<f64>,
    /// Horizontal seams, drawing y, mm, top to bottom.
    pub seams_y: Vec<f64>,
    /// Whether the tile pages are landscape.
    pub landscape: bool,
    /// Page size (width, height), mm.
    pub page: (f64, f64),
    /// Area a tile may fill on its page: (x, y, w, h), mm.
    pub area: (f64, f64, f64, f64),
}

impl Plan {
    /// Columns of tiles.
    pub fn cols(&self) -> usize {
        self.seams_x.len() + 1
    }
    /// Rows of tiles.
    pub fn rows(&self) -> usize {
        self.seams_y.len() + 1
    }
    /// Number of tiles.
    pub fn count(&self) -> usize {
        self.cols() * self.rows()
    }
    /// The part of the drawing tile (`col`, `row`) shows: (x0, y0, x1, y1), drawing mm. It runs
    /// from the seam before it to [`OVERLAP`] past the seam after it.
    pub fn region(&self, d: &Drawing, col: usize, row: usize) -> (f64, f64, f64, f64) {
        let span = |seams: &[f64], k: usize, end: f64| {
            let a = if k == 0 { 0.0 } else { seams[k - 1] };
            let b = if k == seams.len() {
                end
            } else {
                seams[k] + OVERLAP
            };
            (a, b)
        };
        let (x0, x1) = span(&self.seams_x, col, d.w);
        let (y0, y1) = span(&self.seams_y, row, d.h);
        (x0, y0, x1, y1)
    }
    /// Translation from drawing to page coordinates for tile (`col`, `row`): add it to a drawing
    /// point to get where it is printed on that tile's page, mm.
    pub fn offset(&self, d: &Drawing, col: usize, row: usize) -> (f64, f64) {
        let (x0, y0, x1, y1) = self.region(d, col, row);
        let (ax, ay, aw, ah) = self.area;
        // Centred in the area, rounded to 0.01 mm so SVG and PDF place it alike.
        let r = |v: f64| (v * 100.0).round() / 100.0;
        (
            r(ax + (aw - (x1 - x0)) / 2.0 - x0),
            r(ay + (ah - (y1 - y0)) / 2.0 - y0),
        )
    }
    /// Registration mark centres in drawing mm: for each vertical seam, one above and one below
    /// the part in the middle of the overlap; for each horizontal seam, one left and one right.
    pub fn marks(&self, d: &Drawing) -> Vec<Pt> {
        let (px, py, pw, ph) = d.part;
        let mut v = Vec::new();
        for s in &self.seams_x {
            let x = s + OVERLAP / 2.0;
            v.push(p(x, py / 2.0));
            v.push(p(x, (py + ph + d.h) / 2.0));
        }
        for s in &self.seams_y {
            let y = s + OVERLAP / 2.0;
            v.push(p(px / 2.0, y));
            v.push(p((px + pw + d.w) / 2.0, y));
        }
        v
    }
}

/// Boxes (x0, y0, x1, y1) of the items no seam may cross: filled shapes (by their control
/// points) and lines of text (advance width, ascent to descent).
pub fn solid_boxes(items: &[Item]) -> Vec<(f64, f64, f64, f64)> {
    doc::leaves(items)
        .into_iter()
        .filter_map(|i| match i {
            Item::Shape(s) if s.fill.is_some() => {
                let w = s.stroke.as_ref().map_or(0.0, |st| st.width / 2.0);
                doc::bounds(&s.segs).map(|(a, b, c, e)| (a - w, b - w, c + w, e + w))
            }
            Item::Text(t) => Some((
                t.x,
                t.y - text::ascent_mm(t.size_pt),
                t.x + text::width_mm(&t.text, t.size_pt, t.weight),
                t.y + text::descent_mm(t.size_pt),
            )),
            _ => None,
        })
        .collect()
}

/// Free places for a seam along one axis of length `len`, from the free bands between the
/// `blocked` intervals (and the ends): as (position, clearance), the clearance being the
/// distance from the position to the nearest blocked interval. With `centres`, only the middle
/// of each band; otherwise also points across it every 0.5 mm or so, down to [`SEAM_CLEAR`]
/// from either side. Only positions strictly inside `inside` (from, to) with a clearance of at
/// least [`SEAM_CLEAR`] count. Positions are whole tenths of a millimetre.
pub fn seam_places(
    len: f64,
    blocked: &[(f64, f64)],
    inside: (f64, f64),
    centres: bool,
) -> Vec<(f64, f64)> {
    let mut b: Vec<(f64, f64)> = blocked.to_vec();
    b.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.total_cmp(&y.1)));
    let mut free = Vec::new();
    let mut at = 0.0_f64;
    for (a, c) in &b {
        if *a > at {
            free.push((at, *a));
        }
        at = at.max(*c);
    }
    if len > at {
        free.push((at, len));
    }
    let mut out = Vec::new();
    for (a, c) in free {
        let mid = (((a + c) / 2.0) * 10.0).round() / 10.0;
        let mut pts = vec![mid];
        if !centres {
            let lo = ((a + SEAM_CLEAR) * 10.0).ceil() / 10.0;
            let hi = ((c - SEAM_CLEAR) * 10.0).floor() / 10.0;
            if hi >= lo {
                let steps = (((hi - lo) / 0.5).ceil() as usize).clamp(1, 40);
                for i in 0..=steps {
                    let s = lo + (hi - lo) * i as f64 / steps as f64;
                    pts.push((s * 10.0).round() / 10.0);
                }
            }
        }
        pts.sort_by(f64::total_cmp);
        pts.dedup();
        for s in pts {
            let clear = (s - a).min(c - s);
            if s > inside.0 && s < inside.1 && clear >= SEAM_CLEAR - 1e-9 {
                out.push((s, clear));
            }
        }
    }
    out
}

/// Width of each tile along one axis of length `len` cut at `seams` (each tile runs from the
/// seam before it to [`OVERLAP`] past the seam after it), mm.
pub fn tile_widths(len: f64, seams: &[f64]) -> Vec<f64> {
    let mut out = Vec::new();
    let mut start = 0.0;
    for s in seams {
        out.push(s + OVERLAP - start);
        start = *s;
    }
    out.push(len - start);
    out
}

/// The best chain of exactly `k` seams chosen from `places` (position, clearance) over an axis
/// of length `len`: each tile's width `w` is scored by `tile(w)` and each seam by `seam(c)` of
/// its clearance; a chain's score is the smallest of these (their sum with `sum`), and the chain with the largest
/// score wins (the first found on a tie, so the result is deterministic). `None` when no chain
/// scores above −∞. Dynamic programming over (seams used, last seam): O(k·m²) for m places.
fn best_chain(
    len: f64,
    places: &[(f64, f64)],
    k: usize,
    tile: &dyn Fn(f64) -> f64,
    seam: &dyn Fn(f64) -> f64,
    sum: bool,
) -> Option<(f64, Vec<f64>)> {
    let join = |a: f64, b: f64| if sum { a + b } else { a.min(b) };
    let m = places.len();
    if k == 0 {
        let v = tile(len);
        return (v > f64::NEG_INFINITY).then(|| (v, Vec::new()));
    }
    // best[j][i]: score of the best chain of j + 1 seams ending at place i (tiles before it
    // closed); from[j][i]: the place before it.
    let mut best = vec![vec![f64::NEG_INFINITY; m]; k];
    let mut from = vec![vec![usize::MAX; m]; k];
    for i in 0..m {
        let (s, c) = places[i];
        best[0][i] = join(tile(s + OVERLAP), seam(c));
    }
    for j in 1..k {
        for i in 0..m {
            let (s, c) = places[i];
            for q in 0..i {
                let (sq, _) = places[q];
                if best[j - 1][q] == f64::NEG_INFINITY || s < sq + OVERLAP + 1.0 {
                    continue;
                }
                let v = join(join(best[j - 1][q], tile(s + OVERLAP - sq)), seam(c));
                if v > best[j][i] {
                    best[j][i] = v;
                    from[j][i] = q;
                }
            }
        }
    }
    let mut top: Option<(f64, usize)> = None;
    for i in 0..m {
        if best[k - 1][i] == f64::NEG_INFINITY {
            continue;
        }
        let v = join(best[k - 1][i], tile(len - places[i].0));
        if v > f64::NEG_INFINITY && top.is_none_or(|(b, _)| v > b) {
            top = Some((v, i));
        }
    }
    let (v, mut i) = top?;
    let mut out = vec![places[i].0];
    for j in (1..k).rev() {
        i = from[j][i];
        out.push(places[i].0);
    }
    out.reverse();
    Some((v, out))
}

/// The fewest seams chosen from `places` (position, clearance) over an axis of length `len`
/// such that every tile's width passes `fits` (tiles measured as in [`best_chain`]), or `None`
/// when no choice does. One pass of dynamic programming over the places, O(m²) for m places:
/// asking [`best_chain`] for 0, 1, 2, … seams in turn costs O(m⁴) when nothing fits, which made a
/// board that cannot be tiled take minutes to refuse.
fn fewest_seams(len: f64, places: &[(f64, f64)], fits: &dyn Fn(f64) -> bool) -> Option<usize> {
    if fits(len) {
        return Some(0);
    }
    // need[i]: fewest seams of a fitting chain whose last seam is place i (usize::MAX: none).
    let mut need = vec![usize::MAX; places.len()];
    let mut fewest: Option<usize> = None;
    for i in 0..places.len() {
        let s = places[i].0;
        if fits(s + OVERLAP) {
            need[i] = 1;
        }
        for q in 0..i {
            let sq = places[q].0;
            if need[q] == usize::MAX || s < sq + OVERLAP + 1.0 {
                continue;
            }
            if fits(s + OVERLAP - sq) {
                need[i] = need[i].min(need[q] + 1);
            }
        }
        if need[i] != usize::MAX && fits(len - s) {
            fewest = Some(fewest.map_or(need[i], |f| f.min(need[i])));
        }
    }
    fewest
}

/// Seams along one axis of length `len` so that every tile is at most `span` long, from the
/// free places of [`seam_places`]: `centres` (the middle of each band) and `anywhere` (points
/// across each band). Chosen, in order of priority:
/// 1. the fewest seams (from `anywhere`);
/// 2. when the middles of the bands give that few, only middles, and among them
///    a. the narrowest widest tile (tiles as even as the bands allow),
///    b. the widest narrowest tile (the least spread),
///    c. the largest smallest clearance;
/// 3. otherwise the points with the largest total clearance (seams as near the middle of
///    their bands as the tile count allows).
///
/// `None` if no choice keeps every tile within `span`.
pub fn seams(
    len: f64,
    centres: &[(f64, f64)],
    anywhere: &[(f64, f64)],
    span: f64,
) -> Option<Vec<f64>> {
    let ninf = f64::NEG_INFINITY;
    let fits = |w: f64| w <= span + 1e-9;
    let none = |_: f64| f64::INFINITY;
    let zero = |w: f64| if fits(w) { 0.0 } else { ninf };
    let k = fewest_seams(len, anywhere, &fits)?;
    // 2a: maximise −(widest tile), middles only.
    let tile_a = |w: f64| if fits(w) { -w } else { ninf };
    let Some((v, _)) = best_chain(len, centres, k, &tile_a, &none, false) else {
        // 3: most clearance in total.
        let (_, chain) = best_chain(len, anywhere, k, &zero, &|c| c, true)?;
        return Some(chain);
    };
    let widest = -v + 1e-6;
    // 2b: with no tile wider than that, maximise the narrowest.
    let within = |w: f64| fits(w) && w <= widest;
    let tile_b = |w: f64| if within(w) { w } else { ninf };
    let (narrowest, _) = best_chain(len, centres, k, &tile_b, &none, false)?;
    let narrowest = narrowest - 1e-6;
    // 2c: with the widths so bounded, maximise the smallest clearance.
    let tile_c = |w: f64| {
        if within(w) && w >= narrowest {
            f64::INFINITY
        } else {
            ninf
        }
    };
    let (_, chain) = best_chain(len, centres, k, &tile_c, &|c| c, false)?;
    Some(chain)
}

/// Distance from a seam at `s` to the nearest of the `blocked` intervals (0 when it lies in
/// one), mm.
pub fn clearance(s: f64, blocked: &[(f64, f64)]) -> f64 {
    blocked
        .iter()
        .map(|(a, b)| {
            if s < *a {
                a - s
            } else if s > *b {
                s - b
            } else {
                0.0
            }
        })
        .fold(f64::INFINITY, f64::min)
}

/// The plan with the fewest tiles for `d` on `paper` (both orientations tried; landscape wins
/// a tie), with `head` mm kept under the top margin for the tile heading. Seams fall in the
/// free bands between the solid items of `d` ([`solid_boxes`]), inside the part, at least
/// [`SEAM_CLEAR`] mm from any of them and in the middle of the band where the tile count
/// allows, chosen by [`seams`]. Errors when no seam
/// can be placed (a solid item wider than a tile).
/// `sz` gives the bottom band (see [`page::content_bottom`]).
pub fn plan(d: &Drawing, paper: Paper, sz: &Sizes, head: f64) -> Result<Plan, String> {
    let solid = solid_boxes(&d.items);
    let xs: Vec<(f64, f64)> = solid.iter().map(|b| (b.0, b.2)).collect();
    let ys: Vec<(f64, f64)> = solid.iter().map(|b| (b.1, b.3)).collect();
    let (px, py, pw, phh) = d.part;
    let inx = (px, px + pw - OVERLAP);
    let iny = (py, py + phh - OVERLAP);
    let (cx, ax) = (
        seam_places(d.w, &xs, inx, true),
        seam_places(d.w, &xs, inx, false),
    );
    let (cy, ay) = (
        seam_places(d.h, &ys, iny, true),
        seam_places(d.h, &ys, iny, false),
    );
    let mut best: Option<Plan> = None;
    for landscape in [true, false] {
        let (w, h) = if landscape {
            (paper.height, paper.width)
        } else {
            (paper.width, paper.height)
        };
        let area = (
            MARGIN,
            MARGIN + head,
            w - 2.0 * MARGIN,
            page::content_bottom(w, h, sz) - MARGIN - head,
        );
        let (Some(sx), Some(sy)) = (seams(d.w, &cx, &ax, area.2), seams(d.h, &cy, &ay, area.3))
        else {
            continue;
        };
        let plan = Plan {
            seams_x: sx,
            seams_y: sy,
            landscape,
            page: (w, h),
            area,
        };
        if best.as_ref().is_none_or(|b| plan.count() < b.count()) {
            best = Some(plan);
        }
    }
    best.ok_or_else(|| {
        format!(
            "the board ({:.0} × {:.0} mm) cannot be split over {} sheets without cutting through a pit or store: use a larger paper or --fit",
            d.part.2, d.part.3, paper.name
        )
    })
}

/// The fewest tiles a drawing `w` × `h` mm could take on `paper` (either way round) under
/// tile headings `head` mm tall, wherever its seams may fall: along each axis n tiles of at
/// most `span` mm, neighbours overlapping by [`OVERLAP`], cover n·span − (n − 1)·[`OVERLAP`].
/// A lower bound on [`plan`]'s count for such a drawing, cheap enough to tell when drawing
/// and planning a variant of the board cannot save a sheet. `None` when no tiling fits.
pub fn fewest_tiles(w: f64, h: f64, paper: Paper, sz: &Sizes, head: f64) -> Option<usize> {
    let along = |len: f64, span: f64| {
        if len <= span {
            Some(1)
        } else if span <= OVERLAP {
            None
        } else {
            Some(((len - OVERLAP) / (span - OVERLAP) - 1e-9).ceil() as usize)
        }
    };
    [(paper.height, paper.width), (paper.width, paper.height)]
        .into_iter()
        .filter_map(|(pw, ph)| {
            let down = page::content_bottom(pw, ph, sz) - MARGIN - head;
            Some(along(w, pw - 2.0 * MARGIN)? * along(h, down)?)
        })
        .min()
}

/// Lines the longest tile heading of `plan` takes at `pt` (bold, across the tile page between
/// the margins), with `title` as [`pages`] sets it.
pub fn heading_lines(plan: &Plan, title: &str, pt: f64, ph: &Phrases) -> usize {
    let total = plan.count();
    let mut most = 1;
    for row in 0..plan.rows() {
        for col in 0..plan.cols() {
            let head = ph.fmt(
                "tile.title",
                &[
                    ("title", title),
                    ("n", &number(plan, col, row).to_string()),
                    ("total", &total.to_string()),
                    ("where", &place_words(plan, col, row, ph)),
                ],
            );
            let n = super::wrap(&head, pt, Weight::Bold, plan.page.0 - 2.0 * MARGIN).len();
            most = most.max(n);
        }
    }
    most
}

/// Which tile (`col`, `row`) of `plan`, in words ("left", "top right", …).
pub fn place_words(plan: &Plan, col: usize, row: usize, ph: &Phrases) -> String {
    let word = |k: usize, n: usize, first: &str, mid: &str, last: &str, nth: &str| -> String {
        if n == 1 {
            String::new()
        } else if k == 0 {
            ph.get(first)
        } else if k + 1 == n {
            ph.get(last)
        } else if n == 3 {
            ph.get(mid)
        } else {
            ph.fmt(nth, &[("k", &(k + 1).to_string())])
        }
    };
    let r = word(
        row,
        plan.rows(),
        "tile.top",
        "tile.middle",
        "tile.bottom",
        "tile.row_k",
    );
    let c = word(
        col,
        plan.cols(),
        "tile.left",
        "tile.middle",
        "tile.right",
        "tile.col_k",
    );
    [r, c]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Tile number (1-based, row by row) of (`col`, `row`).
pub fn number(plan: &Plan, col: usize, row: usize) -> usize {
    row * plan.cols() + col + 1
}

/// A crosshair registration mark centred at `c`: a circle of [`MARK_R`] and a cross.
pub fn mark(items: &mut Vec<Item>, c: Pt) {
    let st = Stroke::solid(MARK_W, Color::BLACK);
    let sh = |segs: Vec<Seg>| {
        Item::Shape(doc::Shape {
            segs,
            fill: None,
            stroke: Some(st.clone()),
        })
    };
    items.push(sh(circle(c, MARK_R)));
    items.push(sh(line(p(c.x - MARK_ARM, c.y), p(c.x + MARK_ARM, c.y))));
    items.push(sh(line(p(c.x, c.y - MARK_ARM), p(c.x, c.y + MARK_ARM))));
}

/// The tile pages of `d` by `plan`, named `{name}-1`, `{name}-2`, … Each holds a heading
/// ("{title}, tile 1 of 2: left"), its part of the drawing in a clip, a grey glue strip past
/// each seam after it, a cut line along each seam before it, the registration marks of its
/// seams and small arrows naming the tile that joins at each seam, in the type sizes `sz` (large
/// print sets the glue word one letter a line down its strip, so it keeps its size).
pub fn pages(
    d: &Drawing,
    plan: &Plan,
    sz: &Sizes,
    name: &str,
    title: &str,
    ph: &Phrases,
) -> Vec<Page> {
    let total = plan.count();
    let marks = plan.marks(d);
    let (px, py, pw, phh) = d.part;
    let mut out = Vec::new();
    for row in 0..plan.rows() {
        for col in 0..plan.cols() {
            let k = number(plan, col, row);
            let mut pg = Page::new(&format!("{name}-{k}"), plan.page.0, plan.page.1);
            let words = place_words(plan, col, row, ph);
            let head = ph.fmt(
                "tile.title",
                &[
                    ("title", title),
                    ("n", &k.to_string()),
                    ("total", &total.to_string()),
                    ("where", &words),
                ],
            );
            super::para(
                &mut pg,
                MARGIN,
                MARGIN,
                sz.tile_head,
                Weight::Bold,
                plan.page.0 - 2.0 * MARGIN,
                &head,
            );
            let (x0, y0, x1, y1) = plan.region(d, col, row);
            // The board's own drawing stops at each seam after this tile (a clip of its own):
            // the later tile covers the strip past it, so nothing of the board is printed there
            // (no pit shows twice, none shows through a low-ink strip's outline, and no widened
            // contrast stroke reaches the strip's edge).
            let drawn_x1 = if col + 1 < plan.cols() {
                plan.seams_x[col]
            } else {
                x1
            };
            let drawn_y1 = if row + 1 < plan.rows() {
                plan.seams_y[row]
            } else {
                y1
            };
            let mut items: Vec<Item> = vec![Item::Clip(Clip {
                x: x0,
                y: y0,
                w: drawn_x1 - x0,
                h: drawn_y1 - y0,
                items: d.items.clone(),
            })];
            // Glue strips past each seam after this tile: plain grey, the glue goes on there.
            let glue = |items: &mut Vec<Item>, r: (f64, f64, f64, f64)| {
                items.push(Item::Shape(doc::Shape {
                    segs: rect(r.0, r.1, r.2, r.3),
                    fill: Some(GLUE_GREY),
                    stroke: None,
                }));
            };
            if col + 1 < plan.cols() {
                let s = plan.seams_x[col];
                glue(&mut items, (s, y0, OVERLAP, y1 - y0));
            }
            if row + 1 < plan.rows() {
                let s = plan.seams_y[row];
                glue(&mut items, (x0, s, x1 - x0, OVERLAP));
            }
            // Cut lines along the seams before this tile.
            let cut = Stroke::solid(MARK_W * 1.5, Color::BLACK);
            if col > 0 {
                let s = plan.seams_x[col - 1];
                items.push(Item::Shape(doc::Shape {
                    segs: line(p(s, y0), p(s, y1)),
                    fill: None,
                    stroke: Some(cut.clone()),
                }));
            }
            if row > 0 {
                let s = plan.seams_y[row - 1];
                items.push(Item::Shape(doc::Shape {
                    segs: line(p(x0, s), p(x1, s)),
                    fill: None,
                    stroke: Some(cut.clone()),
                }));
            }
            for m in &marks {
                if m.x > x0 && m.x < x1 && m.y > y0 && m.y < y1 {
                    mark(&mut items, *m);
                }
            }
            // Join arrows in the band: "▶ 2" before a seam after this tile, "◀ 1" after a seam
            // before it; the word "glue" on each strip, in the band.
            let label_pt = sz.tile_join;
            // The side joins' labels go in the band above the board on the top row of tiles,
            // in the band below it on the bottom row (a lower tile's region starts at its
            // seam, under the band above), and on neither in a middle row.
            let band_mid_top = if row == 0 {
                Some(py / 2.0)
            } else if row + 1 == plan.rows() {
                Some((py + phh + d.h) / 2.0)
            } else {
                None
            };
            let band_mid_left = px / 2.0;
            let say = |items: &mut Vec<Item>, x: f64, y: f64, s: &str| {
                items.push(Item::Text(doc::Text {
                    x,
                    y: y + (text::ascent_mm(label_pt) - text::descent_mm(label_pt)) / 2.0,
                    size_pt: label_pt,
                    weight: Weight::Bold,
                    color: Color::BLACK,
                    text: s.to_string(),
                }));
            };
            // A join label in words where they fit `room` mm, else its arrow and number.
            let words_or = |worded: String, short: String, room: f64| {
                if text::width_mm(&worded, label_pt, Weight::Bold) <= room {
                    worded
                } else {
                    short
                }
            };
            let glue_word = ph.get("tile.glue");
            // On a tile joined on both sides and too narrow for both labels in words ("◀ tile 2"
            // and "tile 4 ▶" crossing, large print on a thin paper), both shorten to the arrow
            // and the number ("◀ 2", "4 ▶"), which the assembly map keys.
            let (join_left, join_right) = {
                let left = (col > 0).then(|| number(plan, col - 1, row).to_string());
                let right = (col + 1 < plan.cols()).then(|| number(plan, col + 1, row).to_string());
                let worded = (
                    left.as_ref()
                        .map(|n| ph.fmt("tile.joins_left", &[("n", n)])),
                    right
                        .as_ref()
                        .map(|n| ph.fmt("tile.joins_right", &[("n", n)])),
                );
                let fits = |l: &Option<String>, r: &Option<String>| match (l, r) {
                    (Some(l), Some(r)) => {
                        let l_end = plan.seams_x[col - 1]
                            + OVERLAP
                            + 2.0
                            + text::width_mm(l, label_pt, Weight::Bold);
                        let r_start =
                            plan.seams_x[col] - 2.0 - text::width_mm(r, label_pt, Weight::Bold);
                        l_end + 2.0 <= r_start
                    }
                    _ => true,
                };
                if fits(&worded.0, &worded.1) {
                    worded
                } else {
                    (
                        left.map(|n| format!("◀ {n}")),
                        right.map(|n| format!("{n} ▶")),
                    )
                }
            };
            if let Some(t) = &join_right {
                let s = plan.seams_x[col];
                let tw = text::width_mm(t, label_pt, Weight::Bold);
                if let Some(y) = band_mid_top {
                    say(&mut items, s - 2.0 - tw, y, t);
                }
                if sz.large {
                    // One letter a line, centred on the strip and on the part's middle.
                    let letters: Vec<String> = glue_word.chars().map(String::from).collect();
                    let lh = text::line_height_mm(label_pt);
                    let top = py + phh / 2.0 - letters.len() as f64 * lh / 2.0;
                    for (j, l) in letters.iter().enumerate() {
                        let gw = text::width_mm(l, label_pt, Weight::Bold);
                        items.push(Item::Text(doc::Text {
                            x: s + (OVERLAP - gw) / 2.0,
                            y: top + j as f64 * lh + text::ascent_mm(label_pt),
                            size_pt: label_pt,
                            weight: Weight::Bold,
                            color: Color::BLACK,
                            text: l.clone(),
                        }));
                    }
                } else {
                    // Smaller type (not under 6 pt) for a long word, to keep it on the strip.
                    let gpt = super::size_for_words(
                        &glue_word,
                        label_pt,
                        6.0,
                        Weight::Bold,
                        OVERLAP - 1.5,
                    );
                    let gw = text::width_mm(&glue_word, gpt, Weight::Bold);
                    items.push(Item::Text(doc::Text {
                        x: s + (OVERLAP - gw) / 2.0,
                        y: py + phh / 2.0 + (text::ascent_mm(gpt) - text::descent_mm(gpt)) / 2.0,
                        size_pt: gpt,
                        weight: Weight::Bold,
                        color: Color::BLACK,
                        text: glue_word.clone(),
                    }));
                }
            }
            if let (Some(t), Some(y)) = (&join_left, band_mid_top) {
                let s = plan.seams_x[col - 1];
                say(&mut items, s + OVERLAP + 2.0, y, t);
            }
            // "▼ tile 5" on the strip below this tile: the board's drawing stops at the seam,
            // so only the registration marks at the strip's ends print there, and the later
            // tile covers it. Centred on this tile's part of the strip, clear of the marks;
            // "▼ 5" where the words would reach one. (In the band left of the board, as
            // before, large print's words ran over a row caption beside the seam.)
            if row + 1 < plan.rows() {
                let s = plan.seams_y[row];
                let n = number(plan, col, row + 1).to_string();
                let mid = s + OVERLAP / 2.0;
                let (mut lo, mut hi) = (x0, drawn_x1);
                for m in marks.iter().filter(|m| (m.y - mid).abs() < 1e-6) {
                    if m.x > lo && m.x < hi {
                        if m.x < (x0 + drawn_x1) / 2.0 {
                            lo = lo.max(m.x + MARK_ARM + 1.0);
                        } else {
                            hi = hi.min(m.x - MARK_ARM - 1.0);
                        }
                    }
                }
                let t = words_or(
                    ph.fmt("tile.joins_down", &[("n", &n)]),
                    format!("▼ {n}"),
                    hi - lo,
                );
                let tw = text::width_mm(&t, label_pt, Weight::Bold);
                say(&mut items, (lo + hi - tw) / 2.0, mid, &t);
            }
            // "▲ tile 1" in the band left of the board (on the first column of tiles, which
            // holds that band), under the strip the tile lies on; "▲ 1" where the words are
            // wider than the band.
            if row > 0 && col == 0 {
                let s = plan.seams_y[row - 1];
                let n = number(plan, col, row - 1).to_string();
                let t = words_or(
                    ph.fmt("tile.joins_up", &[("n", &n)]),
                    format!("▲ {n}"),
                    px - 1.0,
                );
                let tw = text::width_mm(&t, label_pt, Weight::Bold);
                say(
                    &mut items,
                    (band_mid_left - tw / 2.0).max(0.5),
                    s + OVERLAP + 4.0,
                    &t,
                );
            }
            let _ = pw;
            let (dx, dy) = plan.offset(d, col, row);
            // The whole tile: the drawing in its own clip (above), then the strips, cut lines,
            // marks and words over it.
            pg.items.push(Item::Clip(Clip {
                x: x0 + dx,
                y: y0 + dy,
                w: x1 - x0,
                h: y1 - y0,
                items: items.iter().map(|i| i.translated(dx, dy)).collect(),
            }));
            out.push(pg);
        }
    }
    out
}

/// Draws a small map of `d` (its shapes scaled, no text) with every tile of `plan` outlined
/// and numbered (numbers as `sz` gives them), top-left at (`x`, `y`), at most `w` × `max_h` mm;
/// returns the height used.
#[allow(clippy::too_many_arguments)]
pub fn draw_map(
    pg: &mut Page,
    d: &Drawing,
    plan: &Plan,
    sz: &Sizes,
    x: f64,
    y: f64,
    w: f64,
    max_h: f64,
) -> f64 {
    let k = map_scale(d, w, max_h);
    let tr = |q: &Pt| p(x + q.x * k, y + q.y * k);
    for s in &plan.seams_x {
        let a = tr(&p(*s, 0.0));
        let b = tr(&p(*s + OVERLAP, d.h));
        pg.shape(rect(a.x, a.y, b.x - a.x, b.y - a.y), Some(GLUE_GREY), None);
    }
    for s in &plan.seams_y {
        let a = tr(&p(0.0, *s));
        let b = tr(&p(d.w, *s + OVERLAP));
        pg.shape(rect(a.x, a.y, b.x - a.x, b.y - a.y), Some(GLUE_GREY), None);
    }
    for it in doc::leaves(&d.items) {
        if let Item::Shape(s) = it {
            let segs = s
                .segs
                .iter()
                .map(|g| match g {
                    Seg::MoveTo(a) => Seg::MoveTo(tr(a)),
                    Seg::LineTo(a) => Seg::LineTo(tr(a)),
                    Seg::CubicTo(a, b, c) => Seg::CubicTo(tr(a), tr(b), tr(c)),
                    Seg::Close => Seg::Close,
                })
                .collect();
            let stroke = s.stroke.as_ref().map(|st| Stroke {
                width: (st.width * k).max(0.15),
                color: Color::grey(110),
                dash: Vec::new(),
            });
            let fill = s.fill.map(|c| {
                if c == Color::BLACK {
                    Color::grey(110)
                } else {
                    c
                }
            });
            pg.shape(segs, fill, stroke);
        }
    }
    let pt = sz.map_number.0;
    let places = number_places(d, plan, sz, x, y, w, max_h);
    // Every outline first, then the numbers: a later tile's outline drew across an earlier
    // number where tiles overlap (a thin strip's numbers on a long board).
    for q in &places {
        let (ox0, oy0, ox1, oy1) = q.outline;
        pg.shape(
            rect(ox0, oy0, ox1 - ox0, oy1 - oy0),
            None,
            Some(Stroke::solid(MAP_OUTLINE, Color::BLACK)),
        );
    }
    for q in places {
        pg.shape(
            circle(q.c, q.r),
            Some(Color::WHITE),
            Some(Stroke::solid(MAP_CIRCLE_LINE, Color::BLACK)),
        );
        super::centred_mid(pg, q.c.x, q.c.y, pt, Weight::Bold, &q.n.to_string());
    }
    d.h * k
}

/// The line width of a tile's outline on an assembly map, mm.
const MAP_OUTLINE: f64 = 0.6;
/// How far a tile number's circle may reach above or below its assembly map, mm (the sheets
/// keep [`super::howto::MAP_CLEAR`], 3 mm, clear around the map; 1 mm of it stays clear).
const MAP_SPILL: f64 = 2.0;
/// The line width of a tile number's white circle on an assembly map, mm.
const MAP_CIRCLE_LINE: f64 = 0.5;

/// The outline [`draw_map`] draws for tile (`col`, `row`) of a map at scale `k` with its
/// top-left at (`x`, `y`): (left, top, right, bottom) of the line's centre, mm. Alternate
/// tiles are inset a little more, so overlapping outlines stay apart.
fn tile_outline(
    d: &Drawing,
    plan: &Plan,
    k: f64,
    x: f64,
    y: f64,
    col: usize,
    row: usize,
) -> (f64, f64, f64, f64) {
    let (x0, y0, x1, y1) = plan.region(d, col, row);
    let ins = if (col + row).is_multiple_of(2) {
        0.4
    } else {
        1.2
    };
    (
        x + x0 * k + ins,
        y + y0 * k + ins,
        x + x1 * k - ins,
        y + y1 * k - ins,
    )
}

/// The scale of an assembly map of `d` drawn at most `w` × `max_h` mm (never enlarged).
fn map_scale(d: &Drawing, w: f64, max_h: f64) -> f64 {
    (w / d.w).min(max_h / d.h).min(1.0)
}

/// One tile's number on an assembly map: where [`draw_map`] puts it and how large its circle is.
#[derive(Clone, Copy, Debug)]
struct NumberPlace {
    /// The circle's centre, mm on the page.
    c: Pt,
    /// The tile's number (1 = top-left, in reading order).
    n: usize,
    /// The white circle's radius, mm: `sz.map_number.1`, or less where the next number or the
    /// map's edge is nearer (a narrow tile drawn small).
    r: f64,
    /// The box of the number's ink (left, top, right, bottom), mm: its bold digits at
    /// `sz.map_number.0` pt centred on `c`, as the page check measures it.
    ink: (f64, f64, f64, f64),
    /// The tile's outline on the map (left, top, right, bottom of the line's centre), mm.
    outline: (f64, f64, f64, f64),
}

/// Where [`draw_map`] (with the same arguments) puts each tile's number, in reading order. At
/// the tile's centre on the map, moved in where that lies so near the map's edge that the
/// circle would stick out past it (a narrow page's small map: a circle crossed the left margin
/// on 140 mm wide paper in large print), unless that would take the number out of a tile that
/// can hold it.
/// Each circle's radius is `sz.map_number.1`, or less where the map's edge or the next number
/// is nearer (at most half the way to the next number's centre): no white circle is drawn
/// over another number (a 30 mm map of three tiles had circle 2 over the 1).
/// [`map_numbers_apart`] says whether each number still fits its circle.
fn number_places(
    d: &Drawing,
    plan: &Plan,
    sz: &Sizes,
    x: f64,
    y: f64,
    w: f64,
    max_h: f64,
) -> Vec<NumberPlace> {
    let k = map_scale(d, w, max_h);
    let (pt, cr) = sz.map_number;
    // Digits sit on the baseline, which `centred_mid` puts this far below the centre; their
    // ink is this tall (the page check's measure).
    let below = (text::ascent_mm(pt) - text::descent_mm(pt)) / 2.0;
    let digit_h = pt * 25.4 / 72.0 * 1493.0 / 2048.0;
    let edge = cr + 0.25;
    let (mx0, my0, mx1, my1) = (x, y, x + d.w * k, y + d.h * k);
    let inside = |v: f64, lo: f64, hi: f64| {
        if hi - lo >= 2.0 * edge {
            v.clamp(lo + edge, hi - edge)
        } else {
            (lo + hi) / 2.0
        }
    };
    let ink_at = |c: Pt, n: usize| {
        let nw = text::width_mm(&n.to_string(), pt, Weight::Bold);
        (
            c.x - nw / 2.0,
            c.y + below - digit_h,
            c.x + nw / 2.0,
            c.y + below,
        )
    };
    let mut out = Vec::new();
    for row in 0..plan.rows() {
        for col in 0..plan.cols() {
            let outline = tile_outline(d, plan, k, x, y, col, row);
            let n = number(plan, col, row);
            let mid = p((outline.0 + outline.2) / 2.0, (outline.1 + outline.3) / 2.0);
            // Moved in from the map's edge while its digits stay inside the tile; across a
            // tile narrower than its digits (a thin strip at the map's side), moved in all
            // the same (its circle still reaches into the tile), and on one lower than its
            // digits (a thin strip along the top or bottom), centred on it.
            let moved = p(inside(mid.x, mx0, mx1), inside(mid.y, my0, my1));
            let ink_mid = ink_at(mid, n);
            let ink_moved = ink_at(moved, n);
            let c = p(
                if ink_mid.2 - ink_mid.0 > outline.2 - outline.0
                    || (ink_moved.0 >= outline.0 && ink_moved.2 <= outline.2)
                {
                    moved.x
                } else {
                    mid.x
                },
                if ink_mid.3 - ink_mid.1 <= outline.3 - outline.1
                    && ink_moved.1 >= outline.1
                    && ink_moved.3 <= outline.3
                {
                    moved.y
                } else {
                    mid.y
                },
            );
            // Never past the map's sides (the page's margin is there); above or below it by
            // at most [`MAP_SPILL`] (the sheets keep 3 mm clear around the map), where a thin
            // strip of tiles along its edge leaves no more room.
            let to_side = (c.x - mx0).min(mx1 - c.x) - 0.25;
            let to_end = (c.y - my0).min(my1 - c.y) - 0.25 + MAP_SPILL;
            out.push(NumberPlace {
                c,
                n,
                r: cr.min(to_side).min(to_end),
                ink: ink_at(c, n),
                outline,
            });
        }
    }
    let centres: Vec<Pt> = out.iter().map(|q| q.c).collect();
    for (i, q) in out.iter_mut().enumerate() {
        for (j, o) in centres.iter().enumerate() {
            if i != j {
                q.r = q.r.min((q.c.x - o.x).hypot(q.c.y - o.y) / 2.0);
            }
        }
    }
    out
}

/// How far from `c` the farthest corner of box `ink` lies, mm.
fn ink_reach(c: Pt, ink: (f64, f64, f64, f64)) -> f64 {
    (ink.0 - c.x)
        .abs()
        .max((ink.2 - c.x).abs())
        .hypot((ink.1 - c.y).abs().max((ink.3 - c.y).abs()))
}

/// Whether the tile numbers of a map drawn by [`draw_map`] at most `w` × `max_h` mm can be
/// read, each telling its own tile: every number's ink box (digits at `sz.map_number.0` pt,
/// bold; the box the page check [`super::fit::problem`] measures) lies inside its own tile's
/// outline (across a tile thinner than the digits, a board's thin strip, its circle reaches
/// into the tile), and inside its own white circle, clear of the circle's line; no two circles overlap, so
/// none hides another's number. A board of many small tiles drawn small (large print's 18 pt
/// numbers on a narrow page's map, or in the how-to sheet's short room under its steps) fails:
/// the board-map sheet then says so, and the how-to sheet leaves its map out (the board-map
/// sheet carries it).
pub fn map_numbers_apart(d: &Drawing, plan: &Plan, sz: &Sizes, w: f64, max_h: f64) -> bool {
    let places = number_places(d, plan, sz, 0.0, 0.0, w, max_h);
    places.iter().enumerate().all(|(i, q)| {
        let (o, ink) = (q.outline, q.ink);
        // Along each axis: inside the outline, or, where the tile is thinner than the digits,
        // with the circle reaching into the tile.
        let along = |lo: f64, hi: f64, a: f64, b: f64, c: f64| {
            if b - a <= hi - lo {
                a >= lo && b <= hi
            } else {
                (c - (lo + hi) / 2.0).abs() < q.r + (hi - lo) / 2.0
            }
        };
        along(o.0, o.2, ink.0, ink.2, q.c.x)
            && along(o.1, o.3, ink.1, ink.3, q.c.y)
            && ink_reach(q.c, ink) <= q.r - MAP_CIRCLE_LINE / 2.0 + 1e-9
            && places.iter().enumerate().all(|(j, other)| {
                i == j || (q.c.x - other.c.x).hypot(q.c.y - other.c.y) >= q.r + other.r - 1e-9
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fewest seams by the old way: ask for a fitting chain of 0, 1, 2, … seams in turn.
    fn fewest_by_chains(len: f64, places: &[(f64, f64)], span: f64) -> Option<usize> {
        let zero = |w: f64| {
            if w <= span + 1e-9 {
                0.0
            } else {
                f64::NEG_INFINITY
            }
        };
        (0..=places.len()).find(|&k| best_chain(len, places, k, &zero, &|_| 0.0, true).is_some())
    }

    #[test]
    fn fewest_seams_agrees_with_asking_chain_by_chain() {
        // Pseudo-random axes: 0–12 places, lengths 100–700 mm, spans 60–300 mm.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let mut some = 0;
        for _ in 0..400 {
            let len = 100.0 + next(600) as f64;
            let span = 60.0 + next(240) as f64;
            let mut places: Vec<(f64, f64)> = (0..next(13))
                .map(|_| (1.0 + next((len - 2.0) as u64) as f64, 3.0))
                .collect();
            places.sort_by(|a, b| a.0.total_cmp(&b.0));
            places.dedup_by(|a, b| a.0 == b.0);
            let fits = |w: f64| w <= span + 1e-9;
            let want = fewest_by_chains(len, &places, span);
            assert_eq!(
                fewest_seams(len, &places, &fits),
                want,
                "{len} {span} {places:?}"
            );
            some += want.is_some() as usize;
        }
        assert!(some > 50, "too few tileable cases to mean anything: {some}");
    }

    #[test]
    fn an_axis_that_cannot_be_tiled_is_refused_at_once() {
        // 900 places 0.5 mm apart in one band, then a 400 mm stretch with none: no tile of at
        // most 250 mm can cross it, so there is no plan (the old chain-by-chain search asked
        // for 0..=900 seams at O(k·m²) each before giving up).
        let places: Vec<(f64, f64)> = (0..900).map(|i| (10.0 + i as f64 * 0.5, 3.0)).collect();
        let len = 460.0 + 400.0;
        assert_eq!(fewest_seams(len, &places, &|w| w <= 250.0), None);
        assert_eq!(seams(len, &places, &places, 250.0), None);
        // With tiles up to 412 mm: one seam would need s + 12 ≤ 412 and 860 − s ≤ 412, i.e.
        // s ≤ 400 and s ≥ 448, impossible; two do it (s1 ≤ 400, s2 ≥ 448, s2 + 12 − s1 ≤ 412,
        // e.g. 100 and 450).
        assert_eq!(fewest_seams(len, &places, &|w| w <= 412.0), Some(2));
    }
}
