//! The bundled font (DejaVu Sans, regular and bold): measuring with real glyph advances,
//! line breaking, and glyph outlines. Both backends use these same advances.
//!
//! Advances are read from the font's `hmtx` table (via ttf-parser) and then quantised to whole
//! thousandths of an em, truncating, exactly as printpdf writes them into the PDF `/W` array
//! (`advance × 1000 / unitsPerEm`, fraction dropped). Measuring, the SVG outlines and the PDF
//! viewer's pen therefore agree to the bit; the quantisation error is under 1/1000 em per glyph
//! (under 0.004 mm per glyph at 10 pt). No kerning and no shaping: one character, one glyph.
//! A character the font lacks is drawn as glyph 0 (`.notdef`, a box) with that glyph's advance.
use crate::doc::{pt, Seg, Text, Weight};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::OnceLock;
use ttf_parser::{GlyphId, OutlineBuilder};

/// Millimetres per point (1 pt = 1/72 in, 1 in = 25.4 mm).
pub const MM_PER_PT: f64 = 25.4 / 72.0;

/// One parsed face with its per-glyph advances already quantised.
pub(crate) struct Face {
    /// The font bytes (a `&'static` slice from the `dejavu` crate).
    pub(crate) bytes: &'static [u8],
    /// Design units per em (2048 for DejaVu Sans).
    pub(crate) upem: u16,
    /// hhea ascender, font units (positive).
    ascender: i16,
    /// hhea descender, font units (negative).
    descender: i16,
    /// Advance of every glyph in thousandths of an em, truncated (see the module docs).
    advances_milli: Vec<u16>,
    /// Glyph ids of U+0000–U+00FF, the characters of nearly all text, looked up once
    /// (selecting the Unicode cmap per character was a seventh of a kit build's instructions).
    latin1: [u16; 256],
    /// The parsed face: its tables (`cmap`, `glyf`, `loca`) are found once, so drawing an
    /// outline or looking up a character reads only that glyph's or character's bytes.
    font: ttf_parser::Face<'static>,
    /// Whether each glyph draws nothing, found on first ask ([`draws_nothing`]): 0 not yet
    /// known, 1 inked, 2 blank. Checking every character of every printed text drew its
    /// outline each time, 3 % of `build rulesets`' CPU time (perf).
    blank: Vec<AtomicU8>,
}

impl Face {
    fn load(bytes: &'static [u8]) -> Option<Face> {
        let font = ttf_parser::Face::parse(bytes, 0).ok()?;
        let upem = font.units_per_em();
        // The hhea table's values: `Face::ascender` may take OS/2's typographic ones instead.
        let hhea = font.tables().hhea;
        let (ascender, descender) = (hhea.ascender, hhea.descender);
        let advances_milli = (0..font.number_of_glyphs())
            .map(|g| {
                milli_em(
                    u32::from(font.glyph_hor_advance(GlyphId(g)).unwrap_or(0)),
                    upem,
                )
            })
            .collect();
        let mut latin1 = [0u16; 256];
        for (i, g) in latin1.iter_mut().enumerate() {
            *g = char::from_u32(i as u32)
                .and_then(|c| font.glyph_index(c))
                .map_or(0, |g| g.0);
        }
        Some(Face {
            bytes,
            upem,
            ascender,
            descender,
            advances_milli,
            latin1,
            blank: (0..font.number_of_glyphs())
                .map(|_| AtomicU8::new(0))
                .collect(),
            font,
        })
    }

    /// Glyph id of `c`, 0 (`.notdef`) if the font lacks it.
    pub(crate) fn gid(&self, c: char) -> u16 {
        if let Some(g) = self.latin1.get(c as usize) {
            return *g;
        }
        self.font.glyph_index(c).map_or(0, |g| g.0)
    }

    /// Draws glyph `gid`'s outline into `pen` (font units, y up); nothing for a glyph
    /// without contours or an unknown id. Each contour closes without a last straight
    /// segment back to its start ([`ClosingPen`]). False when the glyph has no outline or
    /// its data is broken (then `pen` may hold part of it).
    fn draw(&self, gid: u16, pen: &mut impl OutlineBuilder) -> bool {
        let mut closing = ClosingPen {
            pen,
            start: (0.0, 0.0),
            line: None,
        };
        self.font
            .outline_glyph(GlyphId(gid), &mut closing)
            .is_some()
    }

    /// Whether glyph `gid` draws nothing (no contours, or an id the font lacks): in DejaVu
    /// Sans, besides the spaces, U+2800 (blank Braille pattern) and U+FFF9–U+FFFC
    /// (annotation marks, object replacement character). Each glyph's outline is read once
    /// per process.
    fn is_blank(&self, gid: u16) -> bool {
        let Some(known) = self.blank.get(usize::from(gid)) else {
            return true;
        };
        match known.load(Ordering::Relaxed) {
            1 => false,
            2 => true,
            _ => {
                let blank = self.font.glyph_bounding_box(GlyphId(gid)).is_none();
                known.store(if blank { 2 } else { 1 }, Ordering::Relaxed);
                blank
            }
        }
    }

    /// Advance of glyph `gid` in thousandths of an em (0 for an out-of-range id).
    pub(crate) fn advance_milli(&self, gid: u16) -> u16 {
        self.advances_milli
            .get(usize::from(gid))
            .copied()
            .unwrap_or(0)
    }
}

/// `units × 1000 / upem`, truncated: printpdf's `/W` width formula.
fn milli_em(units: u32, upem: u16) -> u16 {
    let upem = u32::from(upem.max(1));
    u16::try_from(units.saturating_mul(1000) / upem).unwrap_or(u16::MAX)
}

/// The parsed face for `weight`. The fonts are compiled in, so failing to parse them is a
/// build defect; it is still not a panic: a missing face measures as zero width.
pub(crate) fn face(weight: Weight) -> Option<&'static Face> {
    static REGULAR: OnceLock<Option<Face>> = OnceLock::new();
    static BOLD: OnceLock<Option<Face>> = OnceLock::new();
    match weight {
        Weight::Regular => REGULAR
            .get_or_init(|| Face::load(dejavu::sans::regular()))
            .as_ref(),
        Weight::Bold => BOLD
            .get_or_init(|| Face::load(dejavu::sans::bold()))
            .as_ref(),
    }
}

/// One positioned glyph of a line of text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Glyph {
    /// The character it stands for (what text extraction returns).
    pub ch: char,
    /// Glyph id in the full DejaVu face (0 = `.notdef` for a missing character).
    pub gid: u16,
    /// Advance in thousandths of an em (multiply by the size in pt / 1000 for points).
    pub advance_milli_em: u16,
}

/// The glyphs of `text` in `weight`, one per character, with their quantised advances.
pub fn glyphs(text: &str, weight: Weight) -> Vec<Glyph> {
    glyph_iter(text, weight).collect()
}

/// [`glyphs`] one by one, without collecting them (none when the face is missing).
pub fn glyph_iter(text: &str, weight: Weight) -> impl Iterator<Item = Glyph> + '_ {
    face(weight).into_iter().flat_map(move |f| {
        text.chars().map(move |ch| {
            let gid = f.gid(ch);
            Glyph {
                ch,
                gid,
                advance_milli_em: f.advance_milli(gid),
            }
        })
    })
}

/// Total advance of `text` in thousandths of an em.
fn milli_width(text: &str, weight: Weight) -> u64 {
    // The advances [`glyphs`] gives, summed without collecting them (layout measures every
    // word it sets).
    let Some(f) = face(weight) else {
        return 0;
    };
    text.chars()
        .map(|ch| u64::from(f.advance_milli(f.gid(ch))))
        .sum()
}

/// Converts thousandths of an em at `size_pt` to millimetres.
fn milli_to_mm(milli: u64, size_pt: f64) -> f64 {
    milli as f64 / 1000.0 * size_pt * MM_PER_PT
}

/// Advance width of `text` set at `size_pt` points, in millimetres (no kerning).
/// Empty text is 0 mm wide.
pub fn width_mm(text: &str, size_pt: f64, weight: Weight) -> f64 {
    milli_to_mm(milli_width(text, weight), size_pt)
}

/// The no-break space (U+00A0) the message catalogues put between a number and its unit.
pub const NBSP: char = '\u{a0}';

/// Greedy line breaking at spaces so that no line is wider than `max_mm`; a single word
/// wider than `max_mm` is broken between characters. A no-break space (U+00A0, as between a
/// number and its unit in "12\u{a0}mm") is part of the word, never a break. Returns the lines without leading or
/// trailing spaces; runs of spaces between words become one space. Empty or all-space text
/// gives no lines. A line always holds at least one character, so a `max_mm` narrower than a
/// single character (or zero, negative, NaN) puts one character on each line.
pub fn wrap(text: &str, size_pt: f64, weight: Weight, max_mm: f64) -> Vec<String> {
    let fits = |milli: u64| milli_to_mm(milli, size_pt) <= max_mm;
    let space = milli_width(" ", weight);
    let mut lines = Vec::new();
    let mut cur = String::new();
    let mut cur_w = 0u64;
    let words = text
        .split(|c: char| c.is_whitespace() && c != NBSP)
        .filter(|w| !w.is_empty());
    for word in words {
        let ww = milli_width(word, weight);
        if !cur.is_empty() {
            if fits(cur_w + space + ww) {
                cur.push(' ');
                cur.push_str(word);
                cur_w += space + ww;
                continue;
            }
            lines.push(std::mem::take(&mut cur));
            cur_w = 0;
        }
        if fits(ww) {
            cur.push_str(word);
            cur_w = ww;
            continue;
        }
        // Over-long word: break between characters.
        for g in glyphs(word, weight) {
            let gw = u64::from(g.advance_milli_em);
            if !cur.is_empty() && !fits(cur_w + gw) {
                lines.push(std::mem::take(&mut cur));
                cur_w = 0;
            }
            cur.push(g.ch);
            cur_w += gw;
        }
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

/// Size in mm of one font unit at `size_pt`, for the regular face's em.
fn unit_mm(size_pt: f64) -> f64 {
    let upem = face(Weight::Regular).map_or(2048, |f| f.upem);
    size_pt * MM_PER_PT / f64::from(upem.max(1))
}

/// Distance from baseline to the top of the tallest glyphs (the font's `hhea` ascender,
/// 1901/2048 em for DejaVu Sans), millimetres.
pub fn ascent_mm(size_pt: f64) -> f64 {
    let a = face(Weight::Regular).map_or(1901, |f| f.ascender);
    f64::from(a) * unit_mm(size_pt)
}

/// Distance from baseline to the bottom of descenders (the `hhea` descender, 483/2048 em for
/// DejaVu Sans, returned positive), millimetres.
pub fn descent_mm(size_pt: f64) -> f64 {
    let d = face(Weight::Regular).map_or(-483, |f| f.descender);
    -f64::from(d) * unit_mm(size_pt)
}

/// Recommended baseline-to-baseline distance, millimetres (1.2 × the size).
pub fn line_height_mm(size_pt: f64) -> f64 {
    size_pt * MM_PER_PT * 1.2
}

/// One segment of a glyph outline in font units (y up, origin at the glyph's origin on the
/// baseline), as stored in the font: TrueType outlines are quadratic.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GlyphSeg {
    /// Starts a contour.
    MoveTo(f32, f32),
    /// Straight line.
    LineTo(f32, f32),
    /// Quadratic Bézier: control point, end point.
    QuadTo(f32, f32, f32, f32),
    /// Cubic Bézier: two control points, end point.
    CubicTo(f32, f32, f32, f32, f32, f32),
    /// Closes the contour.
    Close,
}

/// Passes a glyph outline on to `pen`, leaving out a straight segment back to the contour's
/// start just before the contour closes: ttf-parser draws that segment, which closing the
/// contour already implies (and which skrifa, this program's earlier font reader, left out,
/// so the SVG pages' paths kept their bytes). The segment is held back until the next one
/// shows whether the contour closes after it.
struct ClosingPen<'a, P: OutlineBuilder> {
    pen: &'a mut P,
    start: (f32, f32),
    line: Option<(f32, f32)>,
}

impl<P: OutlineBuilder> ClosingPen<'_, P> {
    fn flush(&mut self) {
        if let Some((x, y)) = self.line.take() {
            self.pen.line_to(x, y);
        }
    }
}

impl<P: OutlineBuilder> OutlineBuilder for ClosingPen<'_, P> {
    fn move_to(&mut self, x: f32, y: f32) {
        self.flush();
        self.start = (x, y);
        self.pen.move_to(x, y);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.flush();
        self.line = Some((x, y));
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.flush();
        self.pen.quad_to(x1, y1, x, y);
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.flush();
        self.pen.curve_to(x1, y1, x2, y2, x, y);
    }
    fn close(&mut self) {
        if self.line != Some(self.start) {
            self.flush();
        }
        self.line = None;
        self.pen.close();
    }
}

/// Collects a glyph outline in font units, y up, as [`glyph_outline`] gives it.
pub(crate) struct UnitPen(pub(crate) Vec<GlyphSeg>);

impl OutlineBuilder for UnitPen {
    fn move_to(&mut self, x: f32, y: f32) {
        self.0.push(GlyphSeg::MoveTo(x, y));
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.0.push(GlyphSeg::LineTo(x, y));
    }
    fn quad_to(&mut self, cx0: f32, cy0: f32, x: f32, y: f32) {
        self.0.push(GlyphSeg::QuadTo(cx0, cy0, x, y));
    }
    fn curve_to(&mut self, cx0: f32, cy0: f32, cx1: f32, cy1: f32, x: f32, y: f32) {
        self.0.push(GlyphSeg::CubicTo(cx0, cy0, cx1, cy1, x, y));
    }
    fn close(&mut self) {
        self.0.push(GlyphSeg::Close);
    }
}

impl UnitPen {
    /// The outline drawn by ttf-parser straight into this pen, with no segment left out
    /// (tests compare it with [`glyph_outline`]).
    #[cfg(test)]
    pub(crate) fn raw(bytes: &[u8], gid: u16) -> Vec<GlyphSeg> {
        let mut pen = UnitPen(Vec::new());
        if let Ok(f) = ttf_parser::Face::parse(bytes, 0) {
            f.outline_glyph(GlyphId(gid), &mut pen);
        }
        pen.0
    }
}

/// The outline of glyph `gid` (a [`Glyph::gid`]) in font units, y up; empty for a glyph
/// without contours (space) or an unknown id.
pub fn glyph_outline(weight: Weight, gid: u16) -> Vec<GlyphSeg> {
    let mut pen = UnitPen(Vec::new());
    if let Some(f) = face(weight) {
        if !f.draw(gid, &mut pen) {
            pen.0.clear();
        }
    }
    pen.0
}

/// Whether glyph `gid` (a [`Glyph::gid`]) of `weight`'s face draws nothing (a space, or a
/// blank glyph such as U+2800's); true for an unknown id.
pub fn draws_nothing(weight: Weight, gid: u16) -> bool {
    face(weight).is_none_or(|f| f.is_blank(gid))
}

/// Font design units per em of `weight`'s face (2048 for DejaVu Sans).
pub fn units_per_em(weight: Weight) -> u16 {
    face(weight).map_or(2048, |f| f.upem)
}

/// Collects a glyph outline in page millimetres (font units scaled, y flipped, offset to
/// the glyph's origin). Quadratic segments are raised to cubics exactly.
struct MmPen<'a> {
    segs: &'a mut Vec<Seg>,
    scale: f64,
    ox: f64,
    oy: f64,
    last: (f64, f64),
}

impl MmPen<'_> {
    fn p(&self, x: f32, y: f32) -> (f64, f64) {
        (
            self.ox + f64::from(x) * self.scale,
            self.oy - f64::from(y) * self.scale,
        )
    }
}

impl OutlineBuilder for MmPen<'_> {
    fn move_to(&mut self, x: f32, y: f32) {
        let q = self.p(x, y);
        self.segs.push(Seg::MoveTo(pt(q.0, q.1)));
        self.last = q;
    }
    fn line_to(&mut self, x: f32, y: f32) {
        let q = self.p(x, y);
        self.segs.push(Seg::LineTo(pt(q.0, q.1)));
        self.last = q;
    }
    fn quad_to(&mut self, cx0: f32, cy0: f32, x: f32, y: f32) {
        let (p0, c, p) = (self.last, self.p(cx0, cy0), self.p(x, y));
        let c1 = pt(
            p0.0 + 2.0 / 3.0 * (c.0 - p0.0),
            p0.1 + 2.0 / 3.0 * (c.1 - p0.1),
        );
        let c2 = pt(p.0 + 2.0 / 3.0 * (c.0 - p.0), p.1 + 2.0 / 3.0 * (c.1 - p.1));
        self.segs.push(Seg::CubicTo(c1, c2, pt(p.0, p.1)));
        self.last = p;
    }
    fn curve_to(&mut self, cx0: f32, cy0: f32, cx1: f32, cy1: f32, x: f32, y: f32) {
        let (a, b, p) = (self.p(cx0, cy0), self.p(cx1, cy1), self.p(x, y));
        self.segs
            .push(Seg::CubicTo(pt(a.0, a.1), pt(b.0, b.1), pt(p.0, p.1)));
        self.last = p;
    }
    fn close(&mut self) {
        self.segs.push(Seg::Close);
    }
}

/// The glyph outlines of a positioned line of text, in page millimetres (y down), ready to be
/// filled with the non-zero rule. Glyphs are placed at the same quantised advances the PDF
/// uses. Spaces and glyphs without contours contribute nothing.
pub fn outline(t: &Text) -> Vec<Seg> {
    let mut segs = Vec::new();
    let Some(f) = face(t.weight) else {
        return segs;
    };
    if !(t.size_pt.is_finite() && t.x.is_finite() && t.y.is_finite()) {
        return segs;
    }
    let scale = t.size_pt * MM_PER_PT / f64::from(f.upem.max(1));
    let mut pen_milli = 0u64;
    for g in glyph_iter(&t.text, t.weight) {
        let ox = t.x + milli_to_mm(pen_milli, t.size_pt);
        let before = segs.len();
        let mut pen = MmPen {
            segs: &mut segs,
            scale,
            ox,
            oy: t.y,
            last: (ox, t.y),
        };
        // A glyph that fails to draw is skipped; its advance still counts.
        if !f.draw(g.gid, &mut pen) {
            segs.truncate(before);
        }
        pen_milli += u64::from(g.advance_milli_em);
    }
    segs
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether glyph `gid` has no contours by the raw tables: an empty `glyf` entry (its two
    /// `loca` offsets equal) or a header with 0 contours, independent of ttf-parser's outlines.
    fn raw_blank(bytes: &[u8], gid: u16) -> bool {
        let raw = ttf_parser::RawFace::parse(bytes, 0).unwrap();
        let table = |tag: &[u8; 4]| raw.table(ttf_parser::Tag::from_bytes(tag)).unwrap();
        let be16 = |t: &[u8], at: usize| u16::from_be_bytes([t[at], t[at + 1]]);
        let be32 =
            |t: &[u8], at: usize| u32::from_be_bytes([t[at], t[at + 1], t[at + 2], t[at + 3]]);
        let (loca, g) = (table(b"loca"), usize::from(gid));
        // head.indexToLocFormat at byte 50: 0 = u16 offsets (halved), 1 = u32.
        let (from, to) = if be16(table(b"head"), 50) == 0 {
            (
                2 * be16(loca, 2 * g) as usize,
                2 * be16(loca, 2 * g + 2) as usize,
            )
        } else {
            (be32(loca, 4 * g) as usize, be32(loca, 4 * g + 4) as usize)
        };
        from == to || be16(&table(b"glyf")[from..], 0) == 0
    }

    /// `draws_nothing` agrees with the raw tables for spaces, letters, the kits' marks and the
    /// blank U+2800 and U+FFFC in both weights, asked twice over in two orders (the first answer
    /// is kept for the process), and holds an id past the font's glyphs blank.
    #[test]
    fn draws_nothing_matches_the_raw_tables_and_keeps_its_answer() {
        let chars = [
            ' ', 'A', 'g', '\u{e9}', '\u{2702}', '\u{2298}', '\u{2800}', '\u{fffc}', '\u{a0}',
        ];
        for (w, bytes) in [
            (Weight::Regular, dejavu::sans::regular()),
            (Weight::Bold, dejavu::sans::bold()),
        ] {
            let f = face(w).unwrap();
            let mut blanks = 0;
            for pass in 0..2 {
                let order: Vec<char> = if pass == 0 {
                    chars.to_vec()
                } else {
                    chars.iter().rev().copied().collect()
                };
                for c in order {
                    let gid = f.gid(c);
                    assert_ne!(gid, 0, "{c:?} is in DejaVu Sans");
                    let want = raw_blank(bytes, gid);
                    assert_eq!(draws_nothing(w, gid), want, "{c:?} {w:?} pass {pass}");
                    blanks += usize::from(want);
                }
            }
            // Space, no-break space, U+2800 and U+FFFC: four of the nine, each pass.
            assert_eq!(blanks, 8, "{w:?}");
            assert!(draws_nothing(w, u16::MAX));
        }
    }

    /// Advance of `c` in font units straight from `hmtx` (longHorMetric array, or the last
    /// entry for glyphs past `numberOfHMetrics`), read from the tables' bytes, independent of
    /// ttf-parser's metrics.
    fn hmtx_advance(bytes: &[u8], c: char) -> (u16, u16) {
        let raw = ttf_parser::RawFace::parse(bytes, 0).unwrap();
        let table = |tag: &[u8; 4]| raw.table(ttf_parser::Tag::from_bytes(tag)).unwrap();
        let be16 = |t: &[u8], at: usize| u16::from_be_bytes([t[at], t[at + 1]]);
        let gid = usize::from(
            ttf_parser::Face::parse(bytes, 0)
                .unwrap()
                .glyph_index(c)
                .unwrap()
                .0,
        );
        // hhea.numberOfHMetrics at byte 34; hmtx: (advanceWidth u16, lsb i16) pairs.
        let metrics = usize::from(be16(table(b"hhea"), 34));
        let adv = be16(table(b"hmtx"), 4 * gid.min(metrics - 1));
        // head.unitsPerEm at byte 18.
        (adv, be16(table(b"head"), 18))
    }

    #[test]
    fn width_of_m_matches_hmtx_and_printpdf() {
        let (adv, upem) = hmtx_advance(dejavu::sans::regular(), 'M');
        // Independent parser: printpdf's lean ParsedFont.
        let pf =
            printpdf::ParsedFont::from_bytes(dejavu::sans::regular(), 0, &mut Vec::new()).unwrap();
        let pgid = pf.lookup_glyph_index('M' as u32).unwrap();
        assert_eq!(pf.get_glyph_width(pgid), Some(adv));
        assert_eq!(pf.units_per_em, upem);
        let exact = f64::from(adv) / f64::from(upem) * 10.0 * 25.4 / 72.0;
        let quantised =
            f64::from((u32::from(adv) * 1000 / u32::from(upem)) as u16) / 1000.0 * 10.0 * 25.4
                / 72.0;
        let w = width_mm("M", 10.0, Weight::Regular);
        assert!((w - quantised).abs() < 1e-12, "{w} vs {quantised}");
        // Quantisation costs less than 1/1000 em.
        assert!((w - exact).abs() < 10.0 * MM_PER_PT / 1000.0);
        assert!(w > 0.0);
    }

    #[test]
    fn bold_is_measured_with_the_bold_face() {
        let (adv, upem) = hmtx_advance(dejavu::sans::bold(), 'W');
        let want = f64::from(u32::from(adv) * 1000 / u32::from(upem)) / 1000.0 * 12.0 * MM_PER_PT;
        assert!((width_mm("W", 12.0, Weight::Bold) - want).abs() < 1e-12);
    }

    #[test]
    fn width_is_additive_and_empty_is_zero() {
        assert_eq!(width_mm("", 10.0, Weight::Regular), 0.0);
        let a = width_mm("señal", 9.0, Weight::Regular);
        let b = width_mm(" ɛ ɔ → ✂", 9.0, Weight::Regular);
        let ab = width_mm("señal ɛ ɔ → ✂", 9.0, Weight::Regular);
        assert!((a + b - ab).abs() < 1e-9);
        // Every test character is in DejaVu Sans (none falls back to .notdef).
        assert!(glyphs("señal ɛ ɔ → ✂", Weight::Regular)
            .iter()
            .all(|g| g.gid != 0));
    }

    #[test]
    fn wrap_respects_max_width_and_keeps_words() {
        let text = "Sow the seeds one by one counter-clockwise into the following pits";
        for max in [20.0, 35.0, 60.0, 500.0] {
            let lines = wrap(text, 10.0, Weight::Regular, max);
            assert!(!lines.is_empty());
            for l in &lines {
                assert!(
                    width_mm(l, 10.0, Weight::Regular) <= max,
                    "{l:?} wider than {max}"
                );
                assert_eq!(l.trim(), l);
            }
            // Nothing lost or reordered (over-long words may be split, so compare without spaces).
            let joined: String = lines.concat().chars().filter(|c| *c != ' ').collect();
            let want: String = text.chars().filter(|c| *c != ' ').collect();
            assert_eq!(joined, want);
        }
        // At 60 mm no word needs splitting, so the words come back intact.
        assert_eq!(wrap(text, 10.0, Weight::Regular, 60.0).join(" "), text);
        // Fits on one line when wide enough.
        assert_eq!(
            wrap(text, 10.0, Weight::Regular, 500.0),
            vec![text.to_string()]
        );
    }

    #[test]
    fn wrap_is_greedy() {
        // "aa aa aa": width of "aa aa" fits a box exactly that wide; the third word goes on.
        let w2 = width_mm("aa aa", 10.0, Weight::Regular);
        assert_eq!(
            wrap("aa aa aa", 10.0, Weight::Regular, w2),
            vec!["aa aa", "aa"]
        );
    }

    #[test]
    fn wrap_breaks_long_words_between_characters() {
        let w = width_mm("mmm", 10.0, Weight::Regular);
        let lines = wrap("mmmmmmmm", 10.0, Weight::Regular, w);
        assert_eq!(lines, vec!["mmm", "mmm", "mm"]);
    }

    #[test]
    fn wrap_degenerate_inputs() {
        assert!(wrap("", 10.0, Weight::Regular, 50.0).is_empty());
        assert!(wrap("   ", 10.0, Weight::Regular, 50.0).is_empty());
        assert_eq!(wrap("ab", 10.0, Weight::Regular, 0.0), vec!["a", "b"]);
        assert_eq!(wrap("ab", 10.0, Weight::Regular, f64::NAN), vec!["a", "b"]);
        assert_eq!(wrap("  a   b ", 10.0, Weight::Regular, 100.0), vec!["a b"]);
    }

    #[test]
    fn vertical_metrics_from_hhea() {
        // DejaVu Sans hhea: ascender 1901, descender -483, unitsPerEm 2048.
        let em = 10.0 * MM_PER_PT;
        assert!((ascent_mm(10.0) - em * 1901.0 / 2048.0).abs() < 1e-12);
        assert!((descent_mm(10.0) - em * 483.0 / 2048.0).abs() < 1e-12);
        assert!((line_height_mm(10.0) - em * 1.2).abs() < 1e-12);
    }

    #[test]
    fn outline_sits_on_the_baseline_within_the_advance() {
        let t = Text {
            x: 10.0,
            y: 50.0,
            size_pt: 20.0,
            weight: Weight::Regular,
            color: crate::doc::Color::BLACK,
            text: "H".into(),
        };
        let segs = outline(&t);
        let (x0, y0, x1, y1) = crate::doc::bounds(&segs).unwrap();
        // 'H' stands on the baseline and is narrower than its advance.
        assert!((y1 - 50.0).abs() < 1e-9, "bottom {y1}");
        assert!(y0 < 50.0 - 5.0);
        assert!(x0 > 10.0 && x1 < 10.0 + width_mm("H", 20.0, Weight::Regular));
        let space = Text {
            text: " ".into(),
            ..t
        };
        assert!(outline(&space).is_empty());
    }

    /// A contour's straight segment back to its start, just before it closes, is left out;
    /// any other segment, and a curve ending at the start, is passed on (worked by hand).
    #[test]
    fn closing_pen_leaves_out_only_the_last_line_back_to_the_start() {
        use GlyphSeg::*;
        let draw = |f: &dyn Fn(&mut ClosingPen<UnitPen>)| {
            let mut out = UnitPen(Vec::new());
            let mut pen = ClosingPen {
                pen: &mut out,
                start: (0.0, 0.0),
                line: None,
            };
            f(&mut pen);
            out.0
        };
        // A square drawn with its closing side: three sides and the close.
        let square = draw(&|p| {
            p.move_to(0.0, 0.0);
            p.line_to(10.0, 0.0);
            p.line_to(10.0, 10.0);
            p.line_to(0.0, 10.0);
            p.line_to(0.0, 0.0);
            p.close();
            p.move_to(20.0, 20.0);
            p.line_to(30.0, 20.0);
            p.line_to(30.0, 30.0);
            p.close();
        });
        assert_eq!(
            square,
            vec![
                MoveTo(0.0, 0.0),
                LineTo(10.0, 0.0),
                LineTo(10.0, 10.0),
                LineTo(0.0, 10.0),
                Close,
                MoveTo(20.0, 20.0),
                LineTo(30.0, 20.0),
                LineTo(30.0, 30.0),
                Close,
            ]
        );
        // A curve back to the start stays; a line to the start in mid-contour stays; of two
        // lines to the start at the end (a repeated point), one stays.
        let mixed = draw(&|p| {
            p.move_to(5.0, 5.0);
            p.line_to(5.0, 5.0);
            p.quad_to(9.0, 9.0, 5.0, 5.0);
            p.close();
            p.move_to(1.0, 1.0);
            p.line_to(2.0, 1.0);
            p.line_to(1.0, 1.0);
            p.line_to(1.0, 1.0);
            p.close();
        });
        assert_eq!(
            mixed,
            vec![
                MoveTo(5.0, 5.0),
                LineTo(5.0, 5.0),
                QuadTo(9.0, 9.0, 5.0, 5.0),
                Close,
                MoveTo(1.0, 1.0),
                LineTo(2.0, 1.0),
                LineTo(1.0, 1.0),
                Close,
            ]
        );
    }

    /// DejaVu Sans's H is one contour of 12 on-curve points (2 stems and a bar): drawn as a
    /// move, 11 lines and a close, its corners at the stems' edges 201, 403, 1137 and 1339
    /// font units and the bar from 711 to 881, 1493 high.
    #[test]
    fn h_is_one_contour_of_twelve_corners() {
        use GlyphSeg::*;
        let g = face(Weight::Regular).unwrap().gid('H');
        let segs = glyph_outline(Weight::Regular, g);
        assert_eq!(segs.len(), 13);
        assert_eq!(segs[0], MoveTo(201.0, 1493.0));
        assert_eq!(segs[12], Close);
        let mut xs: Vec<f32> = Vec::new();
        let mut ys: Vec<f32> = Vec::new();
        for s in &segs[..12] {
            let (MoveTo(x, y) | LineTo(x, y)) = *s else {
                panic!("{s:?} is not a corner");
            };
            xs.push(x);
            ys.push(y);
        }
        for v in [&mut xs, &mut ys] {
            v.sort_by(f32::total_cmp);
            v.dedup();
        }
        assert_eq!(xs, [201.0, 403.0, 1137.0, 1339.0]);
        assert_eq!(ys, [0.0, 711.0, 881.0, 1493.0]);
        // ttf-parser itself draws the side back to the first corner too.
        let raw = UnitPen::raw(dejavu::sans::regular(), g);
        assert_eq!(raw.len(), 14);
        assert_eq!(raw[12], LineTo(201.0, 1493.0));
    }
}
