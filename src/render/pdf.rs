//! PDF backend (printpdf 0.12, default features off): exact page sizes, embedded subset font,
//! deterministic bytes.
//!
//! * Units: the page model's millimetres become points once (× 72 / 25.4) and y is flipped
//!   (PDF's origin is the bottom-left corner). A4 is 595.276 × 841.890 pt.
//! * printpdf builds the document (pages, fonts with their `/W` and `/ToUnicode`, forms); each
//!   page's content stream is written by us ([`Content`]) and put in place of printpdf's, since
//!   printpdf would write every glyph as its own hex string and every text item as its own text
//!   object. Paths are PDF path operators (`m l c h`, painted with `f` non-zero fill, `S` stroke
//!   or `B` both), so every page-model segment maps to exactly one operator. Lengths are
//!   written to 0.01 pt in their shortest form; colours, line width, dash and font are written
//!   only when they change, so a page of many pit circles does not repeat its settings. Text
//!   items in a row share one text object, each a literal string of glyph codes shown by `Tj`.
//! * The file is saved with object streams and a cross-reference stream (PDF 1.5), so the page,
//!   font and resource dictionaries are compressed too.
//! * An outline the document draws more than once up to a translation (a pit circle, a seed
//!   counter, the calibration bar) is one form XObject (`/P0`, `/P1`, …) drawn at each place with
//!   `q 1 0 0 1 x y cm /Pn Do Q`; colours and line width are set outside it and inherited.
//! * Text uses DejaVu Sans (regular `SOWKAA+DejaVuSans`, bold `SOWKAB+DejaVuSans-Bold`),
//!   subset by us with allsorts to the glyphs the document uses, embedded as a CID TrueType
//!   font (`/FontFile2`) with a `/ToUnicode` map so the text can be searched and extracted.
//!   The embedded program keeps only the tables a reader draws with (no `name`, no hinting:
//!   see [`subset_face`]), which halves the fonts' share of the file.
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
    PdfFont, PdfFontHandle, PdfPage, PdfSaveOptions, Pt, Rect, TextItem, XObject, XObjectId,
};
use rustc_hash::FxHashMap;
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
#[derive(PartialEq)]
struct Embedded {
    id: FontId,
    /// Embedded id of each full-font glyph id the document shows, indexed by the full-font id
    /// (0, `.notdef`, for every other id).
    gid_map: Vec<u16>,
}

impl Embedded {
    /// The embedded id of full-font glyph `gid` (0 if the document does not show it).
    fn gid(&self, gid: u16) -> u16 {
        self.gid_map.get(usize::from(gid)).copied().unwrap_or(0)
    }
}

/// The tables an embedded TrueType font keeps: what a PDF reader needs to draw and measure its
/// glyphs (`head hhea hmtx maxp loca glyf`, ISO 32000-1 §9.9), plus `cmap` and `post`, which
/// some tools read. Left out: `name` (about 15 KB in DejaVu; PDF names the font in
/// `/BaseFont`) and the hinting programs `cvt fpgm prep` — see [`subset_face`].
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

/// A face's tables as [`subset_face`] hands them to allsorts: the face as it is, except for the
/// tables in `trimmed`, which hold only what the subset keeps. allsorts reads every glyph
/// record, every `cmap` mapping and every glyph name of the font it subsets (DejaVu has about
/// 6,000 glyphs; a kit keeps about 80); see [`Trimmed::new`] for what is left out.
struct Trimmed<'a, P> {
    inner: &'a P,
    /// Replaced tables: tag and bytes.
    trimmed: Vec<(u32, Vec<u8>)>,
}

impl<P: FontTableProvider> FontTableProvider for Trimmed<'_, P> {
    fn table_data(&self, tag: u32) -> Result<Option<Cow<'_, [u8]>>, ParseError> {
        match self.trimmed.iter().find(|(t, _)| *t == tag) {
            Some((_, bytes)) => Ok(Some(Cow::Borrowed(bytes))),
            None => self.inner.table_data(tag),
        }
    }
    fn has_table(&self, tag: u32) -> bool {
        self.inner.has_table(tag)
    }
    fn table_tags(&self) -> Option<Vec<u32>> {
        self.inner.table_tags()
    }
}

/// `table` written by allsorts, as the bytes of a table.
fn table_bytes<'t, T>(table: &'t T) -> Option<Vec<u8>>
where
    T: allsorts::binary::write::WriteBinary<&'t T>,
{
    let mut buf = allsorts::binary::write::WriteBuffer::new();
    T::write(&mut buf, table).ok()?;
    Some(buf.into_inner())
}

impl<'a, P: FontTableProvider> Trimmed<'a, P> {
    /// The tables of `face` that allsorts' [`subset`] to `gids` (sorted, unique, starting with
    /// 0) reads, cut to what it keeps, so that it writes the same subset from fewer records:
    /// * `glyf`/`loca`: the glyphs of `gids` and the components of its composite glyphs, each
    ///   without its TrueType instructions ([`strip_glyph`]; hinting is left out of the
    ///   embedded font, see [`pdf_profile`]); every other glyph empty, and none after the
    ///   last one kept (`maxp` `numGlyphs` and `hhea` `numberOfHMetrics` cut to match; the
    ///   subset writes its own);
    /// * `cmap`: only the mappings to glyphs of `gids` (the ones the subset keeps), as one
    ///   Unicode format-12 subtable (left whole if the face's `cmap` is not Unicode);
    /// * `post`: version 3 (no glyph names), which the subset writes anyway.
    ///
    /// `None` if the face cannot be read.
    fn new(face: &'a P, gids: &[u16]) -> Option<Self> {
        use allsorts::tables::cmap::Cmap;
        use allsorts::tables::loca::LocaTable;
        use allsorts::tables::{HeadTable, HheaTable, IndexToLocFormat, MaxpTable};
        use allsorts::tag;
        let read = |tag: u32| face.read_table_data(tag).ok();
        let head = ReadScope::new(&read(tag::HEAD)?).read::<HeadTable>().ok()?;
        let mut maxp = ReadScope::new(&read(tag::MAXP)?).read::<MaxpTable>().ok()?;
        let loca_data = read(tag::LOCA)?;
        let loca = ReadScope::new(&loca_data)
            .read_dep::<LocaTable<'_>>((maxp.num_glyphs, head.index_to_loc_format))
            .ok()?;
        let glyf_data = read(tag::GLYF)?;
        // The glyphs kept (with their composites' components), without instructions.
        let mut kept: BTreeMap<u16, Vec<u8>> = BTreeMap::new();
        let mut todo = gids.to_vec();
        let mut components = Vec::new();
        while let Some(g) = todo.pop() {
            if kept.contains_key(&g) {
                continue;
            }
            let start = usize::try_from(loca.offsets.get(usize::from(g))?).ok()?;
            let end = usize::try_from(loca.offsets.get(usize::from(g) + 1)?).ok()?;
            kept.insert(g, strip_glyph(glyf_data.get(start..end)?, &mut components)?);
            todo.append(&mut components);
        }
        let num_glyphs = kept.keys().next_back()? + 1;
        let mut glyf = Vec::new();
        let mut offsets = Vec::with_capacity(usize::from(num_glyphs) + 1);
        offsets.push(0);
        for (g, bytes) in &kept {
            offsets.resize(usize::from(*g) + 1, u32::try_from(glyf.len()).ok()?);
            glyf.extend_from_slice(bytes);
            // Every record an even length, as short `loca` offsets need.
            if glyf.len() % 2 == 1 {
                glyf.push(0);
            }
            offsets.push(u32::try_from(glyf.len()).ok()?);
        }
        // In the format `head` gives (short: offset / 2 as 16 bits; long: 32 bits).
        let mut loca = Vec::with_capacity(offsets.len() * 4);
        for o in offsets {
            match head.index_to_loc_format {
                IndexToLocFormat::Short => {
                    loca.extend_from_slice(&u16::try_from(o / 2).ok()?.to_be_bytes())
                }
                IndexToLocFormat::Long => loca.extend_from_slice(&o.to_be_bytes()),
            }
        }
        maxp.num_glyphs = num_glyphs;
        let mut hhea = ReadScope::new(&read(tag::HHEA)?).read::<HheaTable>().ok()?;
        hhea.num_h_metrics = hhea.num_h_metrics.min(num_glyphs);
        let mut post = ReadScope::new(&read(tag::POST)?)
            .read::<allsorts::post::Header>()
            .ok()?;
        post.version = 0x0003_0000;
        let mut trimmed = vec![
            (tag::GLYF, glyf),
            (tag::LOCA, loca),
            (tag::MAXP, table_bytes(&maxp)?),
            (tag::HHEA, table_bytes(&hhea)?),
            (tag::POST, table_bytes(&post)?),
        ];
        let cmap_data = read(tag::CMAP)?;
        let cmap = ReadScope::new(&cmap_data).read::<Cmap<'_>>().ok()?;
        if let Some((allsorts::font::Encoding::Unicode, sub)) =
            allsorts::font::read_cmap_subtable(&cmap).ok()?
        {
            // The mappings allsorts keeps, in the order it reads them.
            let mut asked = vec![false; gids.last().map_or(0, |g| usize::from(*g) + 1)];
            // `.notdef` (0) is never mapped.
            for g in gids.iter().filter(|g| **g != 0) {
                asked[usize::from(*g)] = true;
            }
            let mut groups = Vec::new();
            sub.mappings_fn(|ch, gid| {
                if asked.get(usize::from(gid)) == Some(&true) {
                    groups.push((ch, gid));
                }
            })
            .ok()?;
            trimmed.push((tag::CMAP, unicode_cmap(&groups)?));
        }
        Some(Trimmed {
            inner: face,
            trimmed,
        })
    }
}

/// A `cmap` table of one Unicode subtable (platform 3, encoding 10, format 12; OpenType `cmap`
/// spec) mapping each character of `mappings` to its glyph, a group each.
fn unicode_cmap(mappings: &[(u32, u16)]) -> Option<Vec<u8>> {
    let n = u32::try_from(mappings.len()).ok()?;
    let mut out = Vec::with_capacity(28 + 12 * mappings.len());
    // version 0, one encoding record: (3, 10) at offset 12.
    for v in [0u16, 1, 3, 10] {
        out.extend(v.to_be_bytes());
    }
    out.extend(12u32.to_be_bytes());
    // format 12, reserved, length, language, numGroups.
    out.extend(12u16.to_be_bytes());
    out.extend(0u16.to_be_bytes());
    for v in [16 + 12 * n, 0, n] {
        out.extend(v.to_be_bytes());
    }
    for &(ch, gid) in mappings {
        for v in [ch, ch, u32::from(gid)] {
            out.extend(v.to_be_bytes());
        }
    }
    Some(out)
}

/// One glyph's `glyf` record without its TrueType instructions (OpenType `glyf` spec): a simple
/// glyph's `instructionLength` becomes 0 and its instructions go; a composite glyph loses the
/// `WE_HAVE_INSTRUCTIONS` flag (0x100) and the instructions after its last component. The
/// outline bytes are kept as they are. A composite's component glyph ids are appended to
/// `components`. `None` if the record is malformed.
fn strip_glyph(g: &[u8], components: &mut Vec<u16>) -> Option<Vec<u8>> {
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
        components.push(u16::try_from(be(at + 2)?).ok()?);
        let cleared = (flags & !0x0100) as u16;
        out[at..at + 2].copy_from_slice(&cleared.to_be_bytes());
        if flags & 0x0020 == 0 {
            out.truncate(next);
            return Some(out);
        }
        at = next;
    }
}

/// Subsets `face` to `gids` (sorted, unique, starting with 0) with allsorts, from the face's
/// tables cut to what the subset keeps ([`Trimmed`]). The subset keeps a Unicode `cmap`; glyph
/// `gids[i]` becomes glyph `i`. Its glyphs have no instructions (and the subset has no
/// `cvt`/`fpgm`/`prep`, see [`pdf_profile`]), so the embedded outlines are the plain ones the
/// SVG pages draw: hinting only grid-fits glyphs on low-resolution screens; PDF viewers and
/// printers mostly ignore it, and poppler does not use it. Returns the subset parsed (its bytes
/// are [`ParsedFont::original_bytes`]), or `None` if allsorts fails or the result does not check out (each kept character
/// must map to its expected new id with an unchanged advance), in which case the caller embeds
/// the full font instead.
fn subset_face(face: &Face, gids: &[u16]) -> Option<ParsedFont> {
    let scope = ReadScope::new(face.bytes);
    let fd = scope.read::<FontData<'_>>().ok()?;
    let provider = fd.table_provider(0).ok()?;
    let trimmed = Trimmed::new(&provider, gids)?;
    let bytes = subset(&trimmed, gids, &pdf_profile(), CmapTarget::Unicode).ok()?;
    let parsed = ParsedFont::from_bytes(&bytes, 0, &mut Vec::new())?;
    for (new, old) in gids.iter().enumerate() {
        let ok = u16::try_from(new)
            .ok()
            .and_then(|new| parsed.get_glyph_width(new))
            .map(|w| u32::from(w) * 1000 / u32::from(parsed.units_per_em.max(1)))
            == Some(u32::from(face.advance_milli(*old)));
        if !ok {
            return None;
        }
    }
    Some(parsed)
}

/// A weight's font before it is subset: its face and the glyphs the document shows.
struct Plan {
    weight: Weight,
    face: &'static Face,
    /// Full-font ids of the glyphs shown, sorted and unique, starting with 0 (`.notdef`), as
    /// [`subset_face`] needs.
    gids: Vec<u16>,
}

impl Plan {
    /// The plan for `weight`, whose glyphs shown are set in `used` (indexed by full-font glyph
    /// id); `None` if its face cannot be loaded.
    fn new(weight: Weight, used: &[bool]) -> Option<Plan> {
        let gids = std::iter::once(0)
            .chain((1..used.len()).filter(|g| used[*g]).map(|g| g as u16))
            .collect();
        Some(Plan {
            weight,
            face: text::face(weight)?,
            gids,
        })
    }

    /// The font embedded as the subset (glyph `gids[i]` becomes `i`) when `subset`, else as the
    /// full face (ids unchanged).
    fn embedded(&self, subset: bool) -> Embedded {
        let name = if subset {
            font_name(self.weight)
        } else {
            full_font_name(self.weight)
        };
        let mut gid_map = vec![0u16; self.gids.last().map_or(0, |g| usize::from(*g) + 1)];
        for (i, g) in self.gids.iter().enumerate() {
            gid_map[usize::from(*g)] = if subset { i as u16 } else { *g };
        }
        Embedded {
            id: FontId(name.to_string()),
            gid_map,
        }
    }

    /// Registers the font in `pdf`: `subset` ([`subset_face`]), or the full face if subsetting
    /// failed. `None` if the full face cannot be parsed either.
    fn register(&self, pdf: &mut PdfDocument, subset: Option<ParsedFont>) -> Option<Embedded> {
        let embedded = self.embedded(subset.is_some());
        let parsed = match subset {
            Some(parsed) => parsed,
            None => ParsedFont::from_bytes(self.face.bytes, 0, &mut Vec::new())?,
        };
        pdf.resources
            .fonts
            .map
            .insert(embedded.id.clone(), PdfFont::new(parsed));
        Some(embedded)
    }
}

/// A length for a dictionary (a form's `/BBox`), in points rounded to 0.01 pt (non-finite
/// becomes 0).
fn real(v: f64) -> DictItem {
    DictItem::Real(((finite(v) * 100.0).round() / 100.0) as f32)
}

/// Content-stream resource name of each weight's font (`/R`, `/B`): one letter, since every
/// text run names its font. The font dictionaries keep the subset names as `/BaseFont`.
fn font_resource(weight: Weight) -> &'static str {
    match weight {
        Weight::Regular => "R",
        Weight::Bold => "B",
    }
}

/// Hundredths of a point, as the content stream writes lengths (0.0035 mm, a fiftieth of the
/// finest printed line; non-finite becomes 0).
fn centi(v: f64) -> i64 {
    (finite(v) * 100.0).round() as i64
}

/// Converts page millimetres to PDF points in hundredths (y flipped against the page height
/// `h` mm).
struct Flip {
    h: f64,
}

impl Flip {
    fn pt(&self, p: &crate::doc::Pt) -> [i64; 2] {
        [centi(p.x * PT_PER_MM), centi((self.h - p.y) * PT_PER_MM)]
    }
}

/// What the content stream has already set, so a setting is written only when it changes.
/// `None` means unknown (nothing written yet on this page, or lost by a `Q`).
#[derive(Clone, Default)]
struct GState {
    fill: Option<Color>,
    stroke: Option<Color>,
    /// Line width, 0.01 pt.
    width: Option<i64>,
    /// Dash pattern, 0.01 pt units; empty = solid.
    dash: Option<Vec<i64>>,
    /// Font and size (bits of the f32 size in pt).
    font: Option<(Weight, u32)>,
}

/// One page's content stream (ISO 32000-1 §8.2, §9.4), written directly as bytes: numbers in
/// their shortest form (lengths to 0.01 pt, colour components to 0.001), and consecutive text
/// items kept in one text object (`BT … ET`) whose lines are placed with relative `Td`.
/// printpdf's own operators would write every glyph as its own hex string (`[<0027><0030>] TJ`)
/// and every text item as its own text object, about twice the bytes.
struct Content {
    out: Vec<u8>,
    /// Inside `BT … ET`, with the start of the current text line (0.01 pt), which the next
    /// `Td` moves from.
    text: Option<[i64; 2]>,
    st: GState,
    /// The glyphs of the text being written, kept from one text to the next (a `Vec` for
    /// every line of text was most of the PDF's own allocations).
    glyphs: Vec<text::Glyph>,
}

impl Content {
    fn num(&mut self, v: i64) {
        push_centi(&mut self.out, v);
        self.out.push(b' ');
    }
    fn op(&mut self, op: &str) {
        self.out.extend_from_slice(op.as_bytes());
        self.out.push(b'\n');
    }
    /// Closes an open text object: path painting, `q`/`Q` and `Do` are not allowed in one.
    fn end_text(&mut self) {
        if self.text.take().is_some() {
            self.op("ET");
        }
    }
    /// `r g b rg` / `RG`, each component (0–255) to 0.001 of full, so every 8-bit value
    /// survives the round trip.
    fn rgb(&mut self, c: Color, op: &str) {
        for v in [c.r, c.g, c.b] {
            let milli = (f64::from(v) * 1000.0 / 255.0).round() as i64;
            push_milli(&mut self.out, milli);
            self.out.push(b' ');
        }
        self.op(op);
    }
    fn fill(&mut self, c: Color) {
        if self.st.fill != Some(c) {
            self.rgb(c, "rg");
            self.st.fill = Some(c);
        }
    }
}

/// Appends `v` in decimal (as `write!(out, "{v}")`, by `itoa` without the formatting
/// machinery).
fn push_uint(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
}

/// Writes hundredths as a PDF number: `1234` → `12.34`, `-50` → `-0.5`, `300` → `3`.
fn push_centi(out: &mut Vec<u8>, v: i64) {
    if v < 0 {
        out.push(b'-');
    }
    let a = v.unsigned_abs();
    push_uint(out, a / 100);
    let f = a % 100;
    if f != 0 {
        out.push(b'.');
        out.push(b'0' + (f / 10) as u8);
        if !f.is_multiple_of(10) {
            out.push(b'0' + (f % 10) as u8);
        }
    }
}

/// Writes thousandths (0–1000) as a PDF number: `843` → `.843`, `500` → `.5`, `1000` → `1`.
fn push_milli(out: &mut Vec<u8>, v: i64) {
    match v.clamp(0, 1000) {
        0 => out.push(b'0'),
        1000 => out.push(b'1'),
        f => {
            // Three digits with the trailing zeros left out.
            let d = [f / 100, f / 10 % 10, f % 10];
            let n = if d[2] != 0 {
                3
            } else if d[1] != 0 {
                2
            } else {
                1
            };
            out.push(b'.');
            out.extend(d[..n].iter().map(|&x| b'0' + x as u8));
        }
    }
}

fn shape_ops(s: &Shape, f: &Flip, forms: &Forms, c: &mut Content) {
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
    c.end_text();
    if let Some(col) = s.fill {
        c.fill(col);
    }
    if let Some((col, (width, dash))) = stroke {
        if c.st.stroke != Some(col) {
            c.rgb(col, "RG");
            c.st.stroke = Some(col);
        }
        let w = centi(width * PT_PER_MM);
        if c.st.width != Some(w) {
            c.num(w);
            c.op("w");
            c.st.width = Some(w);
        }
        let d = dash.iter().map(|d| centi(d * PT_PER_MM));
        // Compared as numbers: a pattern is collected only when it changes.
        let same =
            c.st.dash
                .as_ref()
                .is_some_and(|set| set.iter().copied().eq(d.clone()));
        if !same {
            let d: Vec<i64> = d.collect();
            c.out.push(b'[');
            for (i, v) in d.iter().enumerate() {
                if i > 0 {
                    c.out.push(b' ');
                }
                push_centi(&mut c.out, *v);
            }
            c.out.extend_from_slice(b"] 0 ");
            c.op("d");
            c.st.dash = Some(d);
        }
    }
    if let Some(&(form, [ox, oy])) = forms.drawn.get(&(s as *const Shape as usize)) {
        // The form's origin is the shape's first point, in page points (y flipped).
        c.op("q");
        c.out.extend_from_slice(b"1 0 0 1 ");
        c.num(centi(ox * PT_PER_MM));
        c.num(centi((f.h - oy) * PT_PER_MM));
        c.op("cm");
        c.out.push(b'/');
        c.out.extend_from_slice(forms.names[form].0.as_bytes());
        c.out.push(b' ');
        c.op("Do");
        c.op("Q");
        return;
    }
    for seg in segs {
        match seg {
            Seg::MoveTo(p) | Seg::LineTo(p) => {
                let [x, y] = f.pt(p);
                c.num(x);
                c.num(y);
                c.op(if matches!(seg, Seg::MoveTo(_)) {
                    "m"
                } else {
                    "l"
                });
            }
            Seg::CubicTo(a, b, p) => {
                for q in [a, b, p] {
                    let [x, y] = f.pt(q);
                    c.num(x);
                    c.num(y);
                }
                c.op("c");
            }
            Seg::Close => c.op("h"),
        }
    }
    c.op(paint);
}

/// Writes `t` into `c` (its glyphs as one literal string of 2-byte Identity-H codes, `Tj`) and
/// records its glyphs in `shown` for printpdf, which builds each font's `/W` widths and
/// `/ToUnicode` map from the text the pages show.
fn text_ops(
    t: &Text,
    f: &Flip,
    fonts: &BTreeMap<Weight, Embedded>,
    c: &mut Content,
    shown: &mut Shown,
) {
    let Some(font) = fonts.get(&t.weight) else {
        return;
    };
    if t.text.is_empty() || !(t.size_pt.is_finite() && t.size_pt > 0.0) {
        return;
    }
    let mut glyphs = std::mem::take(&mut c.glyphs);
    glyphs.clear();
    glyphs.extend(text::glyph_iter(&t.text, t.weight));
    // Last character wins for a glyph shown for several, as printpdf's own reading of the
    // page operators would have it (see [`Shown`]).
    let used = shown.entry(t.weight).or_default();
    for g in &glyphs {
        let gid = usize::from(font.gid(g.gid));
        if gid >= used.len() {
            used.resize(gid + 1, None);
        }
        used[gid] = Some(g.ch);
    }
    // Colour and font are allowed inside a text object (ISO 32000-1 §8.2, figure 9).
    c.fill(t.color);
    let line = match c.text {
        Some(line) => line,
        None => {
            c.op("BT");
            [0, 0]
        }
    };
    // The font and size are text state, kept across text objects.
    let key = (t.weight, (t.size_pt as f32).to_bits());
    if c.st.font != Some(key) {
        c.out.push(b'/');
        c.out.extend_from_slice(font_resource(t.weight).as_bytes());
        c.out.push(b' ');
        // Sizes are whole or half points; written to 0.01 pt.
        c.num(centi(t.size_pt));
        c.op("Tf");
        c.st.font = Some(key);
    }
    let at = f.pt(&crate::doc::Pt { x: t.x, y: t.y });
    c.num(at[0] - line[0]);
    c.num(at[1] - line[1]);
    c.op("Td");
    c.text = Some(at);
    c.out.push(b'(');
    for g in &glyphs {
        for b in font.gid(g.gid).to_be_bytes() {
            // A literal string escapes its delimiters and the backslash; a bare CR would be
            // read as a line end (ISO 32000-1 §7.3.4.2).
            match b {
                b'(' | b')' | b'\\' => c.out.extend_from_slice(&[b'\\', b]),
                b'\r' => c.out.extend_from_slice(b"\\r"),
                _ => c.out.push(b),
            }
        }
    }
    c.out.extend_from_slice(b") ");
    c.op("Tj");
    c.glyphs = glyphs;
}

/// Page `page`'s content stream; its glyphs are recorded in `shown` (see [`text_ops`]).
fn page_content(
    page: &Page,
    h: f64,
    fonts: &BTreeMap<Weight, Embedded>,
    forms: &Forms,
    shown: &mut Shown,
) -> Vec<u8> {
    let f = Flip { h };
    let mut c = Content {
        out: Vec::new(),
        text: None,
        st: GState::default(),
        glyphs: Vec::new(),
    };
    items_ops(&page.items, &f, fonts, forms, &mut c, shown);
    c.end_text();
    if c.out.last() == Some(&b'\n') {
        c.out.pop();
    }
    c.out
}

/// One page's content stream, and its deflated form when that is kept (see [`packed`]).
struct PageContent {
    raw: Vec<u8>,
    packed: Option<Vec<u8>>,
}

/// The content streams of `doc`'s pages, written and deflated in parallel (rayon, a page a
/// task), and the glyphs they show (each page's own [`Shown`], merged in page order, so a
/// later page's character wins as when one map is written page after page).
fn page_contents(
    doc: &Document,
    fonts: &BTreeMap<Weight, Embedded>,
    forms: &Forms,
) -> (Vec<PageContent>, Shown) {
    use rayon::prelude::*;
    let pages: Vec<(PageContent, Shown)> = doc
        .pages
        .par_iter()
        .map(|page| {
            let mut shown = Shown::new();
            let raw = page_content(page, clean_side(page.height), fonts, forms, &mut shown);
            let packed = packed(&raw);
            (PageContent { raw, packed }, shown)
        })
        .collect();
    let mut all = Shown::new();
    let mut contents = Vec::with_capacity(pages.len());
    for (content, shown) in pages {
        for (weight, chars) in shown {
            let into = all.entry(weight).or_default();
            if into.len() < chars.len() {
                into.resize(chars.len(), None);
            }
            for (gid, ch) in chars.into_iter().enumerate() {
                if ch.is_some() {
                    into[gid] = ch;
                }
            }
        }
        contents.push(content);
    }
    (contents, all)
}

/// The glyphs each weight shows in the document: for each embedded glyph id (the index), the
/// character it was last shown for, in painting order (`None`: not shown).
type Shown = BTreeMap<Weight, Vec<Option<char>>>;

/// The text operators printpdf reads to know which glyphs each font shows, for its `/W` widths
/// and `/ToUnicode` map: one `ShowText` a font listing each glyph once with the character it
/// was last shown for. printpdf keeps, per font and glyph, the last character it reads, and
/// uses the page operators for nothing else here (the content streams are ours, see
/// [`set_contents`]), so this gives the fonts it would build from every text operator of every
/// page, without translating those operators into content that is thrown away.
fn shown_ops(shown: &Shown, fonts: &BTreeMap<Weight, Embedded>) -> Vec<Op> {
    let mut ops = Vec::new();
    for (weight, used) in shown {
        let Some(font) = fonts.get(weight) else {
            continue;
        };
        ops.push(Op::SetFont {
            font: PdfFontHandle::External(font.id.clone()),
            size: Pt(10.0),
        });
        ops.push(Op::ShowText {
            items: vec![TextItem::GlyphIds(
                used.iter()
                    .enumerate()
                    .filter_map(|(gid, ch)| {
                        Some(Codepoint::with_cid(
                            gid as u16,
                            0.0,
                            ch.as_ref()?.to_string(),
                        ))
                    })
                    .collect(),
            )],
        });
    }
    if ops.is_empty() {
        return ops;
    }
    let mut v = vec![Op::StartTextSection];
    v.extend(ops);
    v.push(Op::EndTextSection);
    v
}

/// Writes `items`; a clip is `q x y w h re W n … Q` (its rectangle in points, y flipped).
/// Colours, line width, dash and font are written only when they change.
fn items_ops(
    items: &[Item],
    f: &Flip,
    fonts: &BTreeMap<Weight, Embedded>,
    forms: &Forms,
    c: &mut Content,
    shown: &mut Shown,
) {
    for item in items {
        match item {
            Item::Shape(s) => shape_ops(s, f, forms, c),
            Item::Text(t) => text_ops(t, f, fonts, c, shown),
            Item::Clip(clip) => {
                c.end_text();
                c.op("q");
                let (w, hh) = (finite(clip.w).max(0.0), finite(clip.h).max(0.0));
                c.num(centi(finite(clip.x) * PT_PER_MM));
                c.num(centi((f.h - finite(clip.y) - hh) * PT_PER_MM));
                c.num(centi(w * PT_PER_MM));
                c.num(centi(hh * PT_PER_MM));
                c.op("re");
                c.op("W");
                c.op("n");
                // `Q` restores what was set before the `q`.
                let saved = c.st.clone();
                items_ops(&clip.items, f, fonts, forms, c, shown);
                c.end_text();
                c.op("Q");
                c.st = saved;
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

/// Writes the [`FormKey`] of `s` into `key` (its contents replaced: one buffer serves every
/// shape of a document, and only a key seen for the first time is copied) and returns its
/// first point (page millimetres, y down), or `None` when `s` is too small to be worth a form
/// (fewer than four segments: a form use, `q 1 0 0 1 x y cm /Pn Do Q`, is longer than a line)
/// or paints nothing. The form's paint operator is the one [`shape_ops`] would write.
fn form_key(s: &Shape, key: &mut FormKey) -> Option<[f64; 2]> {
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
    key.clear();
    key.reserve(segs.len() * 7 + 1);
    let pt = |key: &mut Vec<i64>, p: &crate::doc::Pt| {
        key.push(centi((finite(p.x) - ox) * PT_PER_MM));
        key.push(centi((oy - finite(p.y)) * PT_PER_MM));
    };
    for seg in segs {
        match seg {
            Seg::MoveTo(p) => {
                key.push(i64::from(b'm'));
                pt(key, p);
            }
            Seg::LineTo(p) => {
                key.push(i64::from(b'l'));
                pt(key, p);
            }
            Seg::CubicTo(a, b, p) => {
                key.push(i64::from(b'c'));
                pt(key, a);
                pt(key, b);
                pt(key, p);
            }
            Seg::Close => key.push(i64::from(b'h')),
        }
    }
    key.push(i64::from(paint));
    Some([ox, oy])
}

/// Hundredths of a point as a PDF number: `1234` → `12.34`, `-50` → `-0.5`, `300` → `3`
/// (what [`push_centi`] writes).
#[cfg(test)]
fn centi_number(v: i64) -> String {
    let mut out = Vec::new();
    push_centi(&mut out, v);
    String::from_utf8(out).unwrap_or_default()
}

/// The content stream of a form XObject for `key` ([`FormKey`]) and its bounding box (pt):
/// the outline's points (Bézier control points included, so the curves lie inside) padded by
/// `pad` pt for the stroke.
fn form_content(key: &[i64], pad: f64) -> (Vec<u8>, [f64; 4]) {
    let mut out = Vec::new();
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
            push_centi(&mut out, *v);
            out.push(b' ');
        }
        out.push(op);
        out.push(b'\n');
        i += 1 + n;
    }
    let bbox = [
        lo[0] as f64 / 100.0 - pad,
        lo[1] as f64 / 100.0 - pad,
        hi[0] as f64 / 100.0 + pad,
        hi[1] as f64 / 100.0 + pad,
    ];
    (out, bbox)
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
    /// Resource names (`P0`, `P1`, … in order of first use) of the shared outlines.
    names: Vec<XObjectId>,
    /// The form (index into `names`) and origin (the shape's first point, page mm, y down) of
    /// each shape of the document drawn with a form, by the shape's address (the document is
    /// borrowed, unchanged, while it is rendered; an integer, so pages can be written on several
    /// threads).
    drawn: FxHashMap<usize, (usize, [f64; 2])>,
}

impl Forms {
    /// Finds the outlines `doc` draws at least twice and registers each as a form in `pdf`.
    fn register(doc: &Document, pdf: &mut PdfDocument) -> Forms {
        // Each distinct key in order of first use, with its uses and widest stroke (mm).
        let mut slot_of: FxHashMap<FormKey, usize> = FxHashMap::default();
        let mut slots: Vec<(FormKey, usize, f64)> = Vec::new();
        // Every shape with a key: its address, slot and origin.
        let mut shapes = Vec::new();
        let mut key = FormKey::new();
        for item in doc.pages.iter().flat_map(|p| crate::doc::leaves(&p.items)) {
            let Item::Shape(s) = item else { continue };
            let Some(origin) = form_key(s, &mut key) else {
                continue;
            };
            let width = s
                .stroke
                .as_ref()
                .and_then(clean_stroke)
                .map_or(0.0, |(w, _)| w);
            let slot = match slot_of.get(key.as_slice()) {
                Some(&slot) => slot,
                None => {
                    slots.push((key.clone(), 0, 0.0));
                    slot_of.insert(key.clone(), slots.len() - 1);
                    slots.len() - 1
                }
            };
            let e = &mut slots[slot];
            e.1 += 1;
            e.2 = e.2.max(width);
            shapes.push((s as *const Shape as usize, slot, origin));
        }
        let mut forms = Forms::default();
        // The form of each slot that gets one.
        let mut form_of = vec![None; slots.len()];
        for (slot, (key, uses, width)) in slots.into_iter().enumerate() {
            // Bytes of the path written inline (about 6 a coordinate, 2 an operator) against
            // a form: its object (about 120 bytes with its dictionary) and 32 bytes a use.
            let inline = key.len() * 6;
            if uses < 2 || uses * inline < FORM_OBJECT_BYTES + inline + uses * FORM_USE_BYTES {
                continue;
            }
            // A mitred corner reaches at most miter-limit (10) × half the width out.
            let (content, bbox) = form_content(&key, 5.0 * width * PT_PER_MM + 1.0);
            let id = XObjectId(format!("P{}", forms.names.len()));
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
            form_of[slot] = Some(forms.names.len());
            forms.names.push(id);
        }
        for (shape, slot, origin) in shapes {
            if let Some(form) = form_of[slot] {
                forms.drawn.insert(shape, (form, origin));
            }
        }
        forms
    }
}

/// Puts `contents` (one per page, in order) in place of the content streams printpdf wrote
/// (deflated, with `/Filter /FlateDecode`, as [`compress_streams`] would, where the content was
/// deflated already), and
/// names the fonts in the shared `/Font` resource dictionary by [`font_resource`], as the
/// contents do. False if the document does not have the expected shape (never seen).
fn set_contents(
    lo: &mut lopdf::Document,
    contents: Vec<PageContent>,
    fonts: &BTreeMap<Weight, Embedded>,
) -> bool {
    let pages: Vec<lopdf::ObjectId> = lo.get_pages().into_values().collect();
    if pages.len() != contents.len() {
        return false;
    }
    let mut font_dicts = BTreeSet::new();
    for (page, content) in pages.into_iter().zip(contents) {
        let Ok(dict) = lo.get_dictionary(page) else {
            return false;
        };
        let (Ok(cid), Ok(rid)) = (
            dict.get(b"Contents").and_then(|o| o.as_reference()),
            dict.get(b"Resources").and_then(|o| o.as_reference()),
        ) else {
            return false;
        };
        if let Ok(f) = lo
            .get_dictionary(rid)
            .and_then(|r| r.get(b"Font"))
            .and_then(|o| o.as_reference())
        {
            font_dicts.insert(f);
        }
        let Ok(lopdf::Object::Stream(s)) = lo.get_object_mut(cid) else {
            return false;
        };
        match content.packed {
            Some(packed) if s.allows_compression && s.dict.get(b"Filter").is_err() => {
                s.set_content(packed);
                s.dict.set("Filter", "FlateDecode");
            }
            _ => s.set_content(content.raw),
        }
    }
    for id in font_dicts {
        let Ok(d) = lo.get_object_mut(id).and_then(|o| o.as_dict_mut()) else {
            return false;
        };
        for (weight, e) in fonts {
            if let Some(v) = d.remove(e.id.0.as_bytes()) {
                d.set(font_resource(*weight), v);
            }
        }
    }
    true
}

/// libdeflate's compression level for the content streams and font programs: its lazy
/// matching (levels 5 to 7; 8 and 9 look one more byte ahead, `lazy2`). Measured on the five
/// bundled kits (2026-12-06): level 9 wrote 341,070 bytes of PDF, level 6 344,071 (0.9 %
/// more; largest kit.pdf 55,256 → 55,684, host key 22,485 → 22,708, within the 60 and 30 KB
/// targets) in 2 to 4 ms less of the build's processor time; level 1 363,402 bytes.
const DEFLATE_LEVEL: i32 = 6;

/// What [`lopdf::Document::compress`] does, with libdeflate ([`libdeflater`]) in place of
/// flate2: every stream that allows compression and has no `/Filter` yet is deflated with a zlib
/// header (RFC 1950/1951), and takes the result, with `/Filter /FlateDecode`, when that is more
/// than 19 bytes shorter. The streams are deflated in parallel (rayon), each by its thread's
/// compressor ([`deflate`]); each result goes to its own stream, so the bytes do not depend on
/// which thread did what.
fn compress_streams(lo: &mut lopdf::Document) {
    use rayon::prelude::*;
    let streams: Vec<&mut lopdf::Stream> = lo
        .objects
        .values_mut()
        .filter_map(|object| match object {
            lopdf::Object::Stream(s) if s.allows_compression && s.dict.get(b"Filter").is_err() => {
                Some(s)
            }
            _ => None,
        })
        .collect();
    streams.into_par_iter().for_each(|stream| {
        if let Some(packed) = packed(&stream.content) {
            stream.dict.set("Filter", "FlateDecode");
            stream.set_content(packed);
        }
    });
}

/// `content` deflated ([`deflate`]) if that is more than 19 bytes shorter (what
/// [`lopdf::Document::compress`] keeps), else `None`.
fn packed(content: &[u8]) -> Option<Vec<u8>> {
    deflate(content).filter(|packed| packed.len() + 19 < content.len())
}

/// `input` deflated with a zlib header at [`DEFLATE_LEVEL`] by this thread's libdeflate
/// compressor and output buffer, made on the thread's first call and kept for the process (a
/// compressor is a few hundred KB of match-finder tables: made once, not once a PDF).
/// `None` if libdeflate fails (never seen).
fn deflate(input: &[u8]) -> Option<Vec<u8>> {
    use libdeflater::{CompressionLvl, Compressor};
    use std::cell::RefCell;
    thread_local! {
        static DEFLATE: RefCell<Option<(Compressor, Vec<u8>)>> = const { RefCell::new(None) };
    }
    DEFLATE.with_borrow_mut(|state| {
        let (z, buf) = state.get_or_insert_with(|| {
            let level = CompressionLvl::new(DEFLATE_LEVEL).unwrap_or_default();
            (Compressor::new(level), Vec::new())
        });
        buf.resize(z.zlib_compress_bound(input.len()), 0);
        let n = z.zlib_compress(input, buf).ok()?;
        Some(buf[..n].to_vec())
    })
}

/// 64-bit FNV-1a of `bytes` from two offset bases (stable across processes, platforms and
/// Rust versions, unlike `DefaultHasher`), in one pass: the two hashes' multiplications do not
/// wait for each other.
fn fnv1a2(bytes: &[u8], bases: [u64; 2]) -> [u64; 2] {
    const PRIME: u64 = 0x0100_0000_01b3;
    bytes.iter().fold(bases, |[a, b], x| {
        let x = u64::from(*x);
        [(a ^ x).wrapping_mul(PRIME), (b ^ x).wrapping_mul(PRIME)]
    })
}

/// Placeholder for the trailer `/ID` strings; same length (32) as the hash that replaces it.
const ID_PLACEHOLDER: &[u8; 32] = b"SOWKITDOCUMENTIDPLACEHOLDER00000";

/// Replaces both `/ID` placeholder strings with the hex of a 128-bit hash of the whole file
/// (computed with the placeholders in place). Same length, so xref offsets stay valid.
fn stamp_id(bytes: &mut [u8]) {
    let [a, b] = fnv1a2(bytes, [0xcbf2_9ce4_8422_2325, 0x6c62_272e_07bb_0142]);
    let id = format!("{a:016x}{b:016x}");
    let n = ID_PLACEHOLDER.len();
    let mut i = bytes.len();
    while i >= n {
        // The first byte alone rules out almost every place.
        if bytes[i - n] == ID_PLACEHOLDER[0] && &bytes[i - n..i] == ID_PLACEHOLDER {
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
    // Glyphs shown per weight (indexed by full-font glyph id), for subsetting; a weight with
    // text items gets its font even if they are all empty.
    let mut used: BTreeMap<Weight, Vec<bool>> = BTreeMap::new();
    for item in doc.pages.iter().flat_map(|p| crate::doc::leaves(&p.items)) {
        if let Item::Text(t) = item {
            let flags = used.entry(t.weight).or_default();
            let Some(face) = text::face(t.weight) else {
                continue;
            };
            for c in t.text.chars() {
                let g = usize::from(face.gid(c));
                if g >= flags.len() {
                    flags.resize(g + 1, false);
                }
                flags[g] = true;
            }
        }
    }
    let forms = Forms::register(doc, &mut pdf);
    let plans: Vec<Plan> = used
        .iter()
        .filter_map(|(w, flags)| Plan::new(*w, flags))
        .collect();
    // The fonts are subset while the pages are written with the ids the subsets give (the
    // pages, the longer part, on this thread; the subsets for another to take).
    let planned: BTreeMap<Weight, Embedded> =
        plans.iter().map(|p| (p.weight, p.embedded(true))).collect();
    let ((mut contents, mut shown), subsets) = rayon::join(
        || page_contents(doc, &planned, &forms),
        || {
            use rayon::prelude::*;
            plans
                .par_iter()
                .map(|p| subset_face(p.face, &p.gids))
                .collect::<Vec<_>>()
        },
    );
    let fonts: BTreeMap<Weight, Embedded> = plans
        .iter()
        .zip(subsets)
        .filter_map(|(p, subset)| p.register(&mut pdf, subset).map(|e| (p.weight, e)))
        .collect();
    if fonts != planned {
        // A subset failed (never seen): the pages again, with the full face's glyph ids.
        (contents, shown) = page_contents(doc, &fonts, &forms);
    }
    // The pages' content streams are ours (`contents`), set below; printpdf gets the glyphs
    // shown (for the fonts' /W and /ToUnicode) on the first page, below.
    pdf.pages = doc
        .pages
        .iter()
        .map(|page| {
            let (w, h) = (clean_side(page.width), clean_side(page.height));
            let mut p = PdfPage::new(Mm(w as f32), Mm(h as f32), Vec::new());
            let bbox = Rect::from_wh(Pt((w * PT_PER_MM) as f32), Pt((h * PT_PER_MM) as f32));
            p.media_box = bbox.clone();
            p.crop_box = bbox.clone();
            p.trim_box = bbox;
            p
        })
        .collect();
    if let Some(first) = pdf.pages.first_mut() {
        first.ops = shown_ops(&shown, &fonts);
    }
    let opts = PdfSaveOptions {
        optimize: true,
        subset_fonts: false,
        secure: false,
        image_optimization: None,
    };
    let mut lo = pdf.to_lopdf_document(&opts, &mut Vec::new());
    if !set_contents(&mut lo, contents, &fonts) {
        return Vec::new();
    }

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
    compress_streams(&mut lo);
    // Dictionaries (pages, fonts, resources) packed into compressed object streams and the
    // cross-reference table as a stream (PDF 1.5, ISO 32000-1 §7.5.7, §7.5.8).
    let save = lopdf::SaveOptions::builder()
        .use_object_streams(true)
        .use_xref_streams(true)
        .compression_level(9)
        .build();
    let mut bytes = Vec::new();
    if lo.save_with_options(&mut bytes, save).is_err() {
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
        let milli = |v: i64| {
            let mut out = Vec::new();
            push_milli(&mut out, v);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(milli(843), ".843");
        assert_eq!(milli(250), ".25");
        assert_eq!(milli(500), ".5");
        assert_eq!(milli(50), ".05");
        assert_eq!(milli(5), ".005");
        assert_eq!(milli(0), "0");
        assert_eq!(milli(1000), "1");
        assert_eq!(milli(1200), "1");
    }

    #[test]
    fn glyph_instructions_are_cut_out_and_outlines_kept() {
        // A simple glyph, one contour (end point 2), 3 bytes of instructions, then 3 flags and
        // 3 one-byte x and y coordinates (OpenType glyf layout, written by hand).
        let mut simple = vec![0, 1, 0, 0, 0, 0, 0, 9, 0, 9, 0, 2, 0, 3, 0xB0, 0x01, 0x02];
        let outline = [0x37, 0x37, 0x37, 1, 2, 3, 4, 5, 6];
        simple.extend(outline);
        let out = strip_glyph(&simple, &mut Vec::new()).unwrap();
        assert_eq!(&out[..12], &simple[..12]);
        assert_eq!(&out[12..14], &[0, 0], "instructionLength 0");
        assert_eq!(&out[14..], &outline);
        // A composite of two components (flags MORE_COMPONENTS | ARGS_ARE_XY_VALUES, then
        // WE_HAVE_INSTRUCTIONS | ARGS_ARE_XY_VALUES | a 2.14 scale), 2 bytes of instructions.
        let mut comp = vec![0xFF, 0xFF, 0, 0, 0, 0, 0, 9, 0, 9];
        comp.extend([0x00, 0x22, 0, 5, 1, 2]);
        comp.extend([0x01, 0x0A, 0, 6, 3, 4, 0x40, 0x00]);
        comp.extend([0, 2, 0xB0, 0x01]);
        let mut components = Vec::new();
        let out = strip_glyph(&comp, &mut components).unwrap();
        assert_eq!(components, [5, 6], "component glyph ids");
        assert_eq!(out.len(), comp.len() - 4);
        assert_eq!(&out[16..18], &[0x00, 0x0A], "flag 0x100 cleared");
        assert_eq!(&out[10..16], &comp[10..16]);
        assert_eq!(&out[18..], &comp[18..24]);
        // Truncated records are refused, not read past their end.
        assert!(strip_glyph(&simple[..13], &mut Vec::new()).is_none());
        assert!(strip_glyph(&comp[..14], &mut Vec::new()).is_none());
    }

    #[test]
    fn subset_keeps_advances_and_maps_glyphs_in_order() {
        let face = text::face(Weight::Regular).unwrap();
        let mut gids: Vec<u16> = "señal ɛ ɔ → ✂".chars().map(|c| face.gid(c)).collect();
        gids.push(0);
        gids.sort();
        gids.dedup();
        let pf = subset_face(face, &gids).expect("subset");
        let bytes = &pf.original_bytes;
        assert!(
            bytes.len() < face.bytes.len() / 10,
            "subset is {} bytes",
            bytes.len()
        );
        // The subset's own cmap agrees with "glyph gids[i] becomes glyph i".
        for c in "señal ɛ ɔ → ✂".chars() {
            let i = gids.binary_search(&face.gid(c)).unwrap() as u16;
            assert_eq!(pf.lookup_glyph_index(c as u32), Some(i), "{c}");
        }
    }

    /// The subset of each face, made from its trimmed tables, draws every kept glyph exactly
    /// as the whole face does (read back by ttf-parser, not by allsorts), composite glyphs
    /// included (DejaVu builds most accented letters from components), and maps each kept
    /// character to glyph `i` for full-font glyph `gids[i]`: accented Latin letters, Greek,
    /// Cyrillic, arrows and symbols, and three sets of 300 characters drawn at random from
    /// the face's whole character map.
    #[test]
    fn trimmed_subsets_draw_every_kept_glyph_as_the_whole_face() {
        for weight in [Weight::Regular, Weight::Bold] {
            let face = text::face(weight).unwrap();
            let whole = ttf_parser::Face::parse(face.bytes, 0).unwrap();
            let mut mapped: Vec<char> = Vec::new();
            for t in whole.tables().cmap.unwrap().subtables {
                if t.is_unicode() {
                    t.codepoints(|c| mapped.extend(char::from_u32(c)));
                }
            }
            mapped.sort_unstable();
            mapped.dedup();
            let mut sets: Vec<Vec<char>> = vec![('\u{C0}'..='\u{17F}')
                .chain("αβγΩ жЖщЯ →←⇒ ✂ ⌀ ©".chars())
                .collect()];
            let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
            for _ in 0..3 {
                sets.push(
                    (0..300)
                        .map(|_| {
                            x ^= x << 13;
                            x ^= x >> 7;
                            x ^= x << 17;
                            mapped[(x % mapped.len() as u64) as usize]
                        })
                        .collect(),
                );
            }
            for chars in sets {
                let mut gids: Vec<u16> = chars.iter().map(|&c| face.gid(c)).collect();
                gids.push(0);
                gids.sort_unstable();
                gids.dedup();
                let pf = subset_face(face, &gids).expect("subset");
                let sub =
                    ttf_parser::Face::parse(&pf.original_bytes, 0).expect("subset reads back");
                let mut composites = 0;
                for (i, &g) in gids.iter().enumerate() {
                    // Both drawn by ttf-parser as it draws them, closing segments included.
                    assert_eq!(
                        text::UnitPen::raw(&pf.original_bytes, i as u16),
                        text::UnitPen::raw(face.bytes, g),
                        "{weight:?}: glyph {g} (subset {i}) drawn differently"
                    );
                    if face_glyph_is_composite(face.bytes, g) {
                        composites += 1;
                    }
                }
                for &c in &chars {
                    let i = gids.binary_search(&face.gid(c)).unwrap() as u32;
                    assert_eq!(
                        sub.glyph_index(c).map(|g| u32::from(g.0)),
                        Some(i).filter(|&i| i != 0),
                        "{weight:?}: {c:?}"
                    );
                }
                assert!(composites > 0, "no composite glyph was kept");
            }
        }
    }

    /// Whether glyph `g` of the TrueType font `bytes` is a composite (`numberOfContours` < 0),
    /// read from the `head`, `loca` and `glyf` tables' bytes.
    fn face_glyph_is_composite(bytes: &[u8], g: u16) -> bool {
        let raw = ttf_parser::RawFace::parse(bytes, 0).unwrap();
        let table = |tag: &[u8; 4]| raw.table(ttf_parser::Tag::from_bytes(tag)).unwrap();
        let (head, loca, glyf) = (table(b"head"), table(b"loca"), table(b"glyf"));
        let g = usize::from(g);
        // head.indexToLocFormat at byte 50: 0, u16 offsets halved; 1, u32 offsets.
        let (start, end) = if head[50..52] == [0, 0] {
            let at = |i: usize| 2 * usize::from(u16::from_be_bytes([loca[2 * i], loca[2 * i + 1]]));
            (at(g), at(g + 1))
        } else {
            let at =
                |i: usize| u32::from_be_bytes(loca[4 * i..4 * i + 4].try_into().unwrap()) as usize;
            (at(g), at(g + 1))
        };
        end > start && i16::from_be_bytes([glyf[start], glyf[start + 1]]) < 0
    }
}
