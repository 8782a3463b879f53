//! Labels against outlines: no text, arrow number or sowing-order marker of a board sheet, a
//! tile, a worked-example diagram or a host-key answer may cross the outline of a pit or a
//! store (or a ring inside one, a capture ring, the board's cut line), for every bundled
//! ruleset in each of its languages, on A4 and Letter, in normal and large print and in every
//! ink style.
//!
//! Outlines are read from the drawn shapes (circles, rounded rectangles and rectangles with a
//! stroke); the board test checks first that those found are the ruleset's pits, at the size
//! and spacing its `[layout]` asks for, worked out here from the ruleset's numbers alone.

use crate::common;

use sowkit::doc::{bounds, leaves, Color, Document, Item, Page, Seg, Shape, Text};
use sowkit::layout::style::{self, Sizes, Style};
use sowkit::layout::{self, KitOptions, Paper, A4, LETTER};
use sowkit::ruleset::Ruleset;
use sowkit::text;

/// Least gap between a label and the edge of an outline's stroke, mm.
const CLEAR: f64 = 0.3;

/// A closed outline: the set of points within `rho` of the rectangle `core` (a circle has a
/// point for a core, a plain rectangle a radius of 0), drawn with a stroke `half` mm each side.
#[derive(Clone, Debug)]
struct Outline {
    core: (f64, f64, f64, f64),
    rho: f64,
    half: f64,
}

/// What a label covers: a box (text, a sowing-order marker) or a circle (an arrow number's
/// disc).
#[derive(Clone, Debug)]
enum Mark {
    Box(f64, f64, f64, f64),
    Disc(f64, f64, f64),
}

fn is_closed(s: &Shape) -> bool {
    matches!(s.segs.first(), Some(Seg::MoveTo(_))) && matches!(s.segs.last(), Some(Seg::Close))
}

/// The shape as a circle (centre, radius) when it is one: four cubics round a square.
fn as_circle(s: &Shape) -> Option<(f64, f64, f64)> {
    let (x0, y0, x1, y1) = bounds(&s.segs)?;
    let cubics = s
        .segs
        .iter()
        .filter(|g| matches!(g, Seg::CubicTo(..)))
        .count();
    let lines = s
        .segs
        .iter()
        .filter(|g| matches!(g, Seg::LineTo(..)))
        .count();
    (is_closed(s) && cubics == 4 && lines == 0 && ((x1 - x0) - (y1 - y0)).abs() < 1e-6)
        .then(|| ((x0 + x1) / 2.0, (y0 + y1) / 2.0, (x1 - x0) / 2.0))
}

/// The shape as a rounded rectangle (x0, y0, x1, y1, corner radius), plain rectangles included.
fn as_rounded(s: &Shape) -> Option<(f64, f64, f64, f64, f64)> {
    if !is_closed(s) || as_circle(s).is_some() {
        return None;
    }
    let (x0, y0, x1, y1) = bounds(&s.segs)?;
    let Some(Seg::MoveTo(a)) = s.segs.first() else {
        return None;
    };
    // `rounded_rect` and `rect` both start on the top edge, `r` from the left corner.
    ((a.y - y0).abs() < 1e-6).then_some((x0, y0, x1, y1, a.x - x0))
}

/// Signed distance from (`x`, `y`) to the shape `o` (negative inside), ignoring the stroke.
fn signed(o: &Outline, x: f64, y: f64) -> f64 {
    let (a, b, c, d) = o.core;
    let dx = (a - x).max(x - c).max(0.0);
    let dy = (b - y).max(y - d).max(0.0);
    if dx > 0.0 || dy > 0.0 {
        (dx * dx + dy * dy).sqrt() - o.rho
    } else {
        -(o.rho + (x - a).min(c - x).min(y - b).min(d - y))
    }
}

/// Distance between two rectangles (0 when they meet).
fn rect_gap(p: (f64, f64, f64, f64), q: (f64, f64, f64, f64)) -> f64 {
    let dx = (p.0 - q.2).max(q.0 - p.2).max(0.0);
    let dy = (p.1 - q.3).max(q.1 - p.3).max(0.0);
    (dx * dx + dy * dy).sqrt()
}

/// Whether `m` keeps clear of the outline `o`: wholly inside it, or wholly outside, with
/// [`CLEAR`] mm beyond the stroke either way (the outline is convex, so a box is inside when
/// its corners are).
fn clear_of(o: &Outline, m: &Mark) -> bool {
    let band = o.half + CLEAR;
    match *m {
        Mark::Box(x0, y0, x1, y1) => {
            let inside = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]
                .iter()
                .all(|&(x, y)| signed(o, x, y) <= -band);
            inside || rect_gap((x0, y0, x1, y1), o.core) - o.rho >= band
        }
        Mark::Disc(x, y, r) => {
            let s = signed(o, x, y);
            s + r <= -band || s - r >= band
        }
    }
}

/// Ink box of a text: advance width, ascent to descent; a text of digits, commas and "…" only
/// from its baseline up to the digit height (1493/2048 em in DejaVu Sans: digits have no
/// descenders and stand lower than the font's ascent).
fn text_box(t: &Text) -> (f64, f64, f64, f64) {
    let w = text::width_mm(&t.text, t.size_pt, t.weight);
    if t.text
        .chars()
        .all(|c| c.is_ascii_digit() || c == ',' || c == '…')
    {
        let digit_h = t.size_pt * 25.4 / 72.0 * 1493.0 / 2048.0;
        return (t.x, t.y - digit_h, t.x + w, t.y);
    }
    (
        t.x,
        t.y - text::ascent_mm(t.size_pt),
        t.x + w,
        t.y + text::descent_mm(t.size_pt),
    )
}

/// The glue strips: their grey fill, or in low-ink (no large fills) the outline that replaces
/// it, drawn in [`sowkit::layout::style::LOW_INK_OUTLINE_GREY`] with no fill.
fn is_glue(s: &Shape) -> bool {
    let g = Color::grey(215);
    let outline = sowkit::layout::style::LOW_INK_OUTLINE_GREY;
    s.fill == Some(g)
        || s.stroke
            .as_ref()
            .is_some_and(|st| st.color == g || (s.fill.is_none() && st.color == outline))
}

/// The outlines and the labels of `page` (`sz`: the type sizes it was laid out in), each named
/// for messages. Arrow numbers are white discs no larger than [`Sizes::number_r`]; a sowing
/// order marker is a small rounded box under 6 mm high; outlines are the other closed stroked
/// shapes at least 6 mm across. On a tile, what lies on a glue strip (covered by the next
/// tile) or outside the clip (not printed) is left out.
/// Outlines and labels of a page, each with a name for messages.
type Parts = (Vec<(Outline, String)>, Vec<(Mark, String)>);

fn parts(page: &Page, sz: &Sizes) -> Parts {
    let mut outlines = Vec::new();
    let mut marks = Vec::new();
    let mut hidden: Vec<(f64, f64, f64, f64)> = Vec::new();
    let mut shown: Option<(f64, f64, f64, f64)> = None;
    for it in &page.items {
        if let Item::Clip(c) = it {
            shown = Some((c.x, c.y, c.x + c.w, c.y + c.h));
        }
    }
    for it in leaves(&page.items) {
        if let Item::Shape(s) = it {
            if is_glue(s) {
                hidden.extend(bounds(&s.segs));
            }
        }
    }
    let visible = |b: (f64, f64, f64, f64)| {
        let in_clip = shown.is_none_or(|c| b.0 < c.2 && b.2 > c.0 && b.1 < c.3 && b.3 > c.1);
        in_clip && !hidden.iter().any(|h| rect_gap(b, *h) <= 0.0)
    };
    for it in leaves(&page.items) {
        match it {
            Item::Text(t) => {
                // The scissors sit on the cut line on purpose.
                if t.text == "✂" {
                    continue;
                }
                let b = text_box(t);
                if visible(b) {
                    marks.push((Mark::Box(b.0, b.1, b.2, b.3), format!("text {:?}", t.text)));
                }
            }
            Item::Shape(s) => {
                let Some(st) = &s.stroke else { continue };
                if is_glue(s) {
                    continue;
                }
                let Some(b) = bounds(&s.segs) else { continue };
                if let Some((x, y, r)) = as_circle(s) {
                    if s.fill == Some(Color::WHITE) && r <= sz.number_r + 1e-6 {
                        if visible(b) {
                            marks.push((
                                Mark::Disc(x, y, r),
                                format!("number disc at ({x:.1}, {y:.1})"),
                            ));
                        }
                        continue;
                    }
                    if r >= 3.0 {
                        outlines.push((
                            Outline {
                                core: (x, y, x, y),
                                rho: r,
                                half: st.width / 2.0,
                            },
                            format!("circle r {r:.1} at ({x:.1}, {y:.1})"),
                        ));
                    }
                } else if let Some((x0, y0, x1, y1, r)) = as_rounded(s) {
                    if y1 - y0 < 6.0 {
                        if visible(b) {
                            marks.push((
                                Mark::Box(x0, y0, x1, y1),
                                format!("marker box at ({x0:.1}, {y0:.1})"),
                            ));
                        }
                        continue;
                    }
                    if x1 - x0 >= 6.0 {
                        outlines.push((
                            Outline {
                                core: (x0 + r, y0 + r, x1 - r, y1 - r),
                                rho: r,
                                half: st.width / 2.0,
                            },
                            format!("box {:.1} × {:.1} at ({x0:.1}, {y0:.1})", x1 - x0, y1 - y0),
                        ));
                    }
                }
            }
            Item::Clip(_) => {}
        }
    }
    (outlines, marks)
}

/// Every label of `page` that crosses an outline: (label, outline).
fn crossings(page: &Page, sz: &Sizes) -> Vec<(String, String)> {
    let (outlines, marks) = parts(page, sz);
    let mut out = Vec::new();
    for (m, mn) in &marks {
        for (o, on) in &outlines {
            if !clear_of(o, m) {
                out.push((mn.clone(), on.clone()));
            }
        }
    }
    out
}

/// The pages the check looks at: the board sheet and its tiles, rule sheets, practice sheets
/// and host-key answers.
fn checked(name: &str) -> bool {
    name == "board"
        || (name.starts_with("board-") && name != "board-map")
        || name.starts_with("rules")
        || name.starts_with("practice")
        || name.starts_with("answers")
}

#[test]
fn the_check_finds_a_label_on_an_outline() {
    // A pit of radius 20 at (50, 50) with a 0.5 mm stroke; a label inside it, one outside, one
    // across its rim, and an arrow number's disc touching a store's edge.
    let mut pg = Page::new("board", 200.0, 200.0);
    pg.shape(
        sowkit::doc::circle(sowkit::doc::pt(50.0, 50.0), 20.0),
        Some(Color::WHITE),
        Some(sowkit::doc::Stroke::solid(0.5, Color::BLACK)),
    );
    pg.shape(
        sowkit::doc::rounded_rect(100.0, 20.0, 40.0, 90.0, 8.0),
        Some(Color::WHITE),
        Some(sowkit::doc::Stroke::solid(0.5, Color::BLACK)),
    );
    pg.text(45.0, 52.0, 10.0, sowkit::doc::Weight::Bold, "N1");
    pg.text(45.0, 90.0, 10.0, sowkit::doc::Weight::Bold, "S1");
    pg.text(66.0, 52.0, 10.0, sowkit::doc::Weight::Bold, "rim");
    pg.shape(
        sowkit::doc::circle(sowkit::doc::pt(97.0, 60.0), 2.5),
        Some(Color::WHITE),
        Some(sowkit::doc::Stroke::solid(0.3, Color::BLACK)),
    );
    let found = crossings(&pg, &Sizes::NORMAL);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].0.contains("rim") && found[0].1.starts_with("circle"));
    assert!(found[1].0.contains("number disc") && found[1].1.starts_with("box"));
    // A rounded corner: a box in the store's top-left corner square but clear of the arc is
    // outside the rectangle's corner region check only when the arc is honoured.
    let o = Outline {
        core: (108.0, 28.0, 132.0, 102.0),
        rho: 8.0,
        half: 0.25,
    };
    assert!(!clear_of(&o, &Mark::Box(101.0, 21.0, 103.0, 23.0)));
    assert!(clear_of(&o, &Mark::Box(100.0, 10.0, 101.0, 19.0)));
}

/// Every bundled ruleset in each of its languages on A4 and Letter, normal and large print:
/// (ruleset, language, paper, sizes, kit, host key), unstyled.
fn layouts() -> Vec<(Ruleset, String, Paper, Sizes, Document, Document)> {
    let mut out = Vec::new();
    for rs in common::bundled() {
        for lang in rs.languages() {
            for paper in [A4, LETTER] {
                for large in [false, true] {
                    let opts = KitOptions {
                        lang: Some(lang.clone()),
                        large,
                        ..KitOptions::new(paper)
                    };
                    let kit = layout::kit(&rs, &opts)
                        .unwrap_or_else(|e| panic!("{} [{lang}] {}: {e}", rs.id, paper.name));
                    let key = layout::host_key(&rs, &opts)
                        .unwrap_or_else(|e| panic!("{} [{lang}] {}: {e}", rs.id, paper.name));
                    out.push((rs.clone(), lang.clone(), paper, opts.sizes(), kit, key));
                }
            }
        }
    }
    out
}

#[test]
fn no_label_crosses_a_pit_or_store_outline() {
    let mut bad = Vec::new();
    let mut pages = 0;
    for (rs, lang, paper, sz, kit, key) in layouts() {
        for ink in [Style::Default, Style::Contrast, Style::LowInk] {
            for doc in [&kit, &key] {
                let mut doc = doc.clone();
                // The ink styles only change strokes and colours: apply them to the laid-out
                // pages as the kit does.
                style::apply(&mut doc, ink, false);
                for page in doc.pages.iter().filter(|p| checked(&p.name)) {
                    pages += 1;
                    for (m, o) in crossings(page, &sz) {
                        bad.push(format!(
                            "{} [{lang}] {} {}{}: {} {m} crosses {o}",
                            rs.id,
                            paper.name,
                            if sz.large { "large " } else { "" },
                            ink.name(),
                            page.name
                        ));
                    }
                }
            }
        }
    }
    assert!(pages > 500, "too few pages checked: {pages}");
    assert!(
        bad.is_empty(),
        "{} labels cross outlines, e.g.\n{}",
        bad.len(),
        bad[..bad.len().min(4000)].join("\n")
    );
}

#[test]
fn board_outlines_found_are_the_rulesets_pits() {
    // The check reads outlines from the drawing: make sure what it reads are the pits, at the
    // ruleset's diameter and spacing (d + gap between neighbouring centres in a row, d + row
    // gap between the rows, the row gap being the pit gap but at least 8 mm).
    for rs in common::bundled() {
        let l = &rs.layout;
        let n = rs.board.pits_per_side;
        let opts = KitOptions::new(A4);
        let ph = layout::phrases::Phrases::load(&rs.lang).unwrap();
        let (d, _) = layout::board::drawing(&rs, &ph, &[]).unwrap();
        let pg = Page {
            name: "board".into(),
            width: d.w,
            height: d.h,
            items: d.items,
        };
        let (outlines, _) = parts(&pg, &opts.sizes());
        let mut pits: Vec<(f64, f64)> = outlines
            .iter()
            .filter(|(o, _)| (o.rho - l.pit_diameter / 2.0).abs() < 1e-6)
            .map(|(o, _)| (o.core.0, o.core.1))
            .collect();
        assert_eq!(pits.len(), 2 * n, "{}", rs.id);
        pits.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.total_cmp(&b.0)));
        let row_gap = l.pit_gap.max(8.0);
        for row in pits.chunks(n) {
            for w in row.windows(2) {
                assert!(((w[1].0 - w[0].0) - (l.pit_diameter + l.pit_gap)).abs() < 1e-6);
            }
        }
        assert!(((pits[n].1 - pits[0].1) - (l.pit_diameter + row_gap)).abs() < 1e-6);
    }
}

#[test]
fn sowing_order_numbers_are_boxed_one_a_box_and_unlike_counts() {
    // Oware's "fourteen seeds" example: S4's 14 seeds go S5, S6, N1 … N6, S1, S2, S3, then
    // (skipping S4) S5, S6, N1. Worked by hand: S5 gets the 1st and 12th seed, S6 the 2nd and
    // 13th, N1 the 3rd and 14th, N2 … N6 the 4th … 8th, S1 … S3 the 9th … 11th.
    let want: Vec<(&str, Vec<u32>)> = vec![
        ("S5", vec![1, 12]),
        ("S6", vec![2, 13]),
        ("N1", vec![3, 14]),
        ("N2", vec![4]),
        ("N3", vec![5]),
        ("N4", vec![6]),
        ("N5", vec![7]),
        ("N6", vec![8]),
        ("S1", vec![9]),
        ("S2", vec![10]),
        ("S3", vec![11]),
    ];
    let rs = common::load_path(&common::bundled_path("oware-abapa"));
    let ph = layout::phrases::Phrases::load("en").unwrap();
    let rules = sowkit::engine::Rules::try_new(&rs).unwrap();
    let ex = rs
        .examples
        .iter()
        .find(|e| e.title.starts_with("Fourteen seeds"))
        .unwrap();
    let prep = layout::diagram::prepare(&rs, &rules, ex, &ph, false).unwrap();
    for sz in [Sizes::NORMAL, Sizes::LARGE] {
        for ink in [Style::Default, Style::Contrast, Style::LowInk] {
            let mut pg = Page::new("rules", 210.0, 297.0);
            layout::diagram::draw_boards(&mut pg, &rs, &ph, &sz, &prep, 10.0, 10.0, 190.0);
            let mut doc = Document {
                title: String::new(),
                pages: vec![pg],
            };
            style::apply(&mut doc, ink, false);
            let pg = &doc.pages[0];
            // Small rounded boxes (under 6 mm high), each inset by the inner half of its
            // outline as printed in this style and by 0.15 mm of white: a number must lie
            // inside that, clear of the ink (in contrast the 0.35 mm outline once came within
            // 0.02 mm of the digits' advance box and looked to touch them).
            let boxes: Vec<(f64, f64, f64, f64)> = pg
                .shapes()
                .filter_map(|s| {
                    as_rounded(s).map(|b| (b, s.stroke.as_ref().map_or(0.0, |st| st.width)))
                })
                .filter(|(b, _)| b.3 - b.1 < 6.0)
                .map(|(b, w)| {
                    let i = w / 2.0 + 0.15;
                    (b.0 + i, b.1 + i, b.2 - i, b.3 - i)
                })
                .collect();
            let digits = |t: &&Text| t.text.chars().all(|c| c.is_ascii_digit());
            let in_box = |t: &Text| {
                let b = text_box(t);
                boxes
                    .iter()
                    .position(|q| b.0 >= q.0 && b.2 <= q.2 && b.1 >= q.1 && b.3 <= q.3)
            };
            // Pit labels of the "before" board (the first of each name).
            let mut labels: Vec<(&str, f64, f64)> = Vec::new();
            for t in pg.texts() {
                if rs.board.pit_labels.iter().flatten().any(|l| *l == t.text)
                    && !labels.iter().any(|l| l.0 == t.text)
                {
                    let b = text_box(t);
                    labels.push((
                        rs.board
                            .pit_labels
                            .iter()
                            .flatten()
                            .find(|l| **l == t.text)
                            .unwrap(),
                        (b.0 + b.2) / 2.0,
                        (b.1 + b.3) / 2.0,
                    ));
                }
            }
            let mut got: Vec<(String, Vec<u32>)> = Vec::new();
            let mut count_pt = f64::INFINITY;
            let mut order_pt: f64 = 0.0;
            let mut used = vec![0; boxes.len()];
            for t in pg.texts().filter(digits) {
                match in_box(t) {
                    Some(k) => {
                        used[k] += 1;
                        assert_eq!(t.weight, sowkit::doc::Weight::Regular, "{:?}", t.text);
                        order_pt = order_pt.max(t.size_pt);
                        let b = text_box(t);
                        let (cx, cy) = ((b.0 + b.2) / 2.0, (b.1 + b.3) / 2.0);
                        let near = labels
                            .iter()
                            .min_by(|a, b| {
                                let da = (a.1 - cx).powi(2) + (a.2 - cy).powi(2);
                                let db = (b.1 - cx).powi(2) + (b.2 - cy).powi(2);
                                da.total_cmp(&db)
                            })
                            .unwrap();
                        let n: u32 = t.text.parse().unwrap();
                        match got.iter_mut().find(|g| g.0 == near.0) {
                            Some(g) => g.1.push(n),
                            None => got.push((near.0.to_string(), vec![n])),
                        }
                    }
                    None => {
                        // A count: bold, never a list.
                        assert_eq!(t.weight, sowkit::doc::Weight::Bold, "{:?}", t.text);
                        count_pt = count_pt.min(t.size_pt);
                    }
                }
            }
            assert!(used.iter().all(|&u| u <= 1), "one number a box: {used:?}");
            assert!(
                !pg.texts().any(|t| t.text.contains(',')),
                "no comma-joined list of numbers"
            );
            assert!(
                count_pt > order_pt,
                "counts {count_pt} pt, order {order_pt} pt"
            );
            for g in &mut got {
                g.1.sort();
            }
            got.sort();
            let mut want: Vec<(String, Vec<u32>)> = want
                .iter()
                .map(|(l, v)| (l.to_string(), v.clone()))
                .collect();
            want.sort();
            assert_eq!(got, want, "large: {}", sz.large);
        }
    }
}

/// The how-to sheet's drawn things: each line of text, the assembly map (every shape but the
/// bar, as one box) and the calibration bar, as (name, box).
fn howto_things(page: &Page) -> Vec<(String, (f64, f64, f64, f64))> {
    let (bx, by, bw, bh) = layout::page::bar_rect(page.height, &Sizes::LARGE);
    let (nx, ny, nw, nh) = layout::page::bar_rect(page.height, &Sizes::NORMAL);
    let is_bar = |b: (f64, f64, f64, f64)| {
        [(bx, by, bw, bh), (nx, ny, nw, nh)].iter().any(|r| {
            (b.0 - r.0).abs() < 1e-6 && (b.1 - r.1).abs() < 1e-6 && (b.2 - r.0 - r.2).abs() < 1e-6
        })
    };
    let mut out = Vec::new();
    let mut map: Option<(f64, f64, f64, f64)> = None;
    for it in leaves(&page.items) {
        match it {
            Item::Text(t) => out.push((format!("text {:?}", t.text), text_box(t))),
            Item::Shape(s) => {
                let Some(b) = bounds(&s.segs) else { continue };
                let hw = s.stroke.as_ref().map_or(0.0, |st| st.width / 2.0);
                let b = (b.0 - hw, b.1 - hw, b.2 + hw, b.3 + hw);
                if is_bar(b) {
                    out.push(("the calibration bar".into(), b));
                } else {
                    map = Some(map.map_or(b, |m| {
                        (m.0.min(b.0), m.1.min(b.1), m.2.max(b.2), m.3.max(b.3))
                    }));
                }
            }
            Item::Clip(_) => {}
        }
    }
    if let Some(m) = map {
        out.push(("the tile map".into(), m));
    }
    out
}

#[test]
fn the_howto_map_keeps_3_mm_clear_of_everything() {
    // The check can fail: a map 0.5 mm above the bar.
    let mut probe = Page::new("howto", 216.0, 279.0);
    let (bx, by, bw, bh) = layout::page::bar_rect(279.0, &Sizes::NORMAL);
    probe.shape(sowkit::doc::rect(bx, by, bw, bh), Some(Color::BLACK), None);
    probe.shape(
        sowkit::doc::rect(20.0, 200.0, 100.0, by - 0.5 - 200.0),
        None,
        Some(sowkit::doc::Stroke::solid(0.0, Color::BLACK)),
    );
    let t = howto_things(&probe);
    assert_eq!(t.len(), 2);
    assert!((rect_gap(t[0].1, t[1].1) - 0.5).abs() < 1e-6);

    let mut bad = Vec::new();
    let mut maps = 0;
    for rs in common::bundled() {
        for paper in [A4, LETTER, layout::LEGAL, layout::A3, layout::TABLOID] {
            for large in [false, true] {
                let opts = KitOptions {
                    large,
                    ..KitOptions::new(paper)
                };
                let kit = layout::kit(&rs, &opts).unwrap();
                let howto = &kit.pages[0];
                let things = howto_things(howto);
                let Some((_, map)) = things.iter().find(|t| t.0 == "the tile map") else {
                    continue;
                };
                maps += 1;
                for (name, b) in &things {
                    // The tile numbers are part of the map.
                    let inside = b.0 >= map.0 && b.2 <= map.2 && b.1 >= map.1 && b.3 <= map.3;
                    if name == "the tile map" || inside {
                        continue;
                    }
                    let g = rect_gap(*map, *b);
                    if g < 3.0 {
                        bad.push(format!(
                            "{} {}{}: the tile map is {g:.2} mm from {name}",
                            rs.id,
                            paper.name,
                            if large { " large" } else { "" }
                        ));
                    }
                }
            }
        }
    }
    assert!(maps >= 10, "too few maps: {maps}");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Kalah with `n` pits a side and pit labels `len` characters long ("WWWWWWWWWS01" …: wide
/// letters), pits `d` mm across.
fn long_labels(n: usize, len: usize, d: f64) -> Ruleset {
    let mut rs = common::kalah(n, 4);
    for (side, p) in ["S", "N"].iter().enumerate() {
        rs.board.pit_labels[side] = (1..=n)
            .map(|i| {
                let tail = format!("{p}{i:02}");
                format!("{}{tail}", "W".repeat(len - tail.len()))
            })
            .collect();
    }
    rs.layout.pit_diameter = d;
    rs.layout.store_length = 2.0 * d + 8.0;
    rs
}

#[test]
fn sixteen_pits_with_long_labels_are_refused_or_laid_out_clear() {
    // 16 pits a side with 12-character labels on A3 in large print: the board either lays
    // out with every sheet inside its printable area and no two texts on top of each other,
    // or it is refused with a message; it is never written overlapping.
    let rs = long_labels(16, 12, 80.0);
    let opts = KitOptions {
        large: true,
        ..KitOptions::new(layout::A3)
    };
    match layout::kit(&rs, &opts) {
        Ok(doc) => {
            for p in &doc.pages {
                assert_eq!(layout::fit::problem(p), None, "{}", p.name);
            }
        }
        Err(e) => assert!(
            e.contains("pit_labels")
                || e.contains("overlap")
                || e.contains("printable")
                || e.contains("cannot be split"),
            "{e}"
        ),
    }
    // The check itself: two texts on top of each other, and one off the page, are refused.
    let mut pg = Page::new("board", 420.0, 297.0);
    pg.text(20.0, 30.0, 18.0, sowkit::doc::Weight::Bold, "Southerly-01");
    pg.text(22.0, 31.0, 18.0, sowkit::doc::Weight::Bold, "Southerly-02");
    assert!(layout::fit::problem(&pg).unwrap().contains("overlap"));
    let mut pg = Page::new("board", 420.0, 297.0);
    pg.text(
        400.0,
        30.0,
        18.0,
        sowkit::doc::Weight::Bold,
        "store of the North",
    );
    assert!(layout::fit::problem(&pg)
        .unwrap()
        .contains("printable area"));
}

#[test]
fn a_label_too_long_for_the_largest_pit_gets_advice_that_can_work() {
    // 12 characters at 18 pt bold are wider than any pit up to the 80 mm limit can hold on
    // its label line, so the message must not ask for larger pits; it names the field, the
    // label and how many characters would fit.
    let rs = long_labels(6, 12, 80.0);
    let opts = KitOptions {
        large: true,
        ..KitOptions::new(layout::A3)
    };
    let e = layout::kit(&rs, &opts).unwrap_err();
    assert!(e.contains("board.pit_labels"), "{e}");
    assert!(e.contains("12 characters"), "{e}");
    assert!(e.contains("shorten the pit labels to at most"), "{e}");
    assert!(!e.contains("larger"), "{e}");
    // The most characters it names do fit: a label that long lays out.
    let k: usize = e
        .split("at most ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|t| t.parse().ok())
        .unwrap();
    assert!((2..12).contains(&k), "{e}");
    let ok = long_labels(6, k.max(3), 80.0);
    let ph = layout::phrases::Phrases::load("en").unwrap();
    layout::board::drawing_sized(&ok, &ph, &Sizes::LARGE, &[])
        .unwrap_or_else(|e| panic!("{k} characters: {e}"));
}

/// The sowing-order numbers of every worked-example diagram (rule sheets) and host-key
/// answer, over every bundled ruleset in each of its languages, on A4 and Letter, in normal
/// and large print: each number's digits are at least as tall as the sheet's caption type
/// would set them (DejaVu Sans digits are 1493/2048 em: 2.3 mm at normal print's 9 pt
/// captions, 3.6 mm at large print's 14 pt; the 6 pt numbers were 1.5 mm), and no order box
/// overlaps another, or any text but the number inside it (a count, a pit label, a store
/// name, a heading or caption).
#[test]
fn sowing_order_numbers_are_caption_sized_and_clear_of_each_other_and_all_text() {
    let mut bad = Vec::new();
    let mut numbers = 0;
    for (rs, lang, paper, sz, kit, key) in layouts() {
        let least_digit_mm = sz.caption * 25.4 / 72.0 * 1493.0 / 2048.0;
        for page in kit.pages.iter().chain(&key.pages) {
            if !(page.name.starts_with("rules") || page.name.starts_with("answers")) {
                continue;
            }
            let at = format!(
                "{} [{lang}] {} {}{}",
                rs.id,
                paper.name,
                if sz.large { "large " } else { "" },
                page.name
            );
            // Order boxes: small white rounded boxes with an outline, under 6 mm high.
            let boxes: Vec<(f64, f64, f64, f64)> = leaves(&page.items)
                .into_iter()
                .filter_map(|it| match it {
                    Item::Shape(s) if s.stroke.is_some() && s.fill == Some(Color::WHITE) => {
                        as_rounded(s).map(|b| (b.0, b.1, b.2, b.3))
                    }
                    _ => None,
                })
                .filter(|b| b.3 - b.1 < 6.0 && b.2 - b.0 < 6.0 * 3.0)
                .collect();
            for (i, a) in boxes.iter().enumerate() {
                for b in &boxes[i + 1..] {
                    if rect_gap(*a, *b) <= 0.0 {
                        bad.push(format!("{at}: order boxes {a:?} and {b:?} overlap"));
                    }
                }
            }
            for t in page.texts() {
                let tb = text_box(t);
                let inside = boxes
                    .iter()
                    .position(|b| tb.0 >= b.0 && tb.2 <= b.2 && tb.1 >= b.1 && tb.3 <= b.3);
                match inside {
                    Some(_) if t.text.chars().all(|c| c.is_ascii_digit()) => {
                        numbers += 1;
                        let digit_mm = t.size_pt * 25.4 / 72.0 * 1493.0 / 2048.0;
                        if digit_mm < least_digit_mm - 1e-9 {
                            bad.push(format!(
                                "{at}: order number {:?} is {digit_mm:.2} mm tall, under the \
                                 captions' {least_digit_mm:.2} mm",
                                t.text
                            ));
                        }
                    }
                    _ => {
                        for b in &boxes {
                            if rect_gap(tb, *b) <= 0.0 {
                                bad.push(format!(
                                    "{at}: text {:?} overlaps the order box {b:?}",
                                    t.text
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(numbers > 1000, "too few order numbers found: {numbers}");
    assert!(
        bad.is_empty(),
        "{} problems, e.g.\n{}",
        bad.len(),
        bad[..bad.len().min(40)].join("\n")
    );
}

/// The pit labels of the small boards on rule sheets, practice pages and host-key answers are
/// what the practice questions are answered with ("the last seed lands in ___"): in normal print
/// their digits are at least 1.8 mm tall (7 pt: DejaVu Sans digits are 1493/2048 of the type
/// size, 7 × 25.4 / 72 × 1493 / 2048 = 1.80 mm), no longer the 6 pt (1.54 mm) of the smallest
/// notes. Large print's own label size is larger still and checked with it.
#[test]
fn mini_board_pit_labels_are_at_least_seven_points() {
    let mut bad = Vec::new();
    let mut found = 0;
    for (rs, lang, paper, sz, kit, key) in layouts() {
        let labels: std::collections::BTreeSet<&str> = rs
            .board
            .pit_labels
            .iter()
            .flatten()
            .map(String::as_str)
            .collect();
        for page in kit.pages.iter().chain(&key.pages) {
            if !["rules", "practice", "answers"]
                .iter()
                .any(|n| page.name.starts_with(n))
            {
                continue;
            }
            for t in page.texts() {
                if !labels.contains(t.text.as_str()) {
                    continue;
                }
                found += 1;
                let digit_mm = t.size_pt * 25.4 / 72.0 * 1493.0 / 2048.0;
                if digit_mm < 1.8 - 1e-9 {
                    bad.push(format!(
                        "{} [{lang}] {} {}{}: label {:?} is {digit_mm:.2} mm tall",
                        rs.id,
                        paper.name,
                        if sz.large { "large " } else { "" },
                        page.name,
                        t.text
                    ));
                }
            }
        }
    }
    assert!(found > 1000, "too few pit labels found: {found}");
    assert!(
        bad.is_empty(),
        "{} labels under 1.8 mm, e.g.\n{}",
        bad.len(),
        bad[..bad.len().min(20)].join("\n")
    );
}
