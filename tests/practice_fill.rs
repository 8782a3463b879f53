//! The practice sheets waste no paper: over every bundled ruleset in English and Spanish, in
//! normal and large print, on A4 and Letter, the practice pages are no more than the fewest
//! that hold their exercises in order. Worked out here from the pages themselves: each
//! exercise is a block from the top of its heading ("Exercise 3") to the lowest ink above the
//! next heading, the page's room runs from the top margin to the content bottom above the
//! calibration bar, and the blocks are packed in order, each on the current page when it
//! fits there with 3 mm to spare (the flow's 2 mm gap, and 1 mm for measuring ink rather than
//! the flow's own model), else on a new page. Packing in order onto the current page when a
//! block fits is the fewest pages for blocks that keep their order.
use crate::common;

use sowkit::doc::{bounds, Item, Page, Weight};
use sowkit::layout::style::Sizes;
use sowkit::layout::{self, page, KitOptions, A4, LETTER};
use sowkit::text;

/// The ink top and bottom of `it`, mm from the page top (text from its ascent to its descent,
/// shapes with their stroke).
fn ink(it: &Item) -> Option<(f64, f64)> {
    match it {
        Item::Shape(s) => {
            let hw = s.stroke.as_ref().map_or(0.0, |st| st.width / 2.0);
            bounds(&s.segs).map(|b| (b.1 - hw, b.3 + hw))
        }
        Item::Text(t) => Some((
            t.y - text::ascent_mm(t.size_pt),
            t.y + text::descent_mm(t.size_pt),
        )),
        Item::Clip(c) => c
            .items
            .iter()
            .filter_map(ink)
            .reduce(|a, b| (a.0.min(b.0), a.1.max(b.1))),
    }
}

/// Exercise blocks of the practice `pages` as (page index, top, bottom) mm, and the lowest ink
/// above the content bottom of each page; `heading` tells an exercise heading's first line.
#[allow(clippy::type_complexity)]
fn blocks(
    pages: &[&Page],
    bottom: f64,
    sz: &Sizes,
    heading: &dyn Fn(&str) -> bool,
) -> (Vec<(usize, f64, f64)>, Vec<f64>) {
    let mut out = Vec::new();
    let mut lowest = Vec::new();
    for (k, pg) in pages.iter().enumerate() {
        let inks: Vec<(f64, f64)> = pg
            .items
            .iter()
            .filter_map(ink)
            .filter(|i| i.1 <= bottom + 0.01)
            .collect();
        lowest.push(inks.iter().map(|i| i.1).fold(page::MARGIN, f64::max));
        let mut tops: Vec<f64> = pg
            .texts()
            .filter(|t| t.weight == Weight::Bold && t.size_pt == sz.sub_head && heading(&t.text))
            .map(|t| t.y - text::ascent_mm(t.size_pt))
            .collect();
        tops.sort_by(f64::total_cmp);
        for (i, &top) in tops.iter().enumerate() {
            let next = tops.get(i + 1).copied().unwrap_or(f64::INFINITY);
            let low = inks
                .iter()
                .filter(|x| x.0 >= top - 0.01 && x.0 < next - 0.01)
                .map(|x| x.1)
                .fold(top, f64::max);
            out.push((k, top, low));
        }
    }
    (out, lowest)
}

#[test]
fn practice_sheets_take_no_more_pages_than_their_exercises_need() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for rs in common::bundled() {
        for lang in ["en", "es"] {
            for large in [false, true] {
                for paper in [A4, LETTER] {
                    let opts = KitOptions {
                        lang: Some(lang.into()),
                        large,
                        ..KitOptions::new(paper)
                    };
                    let sz = opts.sizes();
                    let (_, ph) = opts.localise(&rs).unwrap();
                    let word = ph.fmt("practice.number", &[("n", "")]);
                    let heading = |s: &str| {
                        s.strip_prefix(word.as_str())
                            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
                    };
                    let doc = layout::kit(&rs, &opts).unwrap();
                    let pages: Vec<&Page> = doc
                        .pages
                        .iter()
                        .filter(|p| p.name.starts_with("practice"))
                        .collect();
                    let bottom = page::content_bottom(paper.width, paper.height, &sz);
                    let (bl, lowest) = blocks(&pages, bottom, &sz, &heading);
                    assert!(bl.len() >= 4, "{} {lang}: {} exercises", rs.id, bl.len());
                    // Page 1 holds the title and the introduction above its first exercise.
                    let mut used = bl[0].1;
                    let mut need = 1;
                    for &(_, top, low) in &bl {
                        let h = low - top;
                        if used + 3.0 + h > bottom {
                            need += 1;
                            used = page::MARGIN + h;
                        } else {
                            used += 3.0 + h;
                        }
                    }
                    checked += 1;
                    if pages.len() > need {
                        let room = bottom - page::MARGIN;
                        let fills: Vec<String> = lowest
                            .iter()
                            .map(|l| format!("{:.0}%", 100.0 * (l - page::MARGIN) / room))
                            .collect();
                        failures.push(format!(
                            "{} {lang} {} {}: {} practice pages ({}), {need} hold its {} exercises",
                            rs.id,
                            if large { "large" } else { "normal" },
                            paper.name,
                            pages.len(),
                            fills.join(" "),
                            bl.len()
                        ));
                    }
                }
            }
        }
    }
    assert_eq!(checked, 5 * 2 * 2 * 2);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
