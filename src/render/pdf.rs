//! PDF backend (printpdf 0.12, default features off): exact page sizes, embedded subset font,
//! deterministic bytes.
//!
//! * Units: the page model's millimetres become points once (× 72 / 25.4) and y is flipped
//!   (PDF's origin is the bottom-left corner). A4 is 595.276 × 841.890 pt.
//! * Paths are written as raw PDF path operators (`m l c h`, painted with `f` non-zero fill,
//!   `S` stroke or `B` both), so every page-model segment maps to exactly one operator.
//!   Lengths are written to 0.01 pt; colours, line width, dash and font are written only when
//!   they change, so a page of many pit circles does not repeat its settings.
//! * Text uses DejaVu Sans (regular `SOWKAA+DejaVuSans`, bold `SOWKAB+DejaVuSans-Bold`),
//!   subset by us with allsorts to the glyphs the document uses, embedded as a CID TrueType
//!   font (`/FontFile2`) with a `/ToUnicode` map so the text can be searched and extracted.
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
use allsorts::font_data::FontData;
use allsorts::subset::{subset, CmapTarget, SubsetProfile};
use printpdf::{
    Codepoint, DictItem, FontId, Mm, Op, ParsedFont, PdfDocument, PdfFont, PdfFontHandle, PdfPage,
    PdfSaveOptions, Point, Pt, Rect, TextItem,
};
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

/// Subsets `face` to `gids` (sorted, unique, starting with 0) with allsorts. The subset keeps
/// a Unicode `cmap`; glyph `gids[i]` becomes glyph `i`. Returns `None` if allsorts fails or the
/// result does not check out (each kept character must map to its expected new id with an
/// unchanged advance), in which case the caller embeds the full font instead.
fn subset_face(face: &Face, gids: &[u16]) -> Option<Vec<u8>> {
    let scope = ReadScope::new(face.bytes);
    let fd = scope.read::<FontData<'_>>().ok()?;
    let provider = fd.table_provider(0).ok()?;
    let bytes = subset(&provider, gids, &SubsetProfile::Pdf, CmapTarget::Unicode).ok()?;
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

fn shape_ops(s: &Shape, f: &Flip, st: &mut GState, ops: &mut Vec<Op>) {
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

fn page_ops(page: &Page, h: f64, fonts: &BTreeMap<Weight, Embedded>) -> Vec<Op> {
    let f = Flip { h };
    let mut ops = Vec::new();
    items_ops(&page.items, &f, fonts, &mut GState::default(), &mut ops);
    ops
}

/// Operators for `items`; a clip is `q x y w h re W n … Q` (its rectangle in points, y
/// flipped). Colours, line width, dash and font are written only when they change (`st`).
fn items_ops(
    items: &[Item],
    f: &Flip,
    fonts: &BTreeMap<Weight, Embedded>,
    st: &mut GState,
    ops: &mut Vec<Op>,
) {
    for item in items {
        match item {
            Item::Shape(s) => shape_ops(s, f, st, ops),
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
                items_ops(&c.items, f, fonts, st, ops);
                ops.push(Op::RestoreGraphicsState);
                *st = saved;
            }
        }
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
    pdf.pages = doc
        .pages
        .iter()
        .map(|page| {
            let (w, h) = (clean_side(page.width), clean_side(page.height));
            let mut p = PdfPage::new(Mm(w as f32), Mm(h as f32), page_ops(page, h, &fonts));
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
