//! Print styles: text contrast of at least 4.5:1 (WCAG 2.x, text colour against the fill
//! painted behind it) on every page of every bundled kit in every style and both languages,
//! large print included; low-ink has only greys and no large fills; contrast has heavy black
//! lines; large print sets body text at 14 pt or more and labels at 18 pt or more.
use crate::common;

use sowkit::doc::Stroke;
use sowkit::doc::{bounds, leaves, Color, Document, Item, Page, Text, Weight};
use sowkit::layout::style::{
    contrast_ratio, Style, CONTRAST_MIN_STROKE, LARGE_BODY_MIN, LARGE_LABEL_MIN, LOW_INK_MAX_FILL,
    SIDE_COLOURS, SIDE_INK,
};
use sowkit::layout::{self, KitOptions, A4, LETTER};
use sowkit::ruleset::Ruleset;

const STYLES: [Style; 3] = [Style::Default, Style::Contrast, Style::LowInk];

/// The lowest contrast of any text item of `doc` against the fill behind it: the last filled
/// shape painted before the text whose bounding box holds the middle of the text's x-height
/// near its start; white paper where there is none. Returns (ratio, text).
fn lowest_text_contrast(doc: &Document) -> (f64, String) {
    let mut worst = (21.0, String::new());
    for page in &doc.pages {
        let items = leaves(&page.items);
        for (k, it) in items.iter().enumerate() {
            let Item::Text(t) = it else { continue };
            let size_mm = t.size_pt * 25.4 / 72.0;
            let (px, py) = (t.x + 0.3, t.y - 0.25 * size_mm);
            let mut bg = Color::WHITE;
            for s in &items[..k] {
                let Item::Shape(s) = s else { continue };
                let Some(f) = s.fill else { continue };
                if let Some((x0, y0, x1, y1)) = bounds(&s.segs) {
                    if px >= x0 && px <= x1 && py >= y0 && py <= y1 {
                        bg = f;
                    }
                }
            }
            let r = contrast_ratio(t.color, bg);
            if r < worst.0 {
                worst = (r, t.text.clone());
            }
        }
    }
    worst
}

#[test]
fn text_contrast_is_at_least_4_5_in_every_style() {
    // The check can fail: grey text at #888 on white is 3.5:1.
    let mut probe = Document {
        title: String::new(),
        pages: vec![sowkit::doc::Page::new("p", 100.0, 100.0)],
    };
    probe.pages[0].text(10.0, 10.0, 10.0, sowkit::doc::Weight::Regular, "x");
    if let Item::Text(t) = &mut probe.pages[0].items[0] {
        t.color = Color::grey(0x88);
    }
    assert!(lowest_text_contrast(&probe).0 < 4.5);

    // Every ink style with and without colour; and large print with every ink style (colour
    // on with low-ink, the lightest text on the lightest tints).
    let looks: Vec<(Style, bool, bool)> = STYLES
        .into_iter()
        .flat_map(|s| [(s, false, false), (s, true, false)])
        .chain([
            (Style::Default, false, true),
            (Style::Contrast, false, true),
            (Style::LowInk, true, true),
        ])
        .collect();
    for rs in common::bundled() {
        for lang in ["en", "es"] {
            for &(style, colour, large) in &looks {
                let opts = KitOptions {
                    lang: Some(lang.into()),
                    style,
                    colour,
                    large,
                    ..KitOptions::new(A4)
                };
                for doc in [
                    layout::kit(&rs, &opts).unwrap(),
                    layout::host_key(&rs, &opts).unwrap(),
                ] {
                    let (r, text) = lowest_text_contrast(&doc);
                    assert!(
                        r >= 4.5,
                        "{} [{lang}] {style:?} colour {colour} large {large}: {text:?} has contrast {r:.2}:1",
                        rs.id
                    );
                }
            }
        }
    }
}

#[test]
fn low_ink_is_grey_with_no_large_fills_and_contrast_has_heavy_black_lines() {
    for rs in common::bundled() {
        let at = |style| {
            let opts = KitOptions {
                style,
                ..KitOptions::new(A4)
            };
            layout::kit(&rs, &opts).unwrap()
        };
        let (plain, low, high) = (at(Style::Default), at(Style::LowInk), at(Style::Contrast));
        // Same pages and the same words in every style.
        assert_eq!(plain.pages.len(), low.pages.len());
        assert_eq!(plain.pages.len(), high.pages.len());
        let mut large_fills_before = 0;
        for page in &plain.pages {
            for it in leaves(&page.items) {
                if let Item::Shape(s) = it {
                    let big = bounds(&s.segs)
                        .is_some_and(|(a, b, c, d)| (c - a) * (d - b) > LOW_INK_MAX_FILL);
                    if big && s.fill.is_some_and(|f| f != Color::WHITE) {
                        large_fills_before += 1;
                    }
                }
            }
        }
        // The default kit has large fills (at least the calibration bar on every page), so the
        // low-ink check below has something to remove.
        assert!(large_fills_before >= plain.pages.len(), "{}", rs.id);
        let mut bars = 0;
        for page in &low.pages {
            for it in leaves(&page.items) {
                match it {
                    Item::Shape(s) => {
                        if let Some(f) = s.fill {
                            assert!(f.r == f.g && f.g == f.b, "{}: colour fill", rs.id);
                            let area = bounds(&s.segs)
                                .map(|(a, b, c, d)| (c - a) * (d - b))
                                .unwrap_or(0.0);
                            // The one large fill kept: the calibration bar, 100 x 3 mm at
                            // the left margin, solid black (the sheets say "black bar").
                            let bar = bounds(&s.segs).is_some_and(|(a, b, c, d)| {
                                (a - layout::page::MARGIN).abs() < 1e-6
                                    && (c - a - 100.0).abs() < 1e-6
                                    && (d - b - 3.0).abs() < 1e-6
                            });
                            if bar {
                                assert_eq!(f, Color::BLACK, "{} {}: bar", rs.id, page.name);
                                bars += 1;
                            }
                            assert!(
                                area <= LOW_INK_MAX_FILL || f == Color::WHITE || bar,
                                "{} {}: a fill of {area:.0} mm²",
                                rs.id,
                                page.name
                            );
                        }
                        if let Some(st) = &s.stroke {
                            assert!(st.color.r == st.color.g && st.color.g == st.color.b);
                        }
                    }
                    Item::Text(t) => assert!(t.color.r == t.color.g && t.color.g == t.color.b),
                    Item::Clip(_) => {}
                }
            }
        }
        assert_eq!(bars, low.pages.len(), "{}: one solid bar a page", rs.id);
        // Without colour, the side marks are resolved to plain black everywhere.
        for doc in [&plain, &low, &high] {
            for page in &doc.pages {
                for it in leaves(&page.items) {
                    if let Item::Shape(s) = it {
                        if let Some(st) = &s.stroke {
                            assert!(!SIDE_INK.contains(&st.color), "{}", rs.id);
                        }
                    }
                }
            }
        }
        for page in &high.pages {
            for it in leaves(&page.items) {
                if let Item::Shape(s) = it {
                    if let Some(st) = &s.stroke {
                        assert!(st.width >= CONTRAST_MIN_STROKE - 1e-9, "{}", rs.id);
                        assert_eq!(st.color, Color::BLACK);
                    }
                }
            }
        }
    }
}

/// Every shape's outline as drawn (segments, fill present, stroke width and dashes) and every
/// text, without colours: what a greyscale or colour-blind reader can still tell apart.
/// Shapes in page order, words (text only, as printed) in page order.
fn without_colour(doc: &Document) -> (Vec<String>, Vec<String>) {
    let mut out = Vec::new();
    let mut words = Vec::new();
    for page in &doc.pages {
        for it in leaves(&page.items) {
            match it {
                Item::Shape(s) => out.push(format!(
                    "{:?} {} {:?}",
                    s.segs,
                    s.fill.is_some(),
                    s.stroke
                        .as_ref()
                        .map(|st: &Stroke| (st.width, st.dash.clone()))
                )),
                Item::Text(t) => words.push(format!("{} {}", t.size_pt, t.text)),
                Item::Clip(_) => {}
            }
        }
    }
    (out, words)
}

/// The colour of every stroke of `doc` that has one of `colours`, counted per colour.
fn strokes_in(doc: &Document, colours: &[Color]) -> Vec<usize> {
    let mut n = vec![0; colours.len()];
    for page in &doc.pages {
        for it in leaves(&page.items) {
            if let Item::Shape(s) = it {
                if let Some(st) = &s.stroke {
                    if let Some(k) = colours.iter().position(|c| *c == st.color) {
                        n[k] += 1;
                    }
                }
            }
        }
    }
    n
}

#[test]
fn colour_sides_add_colour_and_take_nothing_away() {
    for rs in common::bundled() {
        for style in STYLES {
            let at = |colour| {
                let opts = KitOptions {
                    style,
                    colour,
                    ..KitOptions::new(A4)
                };
                layout::kit(&rs, &opts).unwrap()
            };
            let (plain, coloured) = (at(false), at(true));
            // No information by colour alone: every shape (rings, dashes, fills) is where it
            // was without colour, and every word is still printed; only colours changed, and
            // the board key gained the lines that name the two colours.
            let (plain_shapes, plain_words) = without_colour(&plain);
            let (col_shapes, col_words) = without_colour(&coloured);
            assert_eq!(plain_shapes, col_shapes, "{} {style:?}", rs.id);
            let mut extra = col_words.clone();
            for w in &plain_words {
                let i = extra.iter().position(|x| x == w);
                assert!(i.is_some(), "{} {style:?}: {w:?} lost with colour", rs.id);
                extra.remove(i.unwrap());
            }
            // The key names the colours, in the kit's language (A4 kits in the ruleset's own).
            let names = extra.join(" ");
            let (red, blue) = if rs.lang == "es" {
                ("bermellón", "azul")
            } else {
                ("vermilion", "blue")
            };
            assert!(
                names.contains(red) && names.contains(blue),
                "{} {style:?}: the colour key is {extra:?}",
                rs.id
            );
            // Both sides are coloured: 2n pits and 2 stores on the board, and the diagrams
            // and labels, so each colour outlines at least n + 1 shapes (side 1 has its double
            // ring too).
            let n = rs.board.pits_per_side;
            let per_side = strokes_in(&coloured, &SIDE_COLOURS);
            assert!(
                per_side[0] > n && per_side[1] > 2 * n,
                "{} {style:?}: {per_side:?}",
                rs.id
            );
            assert_eq!(strokes_in(&plain, &SIDE_COLOURS), vec![0, 0]);
            // Low-ink keeps colour to thin outlines: no coloured fill.
            if style == Style::LowInk {
                for page in &coloured.pages {
                    for it in leaves(&page.items) {
                        if let Item::Shape(s) = it {
                            if let Some(f) = s.fill {
                                assert!(f.r == f.g && f.g == f.b, "{}: colour fill", rs.id);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Whether `t` is a label in large print: a bold text with a letter in it (titles, headings,
/// the board's row names, pit and store labels, score log column heads, the bar's "100 mm",
/// answer blanks, marker and glue words), or, on any sheet, a pit or store label of `rs`
/// whatever its weight: on the board sheet and its tiles, and in the worked examples' and
/// exercises' mini boards (issue 9: those were set at 14 pt), where a store's name may wrap
/// onto lines of its words ("almacén" / "Norte"). Numbers alone (seed counts, sowing order,
/// step and tile numbers) are body text.
fn is_label(t: &Text, board: bool, rs: &Ruleset) -> bool {
    let store_line = |name: &String| {
        let words: Vec<&str> = name.split_whitespace().collect();
        let line: Vec<&str> = t.text.split_whitespace().collect();
        !line.is_empty() && words.windows(line.len()).any(|w| w == line.as_slice())
    };
    let named = rs.board.pit_labels.iter().flatten().any(|l| *l == t.text)
        || if board {
            rs.board.stores.contains(&t.text)
        } else {
            rs.board.stores.iter().any(store_line)
        };
    named || (t.weight == Weight::Bold && t.text.chars().any(char::is_alphabetic))
}

/// Every text of `doc` under [`LARGE_BODY_MIN`] pt, and every label (see [`is_label`]) under
/// [`LARGE_LABEL_MIN`] pt: (page, size, text).
fn small_type(doc: &Document, rs: &Ruleset) -> Vec<(String, f64, String)> {
    let mut out = Vec::new();
    for page in &doc.pages {
        let board = page.name == "board" || page.name.starts_with("board-");
        for it in leaves(&page.items) {
            let Item::Text(t) = it else { continue };
            let least = if is_label(t, board, rs) {
                LARGE_LABEL_MIN
            } else {
                LARGE_BODY_MIN
            };
            if t.size_pt < least - 1e-9 {
                out.push((page.name.clone(), t.size_pt, t.text.clone()));
            }
        }
    }
    out
}

#[test]
fn large_print_sets_body_at_14_pt_and_labels_at_18_pt() {
    // The brief's minimums, as the layout's one table of sizes gives them.
    assert_eq!((LARGE_BODY_MIN, LARGE_LABEL_MIN), (14.0, 18.0));
    // The check can fail: 13 pt body text, a 16 pt bold heading and a 14 pt regular pit label
    // on the board are each caught; 14 pt counts and an 18 pt heading are not.
    let rs = &common::bundled()[0];
    let mut probe = Document {
        title: String::new(),
        pages: vec![
            Page::new("board", 300.0, 300.0),
            Page::new("rules-1", 300.0, 300.0),
        ],
    };
    let pit = rs.board.pit_labels[0][0].clone();
    for (pt, w, s) in [
        (13.0, Weight::Regular, "a sentence"),
        (16.0, Weight::Bold, "Heading"),
        (14.0, Weight::Regular, pit.as_str()),
        (14.0, Weight::Bold, "12"),
        (18.0, Weight::Bold, "Heading"),
    ] {
        probe.pages[0].text(20.0, 20.0, pt, w, s);
    }
    // In a worked example's mini board: a 14 pt pit label and a 14 pt line of a store's
    // wrapped name are caught; an 18 pt pit label and a 14 pt sowing-order number are not.
    let store_word = rs.board.stores[0]
        .split_whitespace()
        .last()
        .unwrap()
        .to_string();
    for (pt, s) in [
        (14.0, pit.as_str()),
        (14.0, store_word.as_str()),
        (18.0, pit.as_str()),
        (14.0, "7"),
    ] {
        probe.pages[1].text(20.0, 20.0, pt, Weight::Regular, s);
    }
    let caught: Vec<(String, f64)> = small_type(&probe, rs)
        .into_iter()
        .map(|c| (c.0, c.1))
        .collect();
    let want: Vec<(String, f64)> = [
        ("board", 13.0),
        ("board", 16.0),
        ("board", 14.0),
        ("rules-1", 14.0),
        ("rules-1", 14.0),
    ]
    .iter()
    .map(|(p, s)| (p.to_string(), *s))
    .collect();
    assert_eq!(caught, want);

    for rs in common::bundled() {
        for lang in ["en", "es"] {
            for paper in [A4, LETTER] {
                let opts = KitOptions {
                    lang: Some(lang.into()),
                    large: true,
                    ..KitOptions::new(paper)
                };
                let (local, _) = opts.localise(&rs).unwrap();
                for (what, doc) in [
                    ("kit", layout::kit(&rs, &opts)),
                    ("host key", layout::host_key(&rs, &opts)),
                ] {
                    let doc = doc.unwrap_or_else(|e| panic!("{} [{lang}] {what}: {e}", rs.id));
                    let small = small_type(&doc, &local);
                    assert!(
                        small.is_empty(),
                        "{} [{lang}] {} large {what}: {} texts too small, e.g. {:?}",
                        rs.id,
                        paper.name,
                        small.len(),
                        &small[..small.len().min(5)]
                    );
                }
            }
        }
    }
}

#[test]
fn normal_print_is_not_large_print() {
    // The same check on a normal kit finds small type (so large print is what makes the
    // difference), and a large kit has the same sheets, more pages or bigger ones.
    let rs = common::load_path(&common::bundled_path("kalah-6x4"));
    let normal = layout::kit(&rs, &KitOptions::new(A4)).unwrap();
    assert!(!small_type(&normal, &rs).is_empty());
    let large = layout::kit(
        &rs,
        &KitOptions {
            large: true,
            ..KitOptions::new(A4)
        },
    )
    .unwrap();
    assert!(large.pages.len() > normal.pages.len());
    let sheets = |d: &Document| {
        let mut v: Vec<String> = d
            .pages
            .iter()
            .map(|p| p.name.split('-').next().unwrap().to_string())
            .collect();
        v.dedup();
        v
    };
    assert_eq!(sheets(&normal), sheets(&large));
    // The score log turns landscape for its larger column heads.
    let log = large.pages.iter().find(|p| p.name == "log").unwrap();
    assert!(log.width > log.height);
}

/// Text box of `t`: advance width, ascent to descent (mm); for a text of digits, commas and
/// "…" only (counts, sowing numbers), from the baseline up to the digit height, 1493/2048 em
/// in DejaVu Sans (digits have no descenders and stand lower than the font's ascent).
fn text_box(t: &Text) -> (f64, f64, f64, f64) {
    let w = sowkit::text::width_mm(&t.text, t.size_pt, t.weight);
    if t.text
        .chars()
        .all(|c| c.is_ascii_digit() || c == ',' || c == '…')
    {
        let digit_h = t.size_pt * 25.4 / 72.0 * 1493.0 / 2048.0;
        return (t.x, t.y - digit_h, t.x + w, t.y);
    }
    (
        t.x,
        t.y - sowkit::text::ascent_mm(t.size_pt),
        t.x + w,
        t.y + sowkit::text::descent_mm(t.size_pt),
    )
}

/// Pairs of texts on one page of `doc` whose boxes overlap by more than `tol` mm each way,
/// and texts that reach below the content area into the bottom band other than the footer and
/// the bar label (those the page's finishing adds, at or below the bar): (page, text, text).
fn crowded(doc: &Document, tol: f64) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for page in &doc.pages {
        let items = leaves(&page.items);
        let texts: Vec<&Text> = items
            .iter()
            .filter_map(|i| match i {
                Item::Text(t) => Some(t),
                _ => None,
            })
            .collect();
        let boxes: Vec<_> = texts.iter().map(|t| text_box(t)).collect();
        for i in 0..boxes.len() {
            for j in i + 1..boxes.len() {
                let (a, b) = (boxes[i], boxes[j]);
                let dx = a.2.min(b.2) - a.0.max(b.0);
                let dy = a.3.min(b.3) - a.1.max(b.1);
                if dx > tol && dy > tol {
                    out.push((
                        page.name.clone(),
                        texts[i].text.clone(),
                        texts[j].text.clone(),
                    ));
                }
            }
        }
        let bottom =
            layout::page::content_bottom(page.width, page.height, &layout::style::Sizes::LARGE);
        let bar_top = layout::page::bar_rect(page.height, &layout::style::Sizes::LARGE).1;
        let (bx, by, bw, bh) = layout::page::bar_rect(page.height, &layout::style::Sizes::LARGE);
        for (t, b) in texts.iter().zip(&boxes) {
            // The bar's own label stands beside it, on the bar's bottom line.
            let bar_label = t.x > bx + bw && (t.y - (by + bh)).abs() < 1e-6;
            if b.3 > bottom + 1e-6 && b.1 < bar_top - 1e-6 && !bar_label {
                out.push((page.name.clone(), t.text.clone(), "the bottom band".into()));
            }
        }
    }
    out
}

#[test]
fn large_print_text_never_overlaps_or_runs_into_the_bottom_band() {
    // The check can fail: two words set on top of each other, and a line set in the band.
    let mut probe = Document {
        title: String::new(),
        pages: vec![Page::new("p", 210.0, 297.0)],
    };
    probe.pages[0].text(20.0, 50.0, 14.0, Weight::Regular, "one");
    probe.pages[0].text(22.0, 51.0, 14.0, Weight::Regular, "two");
    probe.pages[0].text(20.0, 272.0, 14.0, Weight::Regular, "low");
    assert_eq!(crowded(&probe, 0.2).len(), 2);

    for rs in common::bundled() {
        for lang in ["en", "es"] {
            for paper in [A4, LETTER] {
                let opts = KitOptions {
                    lang: Some(lang.into()),
                    large: true,
                    ..KitOptions::new(paper)
                };
                for doc in [
                    layout::kit(&rs, &opts).unwrap(),
                    layout::host_key(&rs, &opts).unwrap(),
                ] {
                    let bad = crowded(&doc, 0.2);
                    assert!(
                        bad.is_empty(),
                        "{} [{lang}] {}: {} crowded texts, e.g. {:?}",
                        rs.id,
                        paper.name,
                        bad.len(),
                        &bad[..bad.len().min(6)]
                    );
                }
            }
        }
    }
}

/// The six print looks users try: default, large, contrast, low-ink, large+contrast,
/// large+low-ink (ink style, large print).
const LOOKS: [(Style, bool); 6] = [
    (Style::Default, false),
    (Style::Default, true),
    (Style::Contrast, false),
    (Style::LowInk, false),
    (Style::Contrast, true),
    (Style::LowInk, true),
];

/// Whether `s` names the colour grey (English or Spanish).
fn says_grey(s: &str) -> bool {
    let s = s.to_lowercase();
    s.contains("grey") || s.contains("gray") || s.contains("gris")
}

/// Whether `s` names the colour black for counters (English or Spanish).
fn says_black(s: &str) -> bool {
    let s = s.to_lowercase();
    s.contains("black counters") || s.contains("fichas negras")
}

/// Whether `c` is a grey lighter than black and darker than white.
fn is_mid_grey(c: Color) -> bool {
    c.r == c.g && c.g == c.b && c != Color::BLACK && c != Color::WHITE
}

/// What the counters sheet says about which counters to cut agrees with the ink in every
/// look and both languages: the note counts the counters with a centre dot, and every counter
/// without one is drawn dashed; a colour the note names is the colour printed (the contrast
/// style prints every line black, so before the note said "grey ones" over black circles).
#[test]
fn counters_sheet_words_match_the_ink_in_every_style() {
    for rs in common::bundled() {
        let d = rs.layout.counter_diameter;
        for lang in ["en", "es"] {
            for (style, large) in LOOKS {
                let opts = KitOptions {
                    lang: Some(lang.into()),
                    style,
                    large,
                    ..KitOptions::new(A4)
                };
                let doc = layout::kit(&rs, &opts).unwrap();
                let pages: Vec<&Page> = doc
                    .pages
                    .iter()
                    .filter(|p| p.name.starts_with("counters-"))
                    .collect();
                let what = format!("{} [{lang}] {style:?} large {large}", rs.id);
                let text: String = pages
                    .iter()
                    .flat_map(|p| p.texts().map(|t| t.text.clone()))
                    .collect::<Vec<_>>()
                    .join(" ");
                let (mut dotted, mut extras) = (Vec::new(), Vec::new());
                for p in &pages {
                    let shapes: Vec<_> = p.shapes().collect();
                    for s in &shapes {
                        let Some((x0, y0, x1, y1)) = bounds(&s.segs) else {
                            continue;
                        };
                        if s.fill.is_some() || ((x1 - x0) - d).abs() > 1e-6 {
                            continue;
                        }
                        let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
                        let dot = shapes.iter().any(|o| {
                            o.fill.is_some()
                                && bounds(&o.segs).is_some_and(|(a, b, c, e)| {
                                    ((a + c) / 2.0 - cx).abs() < 1e-6
                                        && ((b + e) / 2.0 - cy).abs() < 1e-6
                                        && c - a < d / 2.0
                                })
                        });
                        let st = s.stroke.clone().unwrap();
                        if dot {
                            dotted.push(st);
                        } else {
                            extras.push(st);
                        }
                    }
                }
                let (play, spare) = sowkit::layout::counters::count(&rs);
                if extras.is_empty() {
                    continue;
                }
                // The note names the counters to cut by their dot, and their number.
                let n = (play + spare).to_string();
                assert_eq!(dotted.len(), (play + spare) as usize, "{what}");
                assert!(text.contains(&n), "{what}: {n} not in {text:?}");
                // Every counter without a dot is dashed, every one with a dot solid.
                assert!(extras.iter().all(|st| !st.dash.is_empty()), "{what}");
                assert!(dotted.iter().all(|st| st.dash.is_empty()), "{what}");
                // A colour named is a colour printed.
                if says_grey(&text) {
                    assert!(
                        extras.iter().all(|st| is_mid_grey(st.color)),
                        "{what}: the sheet says grey, the extras print {:?}",
                        extras[0].color
                    );
                }
                if says_black(&text) {
                    assert!(dotted.iter().all(|st| st.color == Color::BLACK), "{what}");
                }
            }
        }
    }
}

/// The how-to sheet and the tile map say how to find the glue strip in words that hold in
/// every look and both languages: a strip the text calls grey is filled grey on every tile
/// (low-ink keeps only the outline of so large a fill, and it used to still say "grey strip"),
/// and the word the text says marks the strip is printed on every tile that has a strip.
#[test]
fn glue_strip_words_match_the_ink_in_every_style() {
    let rs = common::load_path(&common::bundled_path("kalah-6x4"));
    for lang in ["en", "es"] {
        let glue = sowkit::layout::phrases::Phrases::load(lang)
            .unwrap()
            .get("tile.glue");
        for (style, large) in LOOKS {
            let opts = KitOptions {
                lang: Some(lang.into()),
                style,
                large,
                ..KitOptions::new(A4)
            };
            let doc = layout::kit(&rs, &opts).unwrap();
            let what = format!("[{lang}] {style:?} large {large}");
            let tiles: Vec<&Page> = doc
                .pages
                .iter()
                .filter(|p| {
                    p.name
                        .strip_prefix("board-")
                        .is_some_and(|n| n.parse::<usize>().is_ok())
                })
                .collect();
            assert!(tiles.len() >= 2, "{what}: Kalah 6×4 is tiled on A4");
            // The words about the strip: the how-to sheet and the assembly map.
            let words: String = doc
                .pages
                .iter()
                .filter(|p| p.name == "howto" || p.name == "board-map")
                .flat_map(|p| p.texts().map(|t| t.text.clone()))
                .collect::<Vec<_>>()
                .join(" ");
            assert!(
                words.contains("strip") || words.contains("franja"),
                "{what}"
            );
            if says_grey(&words) {
                for t in &tiles[..tiles.len() - 1] {
                    let grey_strip = leaves(&t.items).iter().any(|it| {
                        let Item::Shape(s) = it else { return false };
                        s.fill.is_some_and(is_mid_grey)
                            && bounds(&s.segs).is_some_and(|(a, b, c, e)| {
                                (c - a).min(e - b) >= 10.0 && (c - a).max(e - b) >= 50.0
                            })
                    });
                    assert!(
                        grey_strip,
                        "{what}: the text says the strip is grey; {} has no grey strip",
                        t.name
                    );
                }
            }
            // The strip's word, as the text quotes it, is on every tile before the last
            // (large print sets it one letter a line).
            assert!(
                words.contains(&format!("“{glue}”")) || words.contains(&format!("«{glue}»")),
                "{what}: the text does not name the strip by its word {glue:?}: {words}"
            );
            for t in &tiles[..tiles.len() - 1] {
                let all: String = leaves(&t.items)
                    .iter()
                    .filter_map(|i| match i {
                        Item::Text(x) => Some(x.text.as_str()),
                        _ => None,
                    })
                    .collect();
                assert!(all.contains(&glue), "{what}: {} has no {glue:?}", t.name);
            }
        }
    }
}

/// `manifest.txt` records the kit's language and its print style, the style in one order
/// whatever order `--style` named it in, so the same choices always give the same manifest.
#[test]
fn manifest_records_language_and_style() {
    use sowkit::layout::style::Look;
    let rs = common::load_path(&common::bundled_path("six-pit-sowing"));
    let manifest = |lang: &str, style: &str| {
        let look = Look::parse(style).unwrap();
        let opts = KitOptions {
            lang: Some(lang.into()),
            style: look.ink,
            colour: look.colour,
            large: look.large,
            ..KitOptions::new(A4)
        };
        let kit = sowkit::kit::make(&rs, &opts).unwrap();
        let f = kit.files.iter().find(|f| f.name == "manifest.txt").unwrap();
        String::from_utf8(f.bytes.clone()).unwrap()
    };
    let en = manifest("en", "default");
    assert!(en.contains("\nlanguage: en\n"), "{en}");
    assert!(en.contains("\nstyle: default (--style default)\n"), "{en}");
    let es = manifest("es", "contrast,large");
    assert!(es.contains("\nidioma: es\n"), "{es}");
    assert!(
        es.contains(
            "\nestilo de impresión: letra grande, alto contraste (--style large,contrast)\n"
        ),
        "{es}"
    );
    assert_eq!(es, manifest("es", "large, contrast"));
    let all = manifest("en", "colour,low-ink,large");
    assert!(
        all.contains("\nstyle: large print, low ink, colour (--style large,low-ink,colour)\n"),
        "{all}"
    );
    assert_eq!(all, manifest("en", "large,low-ink,color"));
}

/// The pit seeds were lifted from (the heavy ring on a worked example's "before" board) is
/// told by a shape, not by weight alone: four short black rays on its diagonals, in every
/// style and with side colours, so it stands out where every outline is heavy (contrast; a
/// reader found the heavy ring stood out little there, issue 9) and never by colour. Heavy
/// rings are the circles stroked at least twice as wide as the page's thinnest circle; a ray is
/// a straight black line whose two ends lie outside the ring, within 4 mm, on one diagonal.
#[test]
fn the_pit_lifted_from_has_rays_in_every_style() {
    use sowkit::doc::Seg;
    let mut rings = 0;
    for rs in common::bundled() {
        for ink in STYLES {
            for colour in [false, true] {
                let opts = KitOptions {
                    style: ink,
                    colour,
                    ..KitOptions::new(A4)
                };
                let doc = layout::kit(&rs, &opts).unwrap();
                for page in doc.pages.iter().filter(|p| p.name.starts_with("rules-")) {
                    let shapes: Vec<&sowkit::doc::Shape> = page.shapes().collect();
                    let circles: Vec<(f64, f64, f64, f64)> = shapes
                        .iter()
                        .filter(|s| {
                            s.segs
                                .iter()
                                .filter(|g| matches!(g, Seg::CubicTo(..)))
                                .count()
                                == 4
                        })
                        .filter_map(|s| {
                            let (x0, y0, x1, y1) = bounds(&s.segs)?;
                            let w = s.stroke.as_ref()?.width;
                            ((x1 - x0 - (y1 - y0)).abs() < 1e-6).then_some((
                                (x0 + x1) / 2.0,
                                (y0 + y1) / 2.0,
                                (x1 - x0) / 2.0,
                                w,
                            ))
                        })
                        .collect();
                    let thinnest = circles.iter().map(|c| c.3).fold(f64::INFINITY, f64::min);
                    let rays: Vec<((f64, f64), (f64, f64))> = shapes
                        .iter()
                        .filter(|s| s.fill.is_none())
                        .filter(|s| s.stroke.as_ref().is_some_and(|st| st.color == Color::BLACK))
                        .filter_map(|s| match s.segs.as_slice() {
                            [Seg::MoveTo(a), Seg::LineTo(b)] => Some(((a.x, a.y), (b.x, b.y))),
                            _ => None,
                        })
                        .collect();
                    for &(cx, cy, r, _) in circles.iter().filter(|c| c.3 >= 2.0 * thinnest) {
                        let around = rays
                            .iter()
                            .filter(|(a, b)| {
                                [a, b].iter().all(|p| {
                                    let (dx, dy) = (p.0 - cx, p.1 - cy);
                                    let d = dx.hypot(dy);
                                    d > r && d < r + 4.0 && (dx.abs() - dy.abs()).abs() < 1e-6
                                })
                            })
                            .count();
                        assert_eq!(
                            around, 4,
                            "{} {} {ink:?} colour {colour}: the heavy ring at ({cx:.1}, {cy:.1}) has {around} rays",
                            rs.id, page.name
                        );
                        rings += 1;
                    }
                }
            }
        }
    }
    assert!(rings > 50, "only {rings} heavy rings found");
}
