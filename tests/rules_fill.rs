//! The rule sheets leave no thin page: over every bundled ruleset in English and Spanish, in
//! normal and large print, on every bundled paper, each rule-sheet page after the first is at
//! least 30 % full wherever one of the layouts the sheet chooses from has no thinner page.
//! A page's fill is measured on the page itself: the lowest ink set on it (text to its
//! descent, shapes to their stroke), below the top margin, over the content height above the
//! bottom band.
use crate::common;

use sowkit::doc::{bounds, Item, Page};
use sowkit::layout::style::Sizes;
use sowkit::layout::{self, page, rules, KitOptions, Paper, A3, A4, LEGAL, LETTER, TABLOID};
use sowkit::text;

/// The lowest ink of `items`, mm from the page top.
fn ink_bottom(items: &[Item]) -> Option<f64> {
    items
        .iter()
        .filter_map(|it| match it {
            Item::Shape(s) => {
                let hw = s.stroke.as_ref().map_or(0.0, |st| st.width / 2.0);
                bounds(&s.segs).map(|b| b.3 + hw)
            }
            Item::Text(t) => Some(t.y + text::descent_mm(t.size_pt)),
            Item::Clip(c) => ink_bottom(&c.items).map(|b| b.min(c.y + c.h)),
        })
        .reduce(f64::max)
}

/// How full `p` is: its lowest ink below the top margin over the content height, 0 to 1.
fn fill(p: &Page, paper: Paper, sz: &Sizes) -> f64 {
    let bottom = page::content_bottom(paper.width, paper.height, sz);
    let ink = ink_bottom(&p.items).unwrap_or(page::MARGIN);
    (ink - page::MARGIN) / (bottom - page::MARGIN)
}

/// Whether any page of `pages` after the first is under 30 % full.
fn has_thin_page(pages: &[Page], paper: Paper, sz: &Sizes) -> bool {
    pages.iter().skip(1).any(|p| fill(p, paper, sz) < 0.30)
}

/// `rs` as a kit in `lang` (large print or not) on `paper` prints it: the ruleset in that
/// language, its phrases and the type sizes.
fn printed(
    rs: &sowkit::ruleset::Ruleset,
    lang: &str,
    large: bool,
    paper: Paper,
) -> (
    sowkit::ruleset::Ruleset,
    sowkit::layout::phrases::Phrases,
    Sizes,
) {
    let opts = KitOptions {
        lang: Some(lang.into()),
        large,
        ..KitOptions::new(paper)
    };
    let (lrs, ph) = opts.localise(rs).unwrap();
    (layout::as_printed(&lrs, &opts), ph, opts.sizes())
}

#[test]
fn no_thin_rule_sheet_page_where_a_layout_without_one_exists() {
    let papers = [
        ("A4", A4),
        ("Letter", LETTER),
        ("A3", A3),
        ("Tabloid", TABLOID),
        ("Legal", LEGAL),
    ];
    let mut failures = Vec::new();
    let mut checked = 0;
    for rs in common::bundled() {
        for lang in ["en", "es"] {
            for large in [false, true] {
                for (pname, paper) in papers {
                    let (lrs, ph, sz) = printed(&rs, lang, large, paper);
                    let chosen = rules::pages(&lrs, paper, &sz, &ph).unwrap();
                    let all = rules::layouts(&lrs, paper, &sz, &ph).unwrap();
                    let possible = all.iter().any(|(p, _)| !has_thin_page(p, paper, &sz));
                    checked += 1;
                    if possible && has_thin_page(&chosen, paper, &sz) {
                        let fills: Vec<String> = chosen
                            .iter()
                            .map(|p| format!("{:.0}%", 100.0 * fill(p, paper, &sz)))
                            .collect();
                        failures.push(format!(
                            "{} {lang} {} {pname}: {}",
                            rs.id,
                            if large { "large" } else { "normal" },
                            fills.join(" ")
                        ));
                    }
                }
            }
        }
    }
    assert_eq!(checked, 5 * 2 * 2 * 5);
    assert!(
        failures.is_empty(),
        "thin rule-sheet pages:\n{}",
        failures.join("\n")
    );
}

/// The sources are one block: their heading and every credit on one page.
#[test]
fn the_sources_are_never_split_over_a_page_break() {
    for rs in common::bundled() {
        for lang in ["en", "es"] {
            for large in [false, true] {
                for paper in [A4, LETTER, A3] {
                    let (lrs, ph, sz) = printed(&rs, lang, large, paper);
                    let pages = rules::pages(&lrs, paper, &sz, &ph).unwrap();
                    let head = ph.get("rules.h.sources");
                    let on: Vec<usize> = pages
                        .iter()
                        .enumerate()
                        .filter(|(_, p)| {
                            p.items
                                .iter()
                                .any(|it| matches!(it, Item::Text(t) if t.text == head))
                        })
                        .map(|(i, _)| i)
                        .collect();
                    assert_eq!(on.len(), 1, "{} {lang}: sources heading on {on:?}", rs.id);
                    // Every page after the sources' page that has text is still rules (the
                    // credit's last words are on the heading's page): the source name is set
                    // on the heading's page.
                    let src_words = lrs.source.split_whitespace().next().unwrap_or("");
                    assert!(
                        pages[on[0]]
                            .items
                            .iter()
                            .any(|it| matches!(it, Item::Text(t) if t.text.contains(src_words))),
                        "{} {lang}: the source credit is not on the sources heading's page",
                        rs.id
                    );
                }
            }
        }
    }
}

/// No rule sheet takes a page more than its text needs: of the layouts the sheet chooses
/// from, with the mini boards' pits as large print or normal print has them and at their
/// smallest ([`Sizes::mini_pit`]), none without a thin page is shorter than the one chosen.
/// With 9 pt sowing-order numbers Spanish Kalah 6×3 on A4 took 5 pages, the second 54 % full,
/// where English takes 4: a worked example a millimetre too tall sent on alone.
#[test]
fn rule_sheets_take_the_fewest_pages_of_the_layouts_they_choose_from() {
    let mut failures = Vec::new();
    for rs in common::bundled() {
        for lang in ["en", "es"] {
            for large in [false, true] {
                for (pname, paper) in [("A4", A4), ("Letter", LETTER)] {
                    let (lrs, ph, sz) = printed(&rs, lang, large, paper);
                    let chosen = rules::pages(&lrs, paper, &sz, &ph).unwrap();
                    let smallest = Sizes {
                        mini_pit: (sz.mini_pit.0, sz.mini_pit.0),
                        ..sz
                    };
                    let fewest = rules::layouts(&lrs, paper, &sz, &ph)
                        .unwrap()
                        .into_iter()
                        .chain(rules::layouts(&lrs, paper, &smallest, &ph).unwrap())
                        .filter(|(p, _)| !has_thin_page(p, paper, &sz))
                        .map(|(p, _)| p.len())
                        .min();
                    if fewest.is_some_and(|n| n < chosen.len()) {
                        failures.push(format!(
                            "{} {lang} {} {pname}: {} rule pages where a layout takes {}",
                            rs.id,
                            if large { "large" } else { "normal" },
                            chosen.len(),
                            fewest.unwrap()
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let rs = common::load_path(&common::bundled_path("kalah-6x3"));
    let count = |lang: &str| {
        let (lrs, ph, sz) = printed(&rs, lang, false, A4);
        rules::pages(&lrs, A4, &sz, &ph).unwrap().len()
    };
    assert_eq!((count("en"), count("es")), (4, 4));
}

/// Where no layout the sheet chooses from leaves every page after the first 30 % full, the
/// sheet keeps a heading on a page it would leave half empty, or breaks the page earlier, so
/// that no page is thin, and takes no more pages than the fewest of those layouts. Two new
/// users' variants (a helper's): a rules text a few lines over one page left the sources alone
/// on the second, 10 % full; a relay variant in Spanish large print on Letter set the worked
/// examples' introduction alone on a page, 20 % full (22 pages, now 21).
#[test]
fn no_thin_rule_sheet_page_even_where_no_layout_avoids_one() {
    let fixture = |name: &str| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name);
        common::load_path(&path)
    };
    for (rs, lang, large, paper) in [
        (fixture("thin-last-page.toml"), "en", false, A4),
        (fixture("intro-alone.toml"), "es", true, LETTER),
    ] {
        let (lrs, ph, sz) = printed(&rs, lang, large, paper);
        let all = rules::layouts(&lrs, paper, &sz, &ph).unwrap();
        // The case itself: every layout has a thin page.
        assert!(
            all.iter().all(|(p, _)| has_thin_page(p, paper, &sz)),
            "{}",
            rs.id
        );
        let fewest = all.iter().map(|(p, _)| p.len()).min().unwrap();
        let chosen = rules::pages(&lrs, paper, &sz, &ph).unwrap();
        let fills: Vec<String> = chosen
            .iter()
            .map(|p| format!("{:.0}%", 100.0 * fill(p, paper, &sz)))
            .collect();
        assert!(
            !has_thin_page(&chosen, paper, &sz),
            "{}: {}",
            rs.id,
            fills.join(" ")
        );
        assert!(
            chosen.len() <= fewest,
            "{}: {} pages, a layout takes {fewest}",
            rs.id,
            chosen.len()
        );
    }
}

/// A store on a worked example's board shows every sowing-order number it has room for, in
/// rows under its count: in the relay variant's first example (5 pits of 3 seeds, relay
/// sowing from S2, worked by the engine: 27 seeds dropped, the 5th, 16th and 27th into South's
/// store on three laps) the store held "5 …" on one row and hid 16 and 27 (a new user's
/// finding), where its height holds two rows of boxes.
#[test]
fn a_store_shows_its_sowing_order_numbers_in_rows() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/intro-alone.toml");
    let rs = common::load_path(&path);
    let doc = layout::kit(&rs, &KitOptions::new(A4)).unwrap();
    let texts = |p: &Page| -> Vec<String> {
        p.items
            .iter()
            .filter_map(|it| match it {
                Item::Text(t) => Some(t.text.clone()),
                _ => None,
            })
            .collect()
    };
    let page = doc
        .pages
        .iter()
        .find(|p| texts(p).iter().any(|t| t == "Relay: a chain of handfuls"))
        .expect("the relay example's page");
    let t = texts(page);
    for n in ["5", "16", "27"] {
        assert!(t.iter().any(|s| s == n), "{n} missing: {t:?}");
    }
    assert!(!t.iter().any(|s| s == "…"), "{t:?}");
}

/// A store whose sowing-order numbers run past its rows ends its last row with "…" and the
/// store's last number, where the last seed fell (a helper's: the store showed "… " and hid
/// it). The fixture's move lifts 20, 24, 4, 8 and 2 seeds (its caption), so 58 are dropped,
/// the last into North store, which the expected `last` says too.
#[test]
fn a_store_that_runs_out_of_rows_keeps_its_last_number() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/relay-many-laps.toml");
    let rs = common::load_path(&path);
    let doc = layout::kit(&rs, &KitOptions::new(A4)).unwrap();
    let page = doc
        .pages
        .iter()
        .find(|p| {
            p.items
                .iter()
                .any(|it| matches!(it, Item::Text(t) if t.text == "Many laps"))
        })
        .expect("the example's page");
    let texts: Vec<&sowkit::doc::Text> = page
        .items
        .iter()
        .filter_map(|it| match it {
            Item::Text(t) => Some(t),
            _ => None,
        })
        .collect();
    let last = texts.iter().find(|t| t.text == "58").expect("58 shown");
    // Right of an ellipsis on its own line.
    assert!(
        texts
            .iter()
            .any(|t| t.text == "…" && (t.y - last.y).abs() < 0.5 && t.x < last.x),
        "no … before 58"
    );
}
