//! Backend tests: PDF structure read back with lopdf, SVG text checked directly. Expected
//! values come from arithmetic (mm × 72 / 25.4, paper sizes), never from earlier output.
//!
//! Set `SOWKIT_RENDER_OUT=<dir>` to also write the sample document there (`sample.pdf` and one
//! SVG per page) for visual checks and for `tools/check-calibration.sh`.
use lopdf::content::Content;
use lopdf::{Object, ObjectId};
use sowkit::doc::{
    self, circle, line, pt, rect, rounded_rect, Color, Document, Page, Stroke, Weight,
};
use sowkit::render::{pdf, svg};
use sowkit::text;

const SPECIAL: &str = "señal ɛ ɔ → ✂";
const PT_PER_MM: f64 = 72.0 / 25.4;

/// The 100.0 × 3.0 mm solid black calibration bar, top-left at (`x`, `y`).
fn calibration_bar(p: &mut Page, x: f64, y: f64) {
    p.shape(rect(x, y, 100.0, 3.0), Some(Color::BLACK), None);
}

/// Fills a page with paragraphs of wrapped text, like a rule sheet.
fn text_block(p: &mut Page, x: f64, mut y: f64, width: f64, paragraphs: usize) {
    let para = "Sow the seeds one by one counter-clockwise, one into each following pit; \
                if the last seed falls into an opponent's pit that then holds two or three \
                seeds, capture them, and the pits before it while they hold two or three. \
                Grand slam: a move that would capture every seed of the opponent captures nothing. \
                Twi: Ɔware, mmɛ, nkɔ; Español: señal, año, ¿Qué?";
    for i in 0..paragraphs {
        let weight = if i % 3 == 0 {
            Weight::Bold
        } else {
            Weight::Regular
        };
        for l in text::wrap(para, 9.0, weight, width) {
            p.text(x, y, 9.0, weight, &l);
            y += text::line_height_mm(9.0);
        }
        y += 2.0;
    }
}

/// A4 portrait, Letter portrait and A4 landscape pages with shapes and text.
fn sample() -> Document {
    let mut a4 = Page::new("board", 210.0, 297.0);
    calibration_bar(&mut a4, 20.0, 20.0);
    a4.text(20.0, 30.0, 16.0, Weight::Bold, "Oware Abapa — board");
    a4.text(20.0, 38.0, 12.0, Weight::Regular, SPECIAL);
    for i in 0..6 {
        let c = pt(35.0 + 28.0 * f64::from(i), 70.0);
        a4.shape(
            circle(c, 11.0),
            Some(Color::rgb(0xf2, 0xe6, 0xcc)),
            Some(Stroke::solid(0.4, Color::BLACK)),
        );
        a4.text(
            c.x - 1.5,
            c.y + 18.0,
            9.0,
            Weight::Regular,
            &format!("{}", i + 1),
        );
    }
    a4.shape(
        rounded_rect(20.0, 100.0, 170.0, 40.0, 8.0),
        None,
        Some(Stroke::solid(0.5, Color::rgb(0x80, 0x20, 0x20))),
    );
    a4.shape(
        line(pt(10.0, 150.0), pt(200.0, 150.0)),
        None,
        Some(Stroke::dashed(0.3, Color::grey(80), &[3.0, 2.0])),
    );
    a4.text(10.0, 155.0, 8.0, Weight::Regular, "✂ cut here");
    text_block(&mut a4, 20.0, 165.0, 170.0, 3);

    let mut letter = Page::new("rules-1", 215.9, 279.4);
    calibration_bar(&mut letter, 25.0, 15.0);
    text_block(&mut letter, 20.0, 30.0, 175.0, 7);

    let mut land = Page::new("log", 297.0, 210.0);
    calibration_bar(&mut land, 20.0, 15.0);
    land.text(20.0, 30.0, 14.0, Weight::Bold, "Score log");
    for r in 0..10 {
        let y = 40.0 + 12.0 * f64::from(r);
        land.shape(
            line(pt(20.0, y), pt(277.0, y)),
            None,
            Some(Stroke::solid(0.25, Color::BLACK)),
        );
    }
    Document {
        title: "Oware Abapa — print-and-play kit".into(),
        pages: vec![a4, letter, land],
    }
}

fn write_samples(doc: &Document, pdf_bytes: &[u8]) {
    if let Ok(dir) = std::env::var("SOWKIT_RENDER_OUT") {
        let dir = std::path::Path::new(&dir);
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("sample.pdf"), pdf_bytes).unwrap();
        for (name, s) in svg::render_all(doc) {
            std::fs::write(dir.join(name), s).unwrap();
        }
    }
}

fn load(bytes: &[u8]) -> lopdf::Document {
    lopdf::Document::load_mem(bytes).expect("lopdf parses our PDF")
}

fn page_ids(d: &lopdf::Document) -> Vec<ObjectId> {
    d.get_pages().values().copied().collect()
}

fn media_box(d: &lopdf::Document, id: ObjectId) -> Vec<f32> {
    let page = d.get_dictionary(id).unwrap();
    page.get(b"MediaBox")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_float().unwrap())
        .collect()
}

fn deref<'a>(d: &'a lopdf::Document, o: &'a Object) -> &'a Object {
    d.dereference(o).unwrap().1
}

#[test]
fn page_sizes_are_exact() {
    let doc = sample();
    let bytes = pdf::render(&doc);
    write_samples(&doc, &bytes);
    let d = load(&bytes);
    let ids = page_ids(&d);
    assert_eq!(ids.len(), 3);
    // A4 = 210 × 297 mm = 595.276 × 841.890 pt; Letter = 8.5 × 11 in = 612 × 792 pt.
    let want = [(595.276, 841.890), (612.0, 792.0), (841.890, 595.276)];
    for (id, (w, h)) in ids.iter().zip(want) {
        let mb = media_box(&d, *id);
        assert_eq!((mb[0], mb[1]), (0.0, 0.0));
        assert!(
            (f64::from(mb[2]) - w).abs() < 0.01,
            "width {} vs {w}",
            mb[2]
        );
        assert!(
            (f64::from(mb[3]) - h).abs() < 0.01,
            "height {} vs {h}",
            mb[3]
        );
    }
}

#[test]
fn fonts_are_embedded_subsets() {
    let d = load(&pdf::render(&sample()));
    let fonts = d.get_page_fonts(page_ids(&d)[0]).unwrap();
    let mut names: Vec<String> = Vec::new();
    for f in fonts.values() {
        let base =
            String::from_utf8(f.get(b"BaseFont").unwrap().as_name().unwrap().to_vec()).unwrap();
        // Subset tag: six capital letters and '+'.
        let (tag, rest) = base.split_once('+').expect("subset prefix");
        assert!(
            tag.len() == 6 && tag.chars().all(|c| c.is_ascii_uppercase()),
            "{base}"
        );
        assert!(rest.starts_with("DejaVuSans"));
        let desc = f.get(b"DescendantFonts").unwrap().as_array().unwrap();
        let cid = deref(&d, &desc[0]).as_dict().unwrap();
        let fd = deref(&d, cid.get(b"FontDescriptor").unwrap())
            .as_dict()
            .unwrap();
        let file = deref(&d, fd.get(b"FontFile2").unwrap())
            .as_stream()
            .unwrap();
        let len = file
            .decompressed_content()
            .map(|c| c.len())
            .unwrap_or(file.content.len());
        // A subset of a ~750 KB face: non-empty and far smaller than the whole font.
        assert!(len > 1000 && len < 150_000, "font program {len} bytes");
        assert!(f.get(b"ToUnicode").is_ok());
        names.push(base);
    }
    names.sort();
    assert_eq!(names, vec!["SOWKAA+DejaVuSans", "SOWKAB+DejaVuSans-Bold"]);
}

#[test]
fn text_is_extractable() {
    let d = load(&pdf::render(&sample()));
    let t = d.extract_text(&[1]).unwrap();
    assert!(t.contains(SPECIAL), "{t}");
    assert!(t.contains("Oware Abapa — board"), "{t}");
    assert!(t.contains("cut here"));
    let t3 = d.extract_text(&[3]).unwrap();
    assert!(t3.contains("Score log"));
}

#[test]
fn output_is_deterministic() {
    let doc = sample();
    let a = pdf::render(&doc);
    let b = pdf::render(&doc);
    assert_eq!(a, b, "same document twice in one process");
    // Threads interleaving printpdf's global id counter must not matter either.
    let handles: Vec<_> = (0..2)
        .map(|_| std::thread::spawn(|| pdf::render(&sample())))
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), a);
    }
    let s = String::from_utf8_lossy(&a);
    assert!(!s.contains("PLACEHOLDER"));
    assert!(!s.contains("CreationDate") && !s.contains("ModDate"));
    // A different document gets a different /ID.
    let mut other = doc.clone();
    other.title.push('!');
    let id = |bytes: &[u8]| {
        load(bytes).trailer.get(b"ID").unwrap().as_array().unwrap()[0]
            .as_str()
            .unwrap()
            .to_vec()
    };
    assert_ne!(id(&a), id(&pdf::render(&other)));
    assert_eq!(id(&a).len(), 32);
}

#[test]
fn metadata_and_print_scaling() {
    let doc = sample();
    let d = load(&pdf::render(&doc));
    let cat = d.catalog().unwrap();
    let vp = deref(&d, cat.get(b"ViewerPreferences").unwrap())
        .as_dict()
        .unwrap();
    assert_eq!(vp.get(b"PrintScaling").unwrap().as_name().unwrap(), b"None");
    let info = deref(&d, d.trailer.get(b"Info").unwrap())
        .as_dict()
        .unwrap();
    let raw = info.get(b"Title").unwrap().as_str().unwrap();
    // UTF-16BE with BOM (the title has a non-ASCII dash) or plain bytes.
    let title = if raw.starts_with(&[0xfe, 0xff]) {
        let units: Vec<u16> = raw[2..]
            .chunks(2)
            .map(|c| u16::from_be_bytes([c[0], c[1]]))
            .collect();
        String::from_utf16(&units).unwrap()
    } else {
        String::from_utf8(raw.to_vec()).unwrap()
    };
    assert_eq!(title, doc.title);
}

/// The form XObjects of page `n`: resource name → (content operations, /BBox).
fn page_forms(
    d: &lopdf::Document,
    n: usize,
) -> std::collections::BTreeMap<Vec<u8>, (Vec<lopdf::content::Operation>, Vec<f64>)> {
    let page = d.get_dictionary(page_ids(d)[n]).unwrap();
    let res = deref(d, page.get(b"Resources").unwrap()).as_dict().unwrap();
    let mut out = std::collections::BTreeMap::new();
    let Ok(xo) = res.get(b"XObject") else {
        return out;
    };
    for (name, r) in deref(d, xo).as_dict().unwrap().iter() {
        let st = deref(d, r).as_stream().unwrap();
        assert_eq!(st.dict.get(b"Subtype").unwrap().as_name().unwrap(), b"Form");
        let bbox = st
            .dict
            .get(b"BBox")
            .expect("a form needs a /BBox")
            .as_array()
            .unwrap()
            .iter()
            .map(|o| f64::from(o.as_float().unwrap()))
            .collect();
        let bytes = st.decompressed_content().unwrap_or(st.content.clone());
        out.insert(
            name.clone(),
            (Content::decode(&bytes).unwrap().operations, bbox),
        );
    }
    out
}

/// Page `n`'s operations with every `q 1 0 0 1 x y cm /Name Do Q` of a form XObject replaced
/// by the form's own path operations moved by (x, y), so a drawing reads the same whether or
/// not it was shared. Each op: operator and f64 operands (non-numbers dropped).
fn flat_ops(d: &lopdf::Document, n: usize) -> Vec<(String, Vec<f64>)> {
    let forms = page_forms(d, n);
    let content = d.get_page_content(page_ids(d)[n]);
    let ops = Content::decode(&content).unwrap().operations;
    let nums = |o: &lopdf::content::Operation| -> Vec<f64> {
        o.operands
            .iter()
            .filter_map(|v| v.as_float().ok().map(f64::from))
            .collect()
    };
    let mut out = Vec::new();
    let mut shift = (0.0, 0.0);
    for o in &ops {
        match o.operator.as_str() {
            "cm" => {
                let m = nums(o);
                assert_eq!(&m[..4], &[1.0, 0.0, 0.0, 1.0], "a form is only translated");
                shift = (m[4], m[5]);
            }
            "Do" => {
                let name = o.operands[0].as_name().unwrap();
                for f in &forms[name].0 {
                    let v: Vec<f64> = nums(f)
                        .iter()
                        .enumerate()
                        .map(|(i, v)| v + if i % 2 == 0 { shift.0 } else { shift.1 })
                        .collect();
                    out.push((f.operator.clone(), v));
                }
            }
            "q" | "Q" if o.operands.is_empty() => {}
            _ => out.push((o.operator.clone(), nums(o))),
        }
    }
    out
}

/// Operands of every path-construction op (`m`, `l`) on page `n`, as f64 pairs, forms drawn
/// in place ([`flat_ops`]).
fn path_points(d: &lopdf::Document, n: usize) -> Vec<(String, f64, f64)> {
    flat_ops(d, n)
        .into_iter()
        .filter(|(op, _)| op == "m" || op == "l")
        .map(|(op, v)| (op, v[0], v[1]))
        .collect()
}

#[test]
fn an_outline_drawn_more_than_once_is_one_form_xobject() {
    let d = load(&pdf::render(&sample()));
    let content = d.get_page_content(page_ids(&d)[0]);
    let ops = Content::decode(&content).unwrap().operations;
    let uses: Vec<(Vec<u8>, f64, f64)> = ops
        .windows(2)
        .filter(|w| w[0].operator == "cm" && w[1].operator == "Do")
        .map(|w| {
            let f = |i: usize| f64::from(w[0].operands[i].as_float().unwrap());
            (w[1].operands[0].as_name().unwrap().to_vec(), f(4), f(5))
        })
        .collect();
    // Page 1 draws six equal pit circles (r = 11 mm): one form, six uses. The rounded frame
    // is drawn once and the calibration bar (a rectangle, drawn on each of the three pages)
    // is shorter inline than as a form, so both stay inline.
    let forms = page_forms(&d, 0);
    assert_eq!(forms.len(), 1, "{:?}", forms.keys().collect::<Vec<_>>());
    assert_eq!(uses.len(), 6);
    let circle_name = &uses[0].0;
    let circles: Vec<_> = uses.iter().filter(|u| &u.0 == circle_name).collect();
    assert_eq!(circles.len(), 6);
    for (i, (_, x, y)) in circles.iter().enumerate() {
        // A circle's path starts at its rightmost point (c.x + r, c.y); y up from the foot.
        let want = (
            (35.0 + 28.0 * i as f64 + 11.0) * PT_PER_MM,
            (297.0 - 70.0) * PT_PER_MM,
        );
        assert!(
            (x - want.0).abs() < 0.0051 && (y - want.1).abs() < 0.0051,
            "circle {i} at ({x}, {y}), want {want:?}"
        );
    }
    // The circle form: one subpath of four Béziers, closed, filled and stroked, relative to
    // its first point: it spans 22 mm across and the BBox holds it and its 0.4 mm stroke.
    let (fops, bbox) = &forms[circle_name];
    let names: Vec<&str> = fops.iter().map(|o| o.operator.as_str()).collect();
    assert_eq!(names, ["m", "c", "c", "c", "c", "h", "B"]);
    let first: Vec<f32> = fops[0]
        .operands
        .iter()
        .map(|o| o.as_float().unwrap())
        .collect();
    assert_eq!(first, [0.0, 0.0]);
    let last_c: Vec<f32> = fops[2]
        .operands
        .iter()
        .map(|o| o.as_float().unwrap())
        .collect();
    // The second Bézier ends at the leftmost point, 2 r = 22 mm to the left.
    assert!(
        (f64::from(last_c[4]) + 22.0 * PT_PER_MM).abs() < 0.0051,
        "{last_c:?}"
    );
    assert!((f64::from(last_c[5])).abs() < 0.0051);
    let r = 11.0 * PT_PER_MM;
    let pad = 0.2 * PT_PER_MM;
    assert!(
        bbox[0] <= -2.0 * r - pad && bbox[2] >= pad && bbox[1] <= -r - pad && bbox[3] >= r + pad,
        "{bbox:?}"
    );
    // Fill and stroke colour are set outside the form and inherited by it.
    let fill = ops.iter().position(|o| o.operator == "rg").unwrap();
    let first_use = ops.iter().position(|o| o.operator == "Do").unwrap();
    assert!(fill < first_use);
    assert!(fops
        .iter()
        .all(|o| !["rg", "RG", "w", "d"].contains(&o.operator.as_str())));
}

/// The sfnt table tags of a font program, and its `glyf` records (by `loca`).
fn sfnt_tables(font: &[u8]) -> std::collections::BTreeMap<String, Vec<u8>> {
    let be16 = |b: &[u8], i: usize| usize::from(u16::from_be_bytes([b[i], b[i + 1]]));
    let be32 =
        |b: &[u8], i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]) as usize;
    (0..be16(font, 4))
        .map(|k| {
            let e = 12 + 16 * k;
            let tag = String::from_utf8(font[e..e + 4].to_vec()).unwrap();
            let (off, len) = (be32(font, e + 8), be32(font, e + 12));
            (tag, font[off..off + len].to_vec())
        })
        .collect()
}

#[test]
fn embedded_fonts_have_no_names_or_hinting() {
    let d = load(&pdf::render(&sample()));
    let fonts = d.get_page_fonts(page_ids(&d)[0]).unwrap();
    assert_eq!(fonts.len(), 2);
    for f in fonts.values() {
        let desc = f.get(b"DescendantFonts").unwrap().as_array().unwrap();
        let cid = deref(&d, &desc[0]).as_dict().unwrap();
        let fd = deref(&d, cid.get(b"FontDescriptor").unwrap())
            .as_dict()
            .unwrap();
        let file = deref(&d, fd.get(b"FontFile2").unwrap())
            .as_stream()
            .unwrap();
        let font = file.decompressed_content().unwrap();
        let t = sfnt_tables(&font);
        // What a PDF reader draws TrueType glyphs with (ISO 32000-1 §9.9), cmap and post; no
        // name table, no hinting programs.
        let tags: Vec<&str> = t.keys().map(String::as_str).collect();
        assert_eq!(
            tags,
            ["cmap", "glyf", "head", "hhea", "hmtx", "loca", "maxp", "post"]
        );
        // Every glyph without instructions (OpenType glyf: a simple glyph's instructionLength
        // after its endPtsOfContours; a composite glyph's WE_HAVE_INSTRUCTIONS flag, 0x100).
        let be16 = |b: &[u8], i: usize| usize::from(u16::from_be_bytes([b[i], b[i + 1]]));
        let long = be16(&t["head"], 50) == 1;
        let n = be16(&t["maxp"], 4);
        let off = |i: usize| {
            if long {
                u32::from_be_bytes(t["loca"][4 * i..4 * i + 4].try_into().unwrap()) as usize
            } else {
                2 * be16(&t["loca"], 2 * i)
            }
        };
        let glyf = &t["glyf"];
        let mut simple = 0;
        for g in 0..n {
            let rec = &glyf[off(g)..off(g + 1)];
            if rec.is_empty() {
                continue;
            }
            let contours = i16::from_be_bytes([rec[0], rec[1]]);
            if contours >= 0 {
                assert_eq!(
                    be16(rec, 10 + 2 * contours as usize),
                    0,
                    "glyph {g} has instructions"
                );
                simple += 1;
            } else {
                let mut at = 10;
                loop {
                    let flags = be16(rec, at);
                    assert_eq!(flags & 0x100, 0, "composite glyph {g} has instructions");
                    if flags & 0x20 == 0 {
                        break;
                    }
                    at += 4 + if flags & 1 != 0 { 4 } else { 2 };
                    at += match flags & 0xC8 {
                        0x08 => 2,
                        0x40 => 4,
                        0x80 => 8,
                        _ => 0,
                    };
                }
            }
        }
        assert!(simple > 10, "{simple} simple glyphs");
    }
}

#[test]
fn hundred_millimetres_is_283_465_points() {
    let d = load(&pdf::render(&sample()));
    // Page 1's bar: rect(20, 20, 100, 3) → m (20, 20) l (120, 20) l (120, 23) l (20, 23), y flipped.
    let pts = path_points(&d, 0);
    let start = pts
        .iter()
        .position(|(op, x, y)| {
            // Points are written to 0.01 pt: each coordinate within 0.005 pt of the exact value.
            op == "m"
                && (x - 20.0 * PT_PER_MM).abs() < 0.0051
                && (y - 277.0 * PT_PER_MM).abs() < 0.0051
        })
        .expect("bar start");
    let (_, x0, y0) = pts[start];
    let (ref op, x1, y1) = pts[start + 1];
    assert_eq!(op, "l");
    // 100 mm = 283.4646 pt; two ends each rounded to 0.01 pt: within 0.0101 pt (0.004 mm).
    assert!((x1 - x0 - 283.4646).abs() < 0.0101, "bar is {} pt", x1 - x0);
    assert!((y1 - y0).abs() < 1e-4);
    let (_, _, y2) = pts[start + 2];
    // 3 mm tall, and the page model's "down" is PDF's "minus".
    assert!((y0 - y2 - 3.0 * PT_PER_MM).abs() < 0.0101);
}

#[test]
fn dash_pattern_is_in_points() {
    let d = load(&pdf::render(&sample()));
    let content = d.get_page_content(page_ids(&d)[0]);
    let ops = Content::decode(&content).unwrap().operations;
    // The first dashed pattern (a solid stroke may first set the empty pattern `[] 0 d`).
    let dash = ops
        .iter()
        .find(|o| o.operator == "d" && o.operands[0].as_array().is_ok_and(|a| !a.is_empty()))
        .expect("a dash op");
    let arr: Vec<f64> = dash.operands[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| f64::from(o.as_float().unwrap()))
        .collect();
    // 3 mm on, 2 mm off.
    assert!(
        // Written to 0.01 pt.
        (arr[0] - 3.0 * PT_PER_MM).abs() < 0.0051 && (arr[1] - 2.0 * PT_PER_MM).abs() < 0.0051,
        "{arr:?}"
    );
}

#[test]
fn pdf_widths_are_the_measured_advances() {
    // The /W array gives, per embedded glyph, the advance the viewer uses; it must equal the
    // advance text::width_mm measures and the SVG backend places outlines at.
    let doc = sample();
    let d = load(&pdf::render(&doc));
    let fonts = d.get_page_fonts(page_ids(&d)[0]).unwrap();
    let regular = fonts
        .values()
        .find(|f| f.get(b"BaseFont").unwrap().as_name().unwrap() == b"SOWKAA+DejaVuSans")
        .unwrap();
    let desc = regular.get(b"DescendantFonts").unwrap().as_array().unwrap();
    let cid = deref(&d, &desc[0]).as_dict().unwrap();
    let w = deref(&d, cid.get(b"W").unwrap()).as_array().unwrap();
    // /W is [c [w1 w2 …] c' [...] …] or [c_first c_last w]; expand to a map.
    let mut widths = std::collections::BTreeMap::new();
    let mut i = 0;
    while i < w.len() {
        let c = w[i].as_i64().unwrap();
        if let Ok(list) = deref(&d, &w[i + 1]).as_array() {
            for (k, v) in list.iter().enumerate() {
                widths.insert(c + k as i64, v.as_float().unwrap());
            }
            i += 2;
        } else {
            for k in c..=w[i + 1].as_i64().unwrap() {
                widths.insert(k, w[i + 2].as_float().unwrap());
            }
            i += 3;
        }
    }
    // Subset glyph ids are assigned in increasing order of the full-font ids in use.
    let mut used: Vec<u16> = Vec::new();
    for p in &doc.pages {
        for it in &p.items {
            if let doc::Item::Text(t) = it {
                if t.weight == Weight::Regular {
                    used.extend(text::glyphs(&t.text, Weight::Regular).iter().map(|g| g.gid));
                }
            }
        }
    }
    used.push(0);
    used.sort();
    used.dedup();
    for c in SPECIAL.chars() {
        let g = text::glyphs(&c.to_string(), Weight::Regular)[0];
        let sub = used.binary_search(&g.gid).unwrap() as i64;
        let pdf_w = widths.get(&sub).copied().unwrap_or(0.0);
        assert_eq!(
            pdf_w as f64,
            f64::from(g.advance_milli_em),
            "advance of {c:?}"
        );
    }
}

#[test]
fn svg_root_is_in_millimetres() {
    let doc = sample();
    let s = svg::render_page(&doc.pages[0], &doc.title);
    assert!(s.starts_with("<svg "), "{}", &s[..40]);
    assert!(s.contains(r#"width="210mm""#) && s.contains(r#"height="297mm""#));
    // One user unit is 0.01 mm: the A4 page is 21000 × 29700 units.
    assert!(s.contains(r#"viewBox="0 0 21000 29700""#));
    assert!(s.contains("<title>Oware Abapa — print-and-play kit</title>"));
    let letter = svg::render_page(&doc.pages[1], "x");
    assert!(
        letter.contains(r#"width="215.9mm""#) && letter.contains(r#"viewBox="0 0 21590 27940""#)
    );
}

#[test]
fn svg_shapes_are_in_millimetres() {
    let doc = sample();
    let s = svg::render_page(&doc.pages[0], &doc.title);
    // rect(20, 20, 100, 3), filled black (the SVG default fill), in hundredths of a mm.
    assert!(
        s.contains(r#"<rect height="300" width="10000" x="2000" y="2000"/>"#),
        "{s}"
    );
    // The dashed cut line from (10, 150) to (200, 150): 3 mm on, 2 mm off, 0.3 mm wide, grey 80
    // = #505050; relative path data, 190 mm to the right.
    assert!(s.contains(r##"<path d="m1000 15000h19000" fill="none" stroke="#505050" stroke-dasharray="300 200" stroke-width="30"/>"##), "{s}");
}

/// Where glyph `i` of `text` (12 pt, regular, line starting at x = 20 mm) begins, in whole
/// hundredths of a millimetre, from the quantised advances.
fn origin_h(text: &str, i: usize) -> i64 {
    let milli: u64 = text::glyphs(text, Weight::Regular)[..i]
        .iter()
        .map(|g| u64::from(g.advance_milli_em))
        .sum();
    ((20.0 + milli as f64 / 1000.0 * 12.0 * 25.4 / 72.0) * 100.0).round() as i64
}

#[test]
fn svg_text_is_outlined_and_labelled() {
    let doc = sample();
    let s = svg::render_page(&doc.pages[0], &doc.title);
    assert!(!s.contains("<text"));
    assert!(s.contains(&format!(r#"aria-label="{SPECIAL}"#)) || s.contains(SPECIAL));

    // A line whose glyphs are all different: one <use> per non-space character
    // (s e ñ a l ɛ ɔ → ✂), all in one group scaled from lattice steps to hundredths of a mm:
    // 12 pt × 25.4 / 72 mm per em / 2048 units = 0.002067057 mm per font unit, so the
    // outlines' lattice step is 4 units (5 × 0.002067 mm would pass 0.01 mm), 0.8268229
    // hundredths; each glyph placed at its origin (0.01 mm) in whole steps.
    let mut p = Page::new("t", 100.0, 50.0);
    p.text(20.0, 38.0, 12.0, Weight::Regular, SPECIAL);
    let s = svg::render_page(&p, "t");
    assert_eq!(s.matches("<use ").count(), 9, "{s}");
    assert_eq!(
        s.matches("<g transform=\"scale(.8268229)\">").count(),
        1,
        "{s}"
    );
    let k = 4.0 * 100.0 * 12.0 * 25.4 / 72.0 / 2048.0;
    let units = |h: i64| (h as f64 / k).round() as i64;
    let y = units(3800);
    // The `<use>` placed at (x, y) steps (attributes in the svg crate's order: href, x, y).
    let placed = |x: i64| {
        s.split("<use ")
            .any(|u| u.contains(&format!(" x=\"{x}\" y=\"{y}\"/>")))
    };
    assert!(placed(units(2000)), "{s}");
    // The second glyph ('e') sits one quantised advance of 's' further.
    assert!(placed(units(origin_h(SPECIAL, 1))), "{s}");
    // Every use points at a glyph outline defined in <defs>.
    for u in s.split("href=\"#").skip(1) {
        let id = &u[..u.find('"').unwrap()];
        // The element carrying that id is a <path> (a glyph outline).
        let at = s
            .find(&format!(r#" id="{id}""#))
            .unwrap_or_else(|| panic!("{id} undefined"));
        let open = s[..at].rfind('<').unwrap();
        assert!(s[open..].starts_with("<path "), "{id} is not a path");
    }

    // A glyph used several times at one size is one path through the glyph origins with the
    // glyph as a marker at every vertex: "mmm" starts at (20, 38) mm = (2000, 3800) units and
    // steps one advance of 'm', then another.
    let mut p = Page::new("t", 100.0, 50.0);
    p.text(20.0, 38.0, 12.0, Weight::Regular, "mmm");
    let s = svg::render_page(&p, "t");
    let (a, b) = (
        origin_h("mmm", 1) - origin_h("mmm", 0),
        origin_h("mmm", 2) - origin_h("mmm", 1),
    );
    assert!(
        s.contains(&format!(
            r#"<path d="m2000 3800h{a} {b}" style="marker:url(#b)"/>"#
        )),
        "{s}"
    );
    // The outline is used by that one marker only, so it is written inside the marker: no
    // id and no `<use>`, and no transform: the marker's scale, the stroke width, is the
    // hundredths of a mm per lattice step. One CSS rule lets every marker's outline out of the
    // marker box.
    let marker = &s[s.find(r#"<marker id="b">"#).expect("marker b")..];
    let marker = &marker[..marker.find("</marker>").unwrap()];
    assert!(
        marker.starts_with(r#"<marker id="b"><path d="m"#) && !marker.contains("transform"),
        "{s}"
    );
    assert!(!s.contains(r#" id="a""#), "{s}");
    assert!(
        s.contains("<style>\nmarker{overflow:visible}\n</style>"),
        "{s}"
    );
    // Markers scale with the stroke width: one lattice step (4 font units) at 12 pt is
    // 0.8268229 hundredths of a mm.
    assert!(
        s.contains(r#"<g fill="none" stroke-width=".8268229">"#),
        "{s}"
    );
    assert_eq!(s.matches("<use ").count(), 0, "{s}");

    // The same glyph also drawn once at 20 pt: its lattice step is now 2 units (3 × 0.003445
    // mm would pass 0.01 mm), so the 12 pt run's stroke width is 2 × 0.20670573 = 0.4134115; the outline,
    // still in its marker, gets an id that the single glyph's `<use>` refers to, scaled by
    // 2 × 0.3445095 = 0.6890191 hundredths of a mm per step and placed at (20, 20) mm.
    p.text(20.0, 20.0, 20.0, Weight::Regular, "m");
    let s = svg::render_page(&p, "t");
    assert_eq!(
        s.matches("<path d=\"m").count(),
        2,
        "one outline and one run: {s}"
    );
    assert_eq!(s.matches("<use ").count(), 1, "{s}");
    assert!(
        s.contains(r#"<g fill="none" stroke-width=".4134115">"#),
        "{s}"
    );
    let marker = &s[s.find("<marker id=").expect("a marker")..];
    let marker = &marker[..marker.find("</marker>").unwrap()];
    let id = marker
        .split(" id=\"")
        .nth(2)
        .and_then(|r| r.split('"').next())
        .unwrap_or_else(|| panic!("the outline in the marker has an id: {s}"));
    assert!(
        s.contains(&format!(
            r##"<use href="#{id}" transform="translate(2000 2000) scale(.6890191)"/>"##
        )),
        "{s}"
    );
}

#[test]
fn svg_is_deterministic_and_named_by_page() {
    let doc = sample();
    let a = svg::render_all(&doc);
    assert_eq!(a, svg::render_all(&doc));
    let names: Vec<&str> = a.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["01-board.svg", "02-rules-1.svg", "03-log.svg"]);
}

#[test]
fn degenerate_documents_do_not_panic() {
    let empty = Document {
        title: String::new(),
        pages: vec![],
    };
    assert!(!pdf::render(&empty).is_empty());
    let mut p = Page::new("odd", f64::NAN, -5.0);
    p.text(f64::NAN, 10.0, f64::INFINITY, Weight::Regular, "x");
    p.text(10.0, 10.0, 10.0, Weight::Bold, "");
    p.shape(
        vec![doc::Seg::LineTo(pt(1.0, 1.0)), doc::Seg::Close],
        Some(Color::BLACK),
        None,
    );
    p.shape(
        rect(0.0, 0.0, 1.0, 1.0),
        None,
        Some(Stroke::dashed(f64::NAN, Color::BLACK, &[0.0])),
    );
    let bytes = pdf::render(&Document {
        title: "odd".into(),
        pages: vec![p.clone()],
    });
    assert_eq!(page_ids(&load(&bytes)).len(), 1);
    let s = svg::render_page(&p, "odd");
    assert!(s.contains(r#"width="1mm""#));
}

#[test]
fn six_text_heavy_pages_stay_under_200_kb() {
    // Six A4 pages, each a calibration bar plus a full column of 9 pt text in both weights.
    let mut pages = Vec::new();
    for i in 0..6 {
        let mut p = Page::new(&format!("rules-{i}"), 210.0, 297.0);
        calibration_bar(&mut p, 20.0, 12.0);
        text_block(&mut p, 20.0, 25.0, 170.0, 15);
        pages.push(p);
    }
    let doc = Document {
        title: "six pages".into(),
        pages,
    };
    let lines = doc.pages.iter().map(|p| p.items.len()).sum::<usize>();
    let bytes = pdf::render(&doc);
    let svg_total: usize = svg::render_all(&doc).iter().map(|(_, s)| s.len()).sum();
    println!(
        "6 pages, {lines} items: PDF {} bytes, SVG total {svg_total} bytes",
        bytes.len()
    );
    assert!(lines > 6 * 55, "text-heavy: {lines} items");
    assert!(bytes.len() < 200_000, "PDF is {} bytes", bytes.len());
}

#[test]
fn svg_text_is_drawn_before_a_shape_over_it_and_other_text_stays_gathered() {
    // Line 1 at the top, a white box drawn over line 2, then line 3 at the foot: line 2 must
    // be painted before the box (one group), lines 1 and 3 (away from the box) after it, in
    // one group of their own, where the glyphs of "aa" on both lines share one marker path.
    let mut p = Page::new("t", 100.0, 100.0);
    p.text(10.0, 10.0, 10.0, Weight::Regular, "aa top");
    p.text(10.0, 50.0, 10.0, Weight::Regular, "covered");
    p.shape(rect(5.0, 40.0, 90.0, 20.0), Some(Color::WHITE), None);
    p.text(10.0, 90.0, 10.0, Weight::Regular, "aa foot");
    let s = svg::render_page(&p, "t");
    let covered = s.find(r#"aria-label="covered""#).expect("line 2 group");
    let rect_at = s.find("<rect ").expect("the box");
    let others = s
        .find(r#"aria-label="aa top aa foot""#)
        .expect("lines 1 and 3 together");
    assert!(covered < rect_at && rect_at < others, "{s}");
    assert_eq!(s.matches("aria-label=").count(), 2, "{s}");
    // 'a' is drawn four times in the second group: one marker path through its places in
    // line order. Its advance at 10 pt is 1255/2048 em = 6.128 pt = 2.16 mm (216 units): from
    // (10, 10) mm along line 1 (`h216`), then to line 3's first 'a' at (10, 90) mm, 216 units
    // back and 8000 down (`l-216 8000`, as long as `L1000 9000`, and first), then `h216`.
    let group = &s[others..];
    let d = group
        .split("<path d=\"")
        .nth(1)
        .and_then(|d| d.split('"').next())
        .unwrap_or("");
    assert_eq!(d, "m1000 1000h216l-216 8000h216");
}

#[test]
fn pdf_text_runs_are_placed_by_relative_td_at_the_page_model_positions() {
    // Text items in a row share one text object; each is one `Tj` string of 2-byte glyph codes,
    // placed by a `Td` relative to the previous line start (the text line matrix restarts at
    // the origin at `BT`, ISO 32000-1 §9.4.2). Summing the `Td`s must give each item's own
    // position: x mm × 72 / 25.4, and y measured up from the page foot.
    let doc = sample();
    let d = load(&pdf::render(&doc));
    let content = d.get_page_content(page_ids(&d)[0]);
    let ops = Content::decode(&content).unwrap().operations;
    let mut line = (0.0f64, 0.0f64);
    let mut shown: Vec<(f64, f64, usize)> = Vec::new();
    let mut text_objects = 0;
    for o in &ops {
        match o.operator.as_str() {
            "BT" => {
                line = (0.0, 0.0);
                text_objects += 1;
            }
            "Td" => {
                line.0 += f64::from(o.operands[0].as_float().unwrap());
                line.1 += f64::from(o.operands[1].as_float().unwrap());
            }
            "Tj" => {
                let bytes = o.operands[0].as_str().unwrap();
                shown.push((line.0, line.1, bytes.len()));
            }
            "TJ" => panic!("text is shown with Tj, one string per item: {o:?}"),
            _ => {}
        }
    }
    let texts: Vec<&doc::Text> = doc.pages[0]
        .items
        .iter()
        .filter_map(|i| match i {
            doc::Item::Text(t) => Some(t),
            _ => None,
        })
        .collect();
    assert_eq!(shown.len(), texts.len());
    for ((x, y, n), t) in shown.iter().zip(&texts) {
        let want = (t.x * PT_PER_MM, (297.0 - t.y) * PT_PER_MM);
        // Each position rounded once to 0.01 pt, and the Td sums add at most 0.01 pt more.
        assert!(
            (x - want.0).abs() < 0.0151 && (y - want.1).abs() < 0.0151,
            "{:?} at ({x}, {y}), want {want:?}",
            t.text
        );
        assert_eq!(*n, 2 * t.text.chars().count(), "{:?}", t.text);
    }
    // The six pit numbers alternate with circles (separate text objects); the paragraph
    // lines at the foot of the page follow one another in one.
    assert!(
        text_objects < texts.len(),
        "{text_objects} text objects for {} items",
        texts.len()
    );
}
