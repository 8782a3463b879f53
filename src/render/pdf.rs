//! PDF backend (printpdf 0.12, default features off): exact page sizes, embedded subset font,
//! deterministic bytes.
//!
//! * Units: the page model's millimetres become points once (× 72 / 25.4) and y is flipped
//!   (PDF's origin is the bottom-left corner). A4 is 595.276 × 841.890 pt.
//! * Paths are written as raw PDF path operators (`m l c h`, painted with `f` non-zero fill,
//!   `S` stroke or `B` both), so every page-model segment maps to exactly one operator.
//!   Lengths are written to 0.01 pt; colours, line width, dash and font are written only when
//!   they change, so a page of many pit circles does not repeat its settings.
//! * An outline the document draws more than once up to a translation (a pit circle, a seed
//!   counter, the calibration bar) is one form XObject (`/P0`, `/P1`, …) drawn at each place with
//!   `q 1 0 0 1 x y cm /Pn Do Q`; colours and line width are set outside it and inherited.
//! * Text uses DejaVu Sans (regular `SOWKAA+DejaVuSans`, bold `SOWKAB+DejaVuSans-Bold`),
//!   subset by us with allsorts to the glyphs the document uses, embedded as a CID TrueType
//!   font (`/FontFile2`) with a `/ToUnicode` map so the text can be searched and extracted.
//!   The embedded program keeps only the tables a reader draws with (no `name`, no hinting:
//!   see [`without_hinting`]), which halves the fonts' share of the file.
//!   Glyphs are shown by id; the viewer advances them by the `/W` widths, which are the same
//!   quantised advances [`crate::text`] measures with and the SVG backend places outlines at.
//! * Determinism: stable font names, no dates in the Info dictionary, and the trailer `/ID`
//!   replaced by a hash of the file's own bytes (printpdf draws it from a process-global
//!   counter), so the same document gives the same bytes in any process, any number of times.
//! * `/ViewerPreferences << /PrintScaling /None >>` asks viewers to print at 100 %.
use super::{clean_segs, clean_side, clean_stroke, finite};
use crate::doc::{Color, Document, Item, Page, Seg, Shape, Text, Weight};
use crate::text::{self, Face};
use allsorts::binary::read::ReadScope;
use allsorts::error::ParseError;
use allsorts::font_data::FontData;
use allsorts::subset::{subset, CmapTarget, SubsetProfile};
use allsorts::tables::FontTableProvider;
use printpdf::{
    Codepoint, DictItem, ExternalStream, ExternalXObject, FontId, Mm, Op, ParsedFont, PdfDocument,
    PdfFont, PdfFontHandle, PdfPage, PdfSaveOptions, Point, Pt, Rect, TextItem, XObject, XObjectId,
    XObjectTransform,
};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

/// Points per millimetre.
const PT_PER_MM: f64 = 72.0 / 25.4;

/// Resource and `/BaseFont` name of each weight; the `XXXXXX+` tag marks a subset font.
fn font_name(weight: Weight) -> &'static str {
    match weight {
        Weight::Regular => "SOWKAA+DejaVuSans",
        Weight::Bold => "SOWKAB+DejaVuSans-Bold",
    }
}

/// The same name for the full (not subset) font, used only if subsetting fails.
fn full_font_name(weight: Weight) -> &'static str {
    match weight {
        Weight::Regular => "DejaVuSans",
        Weight::Bold => "DejaVuSans-Bold",
    }
}

/// One embedded face: its resource id and the map from full-font glyph id to embedded id.
struct Embedded {
    id: FontId,
    gid_map: BTreeMap<u16, u16>,
}

/// The tables an embedded TrueType font keeps: what a PDF reader needs to draw and measure its
/// glyphs (`head hhea hmtx maxp loca glyf`, ISO 32000-1 §9.9), plus `cmap` and `post`, which
/// some tools read. Left out: `name` (about 15 KB in DejaVu; PDF names the font in
/// `/BaseFont`) and the hinting programs `cvt fpgm prep` — see [`without_hinting`].
fn pdf_profile() -> SubsetProfile {
    use allsorts::tag;
    SubsetProfile::Custom(vec![
        tag::CMAP,
        tag::HEAD,
        tag::HHEA,
        tag::HMTX,
        tag::MAXP,
        tag::POST,
    ])
}

/// Table provider over a parsed font with its `glyf`/`loca` replaced.
struct Restripped<'a, P> {
    inner: &'a P,
    glyf: Vec<u8>,
    loca: Vec<u8>,
}

impl<P: FontTableProvider> FontTableProvider for Restripped<'_, P> {
    fn table_data(&self, tag: u32) -> Result<Option<Cow<'_, [u8]>>, ParseError> {
        match tag {
            allsorts::tag::GLYF => Ok(Some(Cow::Borrowed(&self.glyf))),
            allsorts::tag::LOCA => Ok(Some(Cow::Borrowed(&self.loca))),
            _ => self.inner.table_data(tag),
        }
    }
    fn has_table(&self, tag: u32) -> bool {
        self.inner.has_table(tag)
    }
    fn table_tags(&self) -> Option<Vec<u32>> {
        self.inner.table_tags()
    }
}

/// One glyph's `glyf` record without its TrueType instructions (OpenType `glyf` spec): a simple
/// glyph's `instructionLength` becomes 0 and its instructions go; a composite glyph loses the
/// `WE_HAVE_INSTRUCTIONS` flag (0x100) and the instructions after its last component. The
/// outline bytes are kept as they are. `None` if the record is malformed.
fn strip_glyph(g: &[u8]) -> Option<Vec<u8>> {
    let be = |i: usize| -> Option<usize> {
        Some(usize::from(u16::from_be_bytes([
            *g.get(i)?,
            *g.get(i + 1)?,
        ])))
    };
    if g.is_empty() {
        return Some(Vec::new());
    }
    let contours = i16::from_be_bytes([*g.first()?, *g.get(1)?]);
    if contours >= 0 {
        // numberOfContours, bbox (8), endPtsOfContours[n], instructionLength, instructions...
        let at = 10 + 2 * contours as usize;
        let len = be(at)?;
        let rest = g.get(at + 2 + len..)?;
        let mut out = Vec::with_capacity(at + 2 + rest.len());
        out.extend_from_slice(g.get(..at)?);
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(rest);
        return Some(out);
    }
    // Composite: flags, glyphIndex, two arguments (bytes or words), an optional transform.
    let mut out = g.to_vec();
    let mut at = 10;
    loop {
        let flags = be(at)?;
        let mut next = at + 4 + if flags & 0x0001 != 0 { 4 } else { 2 };
        next += if flags & 0x0008 != 0 {
            2
        } else if flags & 0x0040 != 0 {
            4
        } else if flags & 0x0080 != 0 {
            8
        } else {
            0
        };
        if next > g.len() {
            return None;
        }
        let cleared = (flags & !0x0100) as u16;
        out[at..at + 2].copy_from_slice(&cleared.to_be_bytes());
        if flags & 0x0020 == 0 {
            out.truncate(next);
            return Some(out);
        }
        at = next;
    }
}

/// `font` (a TrueType subset) without hinting: every glyph's instructions are dropped (and the
/// subset already has no `cvt`/`fpgm`/`prep`, see [`pdf_profile`]), so the embedded outlines are
/// the plain ones the SVG pages draw. Hinting only grid-fits glyphs on low-resolution screens;
/// PDF viewers and printers mostly ignore it, and poppler does not use it. `None` if the font
/// cannot be read back.
fn without_hinting(font: &[u8]) -> Option<Vec<u8>> {
    use allsorts::tables::loca::{LocaOffsets, LocaTable};
    use allsorts::tables::{HeadTable, IndexToLocFormat, MaxpTable};
    let fd = ReadScope::new(font).read::<FontData<'_>>().ok()?;
    let provider = fd.table_provider(0).ok()?;
    let head = ReadScope::new(&provider.read_table_data(allsorts::tag::HEAD).ok()?)
        .read::<HeadTable>()
        .ok()?;
    let maxp = ReadScope::new(&provider.read_table_data(allsorts::tag::MAXP).ok()?)
        .read::<MaxpTable>()
        .ok()?;
    let loca_data = provider.read_table_data(allsorts::tag::LOCA).ok()?;
    let loca = ReadScope::new(&loca_data)
        .read_dep::<LocaTable<'_>>((maxp.num_glyphs, head.index_to_loc_format))
        .ok()?;
    let glyf_data = provider.read_table_data(allsorts::tag::GLYF).ok()?;
    let offsets: Vec<usize> = match &loca.offsets {
        LocaOffsets::Short(a) => a.iter().map(|o| usize::from(o) * 2).collect(),
        LocaOffsets::Long(a) => a.iter().map(|o| o as usize).collect(),
    };
    let mut glyf = Vec::with_capacity(glyf_data.len());
    let mut new_offsets = vec![0u32];
    for w in offsets.windows(2) {
        glyf.extend(strip_glyph(glyf_data.get(w[0]..w[1])?)?);
        if glyf.len() % 2 == 1 {
            glyf.push(0);
        }
        new_offsets.push(u32::try_from(glyf.len()).ok()?);
    }
    // The same offset format as `head` says (whole_font keeps that `head`).
    let mut loca = Vec::with_capacity(new_offsets.len() * 4);
    for o in &new_offsets {
        match head.index_to_loc_format {
            IndexToLocFormat::Short => loca.extend(u16::try_from(o / 2).ok()?.to_be_bytes()),
            IndexToLocFormat::Long => loca.extend(o.to_be_bytes()),
        }
    }
    let wrapped = Restripped {
        inner: &provider,
        glyf,
        loca,
    };
    let tags = [
        allsorts::tag::CMAP,
        allsorts::tag::HHEA,
        allsorts::tag::HMTX,
        allsorts::tag::POST,
        allsorts::tag::GLYF,
    ];
    allsorts::subset::whole_font(&wrapped, &tags).ok()
}

/// Subsets `face` to `gids` (sorted, unique, starting with 0) with allsorts. The subset keeps
/// a Unicode `cmap`; glyph `gids[i]` becomes glyph `i`. Returns `None` if allsorts fails or the
/// result does not check out (each kept character must map to its expected new id with an
/// unchanged advance), in which case the caller embeds the full font instead.
fn subset_face(face: &Face, gids: &[u16]) -> Option<Vec<u8>> {
    let scope = ReadScope::new(face.bytes);
    let fd = scope.read::<FontData<'_>>().ok()?;
    let provider = fd.table_provider(0).ok()?;
    let bytes = subset(&provider, gids, &pdf_profile(), CmapTarget::Unicode).ok()?;
    let bytes = without_hinting(&bytes)?;
    let parsed = ParsedFont::from_bytes(&bytes, 0, &mut Vec::new())?;
    let index: BTreeMap<u16, u16> = gids
        .iter()
        .enumerate()
        .map(|(i, g)| (*g, u16::try_from(i).unwrap_or(0)))
        .collect();
    for (old, new) in &index {
        let ok = parsed
            .get_glyph_width(*new)
            .map(|w| u32::from(w) * 1000 / u32::from(parsed.units_per_em.max(1)))
            == Some(u32::from(face.advance_milli(*old)));
        if !ok {
            return None;
        }
    }
    Some(bytes)
}

/// Registers the font for `weight` in `pdf`, subset to the characters in `chars`.
fn embed(pdf: &mut PdfDocument, weight: Weight, chars: &BTreeSet<char>) -> Option<Embedded> {
    let face = text::face(weight)?;
    let mut gids: BTreeSet<u16> = chars.iter().map(|c| face.gid(*c)).collect();
    gids.insert(0);
    let gids: Vec<u16> = gids.into_iter().collect();
    let (bytes, name, gid_map) = match subset_face(face, &gids) {
        Some(b) => {
            let map = gids
                .iter()
                .enumerate()
                .map(|(i, g)| (*g, i as u16))
                .collect();
            (b, font_name(weight), map)
        }
        None => (
            face.bytes.to_vec(),
            full_font_name(weight),
            gids.iter().map(|g| (*g, *g)).collect(),
        ),
    };
    let parsed = ParsedFont::from_bytes(&bytes, 0, &mut Vec::new())?;
    let id = FontId(name.to_string());
    pdf.resources
        .fonts
        .map
        .insert(id.clone(), PdfFont::new(parsed));
    Some(Embedded { id, gid_map })
}

/// Raw content-stream operator.
fn raw(key: &str, args: Vec<DictItem>) -> Op {
    Op::Unknown {
        key: key.to_string(),
        value: args,
    }
}

/// A length for the content stream, in points rounded to 0.01 pt (0.0035 mm, a fiftieth of
/// the finest printed line; f32, as PDF reals are; non-finite becomes 0). Fewer digits make
/// the content streams smaller.
fn real(v: f64) -> DictItem {
    DictItem::Real(((finite(v) * 100.0).round() / 100.0) as f32)
}

/// A colour component (0–1) to 0.001, so every 8-bit channel value survives the round trip.
fn unit(v: f64) -> DictItem {
    DictItem::Real(((finite(v) * 1000.0).round() / 1000.0) as f32)
}

fn rgb_args(c: Color) -> Vec<DictItem> {
    [c.r, c.g, c.b]
        .iter()
        .map(|v| unit(f64::from(*v) / 255.0))
        .collect()
}

/// Converts page millimetres to PDF points (y flipped against the page height `h` mm).
struct Flip {
    h: f64,
}

impl Flip {
    fn pt(&self, p: &crate::doc::Pt) -> [DictItem; 2] {
        [real(p.x * PT_PER_MM), real((self.h - p.y) * PT_PER_MM)]
    }
}

/// What the content stream has already set, so a setting is written only when it changes.
/// `None` means unknown (nothing written yet on this page, or lost by a `Q`).
#[derive(Clone, Default)]
struct GState {
    fill: Option<Color>,
    stroke: Option<Color>,
    /// Line width, pt (as written, 0.01 pt).
    width: Option<i64>,
    /// Dash pattern, 0.01 pt units; empty = solid.
    dash: Option<Vec<i64>>,
    /// Font and size (bits of the f32 size in pt).
    font: Option<(Weight, u32)>,
}

impl GState {
    fn fill(&mut self, c: Color, ops: &mut Vec<Op>) {
        if self.fill != Some(c) {
            ops.push(raw("rg", rgb_args(c)));
            self.fill = Some(c);
        }
    }
}

/// Hundredths of a point, as [`real`] writes them.
fn centi(v: f64) -> i64 {
    (finite(v) * 100.0).round() as i64
}

fn shape_ops(s: &Shape, f: &Flip, forms: &Forms, st: &mut GState, ops: &mut Vec<Op>) {
    let segs = clean_segs(&s.segs);
    let stroke = s
        .stroke
        .as_ref()
        .and_then(|st| clean_stroke(st).map(|c| (st.color, c)));
    let paint = match (s.fill.is_some(), stroke.is_some()) {
        (true, true) => "B",
        (true, false) => "f",
        (false, true) => "S",
        (false, false) => return,
    };
    if segs.is_empty() {
        return;
    }
    if let Some(c) = s.fill {
        st.fill(c, ops);
    }
    if let Some((c, (width, dash))) = stroke {
        if st.stroke != Some(c) {
            ops.push(raw("RG", rgb_args(c)));
            st.stroke = Some(c);
        }
        let w = centi(width * PT_PER_MM);
        if st.width != Some(w) {
            ops.push(raw("w", vec![real(width * PT_PER_MM)]));
            st.width = Some(w);
        }
        let d: Vec<i64> = dash.iter().map(|d| centi(d * PT_PER_MM)).collect();
        if st.dash.as_ref() != Some(&d) {
            let pattern = dash.iter().map(|d| real(d * PT_PER_MM)).collect();
            ops.push(raw("d", vec![DictItem::Array(pattern), DictItem::Int(0)]));
            st.dash = Some(d);
        }
    }
    if let Some((key, [ox, oy])) = form_key(s) {
        if let Some(form) = forms.ids.get(&key) {
            // The form's origin is the shape's first point, in page points (y flipped).
            let [x, y] = [centi(ox * PT_PER_MM), centi((f.h - oy) * PT_PER_MM)];
            ops.push(Op::UseXobject {
                id: form.clone(),
                transform: XObjectTransform {
                    translate_x: Some(Pt(x as f32 / 100.0)),
                    translate_y: Some(Pt(y as f32 / 100.0)),
                    no_auto_scale: true,
                    ..XObjectTransform::default()
                },
            });
            return;
        }
    }
    for seg in segs {
        ops.push(match seg {
            Seg::MoveTo(p) => raw("m", f.pt(p).into()),
            Seg::LineTo(p) => raw("l", f.pt(p).into()),
            Seg::CubicTo(a, b, p) => {
                let mut v: Vec<DictItem> = f.pt(a).into();
                v.extend(f.pt(b));
                v.extend(f.pt(p));
                raw("c", v)
            }
            Seg::Close => raw("h", vec![]),
        });
    }
    ops.push(raw(paint, vec![]));
}

fn text_ops(
    t: &Text,
    f: &Flip,
    fonts: &BTreeMap<Weight, Embedded>,
    st: &mut GState,
    ops: &mut Vec<Op>,
) {
    let Some(font) = fonts.get(&t.weight) else {
        return;
    };
    if t.text.is_empty() || !(t.size_pt.is_finite() && t.size_pt > 0.0) {
        return;
    }
    let glyphs: Vec<Codepoint> = text::glyphs(&t.text, t.weight)
        .iter()
        .map(|g| {
            let gid = font.gid_map.get(&g.gid).copied().unwrap_or(0);
            Codepoint::with_cid(gid, 0.0, g.ch.to_string())
        })
        .collect();
    st.fill(t.color, ops);
    ops.push(Op::StartTextSection);
    // The font and size are text state, kept across text objects.
    let key = (t.weight, (t.size_pt as f32).to_bits());
    if st.font != Some(key) {
        ops.push(Op::SetFont {
            font: PdfFontHandle::External(font.id.clone()),
            size: Pt(t.size_pt as f32),
        });
        st.font = Some(key);
    }
    let pos = Point {
        x: Pt(((finite(t.x * PT_PER_MM) * 100.0).round() / 100.0) as f32),
        y: Pt(((finite((f.h - t.y) * PT_PER_MM) * 100.0).round() / 100.0) as f32),
    };
    ops.push(Op::SetTextCursor { pos });
    ops.push(Op::ShowText {
        items: vec![TextItem::GlyphIds(glyphs)],
    });
    ops.push(Op::EndTextSection);
}

fn page_ops(page: &Page, h: f64, fonts: &BTreeMap<Weight, Embedded>, forms: &Forms) -> Vec<Op> {
    let f = Flip { h };
    let mut ops = Vec::new();
    items_ops(
        &page.items,
        &f,
        fonts,
        forms,
        &mut GState::default(),
        &mut ops,
    );
    ops
}

/// Operators for `items`; a clip is `q x y w h re W n … Q` (its rectangle in points, y
/// flipped). Colours, line width, dash and font are written only when they change (`st`).
fn items_ops(
    items: &[Item],
    f: &Flip,
    fonts: &BTreeMap<Weight, Embedded>,
    forms: &Forms,
    st: &mut GState,
    ops: &mut Vec<Op>,
) {
    for item in items {
        match item {
            Item::Shape(s) => shape_ops(s, f, forms, st, ops),
            Item::Text(t) => text_ops(t, f, fonts, st, ops),
            Item::Clip(c) => {
                ops.push(Op::SaveGraphicsState);
                let (w, hh) = (finite(c.w).max(0.0), finite(c.h).max(0.0));
                ops.push(raw(
                    "re",
                    vec![
                        real(finite(c.x) * PT_PER_MM),
                        real((f.h - finite(c.y) - hh) * PT_PER_MM),
                        real(w * PT_PER_MM),
                        real(hh * PT_PER_MM),
                    ],
                ));
                ops.push(raw("W", vec![]));
                ops.push(raw("n", vec![]));
                // `Q` restores what was set before the `q`.
                let saved = st.clone();
                items_ops(&c.items, f, fonts, forms, st, ops);
                ops.push(Op::RestoreGraphicsState);
                *st = saved;
            }
        }
    }
}

/// A shape's outline and paint as the content of a form XObject: the path relative to its first
/// point, in hundredths of a point (y up, as PDF draws), each segment as its operator byte
/// followed by its coordinates, then the painting operator (`f`, `S` or `B`). Two shapes with
/// equal keys draw the same marks up to a translation (the colours, line width and dash are
/// graphics state, set outside the form and inherited by it).
type FormKey = Vec<i64>;

/// [`FormKey`] of `s` and its first point (page millimetres, y down), or `None`
/// when `s` is too small to be worth a form (fewer than four segments: a form use,
/// `q 1 0 0 1 x y cm /Pn Do Q`, is longer than a line) or paints nothing. The form's paint
/// operator is the one [`shape_ops`] would write.
fn form_key(s: &Shape) -> Option<(FormKey, [f64; 2])> {
    let segs = clean_segs(&s.segs);
    if segs.len() < 4 {
        return None;
    }
    let stroke = s.stroke.as_ref().and_then(clean_stroke).is_some();
    let paint = match (s.fill.is_some(), stroke) {
        (true, true) => b'B',
        (true, false) => b'f',
        (false, true) => b'S',
        (false, false) => return None,
    };
    let Seg::MoveTo(o) = segs.first()? else {
        return None;
    };
    let (ox, oy) = (finite(o.x), finite(o.y));
    let mut key = Vec::with_capacity(segs.len() * 7 + 1);
    let pt = |key: &mut Vec<i64>, p: &crate::doc::Pt| {
        key.push(centi((finite(p.x) - ox) * PT_PER_MM));
        key.push(centi((oy - finite(p.y)) * PT_PER_MM));
    };
    for seg in segs {
        match seg {
            Seg::MoveTo(p) => {
                key.push(i64::from(b'm'));
                pt(&mut key, p);
            }
            Seg::LineTo(p) => {
                key.push(i64::from(b'l'));
                pt(&mut key, p);
            }
            Seg::CubicTo(a, b, p) => {
                key.push(i64::from(b'c'));
                pt(&mut key, a);
                pt(&mut key, b);
                pt(&mut key, p);
            }
            Seg::Close => key.push(i64::from(b'h')),
        }
    }
    key.push(i64::from(paint));
    Some((key, [ox, oy]))
}

/// Hundredths of a point as a PDF number: `1234` → `12.34`, `-50` → `-0.5`, `300` → `3`.
fn centi_number(v: i64) -> String {
    let (sign, a) = (if v < 0 { "-" } else { "" }, v.unsigned_abs());
    match a % 100 {
        0 => format!("{sign}{}", a / 100),
        f if f % 10 == 0 => format!("{sign}{}.{}", a / 100, f / 10),
        f => format!("{sign}{}.{f:02}", a / 100),
    }
}

/// The content stream of a form XObject for `key` ([`FormKey`]) and its bounding box (pt):
/// the outline's points (Bézier control points included, so the curves lie inside) padded by
/// `pad` pt for the stroke.
fn form_content(key: &[i64], pad: f64) -> (Vec<u8>, [f64; 4]) {
    let mut out = String::new();
    let (mut lo, mut hi) = ([i64::MAX; 2], [i64::MIN; 2]);
    let mut i = 0;
    while i < key.len() {
        let op = key[i] as u8;
        let n = match op {
            b'm' | b'l' => 2,
            b'c' => 6,
            _ => 0,
        };
        for (j, v) in key[i + 1..i + 1 + n].iter().enumerate() {
            lo[j % 2] = lo[j % 2].min(*v);
            hi[j % 2] = hi[j % 2].max(*v);
            out.push_str(&centi_number(*v));
            out.push(' ');
        }
        out.push(char::from(op));
        out.push('\n');
        i += 1 + n;
    }
    let bbox = [
        lo[0] as f64 / 100.0 - pad,
        lo[1] as f64 / 100.0 - pad,
        hi[0] as f64 / 100.0 + pad,
        hi[1] as f64 / 100.0 + pad,
    ];
    (out.into_bytes(), bbox)
}

/// About what a form XObject's object costs in the file (dictionary, `obj`/`endobj`, xref row).
const FORM_OBJECT_BYTES: usize = 120;
/// About what drawing a form costs (`q 1 0 0 1 x y cm /Pn Do Q`).
const FORM_USE_BYTES: usize = 32;

/// Shapes drawn more than once (up to a translation) in a document, each made one form XObject
/// (ISO 32000-1 §8.10) that every use draws with `q 1 0 0 1 x y cm /Pn Do Q`: a page of pit
/// circles, seed counters or log boxes then holds each outline once.
#[derive(Default)]
struct Forms {
    /// Resource name (`P0`, `P1`, … in order of first use) of each shared outline.
    ids: std::collections::HashMap<FormKey, XObjectId>,
}

impl Forms {
    /// Finds the outlines `doc` draws at least twice and registers each as a form in `pdf`.
    fn register(doc: &Document, pdf: &mut PdfDocument) -> Forms {
        // Uses and widest stroke (mm) of each key, and the keys in order of first use.
        let mut seen: std::collections::HashMap<FormKey, (usize, f64)> = Default::default();
        let mut order = Vec::new();
        for item in doc.pages.iter().flat_map(|p| crate::doc::leaves(&p.items)) {
            let Item::Shape(s) = item else { continue };
            let Some((key, _)) = form_key(s) else {
                continue;
            };
            let width = s
                .stroke
                .as_ref()
                .and_then(clean_stroke)
                .map_or(0.0, |(w, _)| w);
            let e = seen.entry(key.clone()).or_insert_with(|| {
                order.push(key);
                (0, 0.0)
            });
            e.0 += 1;
            e.1 = e.1.max(width);
        }
        let mut forms = Forms::default();
        for key in order {
            let (uses, width) = seen[&key];
            // Bytes of the path written inline (about 6 a coordinate, 2 an operator) against
            // a form: its object (about 120 bytes with its dictionary) and 32 bytes a use.
            let inline = key.len() * 6;
            if uses < 2 || uses * inline < FORM_OBJECT_BYTES + inline + uses * FORM_USE_BYTES {
                continue;
            }
            // A mitred corner reaches at most miter-limit (10) × half the width out.
            let (content, bbox) = form_content(&key, 5.0 * width * PT_PER_MM + 1.0);
            let id = XObjectId(format!("P{}", forms.ids.len()));
            let mut dict = BTreeMap::new();
            dict.insert("Type".to_string(), DictItem::Name(b"XObject".to_vec()));
            dict.insert("Subtype".to_string(), DictItem::Name(b"Form".to_vec()));
            dict.insert(
                "BBox".to_string(),
                DictItem::Array(bbox.iter().map(|v| real(*v)).collect()),
            );
            let xobject = ExternalXObject {
                stream: ExternalStream {
                    dict,
                    content,
                    compress: true,
                },
                width: None,
                height: None,
                dpi: None,
            };
            pdf.resources
                .xobjects
                .map
                .insert(id.clone(), XObject::External(xobject));
            forms.ids.insert(key, id);
        }
        forms
    }
}

/// 64-bit FNV-1a from a given offset basis (stable across processes, platforms and Rust
/// versions, unlike `DefaultHasher`).
fn fnv1a(bytes: &[u8], basis: u64) -> u64 {
    bytes.iter().fold(basis, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Placeholder for the trailer `/ID` strings; same length (32) as the hash that replaces it.
const ID_PLACEHOLDER: &[u8; 32] = b"SOWKITDOCUMENTIDPLACEHOLDER00000";

/// Replaces both `/ID` placeholder strings with the hex of a 128-bit hash of the whole file
/// (computed with the placeholders in place). Same length, so xref offsets stay valid.
fn stamp_id(bytes: &mut [u8]) {
    let id = format!(
        "{:016x}{:016x}",
        fnv1a(bytes, 0xcbf2_9ce4_8422_2325),
        fnv1a(bytes, 0x6c62_272e_07bb_0142)
    );
    let n = ID_PLACEHOLDER.len();
    let mut i = bytes.len();
    while i >= n {
        if &bytes[i - n..i] == ID_PLACEHOLDER {
            bytes[i - n..i].copy_from_slice(id.as_bytes());
            i -= n;
        } else {
            i -= 1;
        }
    }
}

/// Draws every page of `doc` into one PDF and returns its bytes. Deterministic: the same
/// document gives the same bytes, in any process, any number of times.
///
/// Each page gets the exact size of its [`Page`] (mm → pt), as MediaBox, CropBox and TrimBox.
/// Items are painted in order. Text in a weight whose font cannot be loaded is left out
/// (cannot happen with the bundled fonts); nothing here panics on odd values (NaN coordinates
/// become 0, see [`super`]). Returns no bytes at all if lopdf fails to serialise the file
/// (writing to memory; never seen) — callers must treat an empty result as an error, as
/// [`crate::kit::make`] does.
pub fn render(doc: &Document) -> Vec<u8> {
    let mut pdf = PdfDocument::new(&doc.title);
    // Characters per weight, for subsetting.
    let mut chars: BTreeMap<Weight, BTreeSet<char>> = BTreeMap::new();
    for item in doc.pages.iter().flat_map(|p| crate::doc::leaves(&p.items)) {
        if let Item::Text(t) = item {
            chars.entry(t.weight).or_default().extend(t.text.chars());
        }
    }
    let fonts: BTreeMap<Weight, Embedded> = chars
        .iter()
        .filter_map(|(w, cs)| embed(&mut pdf, *w, cs).map(|e| (*w, e)))
        .collect();
    let forms = Forms::register(doc, &mut pdf);
    pdf.pages = doc
        .pages
        .iter()
        .map(|page| {
            let (w, h) = (clean_side(page.width), clean_side(page.height));
            let ops = page_ops(page, h, &fonts, &forms);
            let mut p = PdfPage::new(Mm(w as f32), Mm(h as f32), ops);
            let bbox = Rect::from_wh(Pt((w * PT_PER_MM) as f32), Pt((h * PT_PER_MM) as f32));
            p.media_box = bbox.clone();
            p.crop_box = bbox.clone();
            p.trim_box = bbox;
            p
        })
        .collect();
    // secure = false: our raw path operators (Op::Unknown) are kept, not dropped.
    let opts = PdfSaveOptions {
        optimize: true,
        subset_fonts: false,
        secure: false,
        image_optimization: None,
    };
    let mut lo = pdf.to_lopdf_document(&opts, &mut Vec::new());

    // No dates, no empty PDF/X marker; a plain Title and Producer.
    let info = lo.trailer.get(b"Info").and_then(|o| o.as_reference());
    if let Ok(id) = info {
        if let Ok(d) = lo.get_object_mut(id).and_then(|o| o.as_dict_mut()) {
            for key in [
                "CreationDate",
                "ModDate",
                "GTS_PDFXVersion",
                "Trapped",
                "Identifier",
            ] {
                d.remove(key.as_bytes());
            }
            for key in ["Author", "Creator", "Subject", "Keywords"] {
                d.remove(key.as_bytes());
            }
            d.set(
                "Producer",
                DictItem::String {
                    data: b"sowkit".to_vec(),
                    literal: true,
                }
                .to_lopdf(),
            );
        }
    }
    // Print at 100 %: /ViewerPreferences << /PrintScaling /None >>.
    if let Ok(cat) = lo.catalog_mut() {
        let mut map = BTreeMap::new();
        map.insert("PrintScaling".to_string(), DictItem::Name(b"None".to_vec()));
        cat.set("ViewerPreferences", DictItem::Dict { map }.to_lopdf());
    }
    let placeholder = DictItem::String {
        data: ID_PLACEHOLDER.to_vec(),
        literal: true,
    };
    lo.trailer.set(
        "ID",
        DictItem::Array(vec![placeholder.clone(), placeholder]).to_lopdf(),
    );
    lo.compress();
    let mut bytes = Vec::new();
    if lo.save_to(&mut bytes).is_err() {
        return Vec::new();
    }
    stamp_id(&mut bytes);
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_stamp_replaces_both_placeholders_and_depends_on_content() {
        let mut a =
            b"x /ID[(SOWKITDOCUMENTIDPLACEHOLDER00000)(SOWKITDOCUMENTIDPLACEHOLDER00000)]".to_vec();
        let mut b = a.clone();
        b[0] = b'y';
        let len = a.len();
        stamp_id(&mut a);
        stamp_id(&mut b);
        assert_eq!(a.len(), len);
        let s = String::from_utf8(a).unwrap();
        assert!(!s.contains("PLACEHOLDER"));
        // "x /ID[(" is 7 bytes, then 32 id bytes, ")(", 32 more.
        let id = &s[7..39];
        assert_eq!(&s[41..73], id, "both /ID strings are equal");
        assert!(id.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(&String::from_utf8(b).unwrap()[7..39], id);
    }

    #[test]
    fn centi_numbers_are_short_pdf_reals() {
        assert_eq!(centi_number(28346), "283.46");
        assert_eq!(centi_number(-50), "-0.5");
        assert_eq!(centi_number(-5), "-0.05");
        assert_eq!(centi_number(300), "3");
        assert_eq!(centi_number(0), "0");
    }

    #[test]
    fn glyph_instructions_are_cut_out_and_outlines_kept() {
        // A simple glyph, one contour (end point 2), 3 bytes of instructions, then 3 flags and
        // 3 one-byte x and y coordinates (OpenType glyf layout, written by hand).
        let mut simple = vec![0, 1, 0, 0, 0, 0, 0, 9, 0, 9, 0, 2, 0, 3, 0xB0, 0x01, 0x02];
        let outline = [0x37, 0x37, 0x37, 1, 2, 3, 4, 5, 6];
        simple.extend(outline);
        let out = strip_glyph(&simple).unwrap();
        assert_eq!(&out[..12], &simple[..12]);
        assert_eq!(&out[12..14], &[0, 0], "instructionLength 0");
        assert_eq!(&out[14..], &outline);
        // A composite of two components (flags MORE_COMPONENTS | ARGS_ARE_XY_VALUES, then
        // WE_HAVE_INSTRUCTIONS | ARGS_ARE_XY_VALUES | a 2.14 scale), 2 bytes of instructions.
        let mut comp = vec![0xFF, 0xFF, 0, 0, 0, 0, 0, 9, 0, 9];
        comp.extend([0x00, 0x22, 0, 5, 1, 2]);
        comp.extend([0x01, 0x0A, 0, 6, 3, 4, 0x40, 0x00]);
        comp.extend([0, 2, 0xB0, 0x01]);
        let out = strip_glyph(&comp).unwrap();
        assert_eq!(out.len(), comp.len() - 4);
        assert_eq!(&out[16..18], &[0x00, 0x0A], "flag 0x100 cleared");
        assert_eq!(&out[10..16], &comp[10..16]);
        assert_eq!(&out[18..], &comp[18..24]);
        // Truncated records are refused, not read past their end.
        assert!(strip_glyph(&simple[..13]).is_none());
        assert!(strip_glyph(&comp[..14]).is_none());
    }

    #[test]
    fn subset_keeps_advances_and_maps_glyphs_in_order() {
        let face = text::face(Weight::Regular).unwrap();
        let mut gids: Vec<u16> = "señal ɛ ɔ → ✂".chars().map(|c| face.gid(c)).collect();
        gids.push(0);
        gids.sort();
        gids.dedup();
        let bytes = subset_face(face, &gids).expect("subset");
        assert!(
            bytes.len() < face.bytes.len() / 10,
            "subset is {} bytes",
            bytes.len()
        );
        // The subset's own cmap agrees with "glyph gids[i] becomes glyph i".
        let pf = ParsedFont::from_bytes(&bytes, 0, &mut Vec::new()).unwrap();
        for c in "señal ɛ ɔ → ✂".chars() {
            let i = gids.binary_search(&face.gid(c)).unwrap() as u16;
            assert_eq!(pf.lookup_glyph_index(c as u32), Some(i), "{c}");
        }
    }
}
