//! What a printed sheet must get right, checked on the page model of every bundled kit and host
//! key on A4 and Letter: type size, marks that stand clear of each other, sowing numbers inside
//! their pit, the preview's print styles, the score log's continuation sheet and the cutting.
//! Geometry here is computed from the shapes themselves (centres and radii from their bounds,
//! digit height from DejaVu Sans' 1493/2048 em), not from the layout code's constants.
mod common;

use sowkit::doc::{Document, Page, Seg, Shape, Text};
use sowkit::layout::{self, Paper, A4, LETTER};
use sowkit::ruleset::Ruleset;

/// Every bundled ruleset's kit and host key on A4 and Letter: (label, document).
fn documents() -> Vec<(String, Document)> {
    let mut out = Vec::new();
    for rs in common::bundled() {
        for paper in [A4, LETTER] {
            out.push((
                format!("{} {} kit", rs.id, paper.name),
                layout::kit(&rs, &layout::KitOptions::new(paper)).unwrap(),
            ));
            out.push((
                format!("{} {} host key", rs.id, paper.name),
                layout::host_key(&rs, &layout::KitOptions::new(paper)).unwrap(),
            ));
        }
    }
    out
}

fn bounds(s: &Shape) -> (f64, f64, f64, f64) {
    sowkit::doc::bounds(&s.segs).unwrap()
}

/// A circle drawn by `doc::circle` (move, four curves, close): (cx, cy, r).
fn as_circle(s: &Shape) -> Option<(f64, f64, f64)> {
    let curves = s
        .segs
        .iter()
        .filter(|g| matches!(g, Seg::CubicTo(..)))
        .count();
    if s.segs.len() != 6 || curves != 4 {
        return None;
    }
    let (x0, y0, x1, y1) = bounds(s);
    ((x1 - x0) - (y1 - y0)).abs().lt(&1e-6).then_some((
        (x0 + x1) / 2.0,
        (y0 + y1) / 2.0,
        (x1 - x0) / 2.0,
    ))
}

fn stroke_w(s: &Shape) -> f64 {
    s.stroke.as_ref().map_or(0.0, |k| k.width)
}

fn dashed(s: &Shape) -> bool {
    s.stroke.as_ref().is_some_and(|k| !k.dash.is_empty())
}

/// Box of a line of digits and letters without descenders: (x0, top, x1, baseline), mm.
fn digit_box(t: &Text) -> (f64, f64, f64, f64) {
    let w = sowkit::text::width_mm(&t.text, t.size_pt, t.weight);
    let h = t.size_pt * 25.4 / 72.0 * 1493.0 / 2048.0;
    (t.x, t.y - h, t.x + w, t.y)
}

#[test]
fn nothing_is_printed_under_6_pt() {
    let mut small = Vec::new();
    for (what, doc) in documents() {
        for (i, page) in doc.pages.iter().enumerate() {
            for t in page.texts() {
                if t.size_pt < 6.0 - 1e-9 {
                    small.push(format!(
                        "{what} page {} ({}): {:?} at {} pt",
                        i + 1,
                        page.name,
                        t.text,
                        t.size_pt
                    ));
                }
            }
        }
    }
    assert!(
        small.is_empty(),
        "{} text items under 6 pt, e.g. {:?}",
        small.len(),
        &small[..small.len().min(8)]
    );
}

/// Distance from (x, y) to the outline of the rectangle (x0, y0)–(x1, y1), inside or out.
fn to_rect_outline(x: f64, y: f64, (x0, y0, x1, y1): (f64, f64, f64, f64)) -> f64 {
    let inside = x > x0 && x < x1 && y > y0 && y < y1;
    if inside {
        (x - x0).min(x1 - x).min(y - y0).min(y1 - y)
    } else {
        let dx = (x0 - x).max(0.0).max(x - x1);
        let dy = (y0 - y).max(0.0).max(y - y1);
        dx.hypot(dy)
    }
}

#[test]
fn capture_rings_stand_clear_of_each_other_and_of_stores() {
    let mut bad = Vec::new();
    let mut rings_seen = 0;
    for (what, doc) in documents() {
        for (i, page) in doc.pages.iter().enumerate() {
            let rings: Vec<(f64, f64, f64, f64)> = page
                .shapes()
                .filter(|s| dashed(s))
                .filter_map(|s| as_circle(s).map(|(x, y, r)| (x, y, r, stroke_w(s))))
                .collect();
            rings_seen += rings.len();
            for (a, &(x1, y1, r1, w1)) in rings.iter().enumerate() {
                for &(x2, y2, r2, w2) in &rings[a + 1..] {
                    let clear = (x1 - x2).hypot(y1 - y2) - r1 - r2 - (w1 + w2) / 2.0;
                    if clear < 0.3 {
                        bad.push(format!(
                            "{what} page {}: rings at ({x1:.1},{y1:.1}) and ({x2:.1},{y2:.1}) {clear:.2} mm apart",
                            i + 1
                        ));
                    }
                }
                // Rounded rectangles (stores) near the ring.
                for s in page.shapes().filter(|s| {
                    s.stroke.is_some()
                        && !dashed(s)
                        && as_circle(s).is_none()
                        && s.segs.iter().any(|g| matches!(g, Seg::CubicTo(..)))
                }) {
                    let b = bounds(s);
                    let clear = to_rect_outline(x1, y1, b) - r1 - (w1 + stroke_w(s)) / 2.0;
                    if clear < 0.3 && to_rect_outline(x1, y1, b) < r1 + 5.0 {
                        bad.push(format!(
                            "{what} page {}: ring at ({x1:.1},{y1:.1}) {clear:.2} mm from a store",
                            i + 1
                        ));
                    }
                }
            }
        }
    }
    assert!(rings_seen > 10, "only {rings_seen} capture rings found");
    assert!(
        bad.is_empty(),
        "{}: {:#?}",
        bad.len(),
        &bad[..bad.len().min(8)]
    );
}

/// Inner rings of double-ring pits: a circle with another, larger circle on the same centre.
fn inner_rings(page: &Page) -> Vec<(f64, f64, f64, f64)> {
    let circles: Vec<(f64, f64, f64, f64)> = page
        .shapes()
        .filter(|s| s.stroke.is_some() && !dashed(s))
        .filter_map(|s| as_circle(s).map(|(x, y, r)| (x, y, r, stroke_w(s))))
        .collect();
    circles
        .iter()
        .filter(|&&(x, y, r, _)| {
            circles.iter().any(|&(x2, y2, r2, _)| {
                (x - x2).abs() < 1e-6 && (y - y2).abs() < 1e-6 && r2 > r + 0.3 && r2 < r + 2.0
            })
        })
        .copied()
        .collect()
}

#[test]
fn text_in_a_double_ring_pit_stays_inside_the_inner_ring() {
    let mut bad = Vec::new();
    let mut checked = 0;
    for (what, doc) in documents() {
        for (i, page) in doc.pages.iter().enumerate() {
            let inner = inner_rings(page);
            for t in page.texts() {
                let (x0, y0, x1, y1) = digit_box(t);
                let (mx, my) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
                for &(cx, cy, r, w) in &inner {
                    if (mx - cx).hypot(my - cy) >= r {
                        continue;
                    }
                    checked += 1;
                    let room = r - w / 2.0;
                    let far = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]
                        .iter()
                        .map(|&(x, y)| (x - cx).hypot(y - cy))
                        .fold(0.0, f64::max);
                    if far > room {
                        bad.push(format!(
                            "{what} page {}: {:?} reaches {far:.2} mm from the centre of a pit whose inner ring is at {room:.2}",
                            i + 1,
                            t.text
                        ));
                    }
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} texts in double-ring pits");
    assert!(
        bad.is_empty(),
        "{}: {:#?}",
        bad.len(),
        &bad[..bad.len().min(8)]
    );
}

fn load(id: &str) -> Ruleset {
    common::load_path(&common::bundled_path(id))
}

fn preview(rs: &Ruleset, paper: Paper) -> (sowkit::kit::Kit, String) {
    let kit = sowkit::kit::make(rs, &layout::KitOptions::new(paper)).unwrap();
    let html = kit
        .files
        .iter()
        .find(|f| f.name == "index.html")
        .map(|f| String::from_utf8(f.bytes.clone()).unwrap())
        .unwrap();
    (kit, html)
}

#[test]
fn preview_gives_each_sheet_a_page_of_its_own_size() {
    for (id, paper) in [("kalah-6x4", A4), ("oware-abapa", LETTER)] {
        let (kit, html) = preview(&load(id), paper);
        // Every sheet: an element of a class whose named page has the sheet's size in mm.
        let mut sheets = 0;
        for (k, p) in kit.document.pages.iter().enumerate() {
            let file = format!("{:02}-{}.svg", k + 1, p.name);
            let at = html.find(&format!("src=\"{file}\"")).unwrap();
            let open = html[..at].rfind("<div class=\"sheet ").unwrap();
            let class = html[open + 18..].split('"').next().unwrap();
            let size = format!(
                "@page {class} {{ size: {}mm {}mm; margin: 0 }}",
                p.width, p.height
            );
            assert!(html.contains(&size), "{id}: no `{size}` for {file}");
            let box_ = format!(
                ".{class} {{ page: {class}; width: {}mm; height: {}mm }}",
                p.width, p.height
            );
            assert!(html.contains(&box_), "{id}: {file} not drawn at true size");
            sheets += 1;
        }
        assert_eq!(sheets, kit.document.pages.len());
        // Landscape and portrait sheets get different named pages.
        let first = &kit.document.pages[0];
        assert!(
            first.width > first.height,
            "{id}: the board sheet is landscape"
        );
        assert!(html.contains(&format!("size: {}mm {}mm", paper.height, paper.width)));
        assert!(html.contains(&format!("size: {}mm {}mm", paper.width, paper.height)));
        // Headings and notes are screen-only; the note about headers and footers is kept.
        let print = &html[html.find("@media print").unwrap()..];
        assert!(print.contains(".screen, .cap { display: none }"));
        assert!(
            html.contains("<h1>")
                && html[html.find("<h1>").unwrap() - 30..].contains("class=\"screen\"")
        );
        assert!(
            !html.contains("<h2>"),
            "every caption must carry the screen-only class"
        );
        assert!(html.contains("headers and footers"));
        assert!(html.contains("Actual size"));
        // Nothing scales: no zoom, no transform, no percentage sheet widths.
        for bad in ["zoom", "transform", "vw;", "vh;"] {
            assert!(!html.contains(bad), "{id}: `{bad}` in the preview");
        }
    }
}

/// Row numbers printed on a log page: the texts that are whole numbers, in order.
fn row_numbers(page: &Page) -> Vec<usize> {
    page.texts()
        .filter_map(|t| t.text.parse::<usize>().ok())
        .collect()
}

#[test]
fn the_score_log_has_a_continuation_sheet_numbered_on() {
    for rs in common::bundled() {
        for paper in [A4, LETTER] {
            let doc = layout::kit(&rs, &layout::KitOptions::new(paper)).unwrap();
            let at = doc.pages.iter().position(|p| p.name == "log").unwrap();
            let next = &doc.pages[at + 1];
            assert_eq!(
                next.name, "log-2",
                "{}: the continuation follows the log",
                rs.id
            );
            let a = row_numbers(&doc.pages[at]);
            let b = row_numbers(next);
            assert_eq!(a, (1..=a.len()).collect::<Vec<_>>(), "{}", rs.id);
            assert_eq!(
                b,
                (a.len() + 1..=a.len() + b.len()).collect::<Vec<_>>(),
                "{}: rows go on from {}",
                rs.id,
                a.len() + 1
            );
            // A Kalah game often runs past 40 moves: the two sheets hold well over that.
            assert!(
                a.len() + b.len() >= 60,
                "{}: {} + {}",
                rs.id,
                a.len(),
                b.len()
            );
        }
    }
}
