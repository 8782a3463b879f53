//! What a printed sheet must get right, checked on the page model of every bundled kit and host
//! key on A4 and Letter, in normal and large print (`--style large`): type size, marks that stand clear of each other, sowing numbers inside
//! their pit, the preview's print styles, the score log's continuation sheet and the cutting.
//! Geometry here is computed from the shapes themselves (centres and radii from their bounds,
//! digit height from DejaVu Sans' 1493/2048 em), not from the layout code's constants.
use crate::common;

use sowkit::doc::{Document, Page, Seg, Shape, Text};
use sowkit::layout::{self, Paper, A4, LETTER};
use sowkit::ruleset::Ruleset;

/// Every bundled ruleset's kit and host key on A4 and Letter, in normal and large print:
/// (label, document).
fn documents() -> Vec<(String, Document)> {
    let mut out = Vec::new();
    for rs in common::bundled_en() {
        for paper in [A4, LETTER] {
            for large in [false, true] {
                let opts = layout::KitOptions {
                    large,
                    ..layout::KitOptions::new(paper)
                };
                let print = if large { " large" } else { "" };
                out.push((
                    format!("{} {}{print} kit", rs.id, paper.name),
                    layout::kit(&rs, &opts).unwrap(),
                ));
                out.push((
                    format!("{} {}{print} host key", rs.id, paper.name),
                    layout::host_key(&rs, &opts).unwrap(),
                ));
            }
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
        // (Page 1 is the portrait "how to make this kit" sheet; the board sheets follow.)
        let first = kit
            .document
            .pages
            .iter()
            .find(|p| p.name.starts_with("board"))
            .unwrap();
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

/// Row numbers printed on a log page: the texts that are whole numbers, in order, less one
/// that is the seed total wrapped alone onto a line of the check column's header (printed
/// above the rows, so before them).
fn row_numbers(page: &Page) -> Vec<usize> {
    let mut v: Vec<usize> = page
        .texts()
        .filter_map(|t| t.text.parse::<usize>().ok())
        .collect();
    if v.len() > 1 && v[0] > v[1] {
        v.remove(0);
    }
    v
}

#[test]
fn the_score_log_has_a_continuation_sheet_numbered_on() {
    for rs in common::bundled_en() {
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

/// A thin solid black straight line: a cut line or a crop mark. ((x0, y0), (x1, y1)).
fn cut_segments(page: &Page) -> Vec<((f64, f64), (f64, f64))> {
    page.shapes()
        .filter(|s| {
            s.fill.is_none()
                && s.stroke
                    .as_ref()
                    .is_some_and(|k| k.dash.is_empty() && (k.width - 0.2).abs() < 1e-9)
        })
        .filter_map(|s| match s.segs.as_slice() {
            [Seg::MoveTo(a), Seg::LineTo(b)] => Some(((a.x, a.y), (b.x, b.y))),
            _ => None,
        })
        .collect()
}

/// Checks the cutting of one sheet: pieces are the regions the cut lines close off; every
/// piece holds something (a counter, or text), every stretch of cut line borders a piece
/// (lines stop at the pieces), and every crop mark (the short lines) is outside the pieces, in
/// line with a cut line's end and clear of it. Returns the pieces' contents counts.
fn check_cutting(what: &str, page: &Page, contents: &[(f64, f64)]) -> Vec<usize> {
    let segs = cut_segments(page);
    let len = |s: &((f64, f64), (f64, f64))| (s.1 .0 - s.0 .0).hypot(s.1 .1 - s.0 .1);
    type Seg2 = ((f64, f64), (f64, f64));
    let (long, short): (Vec<&Seg2>, Vec<&Seg2>) = segs.iter().partition(|s| len(s) > 4.5);
    assert!(!long.is_empty(), "{what}: no cut lines");
    let horizontal = |s: &((f64, f64), (f64, f64))| (s.0 .1 - s.1 .1).abs() < 1e-9;
    let mut xs: Vec<f64> = Vec::new();
    let mut ys: Vec<f64> = Vec::new();
    for s in &long {
        for (x, y) in [s.0, s.1] {
            xs.push(x);
            ys.push(y);
        }
    }
    let norm = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.dedup_by(|a, b| (*a - *b).abs() < 1e-6);
    };
    norm(&mut xs);
    norm(&mut ys);
    // Whether a lattice edge is cut: the horizontal edge at ys[j] from xs[i] to xs[i+1], or
    // the vertical one at xs[i] from ys[j] to ys[j+1].
    let covered = |h: bool, c: f64, a: f64, b: f64| {
        long.iter().any(|s| {
            if h != horizontal(s) {
                return false;
            }
            let (sc, s0, s1) = if h {
                (s.0 .1, s.0 .0.min(s.1 .0), s.0 .0.max(s.1 .0))
            } else {
                (s.0 .0, s.0 .1.min(s.1 .1), s.0 .1.max(s.1 .1))
            };
            (sc - c).abs() < 1e-6 && s0 <= a + 1e-6 && s1 >= b - 1e-6
        })
    };
    // Flood fill over lattice cells, with a ring of outside cells (index -1 and n).
    let (nx, ny) = (xs.len() as i64 - 1, ys.len() as i64 - 1);
    let mut region = vec![vec![usize::MAX; (ny + 2) as usize]; (nx + 2) as usize];
    let mut outside_regions = Vec::new();
    let mut nreg = 0;
    for sx in -1..=nx {
        for sy in -1..=ny {
            if region[(sx + 1) as usize][(sy + 1) as usize] != usize::MAX {
                continue;
            }
            let mut stack = vec![(sx, sy)];
            region[(sx + 1) as usize][(sy + 1) as usize] = nreg;
            let mut outside = false;
            while let Some((i, j)) = stack.pop() {
                if i < 0 || j < 0 || i >= nx || j >= ny {
                    outside = true;
                }
                for (di, dj) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let (a, b) = (i + di, j + dj);
                    if a < -1 || b < -1 || a > nx || b > ny {
                        continue;
                    }
                    // Crossing between inside cells may be blocked by a cut edge.
                    let blocked = if di != 0 {
                        let x = xs[(i.max(a)) as usize];
                        (0..ny).contains(&j)
                            && (0..=nx).contains(&i.max(a))
                            && covered(false, x, ys[j as usize], ys[j as usize + 1])
                    } else {
                        let y = ys[(j.max(b)) as usize];
                        (0..nx).contains(&i)
                            && (0..=ny).contains(&j.max(b))
                            && covered(true, y, xs[i as usize], xs[i as usize + 1])
                    };
                    if !blocked && region[(a + 1) as usize][(b + 1) as usize] == usize::MAX {
                        region[(a + 1) as usize][(b + 1) as usize] = nreg;
                        stack.push((a, b));
                    }
                }
            }
            if outside {
                outside_regions.push(nreg);
            }
            nreg += 1;
        }
    }
    let cell_of = |x: f64, y: f64| -> Option<usize> {
        let i = xs.iter().rposition(|&v| v < x)?;
        let j = ys.iter().rposition(|&v| v < y)?;
        ((i as i64) < nx && (j as i64) < ny).then(|| region[i + 1][j + 1])
    };
    let is_piece = |r: usize| !outside_regions.contains(&r);
    let mut held = vec![0usize; nreg];
    for &(x, y) in contents {
        if let Some(r) = cell_of(x, y).filter(|&r| is_piece(r)) {
            held[r] += 1;
        }
    }
    let pieces: Vec<usize> = (0..nreg).filter(|&r| is_piece(r)).collect();
    assert!(
        !pieces.is_empty(),
        "{what}: the cut lines close off no piece"
    );
    for &r in &pieces {
        assert!(held[r] > 0, "{what}: an empty piece is outlined");
    }
    // Every stretch of every cut line borders a piece.
    for s in &long {
        let h = horizontal(s);
        let (c, a, b) = if h {
            (s.0 .1, s.0 .0.min(s.1 .0), s.0 .0.max(s.1 .0))
        } else {
            (s.0 .0, s.0 .1.min(s.1 .1), s.0 .1.max(s.1 .1))
        };
        let stops: Vec<f64> = if h { xs.clone() } else { ys.clone() };
        for w in stops
            .windows(2)
            .filter(|w| w[0] >= a - 1e-6 && w[1] <= b + 1e-6)
        {
            let m = (w[0] + w[1]) / 2.0;
            let sides = if h {
                [cell_of(m, c - 0.01), cell_of(m, c + 0.01)]
            } else {
                [cell_of(c - 0.01, m), cell_of(c + 0.01, m)]
            };
            assert!(
                sides.iter().flatten().any(|&r| is_piece(r)),
                "{what}: a cut line runs on past the pieces near ({:.1}, {:.1})",
                if h { m } else { c },
                if h { c } else { m }
            );
        }
    }
    // Crop marks.
    assert!(!short.is_empty(), "{what}: no crop marks");
    for m in &short {
        let mid = ((m.0 .0 + m.1 .0) / 2.0, (m.0 .1 + m.1 .1) / 2.0);
        assert!(
            !cell_of(mid.0, mid.1).is_some_and(is_piece),
            "{what}: a crop mark lies on a piece at {mid:?}"
        );
        let h = horizontal(m);
        let ends_near = long.iter().any(|s| {
            horizontal(s) == h
                && [s.0, s.1].iter().any(|&(ex, ey)| {
                    [m.0, m.1].iter().any(|&(mx, my)| {
                        let d = (mx - ex).hypot(my - ey);
                        (d - 1.0).abs() < 1e-6
                            && if h {
                                (my - ey).abs() < 1e-9
                            } else {
                                (mx - ex).abs() < 1e-9
                            }
                    })
                })
        });
        assert!(
            ends_near,
            "{what}: crop mark at {mid:?} is not 1 mm beyond a cut line's end"
        );
    }
    pieces.iter().map(|&r| held[r]).collect()
}

/// Counter outlines: unfilled circles with a 0.3 mm stroke: (centre, diameter).
fn counters(page: &Page) -> Vec<((f64, f64), f64)> {
    page.shapes()
        .filter(|s| s.fill.is_none() && (stroke_w(s) - 0.3).abs() < 1e-9)
        .filter_map(as_circle)
        .map(|(x, y, r)| ((x, y), 2.0 * r))
        .collect()
}

#[test]
fn counters_and_labels_are_cut_along_their_pieces_with_crop_marks() {
    for rs in common::bundled_en() {
        for paper in [A4, LETTER] {
            let doc = layout::kit(&rs, &layout::KitOptions::new(paper)).unwrap();
            let mut printed = 0;
            for page in &doc.pages {
                let what = format!("{} {} {}", rs.id, paper.name, page.name);
                if page.name.starts_with("counters") {
                    let c = counters(page);
                    let held =
                        check_cutting(&what, page, &c.iter().map(|x| x.0).collect::<Vec<_>>());
                    assert!(held.iter().all(|&n| n == 1), "{what}: one counter a piece");
                    printed += c.len();
                } else if page.name.starts_with("labels") {
                    let starts: Vec<(f64, f64)> =
                        page.texts().map(|t| (t.x + 0.1, t.y - 0.1)).collect();
                    check_cutting(&what, page, &starts);
                }
            }
            assert!(
                printed as u32 >= rs.total_seeds(),
                "{} {}: {printed} counters",
                rs.id,
                paper.name
            );
        }
    }
}

#[test]
fn counters_say_whether_they_are_a_small_part() {
    let rs = load("kalah-6x4");
    for child_safe in [false, true] {
        let mut opts = layout::KitOptions::new(A4);
        opts.child_safe = child_safe;
        let doc = layout::kit(&rs, &opts).unwrap();
        let page = doc.pages.iter().find(|p| p.name == "counters-1").unwrap();
        let words: String = page
            .texts()
            .map(|t| t.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        let sizes = counters(page);
        if child_safe {
            // 31.75 mm is the small-parts test cylinder; 32 mm counters clear it.
            assert!(sizes.iter().all(|c| c.1 >= 32.0 - 1e-9), "{sizes:?}");
            assert!(words.contains("too large to swallow"), "{words}");
        } else {
            assert!(words.contains("Small parts"), "{words}");
            // The way to bigger counters, in players' words (no command-line option).
            assert!(words.contains("child-safe version"), "{words}");
            assert!(!words.contains("--child-safe"), "{words}");
        }
    }
}

/// Fails today only for rulesets/six-pit-sowing.toml (20 mm counters, 30 mm pits): its play
/// sizes are the board branch's to set (issue 6); run with `--ignored` once they land.
#[test]
#[ignore = "six-pit-sowing.toml holds one 20 mm counter a 30 mm pit until its play sizes land"]
fn counters_are_printed_at_the_rulesets_size_and_several_fit_a_pit() {
    for rs in common::bundled_en() {
        for child_safe in [false, true] {
            let mut opts = layout::KitOptions::new(A4);
            opts.child_safe = child_safe;
            let printed = layout::as_printed(&rs, &opts);
            let doc = layout::kit(&rs, &opts).unwrap();
            let page = doc.pages.iter().find(|p| p.name == "counters-1").unwrap();
            let c = printed.layout.counter_diameter;
            for (_, d) in counters(page) {
                assert!(
                    (d - c).abs() < 1e-6,
                    "{}: counter {d} mm, ruleset {c} mm",
                    rs.id
                );
            }
            // Three equal circles of radius r fit in a circle of radius r (1 + 2/√3).
            let three = c * (1.0 + 2.0 / 3f64.sqrt());
            assert!(
                printed.layout.pit_diameter >= three,
                "{} (child-safe {child_safe}): a {} mm pit does not hold three {c} mm counters",
                rs.id,
                printed.layout.pit_diameter
            );
        }
    }
}

/// Outlines that are rounded rectangles (a store), as (x0, y0, x1, y1): stroked, solid, with
/// curves, not circles.
fn rounded_rects(page: &Page) -> Vec<(f64, f64, f64, f64)> {
    page.shapes()
        .filter(|s| {
            s.stroke.is_some()
                && !dashed(s)
                && as_circle(s).is_none()
                && s.segs.iter().any(|g| matches!(g, Seg::CubicTo(..)))
        })
        .map(bounds)
        .collect()
}

/// A store's name in a diagram keeps at least 0.7 mm between its words and the stroke of the
/// store's inner ring, each side, in English and Spanish, normal and large print: 0.35 mm read
/// as the word touching the ring ("almacén" in Spanish large print). The inner ring is the
/// innermost stroked rounded rectangle round the text; a word's box is its advance width.
#[test]
fn a_store_name_stands_clear_of_the_inner_ring() {
    let mut bad = Vec::new();
    let mut checked = 0;
    for b in sowkit::bundled::ALL {
        let rs = sowkit::ruleset::load::load_str(b.file, b.source).unwrap();
        for lang in ["en", "es"] {
            for large in [false, true] {
                let opts = layout::KitOptions {
                    large,
                    lang: Some(lang.to_string()),
                    ..layout::KitOptions::new(A4)
                };
                let doc = layout::kit(&rs, &opts).unwrap();
                for (i, page) in doc.pages.iter().enumerate() {
                    if !page.name.starts_with("rules") {
                        continue;
                    }
                    let rings: Vec<((f64, f64, f64, f64), f64)> = page
                        .shapes()
                        .filter(|s| {
                            s.stroke.is_some()
                                && !dashed(s)
                                && as_circle(s).is_none()
                                && s.segs.iter().any(|g| matches!(g, Seg::CubicTo(..)))
                        })
                        .map(|s| (bounds(s), stroke_w(s)))
                        .filter(|(b, _)| b.2 - b.0 < 20.0 && b.3 - b.1 >= 6.0)
                        .collect();
                    for t in page.texts() {
                        if !t.text.chars().any(char::is_alphabetic) {
                            continue;
                        }
                        let (x0, y0, x1, y1) = digit_box(t);
                        let (mx, my) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
                        let inner = rings
                            .iter()
                            .filter(|(b, _)| mx > b.0 && mx < b.2 && my > b.1 && my < b.3)
                            .min_by(|a, b| (a.0 .2 - a.0 .0).total_cmp(&(b.0 .2 - b.0 .0)));
                        if let Some(&(b, w)) = inner {
                            checked += 1;
                            let clear = (x0 - b.0).min(b.2 - x1) - w / 2.0;
                            if clear < 0.7 {
                                bad.push(format!(
                                    "{} {lang}{} page {}: {:?} is {clear:.2} mm from its inner ring",
                                    rs.id,
                                    if large { " large" } else { "" },
                                    i + 1,
                                    t.text
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} store names");
    assert!(
        bad.is_empty(),
        "{}: {:#?}",
        bad.len(),
        &bad[..bad.len().min(8)]
    );
}

#[test]
fn text_in_a_mini_store_stays_clear_of_its_outline() {
    let mut bad = Vec::new();
    let mut checked = 0;
    for (what, doc) in documents() {
        for (i, page) in doc.pages.iter().enumerate() {
            if !page.name.starts_with("rules")
                && !page.name.starts_with("practice")
                && !page.name.starts_with("answers")
            {
                continue;
            }
            // Mini-board stores: narrow rounded rectangles; the innermost one holding the text.
            // The small boxes round sowing-order numbers (under 6 mm high) are not stores.
            let stores: Vec<_> = rounded_rects(page)
                .into_iter()
                .filter(|b| b.2 - b.0 < 20.0 && b.3 - b.1 >= 6.0)
                .collect();
            for t in page.texts() {
                let (x0, y0, x1, y1) = digit_box(t);
                let (mx, my) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
                let inner = stores
                    .iter()
                    .filter(|b| mx > b.0 && mx < b.2 && my > b.1 && my < b.3)
                    .min_by(|a, b| (a.2 - a.0).total_cmp(&(b.2 - b.0)));
                if let Some(b) = inner {
                    checked += 1;
                    let clear = (x0 - b.0).min(b.2 - x1).min(y0 - b.1).min(b.3 - y1);
                    if clear < 0.3 {
                        bad.push(format!(
                            "{what} page {}: {:?} is {clear:.2} mm from its store's outline",
                            i + 1,
                            t.text
                        ));
                    }
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} texts in stores");
    assert!(
        bad.is_empty(),
        "{}: {:#?}",
        bad.len(),
        &bad[..bad.len().min(8)]
    );
}

#[test]
fn labels_name_each_store_as_the_ruleset_does() {
    for rs in common::bundled_en() {
        let doc = layout::kit(&rs, &layout::KitOptions::new(A4)).unwrap();
        let words: Vec<&str> = doc
            .pages
            .iter()
            .filter(|p| p.name.starts_with("labels"))
            .flat_map(|p| p.texts().map(|t| t.text.as_str()))
            .collect();
        let calls_store = rs
            .board
            .stores
            .iter()
            .any(|s| s.to_lowercase().contains("store"));
        if !calls_store {
            // Oware: "South's captures"; the labels must not call it a store either.
            for w in &words {
                assert!(
                    !w.to_lowercase().contains("store"),
                    "{}: label says {w:?}",
                    rs.id
                );
            }
        }
    }
}

#[test]
fn every_host_key_heading_has_a_number_and_a_title() {
    for rs in common::bundled_en() {
        let doc = layout::host_key(&rs, &layout::KitOptions::new(A4)).unwrap();
        let heads: Vec<&str> = doc
            .pages
            .iter()
            .flat_map(|p| p.texts())
            .map(|t| t.text.as_str())
            .filter(|s| s.starts_with("Exercise "))
            .collect();
        assert!(heads.len() >= 4, "{}: {heads:?}", rs.id);
        for h in heads {
            let (num, title) = h.split_once(": ").unwrap_or((h, ""));
            assert!(
                num["Exercise ".len()..].parse::<usize>().is_ok(),
                "{}: {h:?}",
                rs.id
            );
            assert!(
                !title.trim().is_empty(),
                "{}: heading without a title: {h:?}",
                rs.id
            );
        }
    }
}
