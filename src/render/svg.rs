//! SVG backend (the `svg` crate builds every element): one file per page, `width`/`height`
//! in mm with a mm `viewBox` (one user unit = 1 mm, origin top-left, y down — the page model's
//! own convention). Every page length is rounded to 0.01 mm (a tenth of the finest printed
//! line) and written in its shortest form; shape paths use relative commands computed from the
//! rounded absolute points, so rounding never accumulates. Circles, ellipses and rectangles
//! made by [`crate::doc`]'s helpers become `<circle>`, `<ellipse>` and `<rect>` elements, and
//! consecutive shapes with the same paint share one `<g>` carrying it.
//!
//! Text is drawn as glyph outlines, so it looks the same without the font installed:
//!
//! * each glyph the page uses is one `<path>` in `<defs>`, on a lattice of whole font units no
//!   coarser than 0.01 mm at the largest size the page draws it (y down);
//! * a glyph drawn once at a size is a `<use>` of that path, placed at its origin and scaled
//!   from font units to mm;
//! * a glyph drawn several times at one size and colour is one unfilled, unstroked `<path>`
//!   whose vertices are the glyph origins, with a `<marker>` holding the glyph at every
//!   vertex. Markers scale with `stroke-width` (their default `markerUnits`), so the group's
//!   `stroke-width` is the size's mm-per-font-unit (× 1000, the marker content being scaled by
//!   1/1000); one `<style>` rule, `marker{overflow:visible}`, lets the outlines out of the
//!   marker boxes. A glyph then costs one coordinate pair instead of an element. An outline
//!   that only its marker uses is written inside the marker instead of as a `<path id>` that
//!   the marker `<use>`s.
//!
//! * glyphs drawn once at one size and colour share a `<g transform="scale(k)">` and are
//!   placed by `x`/`y` in whole font units (when a unit is at most 0.01 mm).
//!
//! Text lines are gathered and drawn together. When a shape would overlap some of them, those
//! lines (and every gathered line overlapping one of those) are drawn just before it and the
//! others stay gathered, so the painting order of every overlapping pair of items is the page
//! model's. Each drawn group carries its lines in `aria-label` for search and screen readers. A clip ([`Item::Clip`])
//! is a `<g clip-path>` whose rectangle is a `<clipPath>` in `<defs>`.
use super::{clean_segs, clean_side, clean_stroke, finite};
use crate::doc::{bounds, leaves, Color, Document, Item, Page, Seg, Shape, Text, Weight};
use crate::text::{self, GlyphSeg};
use std::collections::HashMap;
use std::fmt::Write as _;
use svg::node::element::{
    ClipPath, Definitions, Element, Group, Marker, Path, Rectangle, Title, Use,
};
use svg::Node;

/// A length in hundredths of a millimetre, rounded (non-finite becomes 0).
fn hundredths(v: f64) -> i64 {
    (finite(v) * 100.0).round() as i64
}

/// Appends `v` hundredths as the shortest decimal (`12.5`, `.05`, `-1`, `0`), with a space
/// before it unless the previous character already separates it (`-`, or a `.` that cannot
/// continue a number that already has one). `sep` says whether a number precedes it.
fn push_h(out: &mut String, v: i64, sep: bool) {
    let neg = v < 0;
    let a = v.unsigned_abs();
    let (int, frac) = (a / 100, a % 100);
    let mut s = String::with_capacity(8);
    if neg {
        s.push('-');
    }
    if int != 0 || frac == 0 {
        let _ = write!(s, "{int}");
    }
    if frac != 0 {
        if frac % 10 == 0 {
            let _ = write!(s, ".{}", frac / 10);
        } else {
            let _ = write!(s, ".{frac:02}");
        }
    }
    push_sep(out, &s, sep);
}

/// Appends an integer with the same separator rule as [`push_h`].
fn push_i(out: &mut String, v: i64, sep: bool) {
    let mut s = String::with_capacity(8);
    let _ = write!(s, "{v}");
    push_sep(out, &s, sep);
}

fn push_sep(out: &mut String, s: &str, sep: bool) {
    if sep && !s.starts_with('-') {
        let prev_has_dot = out
            .rsplit(|c: char| !(c.is_ascii_digit() || c == '.'))
            .next()
            .is_some_and(|p| p.contains('.'));
        if !(s.starts_with('.') && prev_has_dot) {
            out.push(' ');
        }
    }
    out.push_str(s);
}

/// A length for an attribute, rounded to 0.01 mm, shortest form.
fn num(v: f64) -> String {
    let mut s = String::new();
    push_h(&mut s, hundredths(v), false);
    s
}

/// `#rgb` when each channel's two hex digits are equal, else `#rrggbb`.
fn hex(c: Color) -> String {
    if [c.r, c.g, c.b].iter().all(|v| v >> 4 == v & 15) {
        format!("#{:x}{:x}{:x}", c.r & 15, c.g & 15, c.b & 15)
    } else {
        format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b)
    }
}

/// A colour as one hashable number.
fn rgb(c: Color) -> u32 {
    u32::from(c.r) << 16 | u32::from(c.g) << 8 | u32::from(c.b)
}

/// Text for an attribute or element content: the svg crate escapes markup; control characters
/// (not allowed in XML 1.0) become spaces.
fn clean_text(s: &str) -> String {
    s.chars()
        .map(|c| {
            if (c as u32) < 0x20 && c != '\t' && c != '\n' {
                ' '
            } else {
                c
            }
        })
        .collect()
}

/// Writes relative path data from absolute integer points (hundredths of a mm, or font
/// lattice steps), dropping repeated command letters and separators where the grammar allows,
/// and writing axis-parallel lines as `h`/`v`. Relative steps are differences of the rounded
/// absolute points, so rounding never accumulates.
struct PathWriter {
    d: String,
    cur: (i64, i64),
    start: (i64, i64),
    last: char,
    /// Writes one number: hundredths ([`push_h`]) or integers ([`push_i`]).
    num: fn(&mut String, i64, bool),
}

impl PathWriter {
    fn new(num: fn(&mut String, i64, bool)) -> PathWriter {
        PathWriter {
            d: String::new(),
            cur: (0, 0),
            start: (0, 0),
            last: ' ',
            num,
        }
    }

    /// Command `c` with its points (each relative to the current point before the command).
    fn cmd(&mut self, c: char, pts: &[(i64, i64)]) {
        // After `m`, further pairs are line-tos; otherwise a repeated letter may be dropped.
        let sep = (self.last == c && c != 'm') || (c == 'l' && self.last == 'm');
        if !sep {
            self.d.push(c);
        }
        let base = self.cur;
        for (i, q) in pts.iter().enumerate() {
            (self.num)(&mut self.d, q.0 - base.0, sep || i > 0);
            (self.num)(&mut self.d, q.1 - base.1, true);
        }
        if let Some(q) = pts.last() {
            self.cur = *q;
        }
        self.last = c;
        if c == 'm' {
            self.start = self.cur;
        }
    }

    fn move_to(&mut self, q: (i64, i64)) {
        self.cmd('m', &[q]);
    }

    fn line_to(&mut self, q: (i64, i64)) {
        let (dx, dy) = (q.0 - self.cur.0, q.1 - self.cur.1);
        let axis = if dy == 0 && dx != 0 {
            Some(('h', dx))
        } else if dx == 0 && dy != 0 {
            Some(('v', dy))
        } else {
            None
        };
        match axis {
            Some((c, v)) => {
                let sep = self.last == c;
                if !sep {
                    self.d.push(c);
                }
                (self.num)(&mut self.d, v, sep);
                self.cur = q;
                self.last = c;
            }
            None => self.cmd('l', &[q]),
        }
    }

    fn close(&mut self) {
        self.d.push('z');
        self.cur = self.start;
        self.last = 'z';
    }
}

/// SVG path data for the segments, in hundredths of a mm (see [`PathWriter`]).
fn path_data(segs: &[Seg]) -> String {
    let mut w = PathWriter::new(push_h);
    let p = |q: &crate::doc::Pt| (hundredths(q.x), hundredths(q.y));
    for s in segs {
        match s {
            Seg::MoveTo(q) => w.move_to(p(q)),
            Seg::LineTo(q) => w.line_to(p(q)),
            Seg::CubicTo(a, b, q) => w.cmd('c', &[p(a), p(b), p(q)]),
            Seg::Close => w.close(),
        }
    }
    w.d
}

/// Path data of a glyph in font units divided by `grid` (so a def drawn with
/// `scale(grid)` is the glyph with every point on a `grid`-unit lattice), y pointing down
/// (y negated), relative commands. A quadratic whose control point is the reflection of the
/// previous one (TrueType's implied on-curve midpoints) is written as `t`, within one lattice
/// step of the stored control point.
fn glyph_data(weight: Weight, gid: u16, grid: i64) -> String {
    let mut w = PathWriter::new(push_i);
    // The control point a following `t` would imply, when the last command was `q` or `t`.
    let mut reflect: Option<(i64, i64)> = None;
    let grid = grid.max(1) as f32;
    let r = |x: f32, y: f32| {
        let f = |v: f32| {
            if v.is_finite() {
                (v / grid).round() as i64
            } else {
                0
            }
        };
        (f(x), -f(y))
    };
    for s in text::glyph_outline(weight, gid) {
        let mut next_reflect = None;
        match s {
            GlyphSeg::MoveTo(x, y) => w.move_to(r(x, y)),
            GlyphSeg::LineTo(x, y) => w.line_to(r(x, y)),
            GlyphSeg::QuadTo(a, b, x, y) => {
                let (c, q) = (r(a, b), r(x, y));
                let implied = reflect.filter(|p| (p.0 - c.0).abs() <= 1 && (p.1 - c.1).abs() <= 1);
                let used = match implied {
                    Some(p) => {
                        w.cmd('t', &[q]);
                        p
                    }
                    None => {
                        w.cmd('q', &[c, q]);
                        c
                    }
                };
                next_reflect = Some((2 * q.0 - used.0, 2 * q.1 - used.1));
            }
            GlyphSeg::CubicTo(a, b, c, e, x, y) => w.cmd('c', &[r(a, b), r(c, e), r(x, y)]),
            GlyphSeg::Close => w.close(),
        }
        reflect = next_reflect;
    }
    w.d
}

/// The lattice step (font units) for a glyph drawn at most `size_pt`: the largest whole
/// number of units that is at most 0.01 mm at that size, so rounding moves a point by at most
/// 0.005 mm.
fn glyph_grid(size_pt: f64, upem: f64) -> i64 {
    let unit_mm = size_pt * text::MM_PER_PT / upem;
    if !(unit_mm.is_finite() && unit_mm > 0.0) {
        return 1;
    }
    ((0.01 / unit_mm).floor() as i64).clamp(1, 64)
}

/// Short element ids: `a`…`Z`, then `a0`…: letters first so an id is a valid XML name.
fn short_id(n: usize) -> String {
    const FIRST: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    const REST: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut s = String::new();
    s.push(FIRST[n % FIRST.len()] as char);
    let mut k = n / FIRST.len();
    while k > 0 {
        k -= 1;
        s.push(REST[k % REST.len()] as char);
        k /= REST.len();
    }
    s
}

/// One definition in `<defs>`, kept as data until the page is drawn, so that a glyph outline
/// only one marker uses can be written inside that marker (see [`Defs::into_node`]).
enum Def {
    /// A glyph outline: its id, path data (font units on a lattice of `grid` units) and grid.
    Glyph {
        id: String,
        d: String,
        grid: i64,
    },
    /// A marker drawing glyph `glyph` in `fill` (`None` for black).
    Marker {
        id: String,
        glyph: String,
        fill: Option<String>,
    },
    Other(Box<dyn Node>),
}

/// The page's `<defs>`: glyph outlines, the markers that place them, and clip rectangles.
#[derive(Default)]
struct Defs {
    next_id: usize,
    /// (weight, gid) → id of its outline path (`None` for a glyph without contours).
    glyphs: HashMap<(Weight, u16), Option<String>>,
    /// (weight, gid) → largest size on the page, pt (sets the glyph's lattice step).
    max_size: HashMap<(Weight, u16), f64>,
    /// (weight, gid, colour) → id of its marker.
    markers: HashMap<(Weight, u16, u32), String>,
    /// Glyph id → how many (`<use>` elements, markers) refer to it.
    refs: HashMap<String, (usize, usize)>,
    /// The definitions, in first-use order.
    nodes: Vec<Def>,
}

impl Defs {
    fn id(&mut self) -> String {
        let s = short_id(self.next_id);
        self.next_id += 1;
        s
    }

    /// The id of glyph `gid`'s outline, defining it on first use; `None` if it draws nothing.
    fn glyph(&mut self, weight: Weight, gid: u16) -> Option<String> {
        if let Some(id) = self.glyphs.get(&(weight, gid)) {
            return id.clone();
        }
        let upem = f64::from(text::units_per_em(weight).max(1));
        let size = self.max_size.get(&(weight, gid)).copied().unwrap_or(72.0);
        let grid = glyph_grid(size, upem);
        let d = glyph_data(weight, gid, grid);
        let id = if d.is_empty() {
            None
        } else {
            let id = self.id();
            self.nodes.push(Def::Glyph {
                id: id.clone(),
                d,
                grid,
            });
            Some(id)
        };
        self.glyphs.insert((weight, gid), id.clone());
        id
    }

    /// Counts one `<use>` of glyph outline `glyph` in the page body.
    fn used(&mut self, glyph: &str) {
        self.refs.entry(glyph.to_string()).or_default().0 += 1;
    }

    /// The id of a marker drawing glyph outline `gid` (id `glyph`) in `color`.
    fn marker(&mut self, weight: Weight, gid: u16, color: Color, glyph: &str) -> String {
        if let Some(id) = self.markers.get(&(weight, gid, rgb(color))) {
            return id.clone();
        }
        let id = self.id();
        self.refs.entry(glyph.to_string()).or_default().1 += 1;
        self.nodes.push(Def::Marker {
            id: id.clone(),
            glyph: glyph.to_string(),
            fill: (color != Color::BLACK).then(|| hex(color)),
        });
        self.markers.insert((weight, gid, rgb(color)), id.clone());
        id
    }

    /// The `<defs>` element, or `None` if nothing is defined. A glyph outline that exactly one
    /// marker and nothing else uses is written inside that marker (its `scale` folded into the
    /// marker's 1/1000), not as a `<path id>` plus a `<use>`. Markers let their outline out of
    /// the marker box (`overflow: visible`, one rule in a `<style>` for all of them).
    fn into_node(self) -> Option<Definitions> {
        if self.nodes.is_empty() {
            return None;
        }
        let mut inline: HashMap<String, (String, i64)> = HashMap::new();
        for n in &self.nodes {
            if let Def::Glyph { id, grid, .. } = n {
                if self.refs.get(id) == Some(&(0, 1)) {
                    inline.insert(id.clone(), (String::new(), *grid));
                }
            }
        }
        let mut nodes = self.nodes;
        // Move each inlined outline's data to where its marker will take it.
        for n in &mut nodes {
            if let Def::Glyph { id, d, .. } = n {
                if let Some(e) = inline.get_mut(id.as_str()) {
                    e.0 = std::mem::take(d);
                }
            }
        }
        let any_marker = nodes.iter().any(|n| matches!(n, Def::Marker { .. }));
        let mut out = Definitions::new();
        if any_marker {
            out.append(svg::node::element::Style::new("marker{overflow:visible}"));
        }
        for n in nodes {
            match n {
                Def::Glyph { id, d, grid } => {
                    if inline.contains_key(id.as_str()) {
                        continue;
                    }
                    let mut p = Path::new().set("id", id.as_str()).set("d", d);
                    if grid > 1 {
                        p = p.set("transform", format!("scale({grid})"));
                    }
                    out.append(p);
                }
                Def::Marker { id, glyph, fill } => {
                    let mut m = Marker::new().set("id", id.as_str());
                    m = match inline.get(glyph.as_str()) {
                        Some((d, grid)) => m.add(Path::new().set("d", d.as_str()).set(
                            "transform",
                            format!("scale({})", scale_str(*grid as f64 / 1000.0)),
                        )),
                        None => m.add(
                            Use::new()
                                .set("xlink:href", format!("#{glyph}"))
                                .set("transform", "scale(.001)"),
                        ),
                    };
                    if let Some(f) = fill {
                        m = m.set("fill", f);
                    }
                    out.append(m);
                }
                Def::Other(node) => out.append(node),
            }
        }
        Some(out)
    }

    /// A new `<clipPath>` for the rectangle `x, y, w, h` (mm); returns its id.
    fn clip(&mut self, x: f64, y: f64, w: f64, h: f64) -> String {
        let id = self.id();
        self.nodes.push(Def::Other(Box::new(
            ClipPath::new().set("id", id.as_str()).add(
                Rectangle::new()
                    .set("x", num(x))
                    .set("y", num(y))
                    .set("width", num(w.max(0.0)))
                    .set("height", num(h.max(0.0))),
            ),
        )));
        id
    }
}

/// One run of glyph placements: (size key, colour, weight, glyph id).
type RunKey = (u64, Color, Weight, u16);

/// One gathered text line: its glyph origins (0.01 mm), ink box and text.
struct Line {
    glyphs: Vec<(RunKey, (i64, i64))>,
    /// Ink box (min x, min y, max x, max y), mm.
    bbox: (f64, f64, f64, f64),
    label: String,
}

fn boxes_meet(a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)) -> bool {
    a.0 <= b.2 && b.0 <= a.2 && a.1 <= b.3 && b.1 <= a.3
}

/// Text lines waiting to be drawn together (see the module docs).
#[derive(Default)]
struct Pending {
    lines: Vec<Line>,
    /// Scale (mm per font unit) of each size key.
    scales: HashMap<u64, f64>,
}

impl Pending {
    fn add(&mut self, t: &Text, defs: &mut Defs) {
        if !(t.size_pt.is_finite() && t.size_pt > 0.0) {
            return;
        }
        let upem = f64::from(text::units_per_em(t.weight).max(1));
        let k = t.size_pt * text::MM_PER_PT / upem;
        let key = t.size_pt.to_bits();
        self.scales.insert(key, k);
        let em_mm = t.size_pt * text::MM_PER_PT;
        let mut pen_milli = 0u64;
        let mut glyphs = Vec::new();
        for g in text::glyphs(&t.text, t.weight) {
            if defs.glyph(t.weight, g.gid).is_some() {
                let x = t.x + pen_milli as f64 / 1000.0 * em_mm;
                glyphs.push((
                    (key, t.color, t.weight, g.gid),
                    (hundredths(x), hundredths(t.y)),
                ));
            }
            pen_milli += u64::from(g.advance_milli_em);
        }
        if !glyphs.is_empty() {
            let w = pen_milli as f64 / 1000.0 * em_mm;
            // Generous ink box: glyphs may reach past the advance and the hhea extremes.
            let bbox = (
                finite(t.x) - em_mm,
                finite(t.y) - 1.2 * em_mm,
                finite(t.x) + w + em_mm,
                finite(t.y) + 0.5 * em_mm,
            );
            self.lines.push(Line {
                glyphs,
                bbox,
                label: clean_text(&t.text),
            });
        }
    }

    /// Draws, before a shape painting box `b`, the pending lines it overlaps, together with
    /// every pending line that overlaps one of those (and so on), so that each overlapping pair
    /// keeps its painting order; the other lines stay pending and are drawn later, with more
    /// text. `b = None` (a shape of unknown extent) draws them all.
    fn flush_under(
        &mut self,
        b: Option<(f64, f64, f64, f64)>,
        out: &mut Vec<Box<dyn Node>>,
        defs: &mut Defs,
    ) {
        let mut take: Vec<bool> = self
            .lines
            .iter()
            .map(|l| b.is_none_or(|b| boxes_meet(l.bbox, b)))
            .collect();
        loop {
            let mut grew = false;
            for i in 0..self.lines.len() {
                if !take[i]
                    && (0..self.lines.len())
                        .any(|j| take[j] && boxes_meet(self.lines[i].bbox, self.lines[j].bbox))
                {
                    take[i] = true;
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        if !take.iter().any(|t| *t) {
            return;
        }
        let lines = std::mem::take(&mut self.lines);
        let (now, later): (Vec<_>, Vec<_>) = lines.into_iter().zip(take).partition(|(_, t)| *t);
        self.lines = later.into_iter().map(|(l, _)| l).collect();
        let now: Vec<Line> = now.into_iter().map(|(l, _)| l).collect();
        self.draw(&now, out, defs);
    }

    fn flush(&mut self, out: &mut Vec<Box<dyn Node>>, defs: &mut Defs) {
        self.flush_under(None, out, defs);
    }

    /// Appends `lines` to `out` as one group.
    fn draw(&self, lines: &[Line], out: &mut Vec<Box<dyn Node>>, defs: &mut Defs) {
        // Glyph origins per run key, in first-use order.
        let mut runs: Vec<(RunKey, Vec<(i64, i64)>)> = Vec::new();
        let mut index: HashMap<(u64, u32, Weight, u16), usize> = HashMap::new();
        for l in lines {
            for &(run, q) in &l.glyphs {
                let (key, color, w, gid) = run;
                let i = *index.entry((key, rgb(color), w, gid)).or_insert_with(|| {
                    runs.push((run, Vec::new()));
                    runs.len() - 1
                });
                runs[i].1.push(q);
            }
        }
        let labels: Vec<&str> = lines.iter().map(|l| l.label.as_str()).collect();
        let mut group = Group::new().set("aria-label", labels.join(" "));
        // Sizes in first-use order; within a size, colours in first-use order.
        let mut groups: Vec<(u64, Color)> = Vec::new();
        for ((key, color, _, _), _) in &runs {
            if !groups.contains(&(*key, *color)) {
                groups.push((*key, *color));
            }
        }
        for (key, color) in groups {
            let k = self.scales.get(&key).copied().unwrap_or(0.0);
            let ks = scale_str(k);
            let mut multi = Group::new()
                .set("fill", "none")
                .set("stroke-width", scale_str(k * 1000.0));
            let mut any_multi = false;
            // Glyphs drawn once at this size: when there are several and a font unit is at most
            // 0.01 mm, they share one `<g transform="scale(k)">` and are placed by `x`/`y` in
            // whole font units (within 0.005 mm of the origin).
            let singles = runs
                .iter()
                .filter(|((rk, rc, w, gid), pts)| {
                    (*rk, *rc) == (key, color) && pts.len() == 1 && defs.glyph(*w, *gid).is_some()
                })
                .count();
            let in_units = singles >= 2 && k > 0.0 && k <= 0.01;
            let mut scaled = Group::new().set("transform", format!("scale({ks})"));
            if color != Color::BLACK {
                scaled = scaled.set("fill", hex(color));
            }
            for ((rk, rc, w, gid), pts) in &runs {
                if (*rk, *rc) != (key, color) {
                    continue;
                }
                let Some(glyph) = defs.glyph(*w, *gid) else {
                    continue;
                };
                if pts.len() == 1 {
                    defs.used(&glyph);
                }
                if pts.len() == 1 && in_units {
                    let (x, y) = pts[0];
                    let units = |h: i64| ((h as f64 / 100.0) / k).round() as i64;
                    scaled = scaled.add(
                        Use::new()
                            .set("x", units(x))
                            .set("y", units(y))
                            .set("xlink:href", format!("#{glyph}")),
                    );
                } else if pts.len() == 1 {
                    let (x, y) = pts[0];
                    let mut pos = String::new();
                    push_h(&mut pos, x, false);
                    push_h(&mut pos, y, true);
                    let mut u = Use::new()
                        .set("xlink:href", format!("#{glyph}"))
                        .set("transform", format!("translate({pos}) scale({ks})"));
                    if color != Color::BLACK {
                        u = u.set("fill", hex(color));
                    }
                    group = group.add(u);
                } else {
                    let m = defs.marker(*w, *gid, color, &glyph);
                    let mut pw = PathWriter::new(push_h);
                    pw.move_to(pts[0]);
                    for &q in &pts[1..] {
                        pw.line_to(q);
                    }
                    // Markers scale with the stroke width; their content is scaled by 1/1000 so
                    // the width stays near 1 (librsvg drops markers under a few thousandths).
                    multi = multi.add(
                        Path::new()
                            .set("d", pw.d)
                            .set("style", format!("marker:url(#{m})")),
                    );
                    any_multi = true;
                }
            }
            if in_units {
                group = group.add(scaled);
            }
            if any_multi {
                group = group.add(multi);
            }
        }
        out.push(Box::new(group));
    }
}

/// A scale factor (mm per font unit) to 7 significant digits, shortest form: the scale is not
/// a length, and 7 digits keep a 300 mm line within 0.0001 mm.
fn scale_str(k: f64) -> String {
    if !(k.is_finite() && k > 0.0) {
        return "0".into();
    }
    let s = format!("{k:.6e}");
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let m = m.trim_end_matches('0').trim_end_matches('.');
    let e: i32 = e.parse().unwrap_or(0);
    // Plain decimal for the usual range (10⁻⁵ … 10), exponent form otherwise.
    if (-5..=1).contains(&e) {
        let digits: String = m.chars().filter(|c| c.is_ascii_digit()).collect();
        if e < 0 {
            format!(".{}{digits}", "0".repeat((-e - 1) as usize))
        } else {
            let (a, b) = digits.split_at(((e + 1) as usize).min(digits.len()));
            if b.is_empty() {
                a.to_string()
            } else {
                format!("{a}.{b}")
            }
        }
    } else {
        format!("{m}e{e}")
    }
}

/// A shape's geometry as the shortest equivalent element: `<circle>`, `<ellipse>` or
/// `<rect>` (with `rx` for rounded corners) when the segments are exactly what
/// [`crate::doc::circle`], [`crate::doc::ellipse`], [`crate::doc::rect`] or
/// [`crate::doc::rounded_rect`] make (both start at the same point and run the same way, so
/// dashes fall alike), else a `<path>`. The element carries no paint yet.
fn geometry(segs: &[Seg]) -> Element {
    let same = |a: &[Seg], b: &[Seg]| {
        let close = |p: &crate::doc::Pt, q: &crate::doc::Pt| {
            (p.x - q.x).abs() <= 1e-9 * (1.0 + p.x.abs())
                && (p.y - q.y).abs() <= 1e-9 * (1.0 + p.y.abs())
        };
        a.len() == b.len()
            && a.iter().zip(b).all(|(s, t)| match (s, t) {
                (Seg::MoveTo(p), Seg::MoveTo(q)) | (Seg::LineTo(p), Seg::LineTo(q)) => close(p, q),
                (Seg::CubicTo(p1, p2, p3), Seg::CubicTo(q1, q2, q3)) => {
                    close(p1, q1) && close(p2, q2) && close(p3, q3)
                }
                (Seg::Close, Seg::Close) => true,
                _ => false,
            })
    };
    let end = |s: &Seg| match s {
        Seg::MoveTo(p) | Seg::LineTo(p) | Seg::CubicTo(_, _, p) => Some(*p),
        Seg::Close => None,
    };
    let ends: Vec<Option<crate::doc::Pt>> = segs.iter().map(end).collect();
    if segs.len() == 6 {
        if let (Some(m), Some(e1), Some(e2)) = (ends[0], ends[1], ends[2]) {
            let c = crate::doc::pt((m.x + e2.x) / 2.0, m.y);
            let (rx, ry) = ((m.x - e2.x) / 2.0, e1.y - m.y);
            if rx > 0.0 && ry > 0.0 && same(segs, &crate::doc::ellipse(c, rx, ry)) {
                let (rxs, rys) = (num(rx), num(ry));
                return if rxs == rys {
                    svg::node::element::Circle::new()
                        .set("cx", num(c.x))
                        .set("cy", num(c.y))
                        .set("r", rxs)
                        .into()
                } else {
                    svg::node::element::Ellipse::new()
                        .set("cx", num(c.x))
                        .set("cy", num(c.y))
                        .set("rx", rxs)
                        .set("ry", rys)
                        .into()
                };
            }
        }
    }
    if segs.len() == 5 {
        if let (Some(a), Some(c)) = (ends[0], ends[2]) {
            let (w, h) = (c.x - a.x, c.y - a.y);
            if w > 0.0 && h > 0.0 && same(segs, &crate::doc::rect(a.x, a.y, w, h)) {
                return Rectangle::new()
                    .set("x", num(a.x))
                    .set("y", num(a.y))
                    .set("width", num(w))
                    .set("height", num(h))
                    .into();
            }
        }
    }
    if segs.len() == 10 {
        if let (Some(m), Some(e5), Some(e7), Some(e2)) = (ends[0], ends[5], ends[7], ends[2]) {
            let (x, y) = (e7.x, m.y);
            let (w, h, r) = (e2.x - x, e5.y - y, m.x - x);
            if w > 0.0 && h > 0.0 && r > 0.0 && same(segs, &crate::doc::rounded_rect(x, y, w, h, r))
            {
                return Rectangle::new()
                    .set("x", num(x))
                    .set("y", num(y))
                    .set("width", num(w))
                    .set("height", num(h))
                    .set("rx", num(r))
                    .into();
            }
        }
    }
    Path::new().set("d", path_data(segs)).into()
}

/// Paint attributes of a shape, as (name, value) pairs; black fill is the SVG default.
type Paint = Vec<(&'static str, String)>;

/// A shape as (geometry element, paint), or `None` when it draws nothing.
fn shape_node(s: &Shape) -> Option<(Element, Paint)> {
    let stroke = s
        .stroke
        .as_ref()
        .and_then(|st| clean_stroke(st).map(|c| (st.color, c)));
    let segs = clean_segs(&s.segs);
    if segs.is_empty() || (s.fill.is_none() && stroke.is_none()) {
        return None;
    }
    let mut paint = Paint::new();
    match s.fill {
        None => paint.push(("fill", "none".into())),
        Some(c) if c == Color::BLACK => {}
        Some(c) => paint.push(("fill", hex(c))),
    }
    if let Some((color, (width, dash))) = stroke {
        paint.push(("stroke", hex(color)));
        paint.push(("stroke-width", num(width)));
        if !dash.is_empty() {
            let pattern: Vec<String> = dash.iter().map(|d| num(*d)).collect();
            paint.push(("stroke-dasharray", pattern.join(" ")));
        }
    }
    Some((geometry(segs), paint))
}

/// Consecutive shapes with the same paint, written as one `<g>` carrying the paint.
#[derive(Default)]
struct ShapeRun {
    paint: Paint,
    elems: Vec<Element>,
}

impl ShapeRun {
    fn push(&mut self, geometry: Element, paint: Paint, out: &mut Vec<Box<dyn Node>>) {
        if paint != self.paint {
            self.flush(out);
            self.paint = paint;
        }
        self.elems.push(geometry);
    }

    fn flush(&mut self, out: &mut Vec<Box<dyn Node>>) {
        let elems = std::mem::take(&mut self.elems);
        match elems.len() {
            0 => {}
            1 => {
                let mut e = elems.into_iter().next().expect("one element");
                for (k, v) in &self.paint {
                    e.assign(*k, v.as_str());
                }
                out.push(Box::new(e));
            }
            _ => {
                let mut g = Group::new();
                for (k, v) in &self.paint {
                    g = g.set(*k, v.as_str());
                }
                for e in elems {
                    g = g.add(e);
                }
                out.push(Box::new(g));
            }
        }
    }
}

/// The box a shape may paint (control points, widened by its stroke), mm.
fn shape_box(s: &Shape) -> Option<(f64, f64, f64, f64)> {
    let (x0, y0, x1, y1) = bounds(clean_segs(&s.segs))?;
    let w = s
        .stroke
        .as_ref()
        .map_or(0.0, |st| if st.width.is_finite() { st.width } else { 0.0 });
    let b = (
        finite(x0) - w,
        finite(y0) - w,
        finite(x1) + w,
        finite(y1) + w,
    );
    Some(b)
}

/// Nodes for `items` in painting order (see the module docs); a clip's items are drawn by a
/// nested call inside its `<g clip-path>`.
fn item_nodes(items: &[Item], defs: &mut Defs) -> Vec<Box<dyn Node>> {
    let mut pending = Pending::default();
    let mut run = ShapeRun::default();
    let mut body: Vec<Box<dyn Node>> = Vec::new();
    for item in items {
        match item {
            Item::Shape(s) => {
                let Some((geometry, paint)) = shape_node(s) else {
                    continue;
                };
                let b = shape_box(s);
                if b.is_none_or(|b| pending.lines.iter().any(|l| boxes_meet(l.bbox, b))) {
                    run.flush(&mut body);
                    pending.flush_under(b, &mut body, defs);
                }
                run.push(geometry, paint, &mut body);
            }
            Item::Text(t) => pending.add(t, defs),
            Item::Clip(c) => {
                run.flush(&mut body);
                pending.flush(&mut body, defs);
                let id = defs.clip(c.x, c.y, c.w, c.h);
                let mut g = Group::new().set("clip-path", format!("url(#{id})"));
                for n in item_nodes(&c.items, defs) {
                    g = g.add(n);
                }
                body.push(Box::new(g));
            }
        }
    }
    run.flush(&mut body);
    pending.flush(&mut body, defs);
    body
}

/// Draws one page as a standalone SVG document string: root `width`/`height` in mm, a
/// `viewBox` in mm, a `<title>`, glyph outlines, markers and clip rectangles in `<defs>`, then
/// every item in painting order (text as filled glyph outlines, see the module docs).
/// Deterministic: the same page gives the same string.
pub fn render_page(page: &Page, title: &str) -> String {
    let (w, h) = (clean_side(page.width), clean_side(page.height));
    let mut defs = Defs::default();
    for item in leaves(&page.items) {
        if let Item::Text(t) = item {
            if t.size_pt.is_finite() && t.size_pt > 0.0 {
                for g in text::glyphs(&t.text, t.weight) {
                    let m = defs.max_size.entry((t.weight, g.gid)).or_insert(0.0);
                    *m = m.max(t.size_pt);
                }
            }
        }
    }
    let body = item_nodes(&page.items, &mut defs);
    let mut doc = svg::Document::new()
        .set("width", format!("{}mm", num(w)))
        .set("height", format!("{}mm", num(h)))
        .set("viewBox", format!("0 0 {} {}", num(w), num(h)))
        // PDF's default miter limit, so sharp corners are cut the same way in both backends.
        .set("stroke-miterlimit", "10")
        .set("xmlns:xlink", "http://www.w3.org/1999/xlink")
        .add(Title::new(clean_text(title)));
    if let Some(d) = defs.into_node() {
        doc = doc.add(d);
    }
    for n in body {
        doc.append(n);
    }
    let mut out = doc.to_string();
    out.push('\n');
    out
}

/// Draws every page of `doc`: `(file name, SVG text)` in page order, the file name being
/// `NN-<page name>.svg` with `NN` the 1-based page number zero-padded to two digits
/// (`01-board.svg`). Each page's `<title>` is the document title.
pub fn render_all(doc: &Document) -> Vec<(String, String)> {
    use rayon::prelude::*;
    // Pages render independently, in parallel; `collect` keeps their order.
    doc.pages
        .par_iter()
        .enumerate()
        .map(|(i, p)| {
            (
                format!("{:02}-{}.svg", i + 1, p.name),
                render_page(p, &doc.title),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::{pt, rect};

    #[test]
    fn numbers_round_to_hundredths() {
        assert_eq!(num(12.3456), "12.35");
        assert_eq!(num(-0.0001), "0");
        assert_eq!(num(100.0), "100");
        assert_eq!(num(0.05), ".05");
        assert_eq!(num(-0.5), "-.5");
        assert_eq!(num(f64::NAN), "0");
        assert_eq!(hex(Color::rgb(255, 0, 16)), "#ff0010");
        assert_eq!(hex(Color::rgb(255, 0, 17)), "#f01");
        assert_eq!(scale_str(9.0 * 25.4 / 72.0 / 2048.0), ".001550293");
        assert_eq!(scale_str(2.5), "2.5");
    }

    #[test]
    fn separators_only_where_needed() {
        let mut s = String::new();
        for (v, sep) in [
            (150, false),
            (-5, true),
            (50, true),
            (50, true),
            (200, true),
        ] {
            push_h(&mut s, v, sep);
        }
        // 1.5 -.05 .5 .5 2: ".5" after "-.05" and after ".5" needs no space.
        assert_eq!(s, "1.5-.05.5.5 2");
    }

    #[test]
    fn relative_path_lands_on_rounded_points() {
        // Absolute points 1.004, 2.006 → 1, 2.01; then 3.333, 2.006 → 3.33, 2.01 (dx 2.33).
        let segs = vec![
            Seg::MoveTo(pt(1.004, 2.006)),
            Seg::LineTo(pt(3.333, 2.006)),
            Seg::LineTo(pt(3.333, 5.0)),
            Seg::Close,
            Seg::MoveTo(pt(10.0, 10.0)),
        ];
        assert_eq!(path_data(&segs), "m1 2.01h2.33v2.99zm9 7.99");
        assert_eq!(
            path_data(&rect(20.0, 20.0, 100.0, 3.0)),
            "m20 20h100v3h-100z"
        );
        // The same rectangle as an element.
        assert_eq!(
            geometry(&rect(20.0, 20.0, 100.0, 3.0)).to_string(),
            r#"<rect height="3" width="100" x="20" y="20"/>"#
        );
        assert_eq!(
            geometry(&crate::doc::circle(pt(5.0, 6.0), 2.5)).to_string(),
            r#"<circle cx="5" cy="6" r="2.5"/>"#
        );
    }

    #[test]
    fn ids_are_short_and_unique() {
        let ids: Vec<String> = (0..5000).map(short_id).collect();
        let set: std::collections::HashSet<&String> = ids.iter().collect();
        assert_eq!(set.len(), ids.len());
        assert_eq!(ids[0], "a");
        assert_eq!(ids[51], "Z");
        assert!(ids[..52 * 63].iter().all(|s| s.len() <= 2));
    }

    #[test]
    fn markup_in_text_is_escaped() {
        let mut p = Page::new("x", 50.0, 20.0);
        p.text(1.0, 10.0, 10.0, Weight::Regular, "a<b & \"c\"");
        let s = render_page(&p, "t<i>tle & co");
        assert!(s.contains("<title>t&lt;i&gt;tle &amp; co</title>"), "{s}");
        assert!(
            s.contains(r#"aria-label="a&lt;b &amp; &quot;c&quot;""#),
            "{s}"
        );
    }

    #[test]
    fn a_shape_over_text_is_painted_after_it() {
        let mut p = Page::new("x", 100.0, 100.0);
        p.text(10.0, 20.0, 10.0, Weight::Regular, "aa");
        // Far away: may be painted before the text.
        p.shape(rect(80.0, 80.0, 5.0, 5.0), Some(Color::BLACK), None);
        // Over the text: must be painted after it.
        p.shape(rect(9.0, 15.0, 5.0, 6.0), Some(Color::WHITE), None);
        let s = render_page(&p, "t");
        let far = s.find(r#"x="80""#).unwrap();
        let text = s.find("aria-label").unwrap();
        let over = s.find(r#"x="9""#).unwrap();
        assert!(far < text && text < over, "{s}");
    }
}
