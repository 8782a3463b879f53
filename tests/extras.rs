//! The practice pages, the host key, the counters sheet and the bowl labels: page invariants
//! (margins, calibration bar, footer, text inside its box) on A4 and Letter for every bundled
//! ruleset and a few variants, counter and label counts, shared cut lines, matching exercise
//! numbers, and host key answers checked against an independent engine replay.
use crate::common;

use sowkit::doc::{bounds, Color, Document, Item, Page, Seg, Shape, Text};
use sowkit::engine::{Game, Rules};
use sowkit::layout::{self, counters, labels, page, practice, Paper, A4, LETTER};
use sowkit::notation;
use sowkit::ruleset::{self, Ruleset, Start};
use sowkit::text;

const EPS: f64 = 1e-6;

fn load(path: &std::path::Path) -> Ruleset {
    match ruleset::load_file(path) {
        Ok(r) => r,
        Err(d) => panic!("{}: {:?}", path.display(), d),
    }
}

fn repo(id: &str) -> Ruleset {
    load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("rulesets/{id}.toml")))
}

/// Every ruleset file in `rulesets/`.
/// In English (these tests read the English wording; tests/lang.rs covers the others).
fn repo_rulesets() -> Vec<Ruleset> {
    common::bundled_en()
}

/// Variants that stress the new sheets: the smallest and largest counters the loader allows,
/// and a 16-pit board with long store names (labels over more than one page).
fn variants() -> Vec<Ruleset> {
    let mut small = repo("kalah-6x4");
    small.id = "tiny-counters".into();
    small.layout.counter_diameter = 5.0;
    let mut big = repo("six-pit-sowing");
    big.id = "big-counters".into();
    big.layout.counter_diameter = 60.0;
    let mut wide = repo("kalah-6x4");
    wide.id = "wide".into();
    wide.examples = Vec::new().into();
    let n = 16;
    wide.board.pits_per_side = n;
    wide.board.pit_labels = [
        (1..=n).map(|i| format!("S{i}")).collect(),
        (1..=n).map(|i| format!("N{i}")).collect(),
    ];
    wide.board.stores = [
        "South's great store of seeds".into(),
        "North's great store of seeds".into(),
    ];
    vec![small, big, wide]
}

/// (ruleset, paper, kit, host key) for every ruleset and both papers, built once.
fn kits() -> &'static [(Ruleset, Paper, Document, Document)] {
    static KITS: std::sync::OnceLock<Vec<(Ruleset, Paper, Document, Document)>> =
        std::sync::OnceLock::new();
    KITS.get_or_init(|| {
        let mut out = Vec::new();
        for rs in repo_rulesets().into_iter().chain(variants()) {
            for paper in [A4, LETTER] {
                let kit = layout::kit(&rs, &layout::KitOptions::new(paper))
                    .unwrap_or_else(|e| panic!("{}: {e}", rs.id));
                let key = layout::host_key(&rs, &layout::KitOptions::new(paper))
                    .unwrap_or_else(|e| panic!("{}: {e}", rs.id));
                out.push((rs.clone(), paper, kit, key));
            }
        }
        out
    })
}

fn texts(p: &Page) -> impl Iterator<Item = &Text> {
    p.texts()
}

fn shapes(p: &Page) -> impl Iterator<Item = &Shape> {
    p.shapes()
}

fn pages_named<'a>(doc: &'a Document, prefix: &'a str) -> impl Iterator<Item = &'a Page> {
    doc.pages
        .iter()
        .filter(move |p| p.name.starts_with(&format!("{prefix}-")))
}

/// Ink box: shape bounds plus half the stroke; text from advance, ascent and descent.
fn ink(i: &Item) -> (f64, f64, f64, f64) {
    match i {
        Item::Shape(s) => {
            let (a, b, c, d) = bounds(&s.segs).expect("non-empty shape");
            let hw = s.stroke.as_ref().map_or(0.0, |st| st.width / 2.0);
            (a - hw, b - hw, c + hw, d + hw)
        }
        Item::Text(t) => (
            t.x,
            t.y - text::ascent_mm(t.size_pt),
            t.x + text::width_mm(&t.text, t.size_pt, t.weight),
            t.y + text::descent_mm(t.size_pt),
        ),
        // A clip prints only inside its rectangle.
        Item::Clip(c) => {
            let u = c
                .items
                .iter()
                .map(ink)
                .reduce(|a, b| (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3)))
                .unwrap_or((c.x, c.y, c.x, c.y));
            (
                u.0.max(c.x),
                u.1.max(c.y),
                u.2.min(c.x + c.w),
                u.3.min(c.y + c.h),
            )
        }
    }
}

fn is_bar(s: &Shape) -> bool {
    s.fill == Some(Color::BLACK)
        && s.stroke.is_none()
        && bounds(&s.segs).is_some_and(|(a, b, c, d)| {
            ((c - a) - page::BAR_LENGTH).abs() < EPS && ((d - b) - page::BAR_HEIGHT).abs() < EPS
        })
}

/// Cut lines: open two-point paths stroked at the cut width.
fn cut_lines(p: &Page) -> Vec<(f64, f64, f64, f64)> {
    shapes(p)
        .filter(|s| {
            s.stroke
                .as_ref()
                .is_some_and(|st| (st.width - page::CUT_W).abs() < EPS)
        })
        .map(|s| match s.segs.as_slice() {
            [Seg::MoveTo(a), Seg::LineTo(b)] => (a.x, a.y, b.x, b.y),
            other => panic!("a cut mark that is not one straight line: {other:?}"),
        })
        .collect()
}

/// The new pages of the kit.
fn new_pages(kit: &Document) -> Vec<&Page> {
    ["practice", "counters", "labels"]
        .iter()
        .flat_map(|p| pages_named(kit, p))
        .collect()
}

#[test]
fn new_pages_keep_the_page_invariants() {
    for (rs, paper, kit, key) in kits() {
        assert!(key.pages.iter().all(|p| p.name.starts_with("answers-")));
        for (doc, pages) in [(kit, new_pages(kit)), (key, key.pages.iter().collect())] {
            let n = doc.pages.len();
            for p in pages {
                let id = format!("{} {} {}", rs.id, paper.name, p.name);
                assert_eq!((p.width, p.height), (paper.width, paper.height), "{id}");
                // No ink within the margin.
                let m = page::MARGIN - EPS;
                for it in &p.items {
                    let (a, b, c, d) = ink(it);
                    assert!(
                        a >= m && b >= m && c <= p.width - m && d <= p.height - m,
                        "{id}: ink {:?} in the margin: {it:?}",
                        (a, b, c, d)
                    );
                }
                // One calibration bar, clear of everything else by BAR_CLEAR.
                let bars: Vec<&Shape> = shapes(p).filter(|s| is_bar(s)).collect();
                assert_eq!(bars.len(), 1, "{id}: one 100 × 3 mm bar");
                let (bx0, by0, bx1, by1) = bounds(&bars[0].segs).unwrap();
                for it in &p.items {
                    if matches!(it, Item::Shape(s) if is_bar(s)) {
                        continue;
                    }
                    let (a, b, c, d) = ink(it);
                    assert!(
                        a >= bx1 + page::BAR_CLEAR
                            || c <= bx0 - page::BAR_CLEAR
                            || b >= by1 + page::BAR_CLEAR
                            || d <= by0 - page::BAR_CLEAR,
                        "{id}: ink near the bar: {it:?}"
                    );
                }
                // Footer with the page number within its own document.
                let i = doc.pages.iter().position(|q| q.name == p.name).unwrap();
                let all: Vec<&str> = texts(p).map(|t| t.text.as_str()).collect();
                assert!(
                    all.iter()
                        .any(|t| *t == format!("page {} of {n} · {}", i + 1, paper.name)),
                    "{id}: footer"
                );
                assert!(all.contains(&"100\u{a0}mm"), "{id}: bar label");
            }
        }
    }
}

#[test]
fn counters_cover_every_seed_with_spares() {
    for (rs, paper, kit, _) in kits() {
        let d = rs.layout.counter_diameter;
        let (play, spare) = counters::count(rs);
        // Pits × 2 sides × seeds per pit, worked out from the ruleset, not from the layout.
        let seeds = rs.board.pits_per_side as u32 * 2 * rs.board.seeds_per_pit as u32;
        assert_eq!(play, seeds, "{}", rs.id);
        assert!(
            spare >= 2 && spare * 10 >= seeds,
            "{}: {spare} spares",
            rs.id
        );
        // Counters are the stroked circles of the counter diameter on the counters pages.
        let printed = pages_named(kit, "counters")
            .flat_map(shapes)
            .filter(|s| {
                s.fill.is_none()
                    && bounds(&s.segs).is_some_and(|(a, b, c, e)| {
                        ((c - a) - d).abs() < 1e-6 && ((e - b) - d).abs() < 1e-6
                    })
            })
            .count() as u32;
        // Either every counter is printed once, or (more than three pages' worth) one full
        // page whose title says how many times to print it.
        let title: String = pages_named(kit, "counters")
            .flat_map(texts)
            .map(|t| t.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        let times: u32 = title
            .split("print this page ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .map_or(1, |n| n.parse().unwrap());
        assert!(
            printed * times >= play + spare,
            "{} {}: {printed} counters × {times}",
            rs.id,
            paper.name
        );
        if times == 1 {
            // Exactly the seeds and the spares are solid black (the ones to cut); the rest of
            // the last page is dashed extras, only on the last page, and the page says so. The
            // title counts what to cut.
            let ink = |p: &Page, solid: bool| {
                shapes(p)
                    .filter(|s| {
                        s.fill.is_none()
                            && s.stroke.as_ref().is_some_and(|st| {
                                (st.color == Color::BLACK && st.dash.is_empty()) == solid
                            })
                            && bounds(&s.segs).is_some_and(|(a, b, c, e)| {
                                ((c - a) - d).abs() < 1e-6 && ((e - b) - d).abs() < 1e-6
                            })
                    })
                    .count() as u32
            };
            let pages: Vec<&Page> = pages_named(kit, "counters").collect();
            let black: u32 = pages.iter().map(|p| ink(p, true)).sum();
            assert_eq!(black, play + spare, "{} {}", rs.id, paper.name);
            let (last, before) = pages.split_last().unwrap();
            assert!(before.iter().all(|p| ink(p, false) == 0));
            let grey = ink(last, false);
            assert!(printed >= play + spare, "{} {}", rs.id, paper.name);
            assert!(
                title.contains(&format!("{} to cut", play + spare)),
                "{} {}: {title}",
                rs.id,
                paper.name
            );
            if grey > 0 {
                assert!(
                    title.contains("dashed circles without a dot only fill"),
                    "{title}"
                );
            }
        } else {
            assert_eq!(pages_named(kit, "counters").count(), 1);
            // Not one print more than needed.
            assert!(
                printed * (times - 1) < play + spare,
                "{} {}",
                rs.id,
                paper.name
            );
        }
        // The small-parts note.
        let all: String = pages_named(kit, "counters")
            .flat_map(texts)
            .map(|t| t.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        assert!(all.contains("children under three"), "{}", rs.id);
    }
    // 5 mm counters fit many to a page, 60 mm ones few.
    let per_page = |id: &str| {
        let (rs, _, kit, _) = kits().iter().find(|k| k.0.id == id).unwrap();
        let d = rs.layout.counter_diameter;
        let first = pages_named(kit, "counters").next().unwrap();
        shapes(first)
            .filter(|s| {
                s.fill.is_none()
                    && bounds(&s.segs).is_some_and(|(a, b, c, e)| {
                        ((c - a) - d).abs() < 1e-6 && ((e - b) - d).abs() < 1e-6
                    })
            })
            .count() as f64
    };
    assert!(per_page("tiny-counters") > 50.0);
    assert!(per_page("big-counters") <= 6.0);
}

/// Cut lines are shared: straight lines along the grid inside the margins, never a closed
/// outline around one part (that they stop at the pieces, with crop marks beyond, is checked
/// in tests/print.rs).
#[test]
fn counters_and_labels_share_their_cut_lines() {
    for (rs, paper, kit, _) in kits() {
        for p in pages_named(kit, "counters").chain(pages_named(kit, "labels")) {
            let lines = cut_lines(p);
            assert!(!lines.is_empty(), "{} {}", rs.id, p.name);
            let d = rs.layout.counter_diameter;
            let parts = if p.name.starts_with("counters") {
                shapes(p)
                    .filter(|s| {
                        s.fill.is_none()
                            && bounds(&s.segs).is_some_and(|(a, _, b, _)| ((b - a) - d).abs() < EPS)
                    })
                    .count()
            } else {
                0
            };
            for &(x0, y0, x1, y1) in &lines {
                if (y0 - y1).abs() < EPS {
                    // Horizontal, inside the margins.
                    let (l, r) = (x0.min(x1), x0.max(x1));
                    assert!(
                        l >= page::MARGIN && r <= paper.width - page::MARGIN,
                        "{} {}: a horizontal cut line runs into the margin: {l}..{r}",
                        rs.id,
                        p.name
                    );
                } else {
                    assert!(
                        (x0 - x1).abs() < EPS,
                        "{}: cut lines are axis-aligned",
                        rs.id
                    );
                }
            }
            // One line per grid line: far fewer than four edges per part.
            // Crop marks (short lines, 4 mm) aside.
            let long = lines
                .iter()
                .filter(|l| (l.2 - l.0).hypot(l.3 - l.1) > 4.5)
                .count();
            if p.name.starts_with("counters") && parts > 4 {
                assert!(long < 2 * parts, "{} {}", rs.id, p.name);
            }
        }
    }
}

#[test]
fn one_label_per_pit_and_store_and_the_circuit() {
    for (rs, paper, kit, _) in kits() {
        let n = rs.board.pits_per_side;
        let l = labels::labels(rs);
        assert_eq!(l.len(), 2 * n + 2, "{}", rs.id);
        let pages: Vec<&Page> = pages_named(kit, "labels").collect();
        let words: Vec<&str> = pages
            .iter()
            .flat_map(|p| texts(p))
            .map(|t| t.text.as_str())
            .collect();
        let joined = words.join(" ");
        for side in 0..2 {
            for label in &rs.board.pit_labels[side] {
                assert!(words.contains(&label.as_str()), "{}: label {label}", rs.id);
            }
            for w in rs.board.stores[side].split(' ') {
                assert!(joined.contains(w), "{}: store label word {w}", rs.id);
            }
        }
        // Pattern icons: a 14 mm ring per pit, an inner ring on side 1's pits only.
        let rings = |d: f64| {
            pages
                .iter()
                .flat_map(|p| shapes(p))
                .filter(|s| {
                    bounds(&s.segs).is_some_and(|(a, b, c, e)| {
                        ((c - a) - d).abs() < 1e-6 && ((e - b) - d).abs() < 1e-6
                    })
                })
                .count()
        };
        assert_eq!(rings(14.0), 2 * n, "{} {}: pit rings", rs.id, paper.name);
        assert_eq!(rings(14.0 - 2.4), n, "{}: double rings on side 1", rs.id);
        // The circuit label names every pit in sowing order, for each player.
        assert!(joined.contains("Sowing circuit"), "{}", rs.id);
        let a = &rs.board.pit_labels[0];
        assert!(
            joined.contains(&format!("{} → {}", a[0], a[1.min(n - 1)])) || n == 1,
            "{}: {joined}",
            rs.id
        );
    }
}

/// Kalah sows its own store and skips the opponent's: each player's circuit says so, in the
/// circuit order worked out by hand for six-pit sowing, each starting at the player's own
/// first pit (B's at B1: it used to start at A1).
#[test]
fn circuit_label_spells_out_the_skips() {
    let rs = repo("six-pit-sowing");
    let ph = layout::phrases::Phrases::load("en").unwrap();
    let lines = labels::circuit_lines(&rs, &ph);
    assert_eq!(
        lines[0],
        "A sows: A1 → A2 → A3 → store A → B1 → B2 → B3 → (skip store B) → back to A1."
    );
    assert_eq!(
        lines[1],
        "B sows: B1 → B2 → B3 → store B → A1 → A2 → A3 → (skip store A) → back to B1."
    );
    // Oware: no store is sown, one line for both players.
    let ow = repo("oware-abapa");
    let lines = labels::circuit_lines(&ow, &ph);
    assert!(lines[0].starts_with("Both players sow:"), "{lines:?}");
    assert!(!lines[0].contains("captures"), "{lines:?}");
}

fn numbers(pages: &[&Page]) -> Vec<usize> {
    pages
        .iter()
        .flat_map(|p| texts(p))
        .filter_map(|t| {
            let rest = t.text.strip_prefix("Exercise ")?;
            let num: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            num.parse().ok()
        })
        .collect()
}

#[test]
fn host_key_numbers_match_the_practice_page() {
    for (rs, paper, kit, key) in kits() {
        let list = practice::exercises(rs).unwrap();
        let want: Vec<usize> = (1..=list.len()).collect();
        let practice: Vec<&Page> = pages_named(kit, "practice").collect();
        let answers: Vec<&Page> = key.pages.iter().collect();
        assert_eq!(numbers(&practice), want, "{} {}", rs.id, paper.name);
        assert_eq!(numbers(&answers), want, "{} {}", rs.id, paper.name);
        let title: String = texts(&key.pages[0])
            .map(|t| t.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        assert!(title.contains("host key — keep separate"), "{title}");
        // The practice page gives no answers: no "after" board.
        for p in &practice {
            assert!(!texts(p).any(|t| t.text == "After"), "{}", rs.id);
        }
    }
}

/// Every exercise of the bundled rulesets: the ruleset's own exercises first, then 4 to 6
/// generated ones, the same on every call.
#[test]
fn exercises_are_numbered_generated_and_deterministic() {
    for rs in repo_rulesets() {
        let list = practice::exercises(&rs).unwrap();
        let own = rs.examples.iter().filter(|e| e.exercise).count();
        assert!(list[..own].iter().all(|e| e.from_ruleset), "{}", rs.id);
        let best = list
            .iter()
            .filter(|e| e.kind == Some(practice::Kind::BestMove))
            .count();
        assert!(best <= practice::BEST_EXERCISES, "{}: {best}", rs.id);
        let generated = list.len() - own - best;
        assert!((4..=6).contains(&generated), "{}: {generated}", rs.id);
        for (i, e) in list.iter().enumerate() {
            assert_eq!(e.number, i + 1);
        }
        assert_eq!(list, practice::exercises(&rs).unwrap(), "{}", rs.id);
        // Each generated kind says what the engine reports.
        let n = rs.board.pits_per_side;
        for e in &list[own..] {
            let r = &e.report;
            // Holes captured from, without the mover's own pit where the last seed landed
            // (Kalah's capturing seed: one capture with the opposite pit, not a chain).
            let mover = e.start.to_move.min(1) as usize;
            let holes = r
                .captures
                .iter()
                .filter(|(h, _)| !(*h == r.last && *h as usize / n == mover))
                .count();
            match e.kind.unwrap() {
                practice::Kind::GrandSlam => assert!(r.grand_slam),
                practice::Kind::Relay => assert!(r.laps.len() > 1),
                practice::Kind::Feeding => assert!(!e.legal.is_empty()),
                practice::Kind::ChainCapture => assert!(holes > 1, "{}: {r:?}", rs.id),
                practice::Kind::Capture => {
                    assert!(r.captured > 0 && holes <= 1, "{}: {r:?}", rs.id)
                }
                practice::Kind::ExtraTurn => assert!(r.extra_turn),
                practice::Kind::Plain => {}
                practice::Kind::BestMove => assert!(e.value.is_some() && e.moves.len() == 1),
            }
        }
    }
    // Oware's practice games turn up a capture; Giuthi's a relay sowing.
    let kinds = |id: &str| -> Vec<practice::Kind> {
        practice::exercises(&repo(id))
            .unwrap()
            .iter()
            .filter_map(|e| e.kind)
            .collect()
    };
    let ow = kinds("oware-abapa");
    assert!(ow
        .iter()
        .any(|k| matches!(k, practice::Kind::Capture | practice::Kind::ChainCapture)));
    assert!(kinds("giuthi").contains(&practice::Kind::Relay));
}

/// Every bundled kit has "find the best move" exercises with a proven, unique best move (issue
/// 12), the repetition rulesets (Oware, Giuthi) included through set-up endgames; and the
/// solver's answer on one such Oware endgame matches the game worked by hand.
#[test]
fn every_bundled_kit_has_proven_best_move_exercises() {
    for rs in repo_rulesets() {
        let list = practice::exercises(&rs).unwrap();
        let best: Vec<_> = list
            .iter()
            .filter(|e| e.kind == Some(practice::Kind::BestMove))
            .collect();
        assert!(!best.is_empty(), "{}: no best-move exercise", rs.id);
        let rules = Rules::try_new(&rs).unwrap();
        for e in best {
            // The position is a live one with a real choice, and the move is legal there.
            let g = Game::try_new(&rules, e.start.clone()).unwrap();
            assert!(!g.is_over() && g.legal_moves().len() >= 3, "{}", rs.id);
            let total: u32 = e.start.holes.iter().map(|&h| h as u32).sum();
            assert_eq!(total, rs.total_seeds(), "{}", rs.id);
        }
    }
    // South 1 0 1 0 1 0 (24) / North 0 0 0 0 0 1 (20), South to move, worked by hand:
    // - S1 -> S2; North's only move N6 -> S1 (1 seed there, no capture); North's row is empty
    //   and no South move reaches it (S1->S2, S2->S3, S3->S4, S5->S6), so the game ends and
    //   South keeps the 4 seeds: 28 - 20 = +8.
    // - S3 or S5: N6 -> S1 makes 2 there and North captures them (22), so South ends with at
    //   most 48 - 22 = 26 against 22: at most +4.
    // So S1 is the only best move and the value is +8.
    let ow = repo("oware-abapa");
    let rules = Rules::try_new(&ow).unwrap();
    let (pos, _) = notation::parse_position(
        &rules,
        "South 1 0 1 0 1 0 (24) / North 0 0 0 0 0 1 (20); South",
    )
    .unwrap();
    let (v, best) = sowkit::solve::proven_best(&rules, &pos).expect("proven");
    assert_eq!(v, 8);
    let names: Vec<String> = best
        .iter()
        .map(|&m| notation::format_move(&rules, m))
        .collect();
    assert_eq!(names, ["S1"]);
}

/// The host key's answers (the report its captions are built from) agree with a replay of
/// each exercise made here with the engine, and the ruleset's exercises with their hand-worked
/// `expect` values.
#[test]
fn host_key_answers_agree_with_an_engine_replay() {
    for rs in repo_rulesets().into_iter().chain(variants()) {
        let rules = Rules::try_new(&rs).unwrap();
        for e in practice::exercises(&rs).unwrap() {
            let mut g = Game::try_new(&rules, e.start.clone()).unwrap();
            let mut last = None;
            for m in &e.moves {
                let mv = notation::parse_move(&rules, m).unwrap();
                last = Some(g.play(mv).unwrap());
            }
            let r = last.expect("an exercise has moves");
            let id = format!("{} exercise {}", rs.id, e.number);
            assert_eq!(r.last, e.report.last, "{id}: last seed");
            assert_eq!(r.captured, e.report.captured, "{id}: captured");
            assert_eq!(r.captures, e.report.captures, "{id}: captured from");
            assert_eq!(r.next, e.report.next, "{id}: next");
            assert_eq!(r.extra_turn, e.report.extra_turn, "{id}: extra turn");
            if e.kind == Some(practice::Kind::Feeding) {
                // Every allowed move feeds: it sows into the empty row.
                let opp = 1 - e.start.to_move;
                for m in &e.legal {
                    let mut g2 = Game::try_new(&rules, e.start.clone()).unwrap();
                    let mv = notation::parse_move(&rules, m).unwrap();
                    let rep = g2.play(mv).unwrap();
                    assert!(
                        rep.laps
                            .iter()
                            .flat_map(|l| l.sown.iter())
                            .any(|&h| !rules.is_store(h) && rules.side_of(h) == opp),
                        "{id}: {m} does not feed"
                    );
                }
            }
            if !e.from_ruleset {
                continue;
            }
            let ex = rs
                .examples
                .iter()
                .find(|x| x.exercise && x.title == e.title)
                .unwrap();
            if let Start::Position(s) = &ex.start {
                let (p, _) = notation::parse_position(&rules, s).unwrap();
                assert_eq!(p.holes, e.start.holes, "{id}: start");
            }
            if let Some(pos) = &ex.expect.position {
                let (p, _) = notation::parse_position(&rules, pos).unwrap();
                assert_eq!(g.position().holes, p.holes, "{id}: position");
            }
            if let Some(next) = &ex.expect.next {
                let want = if next == "none" {
                    None
                } else {
                    rs.board
                        .players
                        .iter()
                        .position(|p| p == next)
                        .map(|i| i as u8)
                };
                assert_eq!(e.report.next, want, "{id}: next");
            }
            if let Some(c) = ex.expect.captured {
                assert_eq!(e.report.captured, c, "{id}: captured");
            }
        }
    }
}

/// No practice exercise gives another's answer away: no exercise starts from the position
/// another one ends in (the engine replays each, independently of the layout code).
#[test]
fn no_exercise_starts_where_another_ends() {
    use sowkit::engine::{Game, Rules};
    // A 5 × 5 Kalah (a tester's own ruleset) once had exercise 3 start on exercise 2's answer.
    let mut five = repo("kalah-6x4");
    five.id = "kalah-5x5".into();
    five.examples = Vec::new().into();
    five.board.pits_per_side = 5;
    five.board.seeds_per_pit = 5;
    five.board.pit_labels = [
        (1..=5).map(|i| format!("S{i}")).collect(),
        (1..=5).map(|i| format!("N{i}")).collect(),
    ];
    for rs in repo_rulesets().into_iter().chain(variants()).chain([five]) {
        let rules = Rules::new(&rs);
        let list = sowkit::layout::practice::exercises(&rs).unwrap();
        let ends: Vec<_> = list
            .iter()
            .map(|e| {
                let mut g = Game::new(&rules, e.start.clone());
                for m in &e.moves {
                    g.play(sowkit::notation::parse_move(&rules, m).unwrap())
                        .unwrap();
                }
                g.position().clone()
            })
            .collect();
        for (i, e) in list.iter().enumerate() {
            for (j, end) in ends.iter().enumerate() {
                assert!(
                    i == j || e.start.holes != end.holes,
                    "{}: exercise {} starts where {} ends",
                    rs.id,
                    i + 1,
                    j + 1
                );
            }
        }
    }
}

/// Both players get practice positions: among the generated ones (not the ruleset's own, not
/// "find the best move"), the two sides' counts differ by at most one. Before, Giuthi's were
/// 4 for A to 1 for B.
#[test]
fn practice_positions_are_shared_between_the_players() {
    for rs in repo_rulesets() {
        let list = practice::exercises(&rs).unwrap();
        let mut count = [0usize; 2];
        for e in list
            .iter()
            .filter(|e| !e.from_ruleset && e.kind != Some(practice::Kind::BestMove))
        {
            count[e.start.to_move as usize] += 1;
        }
        assert!(count[0] + count[1] >= 4, "{}: {count:?}", rs.id);
        assert!(count[0].abs_diff(count[1]) <= 1, "{}: {count:?}", rs.id);
    }
}

/// The practice page says where its exercises come from: the rule sheets' exercises when the
/// ruleset has some, then positions from sowkit's games, and under a repetition end the
/// "find the best move" ones are endgames sowkit set up (few seeds placed at random, README
/// "Host key"), and the intro says so; otherwise it does not.
#[test]
fn practice_intro_says_where_the_exercises_come_from() {
    let mut seen = std::collections::BTreeSet::new();
    for (rs, paper, kit, _) in kits() {
        let list = practice::exercises(rs).unwrap();
        let own = list.iter().any(|e| e.from_ruleset);
        let set_up = rs.end.repetition
            && list
                .iter()
                .any(|e| e.kind == Some(practice::Kind::BestMove));
        let words: String = pages_named(kit, "practice")
            .flat_map(texts)
            .map(|t| t.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        let want = match (own, set_up) {
            (true, false) => "The exercises from the rule sheets come first; the rest are positions from sample games. A host",
            (true, true) => "The exercises from the rule sheets come first, then positions from sample games, and last a few endgames set up for practice.",
            (false, false) => "The positions are from sample games. A host",
            (false, true) => "The positions are from sample games, and the last few are endgames set up for practice.",
        };
        assert!(
            words.contains(want),
            "{} {}: {want:?} not in {words}",
            rs.id,
            paper.name
        );
        seen.insert((own, set_up));
    }
    // Without worked examples there are no rule-sheet exercises (Oware: games, then set-up
    // endgames).
    let mut rs = repo_rulesets()
        .into_iter()
        .find(|r| r.id == "oware-abapa")
        .unwrap();
    rs.examples = Vec::new().into();
    let kit = layout::kit(&rs, &layout::KitOptions::new(A4)).unwrap();
    let words: String = pages_named(&kit, "practice")
        .flat_map(texts)
        .map(|t| t.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        words.contains(
            "The positions are from sample games, and the last few are endgames set up for practice."
        ),
        "{words}"
    );
    seen.insert((false, true));
    assert_eq!(seen.len(), 4, "every case checked: {seen:?}");
}

/// Under a repetition end the best-move exercises are set-up endgames, with seeds in the
/// stores. Such a position can arise whenever a seed can reach a store, which is also the case
/// when only the opponent's store is sown and nothing is captured: the set-up was refused
/// there, as it asked only whether seeds are captured or sown into the mover's own store. With
/// neither store sown and no capture the stores fill only in the final sweep, and no endgame
/// is set up.
#[test]
fn set_up_endgames_when_only_the_opponents_store_is_sown() {
    use sowkit::ruleset::{CaptureKind, Include};
    let mut rs = common::kalah(3, 3);
    rs.extra_turn.last_in_own_store = false;
    rs.capture.kind = CaptureKind::None;
    rs.sowing.own_store = Include::Skip;
    rs.sowing.opponent_store = Include::Sow;
    rs.end.repetition = true;
    let best = |rs: &Ruleset| {
        practice::exercises(rs)
            .unwrap()
            .iter()
            .filter(|e| e.kind == Some(practice::Kind::BestMove))
            .count()
    };
    assert!(best(&rs) > 0, "no set-up endgame");
    rs.sowing.opponent_store = Include::Skip;
    assert!(rs.no_seed_reaches_a_store());
    assert_eq!(best(&rs), 0);
}
