//! Whole kits from the bundled rulesets: PDF structure checked with lopdf (an independent PDF
//! parser), determinism within one process, size budget, and insta snapshots of every SVG page.
use sowkit::layout::{Paper, A4, LETTER};
use sowkit::ruleset::Ruleset;
use std::path::Path;

const IDS: [&str; 5] = [
    "six-pit-sowing",
    "kalah-6x4",
    "kalah-6x3",
    "oware-abapa",
    "giuthi",
];

fn load(id: &str) -> Ruleset {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("rulesets/{id}.toml"));
    let src = std::fs::read_to_string(&path).unwrap();
    let rs = sowkit::ruleset::load_str(&format!("rulesets/{id}.toml"), &src)
        .unwrap_or_else(|d| panic!("{}", d[0].rendered));
    let bad = sowkit::examples::check(&rs, &src);
    assert!(bad.is_empty(), "{}", bad[0].rendered);
    rs
}

fn num(o: &lopdf::Object) -> f64 {
    match o {
        lopdf::Object::Integer(i) => *i as f64,
        lopdf::Object::Real(r) => *r as f64,
        other => panic!("not a number: {other:?}"),
    }
}

/// (width, height) in pt of every page, in order.
fn page_sizes(doc: &lopdf::Document) -> Vec<(f64, f64)> {
    doc.get_pages()
        .values()
        .map(|&id| {
            let page = doc.get_object(id).unwrap().as_dict().unwrap();
            let mb = page.get(b"MediaBox").unwrap().as_array().unwrap();
            (num(&mb[2]) - num(&mb[0]), num(&mb[3]) - num(&mb[1]))
        })
        .collect()
}

fn check_pdf(id: &str, paper: Paper) {
    let rs = load(id);
    let kit = sowkit::kit::make(&rs, &sowkit::layout::KitOptions::new(paper)).unwrap();
    let pdf = &kit
        .files
        .iter()
        .find(|f| f.name == "kit.pdf")
        .unwrap()
        .bytes;
    assert!(
        pdf.len() < 200_000,
        "{id}: kit.pdf is {} bytes (budget 200 KB)",
        pdf.len()
    );
    let doc = lopdf::Document::load_mem(pdf).unwrap();
    let sizes = page_sizes(&doc);
    assert_eq!(sizes.len(), kit.document.pages.len());
    // Exact paper sizes in points: mm × 72 / 25.4.
    let (w, h) = (paper.width * 72.0 / 25.4, paper.height * 72.0 / 25.4);
    for (i, (pw, ph)) in sizes.iter().enumerate() {
        let portrait = (pw - w).abs() < 0.01 && (ph - h).abs() < 0.01;
        let landscape = (pw - h).abs() < 0.01 && (ph - w).abs() < 0.01;
        assert!(
            portrait || landscape,
            "{id} page {}: {pw} x {ph} pt is not {} ({w:.3} x {h:.3})",
            i + 1,
            paper.name
        );
    }
    // Fonts: every font program embedded, subset-tagged.
    let mut fonts = 0;
    for obj in doc.objects.values() {
        if let Ok(d) = obj.as_dict() {
            if d.get(b"Type").ok().and_then(|t| t.as_name().ok())
                == Some(b"FontDescriptor".as_slice())
            {
                fonts += 1;
                assert!(d.get(b"FontFile2").is_ok(), "{id}: a font is not embedded");
                let name = d.get(b"FontName").unwrap().as_name().unwrap();
                assert_eq!(
                    name.get(6),
                    Some(&b'+'),
                    "{id}: font {} is not subset-tagged",
                    String::from_utf8_lossy(name)
                );
            }
        }
    }
    assert!(fonts >= 1, "{id}: no embedded font");
    // Text is extractable: the game's name and the calibration label on page 1.
    let text = doc.extract_text(&[1]).unwrap();
    assert!(text.contains("100\u{a0}mm"), "{id}: page 1 text: {text}");
    let all: String = (1..=sizes.len() as u32)
        .map(|p| doc.extract_text(&[p]).unwrap())
        .collect();
    assert!(
        all.contains(&rs.name),
        "{id}: the name {:?} is not in the PDF text",
        rs.name
    );
}

#[test]
fn pdf_structure_a4() {
    for id in IDS {
        check_pdf(id, A4);
    }
}

#[test]
fn pdf_structure_letter() {
    for id in IDS {
        check_pdf(id, LETTER);
    }
}

#[test]
fn preview_page_links_the_pdf_and_every_page() {
    let rs = load("oware-abapa");
    let kit = sowkit::kit::make(&rs, &sowkit::layout::KitOptions::new(A4)).unwrap();
    let html = String::from_utf8(
        kit.files
            .iter()
            .find(|f| f.name == "index.html")
            .unwrap()
            .bytes
            .clone(),
    )
    .unwrap();
    assert!(html.contains("href=\"kit.pdf\"") && html.contains("href=\"host-key.pdf\""));
    assert!(html.contains("100%"));
    let pages: Vec<&str> = kit
        .files
        .iter()
        .map(|f| f.name.as_str())
        .filter(|n| n.ends_with(".svg") && !n.starts_with("key-"))
        .collect();
    assert_eq!(pages.len(), kit.document.pages.len());
    for p in pages {
        assert!(html.contains(&format!("src=\"{p}\"")), "{p} not previewed");
    }
    assert!(
        !html.contains("key-"),
        "the host key must not be previewed with the kit"
    );
}

#[test]
fn kits_are_deterministic_within_one_process() {
    for id in ["six-pit-sowing", "oware-abapa"] {
        let rs = load(id);
        let a = sowkit::kit::make(&rs, &sowkit::layout::KitOptions::new(A4)).unwrap();
        let b = sowkit::kit::make(&rs, &sowkit::layout::KitOptions::new(A4)).unwrap();
        assert_eq!(a.files, b.files, "{id}: two builds in one process differ");
    }
}

#[test]
fn svg_pages_snapshot() {
    let mut expected = Vec::new();
    for id in IDS {
        let rs = load(id);
        let kit = sowkit::kit::make(&rs, &sowkit::layout::KitOptions::new(A4)).unwrap();
        for f in kit.files.iter().filter(|f| f.name.ends_with(".svg")) {
            // insta names the file after the module path (`suite::kit`) and the name below.
            expected.push(format!(
                "suite__kit__{id}__{}.snap",
                f.name.trim_end_matches(".svg")
            ));
            let svg = String::from_utf8(f.bytes.clone()).unwrap();
            assert!(svg.contains("viewBox"), "{}", f.name);
            // The file has no line breaks between elements; the snapshot puts each element
            // on its own line so that a change shows as the lines it touches.
            assert!(!svg.trim_end().contains(">\n<"), "{}", f.name);
            let readable = svg.replace("><", ">\n<");
            insta::assert_snapshot!(
                format!("{id}__{}", f.name.trim_end_matches(".svg")),
                readable
            );
        }
    }
    // A snapshot of a page that no longer exists guards nothing: it must be deleted.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let mut stored: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".snap"))
        .collect();
    stored.sort();
    expected.sort();
    assert_eq!(
        stored, expected,
        "stale or missing SVG snapshots in tests/snapshots"
    );
}

/// Every (font resource, size in pt) a text of the pages `pages` (1-based) of `pdf` is shown
/// in, read from the content streams with lopdf: each `Tj` in the font and size of the last
/// `Tf` before it on its page (fonts are text state, kept across text objects).
fn shown_sizes(pdf: &[u8], pages: &[u32]) -> Vec<(Vec<u8>, f64)> {
    let doc = lopdf::Document::load_mem(pdf).unwrap();
    let mut out = Vec::new();
    for (_, id) in doc
        .get_pages()
        .into_iter()
        .filter(|(n, _)| pages.contains(n))
    {
        let content = doc.get_and_decode_page_content(id).unwrap();
        let mut font: Option<(Vec<u8>, f64)> = None;
        for op in &content.operations {
            match op.operator.as_str() {
                "Tf" => {
                    let name = op.operands[0].as_name().unwrap().to_vec();
                    font = Some((name, num(&op.operands[1])));
                }
                "Tj" | "TJ" => out.push(font.clone().expect("a Tj before any Tf")),
                _ => {}
            }
        }
    }
    out
}

/// Large print: no bold text on the pages with mini boards (rule sheets, practice, host key)
/// under the label size, 18 pt. The bold numbers there are the seed counts, the figure each
/// board is read for: a reader measured them at 16 pt beside 18 pt labels (`pdftotext
/// -bbox`, issue 9). (The board sheet's sowing-order numbers are body text, 14 pt.) Read from
/// kit.pdf and host-key.pdf themselves, every bundled ruleset, both languages.
#[test]
fn large_print_pdfs_set_no_bold_text_under_the_label_size() {
    use sowkit::layout::style::LARGE_LABEL_MIN;
    for id in IDS {
        let rs = load(id);
        for lang in ["en", "es"] {
            let opts = sowkit::layout::KitOptions {
                large: true,
                lang: Some(lang.into()),
                ..sowkit::layout::KitOptions::new(A4)
            };
            let kit = sowkit::kit::make(&rs, &opts).unwrap();
            let key = sowkit::layout::host_key(&rs, &opts).unwrap();
            for (name, doc) in [("kit.pdf", &kit.document), ("host-key.pdf", &key)] {
                let pdf = &kit.files.iter().find(|f| f.name == name).unwrap().bytes;
                // The pages with mini boards, by the laid-out document's page names (its
                // pages are the PDF's, in order: pdf_structure_a4).
                let minis: Vec<u32> = (1..)
                    .zip(&doc.pages)
                    .filter(|(_, p)| {
                        ["rules-", "practice-", "answers-"]
                            .iter()
                            .any(|k| p.name.starts_with(k))
                    })
                    .map(|(n, _)| n)
                    .collect();
                assert!(
                    !minis.is_empty(),
                    "{id} [{lang}] {name}: no mini-board pages"
                );
                let sizes = shown_sizes(pdf, &minis);
                let bold: Vec<f64> = sizes
                    .iter()
                    .filter(|(f, _)| f == b"B")
                    .map(|(_, s)| *s)
                    .collect();
                assert!(
                    bold.len() > 50,
                    "{id} [{lang}] {name}: {} bold texts",
                    bold.len()
                );
                let least = bold.iter().copied().fold(f64::INFINITY, f64::min);
                assert!(
                    least >= LARGE_LABEL_MIN - 1e-6,
                    "{id} [{lang}] {name}: bold text at {least} pt, under the {LARGE_LABEL_MIN} pt label size"
                );
            }
        }
    }
}
