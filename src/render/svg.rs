//! SVG backend: one file per page, `width`/`height`
//! in mm and a `viewBox` in hundredths of a millimetre (one user unit = 0.01 mm, origin
//! top-left, y down — the page model's convention, scaled), so every page length is a whole
//! number: rounded to 0.01 mm (a tenth of the finest printed line), no decimal point. Path
//! commands are written in whichever of their relative and absolute forms is shorter, computed
//! from the rounded absolute points, so rounding never accumulates. Circles, ellipses and
//! rectangles made by [`crate::doc`]'s helpers become `<circle>`, `<ellipse>` and `<rect>`
//! elements. Shapes drawn with no text between them are reordered so that those of one paint
//! come together and share one `<g>` carrying it; only shapes whose boxes do not meet change
//! order. A paint carried by several elements (or a marker several runs use, below) becomes a
//! CSS class in the page's one `<style>` when that is shorter. The file has no line breaks
//! between elements.
//!
//! Text is drawn as glyph outlines, so it looks the same without the font installed:
//!
//! * each glyph the page uses is one outline path, on a lattice of whole font units no coarser
//!   than 0.01 mm at the largest size the page draws it (y down, in lattice steps, without `z`:
//!   glyphs are only filled);
//! * a glyph drawn several times at one size and colour is one unfilled, unstroked `<path>`
//!   (a run) whose vertices are the glyph origins, in line order, with a
//!   `<marker>` holding the glyph at every vertex. Markers scale with `stroke-width` (their
//!   default `markerUnits`), so the group's `stroke-width` is the hundredths of a mm per
//!   lattice step at that size; one `<style>` rule, `marker{overflow:visible}`, lets the
//!   outlines out of the marker boxes. A glyph then costs one coordinate pair instead of an
//!   element. The outline is written inside the first marker that draws it, with an id only
//!   when a `<use>` or another marker refers to it;
//! * a glyph drawn once at a size is a `<use>` of its outline; several of them at one size,
//!   colour and lattice step share a `<g transform="scale(k)">` and are placed by `x`/`y` in
//!   whole lattice steps.
//!
//! Text lines are gathered and drawn together. When a shape would overlap some of them (boxes
//! of the glyphs' outline points and the shape's reach, widened by [`INK_MARGIN`]), those
//! lines (and every gathered line overlapping one of those) are drawn just before it and the
//! others stay gathered, so the painting order of every overlapping pair of items is the page
//! model's. Each drawn group carries its lines in `aria-label` for search and screen readers.
//! A clip ([`Item::Clip`]) is a `<g clip-path>` whose rectangle is a `<clipPath>` in `<defs>`.
//!
//! The document is the `svg` crate's: its root `<svg>` (with `xmlns`) and `<title>` are crate
//! elements, written out as the crate's own text by [`Markup`] in one pass. The `<defs>` and
//! the page body, some 500 elements a page, are one crate [`Blob`] whose markup this module
//! writes itself, exactly as the crate would write those elements (attributes sorted by name,
//! values escaped, no line breaks between tags): building each as a crate `Element` (a
//! `HashMap` of owned strings per element, sorted again when written) took about a quarter of
//! the SVG time (Kalah 6×4 kit: 106 → 83 M instructions in `render_page`, callgrind).
use super::{clean_segs, clean_side, clean_stroke, finite};
use crate::doc::{bounds, leaves, Color, Document, Item, Page, Seg, Shape, Text, Weight};
use crate::text::{self, GlyphSeg};
use std::fmt::Write as _;
use std::sync::Arc;
use svg::node::element::Title;
use svg::node::Blob;
use svg::Node;

/// The page's lookup tables: looked up by key only, never iterated, so the hasher changes no
/// output; FxHash (`rustc-hash`) is several times cheaper than SipHash on the small keys used
/// here.
type HashMap<K, V> = rustc_hash::FxHashMap<K, V>;

/// A length in hundredths of a millimetre, rounded half away from zero (non-finite becomes
/// 0, beyond the `i64` range the nearest end): the page's user unit.
fn hundredths(v: f64) -> i64 {
    round_to_int(finite(v) * 100.0)
}

/// `x.round() as i64` for finite `x`, without the C library's `round` (a call for every glyph
/// placed): truncated, then moved one away from zero when the part cut off is at least a half
/// (that part is exact: `x` less its integer part).
fn round_to_int(x: f64) -> i64 {
    let t = x as i64;
    let frac = x - t as f64;
    t.saturating_add(i64::from(frac >= 0.5))
        .saturating_sub(i64::from(frac <= -0.5))
}

/// A length for an attribute: whole hundredths of a millimetre (the `viewBox` unit).
fn num(v: f64) -> String {
    itoa::Buffer::new().format(hundredths(v)).to_owned()
}

/// A length in millimetres rounded to 0.01 mm, shortest decimal form (`210`, `215.9`, `.5`):
/// the root's `width` and `height`.
fn mm_str(v: f64) -> String {
    let h = hundredths(v);
    let (int, frac) = (h.unsigned_abs() / 100, h.unsigned_abs() % 100);
    let mut s = String::new();
    if h < 0 {
        s.push('-');
    }
    if int != 0 || frac == 0 {
        let _ = write!(s, "{int}");
    }
    if frac % 10 == 0 && frac != 0 {
        let _ = write!(s, ".{}", frac / 10);
    } else if frac != 0 {
        let _ = write!(s, ".{frac:02}");
    }
    s
}

/// `#rgb` when each channel's two hex digits are equal, else `#rrggbb`.
#[cfg(test)]
fn hex(c: Color) -> String {
    Hex::new(c).as_str().to_owned()
}

/// A colour as [`hex`] writes it, kept on the stack.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Hex {
    bytes: [u8; 7],
    len: usize,
}

impl Hex {
    fn new(c: Color) -> Hex {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut h = Hex {
            bytes: [b'#'; 7],
            len: 1,
        };
        let short = [c.r, c.g, c.b].iter().all(|v| v >> 4 == v & 15);
        for v in [c.r, c.g, c.b] {
            if !short {
                h.bytes[h.len] = DIGITS[usize::from(v >> 4)];
                h.len += 1;
            }
            h.bytes[h.len] = DIGITS[usize::from(v & 15)];
            h.len += 1;
        }
        h
    }

    fn as_str(&self) -> &str {
        // Only `#` and ASCII hex digits are written.
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or("#000")
    }
}

/// A colour as one hashable number.
fn rgb(c: Color) -> u32 {
    u32::from(c.r) << 16 | u32::from(c.g) << 8 | u32::from(c.b)
}

/// An attribute value as [`Attrs`] writes it: a whole number, or text that needs no escaping
/// (ids, colours, numbers, path data, `url(#…)`).
#[derive(Clone, Copy)]
enum Val<'a> {
    Int(i64),
    Str(&'a str),
    /// Element id number `n` (see [`push_id`]) between `pre` and `post`: `a`, `#a`,
    /// `url(#a)`.
    Id {
        pre: &'static str,
        n: usize,
        post: &'static str,
    },
}

/// The attributes of one element, written sorted by name as the svg crate's `Display` writes
/// them (every element has at most ten).
struct Attrs<'a> {
    list: [(&'a str, Val<'a>); 10],
    len: usize,
}

impl<'a> Attrs<'a> {
    fn new() -> Attrs<'a> {
        Attrs {
            list: [("", Val::Int(0)); 10],
            len: 0,
        }
    }

    fn int(&mut self, name: &'a str, v: i64) -> &mut Self {
        self.list[self.len] = (name, Val::Int(v));
        self.len += 1;
        self
    }

    fn str(&mut self, name: &'a str, v: &'a str) -> &mut Self {
        self.list[self.len] = (name, Val::Str(v));
        self.len += 1;
        self
    }

    /// Attribute `name` holding element id number `n` between `pre` and `post`.
    fn id(&mut self, name: &'a str, pre: &'static str, n: usize, post: &'static str) -> &mut Self {
        self.list[self.len] = (name, Val::Id { pre, n, post });
        self.len += 1;
        self
    }

    /// Appends ` name="value"` for each attribute, sorted by name.
    fn write(&mut self, out: &mut String) {
        let list = &mut self.list[..self.len];
        list.sort_unstable_by_key(|a| a.0);
        for (k, v) in list.iter() {
            out.push(' ');
            out.push_str(k);
            out.push_str("=\"");
            match v {
                Val::Int(i) => push_int(out, *i),
                Val::Str(s) => out.push_str(s),
                Val::Id { pre, n, post } => {
                    out.push_str(pre);
                    push_id(out, *n);
                    out.push_str(post);
                }
            }
            out.push('"');
        }
    }

    /// Appends `<name attributes/>`.
    fn empty_element(&mut self, out: &mut String, name: &str) {
        out.push('<');
        out.push_str(name);
        self.write(out);
        out.push_str("/>");
    }

    /// Appends `<name attributes>`; the content follows, then [`close`].
    fn open(&mut self, out: &mut String, name: &str) -> usize {
        out.push('<');
        out.push_str(name);
        self.write(out);
        out.push('>');
        out.len()
    }
}

/// Ends an element opened by [`Attrs::open`] (which returned `content_start`): `</name>`, or,
/// when nothing was written inside, `/>` in place of its `>`, as the svg crate writes an
/// element without children.
fn close(out: &mut String, name: &str, content_start: usize) {
    if out.len() == content_start {
        out.pop();
        out.push_str("/>");
    } else {
        out.push_str("</");
        out.push_str(name);
        out.push('>');
    }
}

/// Appends `value` with `&`, `<`, `>`, `"` and `'` escaped, as the svg crate escapes attribute
/// values and text.
fn push_escaped(out: &mut String, value: &str) {
    let mut last = 0;
    for (i, b) in value.bytes().enumerate() {
        let e = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&apos;",
            _ => continue,
        };
        out.push_str(&value[last..i]);
        out.push_str(e);
        last = i + 1;
    }
    out.push_str(&value[last..]);
}

/// Text for an attribute or element content: the svg crate escapes markup; control characters
/// (not allowed in XML 1.0) become spaces.
fn clean_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_clean(&mut out, s);
    out
}

/// Appends `s` as [`clean_text`] makes it.
fn push_clean(out: &mut String, s: &str) {
    if !s.bytes().any(|b| b < 0x20 && b != b'\t' && b != b'\n') {
        out.push_str(s);
        return;
    }
    out.extend(s.chars().map(|c| {
        if (c as u32) < 0x20 && c != '\t' && c != '\n' {
            ' '
        } else {
            c
        }
    }));
}

/// Writes path data from absolute integer points (hundredths of a mm, or font lattice steps).
/// Each command is written in whichever of its relative (lower-case) and absolute (upper-case)
/// forms is shorter, its letter dropped where the grammar repeats it implicitly, and
/// axis-parallel lines as `h`/`H`/`v`/`V`. Relative steps are differences of the rounded
/// absolute points, so rounding never accumulates.
struct PathWriter {
    d: String,
    /// Where this path's data starts in `d` (a marker run's data is appended to its block's).
    from: usize,
    cur: (i64, i64),
    start: (i64, i64),
    /// The command in force: a following pair list of this command needs no letter.
    last: char,
    /// For a path that is only filled (a glyph outline): `z` is left out, since filling closes
    /// every subpath anyway, and the next `m` is taken from the last point, as a reader does.
    fill_only: bool,
}

impl PathWriter {
    fn new(fill_only: bool) -> PathWriter {
        PathWriter {
            d: String::with_capacity(64),
            from: 0,
            cur: (0, 0),
            start: (0, 0),
            last: ' ',
            fill_only,
        }
    }

    /// Whether command letter `c` may be left out after the command in force: after `m`/`M`
    /// further pairs are line-tos of the same case, and another letter may be dropped when it
    /// repeats (never `m`, whose repeat would mean a line-to).
    fn implied(&self, c: char) -> bool {
        (self.last == c && !c.eq_ignore_ascii_case(&'m'))
            || (c == 'l' && self.last == 'm')
            || (c == 'L' && self.last == 'M')
    }

    /// Whether the path data so far ends in a digit (a following number that is not negative
    /// needs a separator).
    fn ends_in_digit(&self) -> bool {
        self.d.as_bytes()[self.from..]
            .last()
            .is_some_and(u8::is_ascii_digit)
    }

    /// How many characters command `c` (either case) with numbers `vals` would append, told
    /// whether the path data ends in a digit.
    fn form_len_after(&self, mut after_digit: bool, c: char, vals: &[i64]) -> usize {
        let mut n = 0;
        if !self.implied(c) {
            n += 1;
            after_digit = false;
        }
        for &v in vals {
            if v >= 0 && after_digit {
                n += 1;
            }
            n += usize::from(v < 0) + digits(v.unsigned_abs());
            after_digit = true;
        }
        n
    }

    /// Appends the shortest of the candidate forms `(letter, numbers)` (the first on a tie)
    /// and records the command in force.
    fn pick(&mut self, cands: &[(char, &[i64])]) {
        let after_digit = self.ends_in_digit();
        let mut best: Option<(usize, char, &[i64])> = None;
        for &(c, vals) in cands {
            let n = self.form_len_after(after_digit, c, vals);
            if best.is_none_or(|(m, _, _)| n < m) {
                best = Some((n, c, vals));
            }
        }
        if let Some((_, c, vals)) = best {
            self.put(c, vals);
        }
    }

    /// Appends command `c` with numbers `vals` (its letter left out where implied) and
    /// records the command in force.
    fn put(&mut self, c: char, vals: &[i64]) {
        let mut after_digit = self.ends_in_digit();
        if !self.implied(c) {
            self.d.push(c);
            after_digit = false;
        }
        for &v in vals {
            if v >= 0 && after_digit {
                self.d.push(' ');
            }
            push_int(&mut self.d, v);
            after_digit = true;
        }
        self.last = c;
    }

    /// Command `c` (lower case) through points `pts` (at most three; the last is the new
    /// current point).
    fn cmd(&mut self, c: char, pts: &[(i64, i64)]) {
        let base = self.cur;
        let (mut rel, mut abs) = ([0i64; 6], [0i64; 6]);
        let n = pts.len().min(3);
        for (i, q) in pts[..n].iter().enumerate() {
            rel[2 * i] = q.0 - base.0;
            rel[2 * i + 1] = q.1 - base.1;
            abs[2 * i] = q.0;
            abs[2 * i + 1] = q.1;
        }
        self.pick(&[(c, &rel[..2 * n]), (c.to_ascii_uppercase(), &abs[..2 * n])]);
        if let Some(q) = pts[..n].last() {
            self.cur = *q;
        }
        if c == 'm' {
            self.start = self.cur;
        }
    }

    fn move_to(&mut self, q: (i64, i64)) {
        self.cmd('m', &[q]);
    }

    /// The forms of a straight line to `q`: `h`/`H` when it is horizontal, `v`/`V` when
    /// vertical, and always `l`/`L`, as (letter, numbers, how many numbers).
    #[cfg(test)]
    fn line_forms(&self, q: (i64, i64)) -> Vec<(char, [i64; 2], usize)> {
        let (dx, dy) = (q.0 - self.cur.0, q.1 - self.cur.1);
        let mut forms = Vec::with_capacity(6);
        if dy == 0 {
            forms.push(('h', [dx, 0], 1));
            forms.push(('H', [q.0, 0], 1));
        }
        if dx == 0 {
            forms.push(('v', [dy, 0], 1));
            forms.push(('V', [q.1, 0], 1));
        }
        forms.push(('l', [dx, dy], 2));
        forms.push(('L', [q.0, q.1], 2));
        forms
    }

    /// A straight line to `q` (a vertex even when `q` is the current point), in the first of
    /// its shortest forms in the order of [`PathWriter::line_forms`] (`h H v V l L`), each
    /// measured by [`PathWriter::form_len_after`] and the chosen one written by
    /// [`PathWriter::put`] (not through [`PathWriter::pick`]'s list of candidates: a marker
    /// run takes one step a glyph, and the list cost 14.5 M of the five kits' 1,087 M
    /// instructions).
    fn line_to(&mut self, q: (i64, i64)) {
        let (dx, dy) = (q.0 - self.cur.0, q.1 - self.cur.1);
        let ad = self.ends_in_digit();
        let mut best = (usize::MAX, ' ');
        let mut consider = |c: char, vals: &[i64]| {
            let n = self.form_len_after(ad, c, vals);
            if n < best.0 {
                best = (n, c);
            }
        };
        if dy == 0 {
            consider('h', &[dx]);
            consider('H', &[q.0]);
        }
        if dx == 0 {
            consider('v', &[dy]);
            consider('V', &[q.1]);
        }
        consider('l', &[dx, dy]);
        consider('L', &[q.0, q.1]);
        match best.1 {
            'h' => self.put('h', &[dx]),
            'H' => self.put('H', &[q.0]),
            'v' => self.put('v', &[dy]),
            'V' => self.put('V', &[q.1]),
            'l' => self.put('l', &[dx, dy]),
            _ => self.put('L', &[q.0, q.1]),
        }
        self.cur = q;
    }

    fn close(&mut self) {
        if self.fill_only {
            return;
        }
        self.d.push('z');
        self.cur = self.start;
        self.last = 'z';
    }
}

/// Appends `v` in decimal, as `write!(s, "{v}")` would, without the formatting machinery.
fn push_int(s: &mut String, v: i64) {
    s.push_str(itoa::Buffer::new().format(v));
}

/// 10^i for every power of ten a `u64` holds.
const POW10: [u64; 20] = {
    let mut t = [1u64; 20];
    let mut i = 1;
    while i < 20 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

/// Characters of the decimal digits of `v`'s magnitude (1 for 0).
fn digits(v: u64) -> usize {
    // Without branches (every number of every path is measured, of mixed lengths): log10
    // estimated from the bit length (1233 / 4096 ≈ log10 2, low by at most one), then
    // corrected by one comparison.
    let v = v | 1;
    let bits = 64 - v.leading_zeros() as usize;
    let t = (bits * 1233) >> 12;
    t + usize::from(v >= POW10[t])
}

/// Path data with a vertex at each of `pts` (hundredths of a mm), in their order, for a marker
/// run: every vertex draws the same glyph in the same paint. Each step takes its shortest
/// form ([`PathWriter::line_to`]). The points come in line order (a text block's glyphs of one
/// run key), so most steps stay on a line and are short.
#[cfg(test)]
fn run_data(pts: &[(i64, i64)]) -> String {
    let mut d = String::new();
    push_run_data(pts, &mut d);
    d
}

/// Appends [`run_data`]`(pts)` to `out` (the runs of a text block share one string).
///
/// Each step used to go to the remaining point written in the fewest characters (a
/// nearest-point search over the run): measured on the five bundled kits (2026-12-06), that
/// saved 1.3 % of the SVG bytes (2,863,496 → 2,827,223; largest page 38,154 → 37,114 bytes,
/// under the 40 KB target either way) and cost 92 M of the build's 1,193 M instructions (4 to
/// 9 ms of its 131 to 133 ms of processor time).
fn push_run_data(pts: &[(i64, i64)], out: &mut String) {
    let Some((&first, rest)) = pts.split_first() else {
        return;
    };
    let mut w = PathWriter {
        from: out.len(),
        d: std::mem::take(out),
        ..PathWriter::new(false)
    };
    // Steps mostly take three to six characters.
    w.d.reserve(6 * pts.len());
    w.move_to(first);
    for &q in rest {
        w.line_to(q);
    }
    *out = w.d;
}

/// SVG path data for the segments, in hundredths of a mm (see [`PathWriter`]).
fn path_data(segs: &[Seg]) -> String {
    let mut w = PathWriter::new(false);
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
/// (y negated), for filling only (no `z`, see [`PathWriter`]). A quadratic whose control point
/// is the reflection of the previous one (TrueType's implied on-curve midpoints) is written as
/// `t`, within one lattice step of the stored control point. Also returns the box of the
/// outline's points (font units, y up: min x, min y, max x, max y), which holds the glyph's
/// ink, or `None` for a glyph without contours.
fn glyph_data(weight: Weight, gid: u16, grid: i64) -> (String, Option<(f32, f32, f32, f32)>) {
    let mut w = PathWriter::new(true);
    // A glyph outline mostly takes a few hundred characters.
    w.d.reserve(512);
    let mut ink: Option<(f32, f32, f32, f32)> = None;
    let mut add = |x: f32, y: f32| {
        if x.is_finite() && y.is_finite() {
            ink = Some(match ink {
                None => (x, y, x, y),
                Some((a, b, c, d)) => (a.min(x), b.min(y), c.max(x), d.max(y)),
            });
        }
    };
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
            GlyphSeg::MoveTo(x, y) | GlyphSeg::LineTo(x, y) => add(x, y),
            GlyphSeg::QuadTo(a, b, x, y) => {
                add(a, b);
                add(x, y);
            }
            GlyphSeg::CubicTo(a, b, c, e, x, y) => {
                add(a, b);
                add(c, e);
                add(x, y);
            }
            GlyphSeg::Close => {}
        }
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
    (w.d, ink)
}

/// Outline box of a glyph, as [`glyph_data`] returns it.
type InkBox = Option<(f32, f32, f32, f32)>;

/// [`glyph_data`], computed once per process for each (weight, glyph, lattice step): the pages
/// of a kit and its host key draw mostly the same glyphs at the same few sizes. The result
/// depends on nothing else, so sharing it across pages and threads changes no output. The
/// path data is shared, not copied.
fn cached_glyph_data(weight: Weight, gid: u16, grid: i64) -> (Arc<str>, InkBox) {
    use std::sync::{Mutex, OnceLock};
    type Cache = HashMap<(Weight, u16, i64), (Arc<str>, InkBox)>;
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let key = (weight, gid, grid);
    if let Some(hit) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return hit;
    }
    let (d, ink) = glyph_data(weight, gid, grid);
    let made = (Arc::from(d), ink);
    if let Ok(mut c) = cache.lock() {
        c.insert(key, made.clone());
    }
    made
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
    let mut s = String::new();
    push_id(&mut s, n);
    s
}

/// Characters of [`short_id`]`(n)`, without writing it.
fn id_len(n: usize) -> usize {
    let mut len = 1;
    let mut k = n / 52;
    while k > 0 {
        k -= 1;
        len += 1;
        k /= 62;
    }
    len
}

/// Appends [`short_id`]`(n)`.
fn push_id(s: &mut String, n: usize) {
    const FIRST: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    const REST: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    s.push(FIRST[n % FIRST.len()] as char);
    let mut k = n / FIRST.len();
    while k > 0 {
        k -= 1;
        s.push(REST[k % REST.len()] as char);
        k /= REST.len();
    }
}

/// One definition in `<defs>`, kept as data until the page is drawn, so that a glyph outline
/// only one marker uses can be written inside that marker (see [`Defs::into_node`]).
/// Ids are numbers, written as [`short_id`] gives them.
enum Def {
    /// A glyph outline: its id and path data (in lattice steps, see [`glyph_data`]).
    Glyph { id: usize, d: Arc<str> },
    /// A marker drawing glyph `glyph` in `fill` (`None` for black), its content scaled by
    /// 10^-`boost` (see [`marker_boost`]).
    Marker {
        id: usize,
        glyph: usize,
        fill: Option<Hex>,
        boost: i32,
    },
    /// A `<clipPath>` of the rectangle x, y, width, height (hundredths of a mm).
    Clip { id: usize, rect: [i64; 4] },
}

/// What a page knows of one glyph's outline once it is defined.
struct GlyphInfo {
    /// Id number of its outline path (`None` for a glyph without contours).
    id: Option<usize>,
    /// Box of its outline's points, font units, y up (see [`glyph_data`]).
    ink: InkBox,
    /// The lattice step of its outline, font units (see [`glyph_grid`]).
    grid: i64,
}

/// The page's `<defs>`: glyph outlines, the markers that place them, and clip rectangles.
#[derive(Default)]
struct Defs {
    next_id: usize,
    /// (weight, gid) → its outline's id, box and lattice step.
    glyphs: HashMap<(Weight, u16), GlyphInfo>,
    /// (weight, gid) → largest size on the page, pt (sets the glyph's lattice step).
    max_size: HashMap<(Weight, u16), f64>,
    /// (weight, gid, colour, boost) → id number of its marker.
    markers: HashMap<(Weight, u16, u32, i32), usize>,
    /// Glyph id number → how many (`<use>` elements, markers) refer to it.
    refs: HashMap<usize, (usize, usize)>,
    /// The definitions, in first-use order.
    nodes: Vec<Def>,
}

impl Defs {
    /// A new id number.
    fn id(&mut self) -> usize {
        self.next_id += 1;
        self.next_id - 1
    }

    /// Glyph `gid`'s outline: its id, box and lattice step, defining it on first use.
    fn glyph_info(&mut self, weight: Weight, gid: u16) -> &GlyphInfo {
        use std::collections::hash_map::Entry;
        let key = (weight, gid);
        match self.glyphs.entry(key) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => {
                let upem = f64::from(text::units_per_em(weight).max(1));
                let size = self.max_size.get(&key).copied().unwrap_or(72.0);
                let grid = glyph_grid(size, upem);
                let (d, ink) = cached_glyph_data(weight, gid, grid);
                let id = if d.is_empty() {
                    None
                } else {
                    let id = self.next_id;
                    self.next_id += 1;
                    self.nodes.push(Def::Glyph { id, d });
                    Some(id)
                };
                e.insert(GlyphInfo { id, ink, grid })
            }
        }
    }

    /// Counts one `<use>` of glyph outline `glyph` (id number) in the page body.
    fn used(&mut self, glyph: usize) {
        self.refs.entry(glyph).or_default().0 += 1;
    }

    /// The id number of a marker drawing glyph outline `gid` (id number `glyph`) in `color`,
    /// its content scaled by 10^-`boost`.
    fn marker(
        &mut self,
        weight: Weight,
        gid: u16,
        color: Color,
        glyph: usize,
        boost: i32,
    ) -> usize {
        let key = (weight, gid, rgb(color), boost);
        if let Some(&id) = self.markers.get(&key) {
            return id;
        }
        let id = self.id();
        self.refs.entry(glyph).or_default().1 += 1;
        self.nodes.push(Def::Marker {
            id,
            glyph,
            fill: (color != Color::BLACK).then(|| Hex::new(color)),
            boost,
        });
        self.markers.insert(key, id);
        id
    }

    /// Appends the `<defs>` element, unless nothing is defined, with the page's CSS `rules`.
    /// A glyph outline that a marker draws is written inside the first black marker drawing it
    /// unscaled (boost 0: its content is in font units, as a `<path id>` in `<defs>` would
    /// be), keeping its id only when something else (a `<use>`, another marker) refers to it;
    /// an outline that exactly one marker and nothing else uses is written inside that marker
    /// in any case (its `scale` folded into the marker's). Markers let their outline out of the
    /// marker box (`overflow: visible`, one rule in the `<style>` for all of them).
    fn write(self, rules: &str, out: &mut String) {
        if self.nodes.is_empty() && rules.is_empty() {
            return;
        }
        // Glyph id → path data, for each outline a marker carries.
        let mut carried: HashMap<usize, &str> = HashMap::default();
        // Glyph id → the marker carrying it.
        let mut owner: HashMap<usize, usize> = HashMap::default();
        for n in &self.nodes {
            if let Def::Marker {
                id,
                glyph,
                fill,
                boost,
            } = n
            {
                let alone = self.refs.get(glyph) == Some(&(0, 1));
                if !owner.contains_key(glyph) && (alone || (*boost == 0 && fill.is_none())) {
                    owner.insert(*glyph, *id);
                }
            }
        }
        let mut any_marker = false;
        for n in &self.nodes {
            match n {
                Def::Glyph { id, d } if owner.contains_key(id) => {
                    carried.insert(*id, d);
                }
                Def::Marker { .. } => any_marker = true,
                _ => {}
            }
        }
        let start = Attrs::new().open(out, "defs");
        if any_marker || !rules.is_empty() {
            // The svg crate writes a `<style>`'s text on a line of its own.
            out.push_str("<style>\n");
            if any_marker {
                out.push_str("marker{overflow:visible}");
            }
            push_escaped(out, rules);
            out.push_str("\n</style>");
        }
        for n in &self.nodes {
            match n {
                Def::Glyph { id, d } => {
                    if carried.contains_key(id) {
                        continue;
                    }
                    Attrs::new()
                        .id("id", "", *id, "")
                        .str("d", d)
                        .empty_element(out, "path");
                }
                Def::Marker {
                    id,
                    glyph,
                    fill,
                    boost,
                } => {
                    let mut m = Attrs::new();
                    m.id("id", "", *id, "");
                    if let Some(f) = fill {
                        m.str("fill", f.as_str());
                    }
                    let start = m.open(out, "marker");
                    let scale =
                        (*boost != 0).then(|| format!("scale({})", scale_str(10f64.powi(-boost))));
                    let carrier = owner.get(glyph) == Some(id);
                    match carried.get(glyph).filter(|_| carrier) {
                        Some(d) => {
                            let mut p = Attrs::new();
                            p.str("d", d);
                            if self.refs.get(glyph) != Some(&(0, 1)) {
                                p.id("id", "", *glyph, "");
                            }
                            if let Some(t) = &scale {
                                p.str("transform", t);
                            }
                            p.empty_element(out, "path");
                        }
                        None => {
                            let mut u = Attrs::new();
                            u.id("href", "#", *glyph, "");
                            if let Some(t) = &scale {
                                u.str("transform", t);
                            }
                            u.empty_element(out, "use");
                        }
                    }
                    close(out, "marker", start);
                }
                Def::Clip { id, rect } => {
                    let start = Attrs::new().id("id", "", *id, "").open(out, "clipPath");
                    Attrs::new()
                        .int("x", rect[0])
                        .int("y", rect[1])
                        .int("width", rect[2])
                        .int("height", rect[3])
                        .empty_element(out, "rect");
                    close(out, "clipPath", start);
                }
            }
        }
        close(out, "defs", start);
    }

    /// A new `<clipPath>` for the rectangle `x, y, w, h` (mm); returns its id number.
    fn clip(&mut self, x: f64, y: f64, w: f64, h: f64) -> usize {
        let id = self.id();
        self.nodes.push(Def::Clip {
            id,
            rect: [
                hundredths(x),
                hundredths(y),
                hundredths(w.max(0.0)),
                hundredths(h.max(0.0)),
            ],
        });
        id
    }
}

/// One run of glyph placements: (size key, colour, weight, glyph id).
type RunKey = (u64, Color, Weight, u16);

/// One gathered text line: its glyph origins (0.01 mm), ink box and text.
struct Line<'a> {
    /// Its glyphs' run keys and origins: `Pending::glyphs[glyphs]`.
    glyphs: std::ops::Range<usize>,
    /// Ink box (min x, min y, max x, max y), mm.
    bbox: (f64, f64, f64, f64),
    /// The line's text as given (cleaned as [`clean_text`] does when it is drawn).
    text: &'a str,
}

/// How far (mm) an item's box is widened before asking whether it meets another: more than a
/// pixel at 100 dpi, so that even the anti-aliased edges of items whose order is swapped never
/// share a pixel, and far more than the 0.005 mm a point moves in rounding.
const INK_MARGIN: f64 = 0.3;

fn boxes_meet(a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)) -> bool {
    a.0 <= b.2 && b.0 <= a.2 && a.1 <= b.3 && b.1 <= a.3
}

/// Text lines waiting to be drawn together (see the module docs).
#[derive(Default)]
struct Pending<'a> {
    lines: Vec<Line<'a>>,
    /// The glyphs of the pending lines, each line's together (a `Vec` for every line was a
    /// tenth of the SVG pages' allocations); emptied whenever no line is pending.
    glyphs: Vec<(RunKey, (i64, i64))>,
    /// The lines being drawn, an empty list kept from one group to the next.
    drawn: Vec<Line<'a>>,
    /// Scale (mm per font unit) of each size key.
    scales: HashMap<u64, f64>,
    /// Working buffers of [`Pending::flush_under`] and [`Pending::draw`], kept from one
    /// group to the next.
    scratch: Scratch,
}

/// The working buffers of [`Pending`]: their contents never outlive one call.
#[derive(Default)]
struct Scratch {
    /// Per pending line: whether it is drawn now.
    take: Vec<bool>,
    /// Lines taken and not yet compared with the others.
    todo: Vec<usize>,
    /// Lines not taken.
    rest: Vec<usize>,
    /// Run key (colour as a number) → its index in `runs`.
    index: HashMap<(u64, u32, Weight, u16), usize>,
    /// The runs of the group being drawn, in first-use order.
    runs: Vec<Run>,
    /// (run index, glyph origin) in line order.
    placed: Vec<(usize, (i64, i64))>,
    /// The glyph origins ordered by run, each run's in line order (see [`Run::start`]).
    pts: Vec<(i64, i64)>,
}

/// One run of a drawn group: the glyph placements of one run key.
struct Run {
    key: RunKey,
    /// Id number of the glyph's outline.
    glyph: Option<usize>,
    /// Index of its (size, colour, lattice step) group.
    group: usize,
    /// Its glyph origins: `Scratch::pts[start..start + len]`.
    start: usize,
    len: usize,
}

impl<'a> Pending<'a> {
    fn add(&mut self, t: &'a Text, defs: &mut Defs) {
        if !(t.size_pt.is_finite() && t.size_pt > 0.0) {
            return;
        }
        let upem = f64::from(text::units_per_em(t.weight).max(1));
        // Hundredths of a mm per font unit.
        let k = 100.0 * t.size_pt * text::MM_PER_PT / upem;
        let key = t.size_pt.to_bits();
        self.scales.insert(key, k);
        let em_mm = t.size_pt * text::MM_PER_PT;
        let mm_per_unit = k / 100.0;
        let mut pen_milli = 0u64;
        let from = self.glyphs.len();
        let glyphs = &mut self.glyphs;
        let mut bbox: Option<(f64, f64, f64, f64)> = None;
        for g in text::glyph_iter(&t.text, t.weight) {
            let info = defs.glyph_info(t.weight, g.gid);
            if info.id.is_some() {
                let x = t.x + pen_milli as f64 / 1000.0 * em_mm;
                glyphs.push((
                    (key, t.color, t.weight, g.gid),
                    (hundredths(x), hundredths(t.y)),
                ));
                if let Some((x0, y0, x1, y1)) = info.ink {
                    let b = (
                        finite(x + f64::from(x0) * mm_per_unit),
                        finite(t.y - f64::from(y1) * mm_per_unit),
                        finite(x + f64::from(x1) * mm_per_unit),
                        finite(t.y - f64::from(y0) * mm_per_unit),
                    );
                    bbox = Some(match bbox {
                        None => b,
                        Some(a) => (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3)),
                    });
                }
            }
            pen_milli += u64::from(g.advance_milli_em);
        }
        if let (false, Some(b)) = (glyphs.len() == from, bbox) {
            // The glyphs' ink (their outline points), widened by `INK_MARGIN` for the lattice
            // rounding and anti-aliased edges.
            let bbox = (
                b.0 - INK_MARGIN,
                b.1 - INK_MARGIN,
                b.2 + INK_MARGIN,
                b.3 + INK_MARGIN,
            );
            self.lines.push(Line {
                glyphs: from..glyphs.len(),
                bbox,
                text: &t.text,
            });
        } else {
            glyphs.truncate(from);
        }
    }

    /// Draws, before a shape painting box `b`, the pending lines it overlaps, together with
    /// every pending line that overlaps one of those (and so on), so that each overlapping pair
    /// keeps its painting order; the other lines stay pending and are drawn later, with more
    /// text. `b = None` (a shape of unknown extent) draws them all.
    fn flush_under(
        &mut self,
        b: Option<(f64, f64, f64, f64)>,
        out: &mut Vec<Out>,
        defs: &mut Defs,
    ) {
        let lines = &self.lines;
        let Scratch {
            take, todo, rest, ..
        } = &mut self.scratch;
        take.clear();
        take.extend(
            lines
                .iter()
                .map(|l| b.is_none_or(|b| boxes_meet(l.bbox, b))),
        );
        // Every line joined to a taken one through lines whose boxes meet: each taken line is
        // compared once with the lines not yet taken (`rest`, which only shrinks; when every
        // line is taken, as for `b = None`, there is nothing to compare).
        todo.clear();
        todo.extend((0..take.len()).filter(|&i| take[i]));
        if todo.is_empty() {
            return;
        }
        rest.clear();
        rest.extend((0..take.len()).filter(|&i| !take[i]));
        while !rest.is_empty() {
            let Some(j) = todo.pop() else { break };
            let bj = lines[j].bbox;
            rest.retain(|&i| {
                let meets = boxes_meet(lines[i].bbox, bj);
                if meets {
                    take[i] = true;
                    todo.push(i);
                }
                !meets
            });
        }
        let mut now = std::mem::take(&mut self.drawn);
        if rest.is_empty() && take.iter().all(|&t| t) {
            std::mem::swap(&mut self.lines, &mut now);
        } else {
            // `extract_if` visits the lines once each, in order.
            let mut i = 0;
            now.extend(self.lines.extract_if(.., |_| {
                i += 1;
                take[i - 1]
            }));
        }
        self.draw(&now, out, defs);
        now.clear();
        self.drawn = now;
        if self.lines.is_empty() {
            self.glyphs.clear();
        }
    }

    fn flush(&mut self, out: &mut Vec<Out>, defs: &mut Defs) {
        self.flush_under(None, out, defs);
    }

    /// Appends `lines` to `out` as one group.
    fn draw(&mut self, lines: &[Line], out: &mut Vec<Out>, defs: &mut Defs) {
        use std::collections::hash_map::Entry;
        let sc = &mut self.scratch;
        sc.index.clear();
        sc.runs.clear();
        sc.placed.clear();
        // Sizes in first-use order; within a size, colours, then lattice steps (font units of
        // a glyph's outline), in first-use order. Each run's group is found once, when the run
        // is first met (runs are in first-use order).
        let mut groups: Vec<(u64, Color, i64)> = Vec::new();
        for l in lines {
            for &(run, q) in &self.glyphs[l.glyphs.clone()] {
                let (key, color, w, gid) = run;
                let i = match sc.index.entry((key, rgb(color), w, gid)) {
                    Entry::Occupied(e) => *e.get(),
                    Entry::Vacant(e) => {
                        let info = defs.glyph_info(w, gid);
                        let g = (key, color, info.grid);
                        let group = match groups.iter().position(|h| *h == g) {
                            Some(i) => i,
                            None => {
                                groups.push(g);
                                groups.len() - 1
                            }
                        };
                        sc.runs.push(Run {
                            key: run,
                            glyph: info.id,
                            group,
                            start: 0,
                            len: 0,
                        });
                        *e.insert(sc.runs.len() - 1)
                    }
                };
                sc.runs[i].len += 1;
                sc.placed.push((i, q));
            }
        }
        // Each run's origins together, in line order (a counting sort by run).
        let mut at = 0;
        for r in &mut sc.runs {
            r.start = at;
            at += r.len;
            r.len = 0;
        }
        sc.pts.clear();
        sc.pts.resize(sc.placed.len(), (0, 0));
        for &(i, q) in &sc.placed {
            let r = &mut sc.runs[i];
            sc.pts[r.start + r.len] = q;
            r.len += 1;
        }
        let mut label = String::with_capacity(lines.iter().map(|l| l.text.len() + 1).sum());
        for (i, l) in lines.iter().enumerate() {
            if i > 0 {
                label.push(' ');
            }
            push_clean(&mut label, l.text);
        }
        let mut blocks = Vec::with_capacity(groups.len());
        let mut transform = String::new();
        for (gi, &(key, color, step)) in groups.iter().enumerate() {
            let in_group = || sc.runs.iter().filter(move |r| r.group == gi);
            // Hundredths of a mm per lattice step of the outlines drawn here.
            let k = self.scales.get(&key).copied().unwrap_or(0.0) * step as f64;
            let ks = scale_str(k);
            let boost = marker_boost(k);
            let mut block = TextBlock::default();
            // Glyphs drawn once at this size: when there are several and a lattice step is at
            // most 0.01 mm (one user unit), they share one `<g transform="scale(k)">` and are
            // placed by `x`/`y` in whole steps (within 0.005 mm of the origin).
            let singles = in_group()
                .filter(|r| r.len == 1 && r.glyph.is_some())
                .count();
            let in_units = singles >= 2 && k > 0.0 && k <= 1.0;
            let fill = (color != Color::BLACK).then(|| Hex::new(color));
            // Only one of the two ways of placing glyphs is used in a block.
            let glyphs = &mut block.glyphs;
            if in_units {
                transform.clear();
                transform.push_str("scale(");
                transform.push_str(&ks);
                transform.push(')');
                let mut g = Attrs::new();
                g.str("transform", &transform);
                if let Some(f) = &fill {
                    g.str("fill", f.as_str());
                }
                g.open(glyphs, "g");
            }
            for r in in_group() {
                let (_, _, w, gid) = r.key;
                let Some(glyph) = r.glyph else {
                    continue;
                };
                let pts = &sc.pts[r.start..r.start + r.len];
                if pts.len() == 1 {
                    defs.used(glyph);
                }
                if pts.len() == 1 && in_units {
                    let (x, y) = pts[0];
                    let units = |h: i64| (h as f64 / k).round() as i64;
                    Attrs::new()
                        .id("href", "#", glyph, "")
                        .int("x", units(x))
                        .int("y", units(y))
                        .empty_element(glyphs, "use");
                } else if pts.len() == 1 {
                    let (x, y) = pts[0];
                    transform.clear();
                    transform.push_str("translate(");
                    push_int(&mut transform, x);
                    transform.push(' ');
                    push_int(&mut transform, y);
                    transform.push_str(") scale(");
                    transform.push_str(&ks);
                    transform.push(')');
                    let mut u = Attrs::new();
                    u.id("href", "#", glyph, "").str("transform", &transform);
                    if let Some(f) = &fill {
                        u.str("fill", f.as_str());
                    }
                    u.empty_element(glyphs, "use");
                } else {
                    let m = defs.marker(w, gid, color, glyph, boost);
                    let from = block.run_data.len();
                    push_run_data(pts, &mut block.run_data);
                    block.runs.push((from..block.run_data.len(), m));
                }
            }
            if in_units {
                block.glyphs.push_str("</g>");
            }
            if !block.runs.is_empty() {
                block.stroke_width = scale_str(k * 10f64.powi(boost));
            }
            blocks.push(block);
        }
        out.push(Out::Text { label, blocks });
    }
}

/// How many powers of ten a marker's stroke width is raised above `k` (hundredths of a mm
/// per font unit), its content scaled down as many: none for text of 3 pt and up (`k` at
/// least 0.05), since librsvg draws no marker whose stroke width is under about 0.005 user
/// units.
fn marker_boost(k: f64) -> i32 {
    let mut n = 0;
    while k > 0.0 && k * 10f64.powi(n) < 0.05 && n < 12 {
        n += 1;
    }
    n
}

/// A scale factor (hundredths of a mm per font unit) to 7 significant digits, shortest form:
/// the scale is not a length, and 7 digits keep a 300 mm line within 0.0001 mm.
///
/// Each thread keeps the text of the factors it has written (a kit's pages use a few dozen,
/// each many times; formatting one took some 3,000 instructions), forgetting them all past
/// 1,024 so that a long-running process holds no more than that.
fn scale_str(k: f64) -> String {
    use std::cell::RefCell;
    thread_local! {
        static MEMO: RefCell<HashMap<u64, String>> = RefCell::default();
    }
    MEMO.with_borrow_mut(|memo| {
        if let Some(s) = memo.get(&k.to_bits()) {
            return s.clone();
        }
        let s = format_scale(k);
        if memo.len() >= 1024 {
            memo.clear();
        }
        memo.insert(k.to_bits(), s.clone());
        s
    })
}

/// [`scale_str`] without the memo.
fn format_scale(k: f64) -> String {
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
fn geometry(segs: &[Seg]) -> Geometry {
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
    let ends = |i: usize| segs.get(i).and_then(end);
    if segs.len() == 6 {
        if let (Some(m), Some(e1), Some(e2)) = (ends(0), ends(1), ends(2)) {
            let c = crate::doc::pt((m.x + e2.x) / 2.0, m.y);
            let (rx, ry) = ((m.x - e2.x) / 2.0, e1.y - m.y);
            if rx > 0.0 && ry > 0.0 && same(segs, &crate::doc::ellipse_segs(c, rx, ry)) {
                let (rxs, rys) = (hundredths(rx), hundredths(ry));
                let (cx, cy) = (hundredths(c.x), hundredths(c.y));
                return if rxs == rys {
                    Geometry::Circle([cx, cy, rxs])
                } else {
                    Geometry::Ellipse([cx, cy, rxs, rys])
                };
            }
        }
    }
    if segs.len() == 5 {
        if let (Some(a), Some(c)) = (ends(0), ends(2)) {
            let (w, h) = (c.x - a.x, c.y - a.y);
            if w > 0.0 && h > 0.0 && same(segs, &crate::doc::rect(a.x, a.y, w, h)) {
                let rect = [a.x, a.y, w, h].map(hundredths);
                return Geometry::Rect(rect, None);
            }
        }
    }
    if segs.len() == 10 {
        if let (Some(m), Some(e5), Some(e7), Some(e2)) = (ends(0), ends(5), ends(7), ends(2)) {
            let (x, y) = (e7.x, m.y);
            let (w, h, r) = (e2.x - x, e5.y - y, m.x - x);
            if w > 0.0 && h > 0.0 && r > 0.0 && same(segs, &crate::doc::rounded_rect(x, y, w, h, r))
            {
                let rect = [x, y, w, h].map(hundredths);
                return Geometry::Rect(rect, Some(hundredths(r)));
            }
        }
    }
    Geometry::Path(path_data(segs))
}

/// A shape's element without its paint, numbers in hundredths of a mm (see [`geometry`]).
#[derive(Debug, PartialEq)]
enum Geometry {
    /// `<circle>`: cx, cy, r.
    Circle([i64; 3]),
    /// `<ellipse>`: cx, cy, rx, ry.
    Ellipse([i64; 4]),
    /// `<rect>`: x, y, width, height, and `rx` for rounded corners.
    Rect([i64; 4], Option<i64>),
    /// `<path>`: its path data.
    Path(String),
}

impl Geometry {
    /// Appends the element, with attributes `extra` (values that need no escaping, such as a
    /// paint or a class) among its own.
    fn write(&self, out: &mut String, extra: &[(&'static str, &str)]) {
        let mut a = Attrs::new();
        let name = match self {
            Geometry::Circle([cx, cy, r]) => {
                a.int("cx", *cx).int("cy", *cy).int("r", *r);
                "circle"
            }
            Geometry::Ellipse([cx, cy, rx, ry]) => {
                a.int("cx", *cx)
                    .int("cy", *cy)
                    .int("rx", *rx)
                    .int("ry", *ry);
                "ellipse"
            }
            Geometry::Rect([x, y, w, h], rx) => {
                a.int("x", *x)
                    .int("y", *y)
                    .int("width", *w)
                    .int("height", *h);
                if let Some(r) = rx {
                    a.int("rx", *r);
                }
                "rect"
            }
            Geometry::Path(d) => {
                a.str("d", d);
                "path"
            }
        };
        for (k, v) in extra {
            a.str(k, v);
        }
        a.empty_element(out, name);
    }
}

/// Paint attributes of a shape: the values of `fill`, `stroke`, `stroke-width` and
/// `stroke-dasharray` in the form they are written, each left out where it is the SVG default
/// (black fill, no stroke). Kept as numbers and stack strings rather than a list of strings
/// (four allocations a shape): two paints are equal exactly when their attribute texts are.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
struct Paint {
    /// `fill`: `None` for black (not written), `Some(None)` for `none`, else the colour.
    fill: Option<Option<Hex>>,
    /// `stroke`, when the shape has one.
    stroke: Option<StrokePaint>,
}

/// The stroke attributes of a [`Paint`].
#[derive(Clone, PartialEq, Eq, Hash)]
struct StrokePaint {
    color: Hex,
    /// `stroke-width`, hundredths of a mm.
    width: i64,
    /// `stroke-dasharray` as written (hundredths of a mm, space-separated); empty for solid.
    dash: String,
}

impl Paint {
    /// Whether every attribute is the default, so nothing needs to carry the paint.
    fn is_empty(&self) -> bool {
        self.fill.is_none() && self.stroke.is_none()
    }

    /// The attributes as (name, value) pairs in their written order, and how many there are;
    /// `width` holds the digits of the stroke width.
    fn attrs<'a>(&'a self, width: &'a mut itoa::Buffer) -> ([(&'static str, &'a str); 4], usize) {
        let mut a: [(&'static str, &str); 4] = [("", ""); 4];
        let mut n = 0;
        if let Some(fill) = &self.fill {
            a[n] = ("fill", fill.as_ref().map_or("none", Hex::as_str));
            n += 1;
        }
        if let Some(st) = &self.stroke {
            a[n] = ("stroke", st.color.as_str());
            a[n + 1] = ("stroke-width", width.format(st.width));
            n += 2;
            if !st.dash.is_empty() {
                a[n] = ("stroke-dasharray", &st.dash);
                n += 1;
            }
        }
        (a, n)
    }
}

/// A shape as (geometry element, paint), or `None` when it draws nothing.
fn shape_node(s: &Shape) -> Option<(Geometry, Paint)> {
    let stroke = s
        .stroke
        .as_ref()
        .and_then(|st| clean_stroke(st).map(|c| (st.color, c)));
    let segs = clean_segs(&s.segs);
    if segs.is_empty() || (s.fill.is_none() && stroke.is_none()) {
        return None;
    }
    let mut paint = Paint::default();
    match s.fill {
        None => paint.fill = Some(None),
        Some(c) if c == Color::BLACK => {}
        Some(c) => paint.fill = Some(Some(Hex::new(c))),
    }
    if let Some((color, (width, dash))) = stroke {
        let mut pattern = String::new();
        for (i, d) in dash.iter().enumerate() {
            if i > 0 {
                pattern.push(' ');
            }
            push_int(&mut pattern, hundredths(*d));
        }
        paint.stroke = Some(StrokePaint {
            color: Hex::new(color),
            width: hundredths(width),
            dash: pattern,
        });
    }
    Some((geometry(segs), paint))
}

/// The box of a shape (see [`shape_box`]).
type Box4 = (f64, f64, f64, f64);

/// Shapes drawn one after another with no text drawn between them (a segment of the page's
/// painting order), kept until the segment ends. Shapes whose boxes do not meet may then be
/// drawn in either order, so the segment is reordered to put shapes of one paint next to each
/// other (one `<g>` carrying the paint), while every pair whose boxes meet keeps its order.
#[derive(Default)]
struct ShapeRun {
    shapes: Vec<(Paint, Geometry, Option<Box4>)>,
}

impl ShapeRun {
    fn push(&mut self, geometry: Geometry, paint: Paint, b: Option<Box4>) {
        self.shapes.push((paint, geometry, b));
    }

    /// Ends the segment: its shapes go to `out`, grouped by paint. The order: repeatedly the
    /// first shape (in painting order) of the paint last drawn that waits for no earlier shape
    /// meeting it, else the first shape that waits for none. Near-linear: the meeting pairs
    /// are found by a sweep along x (a counters sheet of 59,000 cut lines took 4 s when every
    /// pair was compared), and the free shapes are kept ordered per paint.
    fn flush(&mut self, out: &mut Vec<Out>) {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let shapes = std::mem::take(&mut self.shapes);
        let n = shapes.len();
        // pairs: (earlier, later) of each two shapes that meet; waits[j]: how many earlier
        // shapes meeting shape j are still to be drawn. An unknown box meets everything.
        let mut waits = vec![0usize; n];
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut meets = |i: usize, j: usize| {
            let (i, j) = (i.min(j), i.max(j));
            pairs.push((i, j));
            waits[j] += 1;
        };
        let unknown: Vec<usize> = (0..n).filter(|&i| shapes[i].2.is_none()).collect();
        for &u in &unknown {
            for (k, shape) in shapes.iter().enumerate() {
                // A pair of unknown boxes once, from the earlier of the two.
                if k != u && (shape.2.is_some() || k > u) {
                    meets(u, k);
                }
            }
        }
        let mut by_x: Vec<(usize, Box4)> =
            (0..n).filter_map(|i| shapes[i].2.map(|b| (i, b))).collect();
        by_x.sort_by(|a, b| a.1 .0.total_cmp(&b.1 .0).then(a.0.cmp(&b.0)));
        for (k, &(i, a)) in by_x.iter().enumerate() {
            for &(j, b) in &by_x[k + 1..] {
                if b.0 > a.2 {
                    break;
                }
                if boxes_meet(a, b) {
                    meets(i, j);
                }
            }
        }
        // The later shapes meeting shape i: after[start[i]..start[i + 1]], in one list (a
        // list per shape was most of this function's allocations). Their order is free: they
        // only go into the heaps below.
        let mut start = vec![0usize; n + 1];
        for &(i, _) in &pairs {
            start[i + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut after = vec![0usize; pairs.len()];
        let mut filled = start[..n].to_vec();
        for &(i, j) in &pairs {
            after[filled[i]] = j;
            filled[i] += 1;
        }
        // Each distinct paint's number, in first-use order, and the free shapes of each.
        let mut paint_ids: HashMap<&Paint, usize> = HashMap::default();
        let paint_of: Vec<usize> = shapes
            .iter()
            .map(|s| {
                let next = paint_ids.len();
                *paint_ids.entry(&s.0).or_insert(next)
            })
            .collect();
        // Free shapes as min-heaps, a drawn shape left in the other heap until it comes to the
        // top (a free shape stays free until drawn, so the first free shape not yet drawn is
        // the heap's top once drawn ones are popped).
        let mut free_of: Vec<BinaryHeap<Reverse<usize>>> = vec![BinaryHeap::new(); paint_ids.len()];
        let mut free: BinaryHeap<Reverse<usize>> = BinaryHeap::with_capacity(n);
        let mut drawn = vec![false; n];
        for i in (0..n).filter(|&i| waits[i] == 0) {
            free.push(Reverse(i));
            free_of[paint_of[i]].push(Reverse(i));
        }
        let first = |heap: &mut BinaryHeap<Reverse<usize>>, drawn: &[bool]| {
            while let Some(&Reverse(i)) = heap.peek() {
                if !drawn[i] {
                    return Some(i);
                }
                heap.pop();
            }
            None
        };
        let mut order = Vec::with_capacity(n);
        let mut paint: Option<usize> = None;
        for _ in 0..n {
            let pick = paint
                .and_then(|p| first(&mut free_of[p], &drawn))
                .or_else(|| first(&mut free, &drawn))
                .expect("the earliest shape not drawn waits for none");
            drawn[pick] = true;
            for &j in &after[start[pick]..start[pick + 1]] {
                waits[j] -= 1;
                if waits[j] == 0 {
                    free.push(Reverse(j));
                    free_of[paint_of[j]].push(Reverse(j));
                }
            }
            paint = Some(paint_of[pick]);
            order.push(pick);
        }
        let mut slots: Vec<Option<(Paint, Geometry, Option<Box4>)>> =
            shapes.into_iter().map(Some).collect();
        for i in order {
            let (p, e, _) = slots[i].take().expect("each shape drawn once");
            match out.last_mut() {
                Some(Out::Shapes(q, elems)) if *q == p => elems.push(e),
                _ => out.push(Out::Shapes(p, vec![e])),
            }
        }
    }
}

/// The glyphs of one size and colour in a text group: glyphs drawn once (`<use>`s placed one
/// by one, or one group placing them in font units, as markup) and the marker runs, each
/// (path data through the glyph origins, marker id), under one `stroke-width`.
#[derive(Default)]
struct TextBlock {
    glyphs: String,
    stroke_width: String,
    /// The path data of every run, one after another (a string for each run was the largest
    /// share of the SVG pages' allocations).
    run_data: String,
    /// (its path data in `run_data`, marker id number) of each run.
    runs: Vec<(std::ops::Range<usize>, usize)>,
}

/// A piece of the page body in painting order, kept as data until the whole page is drawn so
/// that a paint or marker used often enough can become a CSS class (see [`Classes`]).
enum Out {
    /// Shapes sharing one paint: one `<g>` carrying it, or the one element itself.
    Shapes(Paint, Vec<Geometry>),
    /// One text group (`aria-label` holding its lines).
    Text {
        label: String,
        blocks: Vec<TextBlock>,
    },
    /// A `<g clip-path>` (clip id number) around its own pieces.
    Clip(usize, Vec<Out>),
}

/// CSS classes of a page: a paint carried by several elements, or a marker referred to by
/// several runs, becomes one rule in the page's `<style>` (`.a{fill:#fff;stroke:#000}`,
/// `.b{marker:url(#Ma)}`) and a `class` attribute, when that is shorter than repeating the
/// attributes.
#[derive(Default)]
struct Classes {
    paint: HashMap<Paint, String>,
    /// Marker id number → class name.
    marker: HashMap<usize, String>,
    rules: String,
}

impl Classes {
    /// Classes for the pieces `outs`, named in first-use order.
    fn choose(outs: &[Out]) -> Classes {
        // How many elements would carry each paint, and how many runs use each marker.
        fn count<'a>(
            outs: &'a [Out],
            paints: &mut Vec<(&'a Paint, usize)>,
            markers: &mut Vec<(usize, usize)>,
        ) {
            for o in outs {
                match o {
                    Out::Shapes(p, _) => match paints.iter_mut().find(|(q, _)| *q == p) {
                        Some(e) => e.1 += 1,
                        None => paints.push((p, 1)),
                    },
                    Out::Text { blocks, .. } => {
                        for (_, m) in blocks.iter().flat_map(|b| &b.runs) {
                            match markers.iter_mut().find(|(q, _)| q == m) {
                                Some(e) => e.1 += 1,
                                None => markers.push((*m, 1)),
                            }
                        }
                    }
                    Out::Clip(_, inner) => count(inner, paints, markers),
                }
            }
        }
        let (mut paints, mut markers) = (Vec::new(), Vec::new());
        count(outs, &mut paints, &mut markers);
        let mut c = Classes::default();
        let mut n = 0;
        // (uses, attribute text per use, rule body) → the class name if it pays.
        let mut pays = |uses: usize, attrs: usize, body: &str, rules: &mut String| {
            let name_len = id_len(n);
            let (class_attr, rule) = (" class=\"\"".len() + name_len, name_len + body.len() + 3);
            if uses * attrs > uses * class_attr + rule {
                let name = short_id(n);
                rules.push('.');
                rules.push_str(&name);
                rules.push('{');
                rules.push_str(body);
                rules.push('}');
                n += 1;
                Some(name)
            } else {
                None
            }
        };
        let mut body = String::new();
        for (p, uses) in paints {
            let mut width = itoa::Buffer::new();
            let (pairs, n) = p.attrs(&mut width);
            let attrs: usize = pairs[..n].iter().map(|(k, v)| k.len() + v.len() + 4).sum();
            body.clear();
            for (i, (k, v)) in pairs[..n].iter().enumerate() {
                if i > 0 {
                    body.push(';');
                }
                body.push_str(k);
                body.push(':');
                body.push_str(v);
            }
            if let Some(name) = pays(uses, attrs, &body, &mut c.rules) {
                c.paint.insert(p.clone(), name);
            }
        }
        for (m, uses) in markers {
            let body = format!("marker:url(#{})", short_id(m));
            if let Some(name) = pays(uses, body.len() + 9, &body, &mut c.rules) {
                c.marker.insert(m, name);
            }
        }
        c
    }

    /// Appends the markup of `outs`.
    fn write(&self, outs: Vec<Out>, out: &mut String) {
        for o in outs {
            match o {
                // Black fill, no stroke (the SVG defaults): the elements need no carrier.
                Out::Shapes(paint, elems) if paint.is_empty() => {
                    for e in &elems {
                        e.write(out, &[]);
                    }
                }
                Out::Shapes(paint, elems) => {
                    let mut width = itoa::Buffer::new();
                    let (mut dress, mut n) = ([("", ""); 4], 1);
                    match self.paint.get(&paint) {
                        Some(c) => dress[0] = ("class", c.as_str()),
                        None => (dress, n) = paint.attrs(&mut width),
                    }
                    let dress = &dress[..n];
                    if let [e] = elems.as_slice() {
                        e.write(out, dress);
                    } else {
                        let mut g = Attrs::new();
                        for (k, v) in dress {
                            g.str(k, v);
                        }
                        let start = g.open(out, "g");
                        for e in &elems {
                            e.write(out, &[]);
                        }
                        close(out, "g", start);
                    }
                }
                Out::Text { label, blocks } => {
                    out.push_str("<g aria-label=\"");
                    push_escaped(out, &label);
                    out.push_str("\">");
                    let start = out.len();
                    for b in blocks {
                        out.push_str(&b.glyphs);
                        if !b.runs.is_empty() {
                            Attrs::new()
                                .str("fill", "none")
                                .str("stroke-width", &b.stroke_width)
                                .open(out, "g");
                            for (d, m) in &b.runs {
                                let d = &b.run_data[d.clone()];
                                match self.marker.get(m) {
                                    Some(c) => {
                                        Attrs::new()
                                            .str("class", c)
                                            .str("d", d)
                                            .empty_element(out, "path");
                                    }
                                    None => {
                                        out.push_str("<path d=\"");
                                        out.push_str(d);
                                        out.push_str("\" style=\"marker:url(#");
                                        push_id(out, *m);
                                        out.push_str(")\"/>");
                                    }
                                }
                            }
                            out.push_str("</g>");
                        }
                    }
                    close(out, "g", start);
                }
                Out::Clip(id, inner) => {
                    let start = Attrs::new()
                        .id("clip-path", "url(#", id, ")")
                        .open(out, "g");
                    self.write(inner, out);
                    close(out, "g", start);
                }
            }
        }
    }
}

/// The box a shape may paint, mm: its control points, widened by how far its stroke may
/// reach past them (half the width, or for a path's corners the miter: at most 10 × half the
/// width, the miter limit; a rectangle's right-angle miter stays within the width) and by
/// [`INK_MARGIN`]. `smooth` says the shape is a circle, ellipse or rectangle.
fn shape_box(s: &Shape, smooth: bool) -> Option<Box4> {
    let (x0, y0, x1, y1) = bounds(clean_segs(&s.segs))?;
    let w = s
        .stroke
        .as_ref()
        .and_then(clean_stroke)
        .map_or(0.0, |(w, _)| if smooth { w } else { 5.0 * w })
        + INK_MARGIN;
    let b = (
        finite(x0) - w,
        finite(y0) - w,
        finite(x1) + w,
        finite(y1) + w,
    );
    Some(b)
}

/// The pieces for `items` in painting order (see the module docs); a clip's items are drawn
/// by a nested call inside its `<g clip-path>`.
fn item_nodes(items: &[Item], defs: &mut Defs) -> Vec<Out> {
    let mut pending = Pending::default();
    let mut run = ShapeRun::default();
    let mut body: Vec<Out> = Vec::new();
    for item in items {
        match item {
            Item::Shape(s) => {
                let Some((geometry, paint)) = shape_node(s) else {
                    continue;
                };
                let b = shape_box(s, !matches!(geometry, Geometry::Path(_)));
                if b.is_none_or(|b| pending.lines.iter().any(|l| boxes_meet(l.bbox, b))) {
                    run.flush(&mut body);
                    pending.flush_under(b, &mut body, defs);
                }
                run.push(geometry, paint, b);
            }
            Item::Text(t) => pending.add(t, defs),
            Item::Clip(c) => {
                run.flush(&mut body);
                pending.flush(&mut body, defs);
                let id = defs.clip(c.x, c.y, c.w, c.h);
                body.push(Out::Clip(id, item_nodes(&c.items, defs)));
            }
        }
    }
    run.flush(&mut body);
    pending.flush(&mut body, defs);
    body
}

/// Draws one page as a standalone SVG document string: root `width`/`height` in mm, a
/// `viewBox` in hundredths of a mm, a `<title>`, glyph outlines, markers and clip rectangles in `<defs>`, then
/// every item in painting order (text as filled glyph outlines, see the module docs).
/// Deterministic: the same page gives the same string.
pub fn render_page(page: &Page, title: &str) -> String {
    let (w, h) = (clean_side(page.width), clean_side(page.height));
    let mut defs = Defs::default();
    for item in leaves(&page.items) {
        if let Item::Text(t) = item {
            if t.size_pt.is_finite() && t.size_pt > 0.0 {
                for g in text::glyph_iter(&t.text, t.weight) {
                    let m = defs.max_size.entry((t.weight, g.gid)).or_insert(0.0);
                    *m = m.max(t.size_pt);
                }
            }
        }
    }
    let outs = item_nodes(&page.items, &mut defs);
    let classes = Classes::choose(&outs);
    // The `<defs>` and the body, written here as the svg crate would write their elements
    // (see the module docs), go into the document as one blob.
    let mut body = String::with_capacity(32 * 1024);
    defs.write(&classes.rules, &mut body);
    classes.write(outs, &mut body);
    let mut doc = svg::Document::new()
        .set("width", format!("{}mm", mm_str(w)))
        .set("height", format!("{}mm", mm_str(h)))
        .set("viewBox", format!("0 0 {} {}", num(w), num(h)))
        // PDF's default miter limit, so sharp corners are cut the same way in both backends.
        .set("stroke-miterlimit", "10")
        .add(Title::new(clean_text(title)));
    let body_len = body.len();
    if !body.is_empty() {
        doc.append(Blob::new(body));
    }
    // No line break between elements (the svg crate puts one before each): whitespace between
    // elements draws nothing, and markup escapes every `<` and `>` in text and attribute values,
    // so `>` + line break + `<` occurs only between two tags.
    let mut w = Markup {
        out: String::with_capacity(body_len + 1024),
        ..Markup::default()
    };
    w.node(&doc);
    let mut out = w.finish();
    out.push('\n');
    out
}

/// Writes a tree of the svg crate's nodes as the crate's own `Display` does (attributes sorted
/// by name, values escaped, a line break before each child that is not bare text and after the
/// last), with every line break between `>` and `<` left out as it is written (what
/// `drop_tag_breaks` in the tests does to the crate's text): the same bytes, in one pass and
/// without the crate's three to five new strings for every value it escaped (Kalah 6×4 kit:
/// 382 → 351 M instructions, callgrind).
#[derive(Default)]
struct Markup {
    out: String,
    /// A line break after `>`, written only if the next character is not `<`.
    pending_break: bool,
}

impl Markup {
    /// Appends `s`, holding back each line break that follows `>` until the next character
    /// shows whether it is dropped.
    fn text(&mut self, s: &str) {
        let mut rest = s;
        while let Some(i) = rest.find('\n') {
            self.plain(&rest[..i]);
            self.line_break();
            rest = &rest[i + 1..];
        }
        self.plain(rest);
    }

    /// Appends `s`, which has no line break.
    fn plain(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        if self.pending_break {
            self.pending_break = false;
            if !s.starts_with('<') {
                self.out.push('\n');
            }
        }
        self.out.push_str(s);
    }

    fn line_break(&mut self) {
        if self.pending_break {
            // The held break is followed by a line break, not `<`: it stays.
            self.out.push('\n');
            self.pending_break = false;
        }
        if self.out.ends_with('>') {
            self.pending_break = true;
        } else {
            self.out.push('\n');
        }
    }

    /// `value` with `&`, `<`, `>`, `"` and `'` escaped, as the svg crate escapes attribute
    /// values.
    fn escaped(&mut self, value: &str) {
        let mut last = 0;
        for (i, c) in value.char_indices() {
            let e = match c {
                '&' => "&amp;",
                '<' => "&lt;",
                '>' => "&gt;",
                '"' => "&quot;",
                '\'' => "&apos;",
                _ => continue,
            };
            self.text(&value[last..i]);
            self.plain(e);
            last = i + 1;
        }
        self.text(&value[last..]);
    }

    /// The text written, with a line break still held back.
    fn finish(mut self) -> String {
        if self.pending_break {
            self.out.push('\n');
        }
        self.out
    }

    /// Appends node `n` and everything in it.
    fn node(&mut self, n: &dyn Node) {
        let (Some(attributes), Some(children)) = (n.get_attributes(), n.get_children()) else {
            // Text and the like: the crate's own writing, straight into the output.
            let _ = write!(self, "{n}");
            return;
        };
        let name = n.get_name();
        self.plain("<");
        self.plain(name);
        let mut sorted: Vec<_> = attributes.iter().collect();
        sorted.sort_unstable_by_key(|(k, _)| k.as_str());
        for (k, v) in sorted {
            self.plain(" ");
            self.plain(k);
            self.plain("=\"");
            self.escaped(v);
            self.plain("\"");
        }
        if children.is_empty() {
            self.plain("/>");
            return;
        }
        self.plain(">");
        // The crate writes the children of `<svg>`, `<style>` and the like (its "bareable"
        // elements) each on a line of its own, text too.
        let own_lines = n.is_bareable();
        let mut bare = false;
        for child in children {
            bare = child.is_bare() && !own_lines;
            if !bare {
                self.line_break();
            }
            self.node(child.as_ref());
        }
        if !bare {
            self.line_break();
        }
        self.plain("</");
        self.plain(name);
        self.plain(">");
    }
}

/// The crate's own writing of a node (see [`Markup::node`]) goes through [`Markup::text`].
impl std::fmt::Write for Markup {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.text(s);
        Ok(())
    }
}

/// Draws every page of `doc`: `(file name, SVG text)` in page order, the file name being
/// `NN-<page name>.svg` with `NN` the 1-based page number zero-padded to two digits
/// (`01-board.svg`). Each page's `<title>` is the document title.
pub fn render_all(doc: &Document) -> Vec<(String, String)> {
    use rayon::prelude::*;
    // Pages render independently, in parallel, those with the most text first: a page's time
    // grows with its text, and a text-heavy page started last (Kalah 6×4's first rules
    // page, 3× the average) ran alone on one core at the end while the other idled. Each page
    // then goes back to its place.
    let text = |p: &Page| -> usize {
        leaves(&p.items)
            .iter()
            .map(|item| match item {
                Item::Text(t) => t.text.len(),
                _ => 0,
            })
            .sum()
    };
    let mut order: Vec<(usize, usize)> = doc.pages.iter().map(text).zip(0..).collect();
    order.sort_by_key(|&(n, i)| (std::cmp::Reverse(n), i));
    let mut done: Vec<(usize, String)> = order
        .par_iter()
        .map(|&(_, i)| (i, render_page(&doc.pages[i], &doc.title)))
        .collect();
    done.sort_unstable_by_key(|d| d.0);
    done.into_iter()
        .zip(&doc.pages)
        .map(|((i, svg), p)| (format!("{:02}-{}.svg", i + 1, p.name), svg))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The crate's own text of a tree, with every line break between `>` and `<` removed (as
    /// `s.replace(">\n<", "><")`): what [`Markup`] must write.
    fn drop_tag_breaks(s: String) -> String {
        let b = s.as_bytes();
        let mut out = Vec::with_capacity(b.len());
        for (i, &c) in b.iter().enumerate() {
            if c == b'\n' && i > 0 && b[i - 1] == b'>' && b.get(i + 1) == Some(&b'<') {
                continue;
            }
            out.push(c);
        }
        // Only ASCII line breaks were left out, so `out` is still UTF-8.
        String::from_utf8(out).unwrap_or_else(|_| s.replace(">\n<", "><"))
    }

    /// [`Markup`] writes what the svg crate's `Display` writes, less the line breaks between
    /// tags: a tree with text that has line breaks (alone, first, last, doubled), every
    /// character the crate escapes in attribute values and text, a `<style>` and a `<title>`
    /// (the crate puts the one's text on lines of its own, not the other's), empty and nested
    /// elements, and attributes set out of order.
    #[test]
    fn markup_writes_the_crates_text_without_breaks_between_tags() {
        use svg::node::element::{Definitions, Group, Style, Text as TextEl, Use};
        let trees: Vec<svg::Document> = vec![
            svg::Document::new()
                .set("width", "10mm")
                .set("a", "x\"y'z<&>")
                .add(Title::new("a & b < c\n> d"))
                .add(Definitions::new().add(Style::new("\n.a{fill:#fff}\n")))
                .add(
                    Group::new()
                        .set("z", 1)
                        .set("b", "\n")
                        .add(Group::new())
                        .add(TextEl::new("\n"))
                        .add(TextEl::new("x\n\ny"))
                        .add(svg::node::Text::new("\n"))
                        .add(svg::node::Text::new("\nlead"))
                        .add(Use::new().set("href", "#a")),
                ),
            svg::Document::new().add(Style::new("")),
            svg::Document::new(),
        ];
        for doc in &trees {
            let want = drop_tag_breaks(doc.to_string());
            let mut w = Markup::default();
            w.node(doc);
            assert_eq!(w.finish(), want);
        }
        // The cases above reach the breaks that stay and those that go.
        let all = drop_tag_breaks(trees[0].to_string());
        assert!(
            all.contains("<style>\n\n.a{fill:#fff}\n\n</style>"),
            "{all}"
        );
        assert!(all.contains("</title><defs>") && all.contains("&quot;y&apos;z&lt;&amp;&gt;"));
    }
    /// The markup this module writes for `<defs>` and the page body ([`Attrs`], [`close`],
    /// [`push_escaped`]) is what the svg crate writes for the same elements: attributes given
    /// out of order, whole numbers (negative too) and text, an element with nothing inside,
    /// one with children, and every character the crate escapes in a value.
    #[test]
    fn own_markup_is_the_crates_text_for_the_same_elements() {
        use svg::node::element::Element;
        use svg::node::Value;
        // A crate element with `attrs` set in that order and `children` in it.
        let el = |name: &str, attrs: &[(&str, Value)], children: Vec<Element>| {
            let mut e = Element::new(name);
            for (k, v) in attrs {
                e.assign(*k, v.clone());
            }
            for c in children {
                e.append(c);
            }
            e
        };
        let crate_text = |e: &Element| drop_tag_breaks(e.to_string());
        // An empty element, its attributes set out of order.
        let mut out = String::new();
        Attrs::new()
            .str("fill", "#f00")
            .int("y", -1205)
            .str("d", "M0 0h10v-5z")
            .int("x", 0)
            .str("class", "a")
            .empty_element(&mut out, "path");
        let attrs = [
            ("fill", Value::from("#f00")),
            ("y", Value::from(-1205)),
            ("d", Value::from("M0 0h10v-5z")),
            ("x", Value::from(0)),
            ("class", Value::from("a")),
        ];
        assert_eq!(out, crate_text(&el("path", &attrs, vec![])));
        // Opened and closed with nothing inside: written as an empty element.
        let mut out = String::new();
        let at = Attrs::new().str("id", "g1").open(&mut out, "g");
        close(&mut out, "g", at);
        assert_eq!(out, crate_text(&el("g", &[("id", "g1".into())], vec![])));
        // With children.
        let mut out = String::new();
        let at = Attrs::new()
            .str("transform", "scale(.5)")
            .str("clip-path", "url(#c)")
            .open(&mut out, "g");
        Attrs::new()
            .str("href", "#a")
            .int("x", 12)
            .empty_element(&mut out, "use");
        Attrs::new()
            .str("href", "#b")
            .empty_element(&mut out, "use");
        close(&mut out, "g", at);
        let children = vec![
            el("use", &[("href", "#a".into()), ("x", 12.into())], vec![]),
            el("use", &[("href", "#b".into())], vec![]),
        ];
        let attrs = [
            ("transform", Value::from("scale(.5)")),
            ("clip-path", Value::from("url(#c)")),
        ];
        assert_eq!(out, crate_text(&el("g", &attrs, children)));
        // A value with every character the crate escapes, and some it does not.
        let raw = "a & b < c > d \"e\" 'f' é→";
        let mut escaped = String::new();
        push_escaped(&mut escaped, raw);
        let mut out = String::new();
        Attrs::new()
            .str("aria-label", &escaped)
            .empty_element(&mut out, "g");
        assert_eq!(
            out,
            crate_text(&el("g", &[("aria-label", raw.into())], vec![]))
        );
    }

    use crate::doc::{pt, rect};

    #[test]
    fn numbers_round_to_hundredths() {
        // One user unit is 0.01 mm: 12.3456 mm is 1234.56 units, rounded to 1235.
        assert_eq!(num(12.3456), "1235");
        assert_eq!(num(-0.0001), "0");
        assert_eq!(num(100.0), "10000");
        assert_eq!(num(0.05), "5");
        assert_eq!(num(-0.5), "-50");
        assert_eq!(num(f64::NAN), "0");
        // The root's width and height stay in mm, shortest decimal.
        assert_eq!(mm_str(215.9), "215.9");
        assert_eq!(mm_str(210.0), "210");
        assert_eq!(mm_str(0.5), ".5");
        assert_eq!(mm_str(0.05), ".05");
        assert_eq!(hex(Color::rgb(255, 0, 16)), "#ff0010");
        assert_eq!(hex(Color::rgb(255, 0, 17)), "#f01");
        // 9 pt: 9 × 25.4 / 72 mm per em / 2048 units = 0.001550293 mm = 0.1550293 units.
        assert_eq!(scale_str(100.0 * 9.0 * 25.4 / 72.0 / 2048.0), ".1550293");
        assert_eq!(scale_str(2.5), "2.5");
        assert_eq!(marker_boost(0.1550293), 0);
        assert_eq!(marker_boost(0.004), 2);
    }

    #[test]
    fn each_command_takes_its_shorter_form() {
        let mut w = PathWriter::new(false);
        w.move_to((100, 200));
        // Right 250: `h250` and `H350` are as long; the relative form comes first.
        w.line_to((350, 200));
        // Up to y = -5: `v-205` against `V-5`.
        w.line_to((350, -5));
        // To (10, 5): `l-340 10` against `L10 5`.
        w.line_to((10, 5));
        // To (20, 15): after `L` its letter is implied (` 20 15`), as long as `l10 10`.
        w.line_to((20, 15));
        // To (1025, 15): `h1005` (as long as `H1025`); back to (1003, 15): `-22` with `h`
        // implied and no space before the minus, against `H1003`.
        w.line_to((1025, 15));
        w.line_to((1003, 15));
        w.close();
        assert_eq!(w.d, "m100 200h250V-5L10 5l10 10h1005-22z");
        // After `z` the current point is the subpath's start, (100, 200).
        w.move_to((100, 300));
        assert!(w.d.ends_with("zm0 100"), "{}", w.d);
    }

    #[test]
    fn a_filled_outline_leaves_out_z() {
        // Two squares; without `z` the second `m` is taken from the first square's last point
        // (0, 10), so it reaches (20, 0) as `M20 0` (shorter than `m20-10`).
        let mut w = PathWriter::new(true);
        w.move_to((0, 0));
        w.line_to((10, 0));
        w.line_to((10, 10));
        w.line_to((0, 10));
        w.close();
        w.move_to((20, 0));
        w.line_to((30, 0));
        w.close();
        assert_eq!(w.d, "m0 0h10v10H0M20 0h10");
    }

    #[test]
    fn a_run_visits_its_points_in_order_each_step_in_its_shortest_form() {
        // From (0, 0): `h1000` (5 characters; `l1000 0` takes 7); back to (500, 0), `h` is in
        // force and a minus sign separates: `-500` (4), as short as `H500`, and first.
        assert_eq!(run_data(&[(0, 0), (1000, 0), (500, 0)]), "m0 0h1000-500");
        // From the end of a line to the start of the next: `L0 400` (6) beats `l-9000 400`.
        assert_eq!(run_data(&[(0, 0), (9000, 0), (0, 400)]), "m0 0h9000L0 400");
        // Straight down, then a repeat of the current point (still a vertex: `h0`).
        assert_eq!(run_data(&[(5, 5), (5, 80), (5, 80)]), "m5 5v75h0");
        assert_eq!(run_data(&[]), "");
    }

    /// Every vertex of a run's path is one of its points, in order, whatever the mix of
    /// relative and absolute forms chosen: the path data is read back by hand (commands
    /// `m h H v V l L`, implied repeats) on random runs near and far from the origin.
    #[test]
    fn a_run_reads_back_as_its_points() {
        fn vertices(d: &str) -> Vec<(i64, i64)> {
            let b = d.as_bytes();
            let (mut i, mut cmd, mut cur) = (0, b'm', (0i64, 0i64));
            let mut out = Vec::new();
            let num = |i: &mut usize| -> i64 {
                while b[*i] == b' ' {
                    *i += 1;
                }
                let s = *i;
                if b[*i] == b'-' {
                    *i += 1;
                }
                while *i < b.len() && b[*i].is_ascii_digit() {
                    *i += 1;
                }
                d[s..*i].parse().unwrap()
            };
            while i < b.len() {
                if b[i].is_ascii_alphabetic() {
                    cmd = b[i];
                    i += 1;
                }
                cur = match cmd {
                    b'm' | b'l' => {
                        let (x, y) = (num(&mut i), num(&mut i));
                        (cur.0 + x, cur.1 + y)
                    }
                    b'M' | b'L' => (num(&mut i), num(&mut i)),
                    b'h' => (cur.0 + num(&mut i), cur.1),
                    b'H' => (num(&mut i), cur.1),
                    b'v' => (cur.0, cur.1 + num(&mut i)),
                    b'V' => (cur.0, num(&mut i)),
                    c => panic!("unexpected command {}", c as char),
                };
                out.push(cur);
            }
            out
        }
        let mut rng = crate::rng::XorShift::new(11);
        for case in 0..2000 {
            let n = 1 + rng.below(40);
            let span = [20, 300, 5000, 40000][rng.below(4)] as i64;
            let rows = 1 + rng.below(4) as i64;
            let mut pts: Vec<(i64, i64)> = (0..n)
                .map(|_| {
                    let x = rng.below(2 * span as usize) as i64 - span / 4;
                    let y = (rng.below(rows as usize) as i64 - 1) * span / 3;
                    (x, y)
                })
                .collect();
            // Half the runs in line order, as text gives them.
            if case % 2 == 0 {
                pts.sort_by_key(|&(x, y)| (y, x));
            }
            assert_eq!(vertices(&run_data(&pts)), pts, "case {case}");
        }
    }

    #[test]
    fn a_line_is_written_in_its_first_shortest_form() {
        // For each state (path data so far, which sets the command in force and whether it
        // ends in a digit) and end point, every form of the line is written out in full:
        // `line_to` must write the first of the shortest, in the order `h H v V l L`.
        let vals = [-1000, -57, -1, 0, 3, 10, 99, 100, 4321];
        for prefix in [&[][..], &[(5, 5)], &[(5, 5), (70, 5)], &[(5, 5), (5, -80)]] {
            let mut w = PathWriter::new(false);
            w.move_to((0, 0));
            for &q in prefix {
                w.line_to(q);
            }
            // The current point's own coordinates too, for horizontal and vertical lines.
            let xs: Vec<i64> = vals.iter().copied().chain([w.cur.0]).collect();
            let ys: Vec<i64> = vals.iter().copied().chain([w.cur.1]).collect();
            for &x in &xs {
                for &y in &ys {
                    let written: Vec<String> = w
                        .line_forms((x, y))
                        .iter()
                        .map(|(c, v, n)| {
                            let mut t = PathWriter {
                                d: w.d.clone(),
                                ..PathWriter::new(false)
                            };
                            (t.cur, t.last) = (w.cur, w.last);
                            t.put(*c, &v[..*n]);
                            t.d[w.d.len()..].to_string()
                        })
                        .collect();
                    let shortest = written.iter().map(String::len).min().unwrap();
                    let first = written.iter().find(|f| f.len() == shortest).unwrap();
                    let mut a = PathWriter {
                        d: w.d.clone(),
                        ..PathWriter::new(false)
                    };
                    (a.cur, a.last) = (w.cur, w.last);
                    a.line_to((x, y));
                    assert_eq!(&a.d[w.d.len()..], first, "{prefix:?} to {x},{y}");
                }
            }
        }
    }

    #[test]
    fn relative_path_lands_on_rounded_points() {
        // Absolute points 1.004, 2.006 mm → 100, 201 units; then 3.333, 2.006 → 333, 201
        // (dx 233); 3.333, 5 → 333, 500 (dy 299); after `z`, from (100, 201) to (1000, 1000).
        let segs = vec![
            Seg::MoveTo(pt(1.004, 2.006)),
            Seg::LineTo(pt(3.333, 2.006)),
            Seg::LineTo(pt(3.333, 5.0)),
            Seg::Close,
            Seg::MoveTo(pt(10.0, 10.0)),
        ];
        assert_eq!(path_data(&segs), "m100 201h233v299zm900 799");
        // Back along the rectangle's top, `H2000` is shorter than `h-10000`.
        assert_eq!(
            path_data(&rect(20.0, 20.0, 100.0, 3.0)),
            "m2000 2000h10000v300H2000z"
        );
        // The same rectangle as an element.
        let markup = |g: Geometry| {
            let mut s = String::new();
            g.write(&mut s, &[("fill", "none")]);
            s
        };
        assert_eq!(
            markup(geometry(&rect(20.0, 20.0, 100.0, 3.0))),
            r#"<rect fill="none" height="300" width="10000" x="2000" y="2000"/>"#
        );
        assert_eq!(
            markup(geometry(&crate::doc::circle(pt(5.0, 6.0), 2.5))),
            r#"<circle cx="500" cy="600" fill="none" r="250"/>"#
        );
    }

    #[test]
    fn ids_are_short_and_unique() {
        let ids: Vec<String> = (0..5000).map(short_id).collect();
        for (n, id) in ids.iter().enumerate() {
            assert_eq!(id_len(n), id.len());
        }
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
        let far = s.find(r#"x="8000""#).unwrap();
        let text = s.find("aria-label").unwrap();
        let over = s.find(r#"x="900""#).unwrap();
        assert!(far < text && text < over, "{s}");
    }

    /// A pit-like ring: white fill (or none), black stroke 0.35 mm.
    fn ring(p: &mut Page, x: f64, r: f64, fill: Option<Color>) {
        p.shape(
            crate::doc::circle(pt(x, 50.0), r),
            fill,
            Some(crate::doc::Stroke::solid(0.35, Color::BLACK)),
        );
    }

    #[test]
    fn shapes_of_one_paint_come_together_unless_they_overlap() {
        // Pit, its inner ring, the next pit (20 mm on), its ring: the second pit meets neither
        // the first pit nor its ring, so it moves up beside the first pit; each ring still
        // follows its pit.
        let mut p = Page::new("x", 100.0, 100.0);
        ring(&mut p, 10.0, 6.5, Some(Color::WHITE));
        ring(&mut p, 10.0, 5.6, None);
        ring(&mut p, 30.0, 6.5, Some(Color::WHITE));
        ring(&mut p, 30.0, 5.6, None);
        let s = render_page(&p, "t");
        assert!(
            s.contains(concat!(
                r##"<g fill="#fff" stroke="#000" stroke-width="35">"##,
                r#"<circle cx="1000" cy="5000" r="650"/><circle cx="3000" cy="5000" r="650"/>"#,
                r##"</g><g fill="none" stroke="#000" stroke-width="35">"##,
                r#"<circle cx="1000" cy="5000" r="560"/><circle cx="3000" cy="5000" r="560"/>"#,
            )),
            "{s}"
        );
        // A ring wide enough to reach the second pit keeps it after itself.
        let mut p = Page::new("x", 100.0, 100.0);
        ring(&mut p, 10.0, 6.5, Some(Color::WHITE));
        ring(&mut p, 10.0, 15.0, None);
        ring(&mut p, 30.0, 6.5, Some(Color::WHITE));
        let s = render_page(&p, "t");
        let at = |r: &str| s.find(&format!(r#"r="{r}""#)).unwrap();
        let (first, wide) = (
            s.find(r#"cx="1000" cy="5000" r="650""#).unwrap(),
            at("1500"),
        );
        let second = s.find(r#"cx="3000" cy="5000" r="650""#).unwrap();
        assert!(first < wide && wide < second, "{s}");
    }

    /// The order the sweep-and-sets `ShapeRun::flush` draws in is the order of the plain
    /// definition, worked here the slow way (every pair compared, every free shape scanned),
    /// on random boxes, paints and unknown boxes.
    #[test]
    fn shape_run_order_is_the_plain_greedy_order() {
        fn reference(shapes: &[(usize, Option<Box4>)]) -> Vec<usize> {
            let n = shapes.len();
            let meet = |i: usize, j: usize| match (shapes[i].1, shapes[j].1) {
                (Some(a), Some(b)) => boxes_meet(a, b),
                _ => true,
            };
            let mut done = vec![false; n];
            let mut order = Vec::new();
            let mut paint = None;
            for _ in 0..n {
                let free = |i: &usize| !done[*i] && (0..*i).all(|k| done[k] || !meet(k, *i));
                let pick = (0..n)
                    .filter(free)
                    .find(|i| Some(shapes[*i].0) == paint)
                    .or_else(|| (0..n).find(free))
                    .unwrap();
                done[pick] = true;
                paint = Some(shapes[pick].0);
                order.push(pick);
            }
            order
        }
        let mut rng = crate::rng::XorShift::new(7);
        for case in 0..200 {
            let n = 1 + rng.below(40);
            let paints = 1 + rng.below(4);
            let mut shapes = Vec::new();
            let mut run = ShapeRun::default();
            for i in 0..n {
                let b = if rng.below(12) == 0 {
                    None
                } else {
                    let (x, y) = (rng.below(50) as f64, rng.below(50) as f64);
                    let (w, h) = (1.0 + rng.below(12) as f64, 1.0 + rng.below(12) as f64);
                    Some((x, y, x + w, y + h))
                };
                let p = rng.below(paints);
                shapes.push((p, b));
                let paint = Paint {
                    fill: Some(Some(Hex::new(Color::grey(p as u8)))),
                    stroke: None,
                };
                // The shape's number stands in for its path data.
                run.push(Geometry::Path(i.to_string()), paint, b);
            }
            let mut out = Vec::new();
            run.flush(&mut out);
            let got: Vec<usize> = out
                .iter()
                .flat_map(|o| match o {
                    Out::Shapes(_, elems) => elems
                        .iter()
                        .map(|e| match e {
                            Geometry::Path(d) => d.parse().unwrap(),
                            _ => unreachable!(),
                        })
                        .collect::<Vec<usize>>(),
                    _ => Vec::new(),
                })
                .collect();
            assert_eq!(got, reference(&shapes), "case {case}");
        }
    }

    #[test]
    fn a_paint_on_several_elements_becomes_a_class() {
        // Three white pits, each with a line of text over it, so that no two pits are drawn
        // together: three elements carry the same paint (41 characters each as attributes),
        // so one CSS rule and `class="a"` (10 characters) on each is shorter.
        let mut p = Page::new("x", 100.0, 100.0);
        for x in [10.0, 30.0, 50.0] {
            p.text(x - 2.0, 50.0, 10.0, Weight::Regular, "1");
            ring(&mut p, x, 6.5, Some(Color::WHITE));
        }
        let s = render_page(&p, "t");
        assert!(
            s.contains("<style>\n.a{fill:#fff;stroke:#000;stroke-width:35}\n</style>"),
            "{s}"
        );
        assert_eq!(s.matches(r#"<circle class="a" "#).count(), 3, "{s}");
        assert!(!s.contains("stroke-width=\"35\""), "{s}");
        // One pit alone keeps its attributes: a rule would cost more than it saves.
        let mut p = Page::new("x", 100.0, 100.0);
        ring(&mut p, 10.0, 6.5, Some(Color::WHITE));
        let s = render_page(&p, "t");
        assert!(
            !s.contains("<style>") && s.contains(r##"fill="#fff""##),
            "{s}"
        );
    }
}
