//! `--fit --style large` on the papers where the board must shrink (A4, Letter, Legal), in both
//! languages, for every bundled ruleset: the kit is either refused with an error naming the
//! field or paper, or every board label is whole and inside its outline.
//!
//! Expected words come from the ruleset (store names, pit labels, in the kit's language) and
//! the message catalogue (the store notes), never from the layout; ink boxes come from the font
//! metrics ([`sowkit::text`]); the store outlines are read from the drawn shapes (the white
//! rounded rectangles that are not circles).

use crate::common;

use sowkit::doc::{bounds, leaves, Color, Item, Page, Seg, Shape, Text};
use sowkit::layout::board::store_sown_by;
use sowkit::layout::phrases::Phrases;
use sowkit::layout::{self, KitOptions, Paper, A4, LEGAL, LETTER};
use sowkit::ruleset::Ruleset;
use sowkit::text;

/// Ink box of a text line from the font metrics: advance width, ascent to descent (mm).
fn ink(t: &Text) -> (f64, f64, f64, f64) {
    let w = text::width_mm(&t.text, t.size_pt, t.weight);
    (
        t.x,
        t.y - text::ascent_mm(t.size_pt),
        t.x + w,
        t.y + text::descent_mm(t.size_pt),
    )
}

/// A closed shape filled white with a stroke and straight sides (a store outline, not a pit
/// circle or an arrow number's disc): its box and the stroke's half width.
fn store_outline(s: &Shape) -> Option<((f64, f64, f64, f64), f64)> {
    let lines = s
        .segs
        .iter()
        .filter(|g| matches!(g, Seg::LineTo(..)))
        .count();
    let closed = matches!(s.segs.last(), Some(Seg::Close));
    (s.fill == Some(Color::WHITE) && s.stroke.is_some() && closed && lines >= 4).then(|| {
        (
            bounds(&s.segs).unwrap(),
            s.stroke.as_ref().unwrap().width / 2.0,
        )
    })
}

/// The words printed in store `side` of `rs` (label, then notes), as the ruleset and the
/// catalogue give them.
fn expected_store_words(rs: &Ruleset, ph: &Phrases, side: usize) -> Vec<String> {
    let mut words: Vec<String> = rs.board.stores[side]
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let by = store_sown_by(rs, side);
    let notes = if !by[0] && !by[1] {
        vec![ph.get("board.capture_store")]
    } else {
        (0..2)
            .filter(|&p| !by[p])
            .map(|p| ph.fmt("board.skip_mark", &[("player", &rs.board.players[p])]))
            .collect()
    };
    for n in notes {
        words.extend(n.split_whitespace().map(str::to_string));
    }
    words
}

/// What is wrong with the store and pit labels of `board` (the board sheet of `rs`), if
/// anything.
fn label_problems(rs: &Ruleset, ph: &Phrases, board: &Page) -> Vec<String> {
    let items = leaves(&board.items);
    let texts: Vec<&Text> = items
        .iter()
        .filter_map(|i| match i {
            Item::Text(t) => Some(t),
            _ => None,
        })
        .collect();
    let mut stores: Vec<((f64, f64, f64, f64), f64)> = items
        .iter()
        .filter_map(|i| match i {
            Item::Shape(s) => store_outline(s),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    if stores.len() != 2 {
        out.push(format!("{} store outlines found, not 2", stores.len()));
        return out;
    }
    // Side 1's store is on the left.
    stores.sort_by(|a, b| b.0 .0.total_cmp(&a.0 .0));
    for (side, (r, half)) in stores.iter().enumerate() {
        let inside: Vec<&&Text> = texts
            .iter()
            .filter(|t| {
                let b = ink(t);
                let (cx, cy) = ((b.0 + b.2) / 2.0, (b.1 + b.3) / 2.0);
                cx > r.0 && cx < r.2 && cy > r.1 && cy < r.3
            })
            .collect();
        let got: Vec<String> = inside
            .iter()
            .flat_map(|t| t.text.split_whitespace().map(str::to_string))
            .collect();
        let want = expected_store_words(rs, ph, side);
        if got != want {
            out.push(format!("store {side}: printed {got:?}, want {want:?}"));
        }
        for t in inside {
            let b = ink(t);
            let (x0, y0, x1, y1) = (r.0 + half, r.1 + half, r.2 - half, r.3 - half);
            if b.0 < x0 || b.1 < y0 || b.2 > x1 || b.3 > y1 {
                out.push(format!(
                    "store {side}: {:?} ink {b:?} leaves the outline ({x0:.2}, {y0:.2}, {x1:.2}, {y1:.2})",
                    t.text
                ));
            }
        }
    }
    for label in rs.board.pit_labels.iter().flatten() {
        if !texts.iter().any(|t| t.text == *label) {
            out.push(format!("pit label {label:?} is not printed whole"));
        }
    }
    out
}

#[test]
fn fit_large_board_labels_are_whole_and_inside_or_refused() {
    let papers: [Paper; 3] = [A4, LETTER, LEGAL];
    let (mut built, mut refused) = (0, 0);
    for rs in common::bundled() {
        for lang in ["en", "es"] {
            for paper in papers {
                let opts = KitOptions {
                    lang: Some(lang.into()),
                    large: true,
                    fit: true,
                    ..KitOptions::new(paper)
                };
                let what = format!("{} [{lang}] {}", rs.id, paper.name);
                match layout::kit(&rs, &opts) {
                    // The one refusal left: pits shrunk below what holds a pit's starting
                    // seeds as counters (tests/advice.rs follows its advice).
                    Err(e) => {
                        refused += 1;
                        assert!(
                            e.contains("board.seeds_per_pit"),
                            "{what}: refused for another reason than the pit floor: {e}"
                        );
                    }
                    Ok(doc) => {
                        built += 1;
                        let lrs = rs.in_lang(lang).unwrap();
                        let ph = Phrases::load(lang).unwrap();
                        let board = doc
                            .pages
                            .iter()
                            .find(|p| p.name == "board")
                            .unwrap_or_else(|| panic!("{what}: no board sheet"));
                        let bad = label_problems(&lrs, &ph, board);
                        assert!(bad.is_empty(), "{what}: {bad:#?}");
                    }
                }
            }
        }
    }
    // Every bundled ruleset is laid out on these papers (issue 9: they are, with the stores
    // kept wide enough for their words and the row captions across the board) unless its pits
    // would not hold its counters; Legal holds every board at 19 mm pits or more.
    assert_eq!(built + refused, common::bundled().len() * 2 * 3);
    assert!(built >= common::bundled().len() * 2, "{built} built");
}

/// The check above finds a broken store label: a store name whose word is split over lines,
/// as the old layout printed "No/rth/sto/re".
#[test]
fn the_check_finds_a_broken_store_label() {
    let rs = common::load_path(&common::bundled_path("kalah-6x4"));
    let ph = Phrases::load("en").unwrap();
    let opts = KitOptions {
        large: true,
        fit: true,
        ..KitOptions::new(A4)
    };
    let mut doc = layout::kit(&rs, &opts).unwrap();
    let board = doc.pages.iter_mut().find(|p| p.name == "board").unwrap();
    assert!(label_problems(&rs, &ph, board).is_empty());
    // Split "North" of "North store" into "No" and "rth" (same place).
    for it in board.items.iter_mut() {
        if let Item::Text(t) = it {
            if t.text == "North" {
                t.text = "No".into();
            }
        }
    }
    let bad = label_problems(&rs, &ph, board);
    assert!(
        bad.iter().any(|b| b.contains("store 1")),
        "not found: {bad:?}"
    );
}

/// `label` shortened to `k` characters as a player would to make it fit: its widest
/// characters dropped first (of equal width the earlier, so the pit's number stays), widths
/// from the font metrics.
fn shortened(label: &str, k: usize) -> String {
    let chars: Vec<char> = label.chars().collect();
    let w = |c: char| text::width_mm(&c.to_string(), 10.0, sowkit::doc::Weight::Bold);
    let mut drop: Vec<usize> = (0..chars.len()).collect();
    // Widest first; of equal width, the earlier first.
    drop.sort_by(|&a, &b| w(chars[b]).total_cmp(&w(chars[a])).then(a.cmp(&b)));
    let gone: Vec<usize> = drop[..chars.len().saturating_sub(k)].to_vec();
    (0..chars.len())
        .filter(|i| !gone.contains(i))
        .map(|i| chars[i])
        .collect()
}

/// Kalah with 6 pits a side, pits `d` mm across, and pit labels `fill` repeated 10 times then
/// the side's letter and pit number ("WWWWWWWWWWS1", "MMMMMMMMMMN6"), shortened to `len`
/// characters ([`shortened`]).
fn cut_labels(fill: char, len: usize, d: f64) -> Ruleset {
    let mut rs = common::kalah(6, 4);
    for (side, p) in ["S", "N"].iter().enumerate() {
        rs.board.pit_labels[side] = (1..=6)
            .map(|i| shortened(&format!("{}{p}{i}", fill.to_string().repeat(10)), len))
            .collect();
    }
    rs.layout.pit_diameter = d;
    rs.layout.store_length = 2.0 * d + 8.0;
    rs
}

/// The "shorten the pit labels to at most N characters" of a pit label that is too long:
/// labels shortened to N characters lay the board out, to N + 1 do not (issue 9: it said one
/// more than would build, counting the wider row without the double ring; and it counted
/// the label's first characters, so "MMMM1"-style labels on 45 mm pits were told 3 where
/// "MMM1", 4, builds).
#[test]
fn the_advised_label_length_builds_and_one_more_does_not() {
    for (fill, d, large) in [
        ('W', 20.0, false),
        ('W', 30.0, false),
        ('W', 40.0, true),
        ('W', 60.0, true),
        ('M', 45.0, true),
        ('M', 24.0, false),
    ] {
        // A3: the large-print boards tile there (on A4 they cannot be split, labels aside).
        let opts = KitOptions {
            large,
            ..KitOptions::new(layout::A3)
        };
        let ph = Phrases::load("en").unwrap();
        let board = |rs: &Ruleset| layout::board::pages(rs, &opts, &ph);
        let what = format!("{fill} d = {d}");
        let e = board(&cut_labels(fill, 12, d)).unwrap_err();
        let n: usize = e
            .split("shorten the pit labels to at most ")
            .nth(1)
            .and_then(|t| t.split(' ').next())
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("{what}: no length in {e}"));
        assert!((1..12).contains(&n), "{what}: {e}");
        board(&cut_labels(fill, n, d)).unwrap_or_else(|e| panic!("{what}, {n} characters: {e}"));
        let more = board(&cut_labels(fill, n + 1, d)).unwrap_err();
        assert!(more.contains("board.pit_labels"), "{what}: {more}");
    }
    // The break-it case itself: "MMMM1" … ("WWWW1" … across) on 40 mm pits in large print.
    // Four characters kept, "MMM1" and "WWW1", lay the board out, and the five given do not,
    // so the largest count that builds is 4 (the first characters, "MMM", said 3).
    let opts = KitOptions {
        large: true,
        ..KitOptions::new(layout::A3)
    };
    let ph = Phrases::load("en").unwrap();
    let labelled = |k: usize| {
        let mut rs = common::kalah(6, 4);
        for (side, p) in ["M", "W"].iter().enumerate() {
            rs.board.pit_labels[side] = (1..=6).map(|i| format!("{}{i}", p.repeat(k))).collect();
        }
        rs.layout.pit_diameter = 40.0;
        rs.layout.store_length = 88.0;
        rs
    };
    layout::board::pages(&labelled(3), &opts, &ph).expect("MMM1 … builds");
    let e = layout::board::pages(&labelled(4), &opts, &ph).unwrap_err();
    assert!(
        e.contains("shorten the pit labels to at most 4 characters (such as \"MMM1\")"),
        "{e}"
    );
    // One character is said in the singular: 12 mm pits in large print hold one 18 pt
    // character (a helper read "at most 1 characters").
    let mut rs = labelled(1);
    rs.layout.pit_diameter = 12.0;
    let e = layout::board::pages(&rs, &opts, &ph).unwrap_err();
    assert!(
        e.contains("shorten the pit labels to at most 1 character "),
        "{e}"
    );
}

/// A store name with a word no store can hold at 18 pt (a 22-letter word is about 100 mm
/// wide, a store at most 80 mm) is refused naming `board.stores` and the word, with or
/// without `--fit`, never printed broken.
#[test]
fn a_store_word_too_wide_for_any_store_is_refused_naming_the_field() {
    let mut rs = common::kalah(6, 4);
    rs.board.stores[1] = "Northernmoststorehouses".into();
    let word_mm = text::width_mm("Northernmoststorehouses", 18.0, sowkit::doc::Weight::Bold);
    assert!(word_mm > 80.0, "{word_mm}");
    for fit in [false, true] {
        let opts = KitOptions {
            large: true,
            fit,
            ..KitOptions::new(layout::A3)
        };
        let e = layout::kit(&rs, &opts).unwrap_err();
        assert!(
            e.contains("board.stores") && e.contains("Northernmoststorehouses"),
            "fit {fit}: {e}"
        );
    }
}

/// `--fit --style large` on Legal lays out every kit A4 lays out (issue 9: at true size,
/// which Legal's larger sheet allows for pits of 21–28 mm, the stores were not widened for
/// their words as a shrunk board's are, so "almacén" was refused on Legal and printed on A4).
/// Bundled rulesets with such pits, in English and Spanish; the Legal board's labels are whole
/// and inside their outlines.
#[test]
fn fit_on_legal_lays_out_whatever_fit_on_a4_does() {
    let mut a4_built = 0;
    for base in common::bundled() {
        for d in [21.0, 24.0, 28.0] {
            let mut rs = base.clone();
            rs.layout.pit_diameter = d;
            for lang in ["en", "es"] {
                let opts = |paper| KitOptions {
                    lang: Some(lang.into()),
                    large: true,
                    fit: true,
                    ..KitOptions::new(paper)
                };
                let lays_out = |paper| {
                    layout::kit(&rs, &opts(paper))
                        .and_then(|doc| layout::host_key(&rs, &opts(paper)).map(|_| doc))
                };
                if lays_out(A4).is_err() {
                    continue;
                }
                a4_built += 1;
                let what = format!("{} [{lang}] pits {d} mm", rs.id);
                let doc = lays_out(LEGAL)
                    .unwrap_or_else(|e| panic!("{what}: A4 lays it out, Legal refuses: {e}"));
                let board = doc.pages.iter().find(|p| p.name == "board").unwrap();
                let lrs = rs.in_lang(lang).unwrap();
                let bad = label_problems(&lrs, &Phrases::load(lang).unwrap(), board);
                assert!(bad.is_empty(), "{what} on Legal: {bad:#?}");
            }
        }
    }
    // The comparison is not empty: many of these kits lay out on A4 (fewer since --fit
    // refuses pits that do not hold a pit's starting seeds as 8 mm counters).
    assert!(a4_built >= 5, "{a4_built}");
}

/// Issue 9, review: the bowl-labels sheet broke a long store word mid-word ("Northernmost" /
/// "storehouses"). Large print on A4 (two 85 mm labels across: the 190 mm between the margins
/// less the crop marks' room, so the grid starts at (210 − 170) / 2 = 20 mm; a label's text
/// starts 19 mm into it and ends 2 mm before its right edge): a two-word name wraps at its
/// space, a long word is set smaller but never under 18 pt, both whole and inside their
/// label; a word too wide even at 18 pt is refused naming `board.stores` and the word.
#[test]
fn bowl_labels_never_break_a_word() {
    let ph = Phrases::load("en").unwrap();
    let sz = sowkit::layout::style::Sizes::new(true);
    let base = common::load_path(&common::bundled_path("six-pit-sowing"))
        .in_lang("en")
        .unwrap();
    for name in ["Northern storehouse", "Storehouses", "Granaries"] {
        let mut rs = base.clone();
        rs.board.stores[0] = name.to_string();
        let pages =
            layout::labels::pages(&rs, A4, &sz, &ph).unwrap_or_else(|e| panic!("{name}: {e}"));
        let bold: Vec<&Text> = pages
            .iter()
            .flat_map(|p| p.texts())
            .filter(|t| t.weight == sowkit::doc::Weight::Bold)
            .collect();
        // The name's lines: consecutive bold texts that join, at their spaces, into it.
        let words = name.split(' ').count();
        let found = (0..bold.len()).find_map(|i| {
            (1..=words).find_map(|k| {
                let run = bold.get(i..i + k)?;
                let joined = run
                    .iter()
                    .map(|t| t.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" ");
                (joined == name).then_some(run)
            })
        });
        let run = found.unwrap_or_else(|| {
            panic!(
                "{name:?} is not printed in whole words: {:?}",
                bold.iter().map(|t| &t.text).collect::<Vec<_>>()
            )
        });
        for t in run {
            assert!(
                t.size_pt >= 18.0,
                "{name:?}: {:?} at {} pt",
                t.text,
                t.size_pt
            );
            let col = ((t.x - 20.0) / 85.0).floor();
            let right = 20.0 + (col + 1.0) * 85.0 - 2.0;
            let end = t.x + text::width_mm(&t.text, t.size_pt, t.weight);
            assert!(
                end <= right + 0.01,
                "{name:?}: {:?} ends at {end:.1}, past {right:.1} mm",
                t.text
            );
        }
    }
    // 23 letters: over 80 mm at 18 pt bold, wider than any label.
    let mut rs = base.clone();
    rs.board.stores[0] = "Northernmoststorehouses".to_string();
    let e = layout::labels::pages(&rs, A4, &sz, &ph).unwrap_err();
    assert!(
        e.contains("board.stores")
            && e.contains("\"Northernmoststorehouses\"")
            && e.contains("18 pt"),
        "{e}"
    );
}

/// A store's bowl label says who sows into it, for each way the sowing fields can treat the
/// stores, in both languages. The expected lines are written out by hand from the Kalah 6×4
/// players (South owns the first store, single outline; North the second, double outline).
#[test]
fn a_store_label_says_who_sows_into_it_for_every_store_rule() {
    use sowkit::ruleset::Include::{Skip, Sow};
    let kalah = common::load_path(&common::bundled_path("kalah-6x4"));
    // (own_store, opponent_store, language, South store's line, North store's line)
    let cases = [
        (
            Sow,
            Skip,
            "en",
            "South sows into it, North skips it (single outline)",
            "North sows into it, South skips it (double outline)",
        ),
        (
            Sow,
            Sow,
            "en",
            "South's store; both players sow into it (single outline)",
            "North's store; both players sow into it (double outline)",
        ),
        (
            Skip,
            Sow,
            "en",
            "North sows into it, South skips it (single outline)",
            "South sows into it, North skips it (double outline)",
        ),
        (
            Skip,
            Skip,
            "en",
            "holds South's captured seeds (single outline)",
            "holds North's captured seeds (double outline)",
        ),
        (
            Sow,
            Sow,
            "es",
            "almacén de Sur; los dos siembran en él (borde sencillo)",
            "almacén de Norte; los dos siembran en él (borde doble)",
        ),
        (
            Skip,
            Sow,
            "es",
            "Norte siembra en él; Sur se lo salta (borde sencillo)",
            "Sur siembra en él; Norte se lo salta (borde doble)",
        ),
    ];
    for (own, opp, lang, south, north) in cases {
        let ph = Phrases::load(lang).unwrap();
        let mut rs = kalah.in_lang(lang).unwrap();
        rs.sowing.own_store = own;
        rs.sowing.opponent_store = opp;
        let sz = sowkit::layout::style::Sizes::new(false);
        let pages = layout::labels::pages(&rs, A4, &sz, &ph).unwrap();
        // The small regular lines under each label, joined at their line breaks.
        let text: String = pages
            .iter()
            .flat_map(|p| p.texts())
            .filter(|t| t.weight == sowkit::doc::Weight::Regular)
            .map(|t| t.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        for want in [south, north] {
            assert!(
                text.contains(want),
                "{own:?}/{opp:?} {lang}: no label line {want:?} in {text:?}"
            );
        }
    }
}
