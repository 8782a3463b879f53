//! What every page shares: the margin, the calibration bar and the footer.
//!
//! Every page keeps all ink at least [`MARGIN`] mm from the edge (printers cannot print the
//! outer ~5 mm, and ink there makes viewers shrink to fit; research print-and-play §5.2). The
//! bottom band holds a solid black bar exactly [`BAR_LENGTH`] × [`BAR_HEIGHT`] mm labelled
//! "100 mm" (measure it to check the print was at 100%) and a footer line; sheet content stays
//! above [`content_bottom`].
use super::phrases::Phrases;
use super::style::Sizes;
use super::Paper;
use crate::doc::{rect, Color, Document, Page, Weight};
use crate::ruleset::Ruleset;
use crate::text;

/// Safe margin on every side, mm: no ink closer to the page edge.
pub const MARGIN: f64 = 10.0;
/// Calibration bar length, mm.
pub const BAR_LENGTH: f64 = 100.0;
/// Calibration bar height, mm.
pub const BAR_HEIGHT: f64 = 3.0;
/// Clear space kept around the calibration bar, mm (its own label sits further away).
pub const BAR_CLEAR: f64 = 2.0;
/// Footer baseline distance above the bottom page edge, mm.
const FOOTER_BASE: f64 = 11.0;
/// Large print: the last footer line's baseline above the bottom page edge, mm (its descent
/// then ends just inside the margin).
const LARGE_FOOTER_BASE: f64 = 11.2;
/// Large print: most footer lines (the kit name and print check wrap onto them).
const LARGE_FOOTER_LINES: usize = 2;
/// Top of the calibration bar above the bottom page edge, mm.
const BAR_TOP: f64 = 20.0;
/// Large print: top of the calibration bar above the bottom page edge, mm, above two footer
/// lines of [`Sizes::LARGE`] footer type with [`BAR_CLEAR`] and more to spare.
const LARGE_BAR_TOP: f64 = 29.0;

/// Top of the calibration bar above the bottom page edge for sizes `sz`, mm.
fn bar_top(sz: &Sizes) -> f64 {
    if sz.large {
        LARGE_BAR_TOP
    } else {
        BAR_TOP
    }
}

/// A portrait page of `paper`.
pub fn portrait(name: &str, paper: Paper) -> Page {
    Page::new(name, paper.width, paper.height)
}

/// A landscape page of `paper` (width and height swapped).
pub fn landscape(name: &str, paper: Paper) -> Page {
    Page::new(name, paper.height, paper.width)
}

/// Room beside the calibration bar for its label, in ems of the label's type: "100 mm" is
/// 4.52 em wide in DejaVu Sans Bold; every catalogue's label must fit 5 em (a test checks).
pub const BAR_LABEL_ROOM_EM: f64 = 5.0;

/// Whether the calibration bar's label stands beside the bar on a page `w` mm wide with sizes
/// `sz` (one clear gap plus 1 mm to its right, [`BAR_LABEL_ROOM_EM`] ems, inside the right
/// margin); else it stands above the bar's left end ([`bar_label_at`]), as large print's 18 pt
/// label must on paper under about 150 mm wide (a 140 mm wide paper was refused: the label
/// ran past the margin).
pub fn label_beside(w: f64, sz: &Sizes) -> bool {
    let em = sz.bar_label * 25.4 / 72.0;
    MARGIN + BAR_LENGTH + BAR_CLEAR + 1.0 + BAR_LABEL_ROOM_EM * em <= w - MARGIN + 1e-9
}

/// Where the calibration bar's label starts on a page `w` × `h` mm with sizes `sz`: (x,
/// baseline), mm. Beside the bar, bottom-aligned with it; or above its left end, [`BAR_CLEAR`]
/// clear of it ([`label_beside`]).
pub fn bar_label_at(w: f64, h: f64, sz: &Sizes) -> (f64, f64) {
    let (bx, by, bw, bh) = bar_rect(h, sz);
    if label_beside(w, sz) {
        (bx + bw + BAR_CLEAR + 1.0, by + bh)
    } else {
        (bx, by - BAR_CLEAR - text::descent_mm(sz.bar_label))
    }
}

/// Lowest y (mm from the top) sheet content may reach on a page `w` × `h` mm with sizes `sz`:
/// clear of the calibration bar by [`BAR_CLEAR`] (large print keeps a taller band for its
/// larger bar label and its two-line footer), and of the bar's label where it stands above the
/// bar ([`label_beside`]).
pub fn content_bottom(w: f64, h: f64, sz: &Sizes) -> f64 {
    if !label_beside(w, sz) {
        let (_, base) = bar_label_at(w, h, sz);
        return base - text::ascent_mm(sz.bar_label) - 0.5;
    }
    // The bar's label stands on the bar's foot: large print's 18 pt label rises 3.6 mm above
    // the bar's top, past the clear space, so content also stays 0.5 mm above the label's top.
    let label_rise = text::ascent_mm(sz.bar_label) - BAR_HEIGHT;
    h - bar_top(sz) - BAR_CLEAR.max(label_rise) - 0.5
}

/// The calibration bar's rectangle on a page of height `h` with sizes `sz`: (x, y, width,
/// height), mm.
pub fn bar_rect(h: f64, sz: &Sizes) -> (f64, f64, f64, f64) {
    (MARGIN, h - bar_top(sz), BAR_LENGTH, BAR_HEIGHT)
}

/// Adds the calibration bar and the footer to every page of `doc` ("page n of N"), in the
/// type sizes `sz`. The kit name and print check fill one footer line beside the page
/// number (in large print, where they do not fit one line, the name beside the page number
/// and the check on the line under it); the print check is always printed whole, and a name
/// too long for the rest is shortened ([`footer_lines`]).
pub fn finish(doc: &mut Document, rs: &Ruleset, paper: Paper, ph: &Phrases, sz: &Sizes) {
    let n = doc.pages.len();
    let fpt = sz.footer;
    for (i, page) in doc.pages.iter_mut().enumerate() {
        let (w, h) = (page.width, page.height);
        let (bx, by, bw, bh) = bar_rect(h, sz);
        page.shape(rect(bx, by, bw, bh), Some(Color::BLACK), None);
        // Label beside the bar, bottom-aligned with it, one clear gap plus 1 mm away; on a
        // page too narrow for that, above the bar's left end.
        let label = ph.get("page.bar_label");
        let (lx, lbase) = bar_label_at(w, h, sz);
        page.text(lx, lbase, sz.bar_label, Weight::Bold, &label);
        let args = [
            ("n", (i + 1).to_string()),
            ("total", n.to_string()),
            ("paper", ph.paper(&paper.name)),
        ];
        let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
        // The first line shares the baseline with the page number; the rest (large print)
        // run across the width between the margins.
        let across = w - 2.0 * MARGIN;
        let most = if sz.large { LARGE_FOOTER_LINES } else { 1 };
        // On a narrow page the shorter print check, then the page number without the paper
        // ([`FOOTER_FORMS`]): every form is tried with its check whole on a line before any
        // form with the check broken between words, and the last form wraps its check if
        // even that does not fit.
        let mut chosen = None;
        'forms: for wrap in [false, true] {
            for (k, (page_key, check_key)) in FOOTER_FORMS.iter().enumerate() {
                let right = ph.fmt(page_key, &args);
                let rw = text::width_mm(&right, fpt, Weight::Regular);
                let beside = w - 2.0 * MARGIN - rw - 4.0;
                let check = ph.get(check_key);
                let set = fit_footer(&rs.name, ph, &check, fpt, beside, across, most, wrap);
                let last = wrap && k + 1 == FOOTER_FORMS.len();
                if set.is_some() || last {
                    let set =
                        set.unwrap_or_else(|| text::wrap(&check, fpt, Weight::Regular, across));
                    chosen = Some((set, right, rw));
                    break 'forms;
                }
            }
        }
        let Some((set, right, rw)) = chosen else {
            continue;
        };
        let base = if sz.large {
            h - LARGE_FOOTER_BASE
        } else {
            h - FOOTER_BASE
        };
        let lh = text::line_height_mm(fpt);
        let top = base - (set.len().max(1) - 1) as f64 * lh;
        for (j, l) in set.iter().enumerate() {
            page.text(MARGIN, top + j as f64 * lh, fpt, Weight::Regular, l);
        }
        page.text(w - MARGIN - rw, top, fpt, Weight::Regular, &right);
    }
}

/// The footer's lines (at most `most`; the first `beside` mm wide, beside the page number,
/// the others `across` mm) for a kit named `name` at `fpt` pt: "name · print check". The print
/// check (the bar measures 100 mm) is always kept whole: when the footer does not fit, the
/// name is shortened, by whole words and then by letters, and ends in "…"; on a page too
/// narrow for even that, the print check alone.
pub fn footer_lines(
    name: &str,
    ph: &Phrases,
    fpt: f64,
    beside: f64,
    across: f64,
    most: usize,
) -> Vec<String> {
    let check = ph.get("page.print_check");
    fit_footer(name, ph, &check, fpt, beside, across, most, false)
        .or_else(|| fit_footer(name, ph, &check, fpt, beside, across, most, true))
        .unwrap_or_else(|| text::wrap(&check, fpt, Weight::Regular, across))
}

/// The footer's forms, longest first, as message keys: (page number, print check). A page
/// too narrow for one takes the next: the full print check beside "page 1 of 18 · A4", the
/// short print check beside it, the short check beside "p. 1/18".
pub const FOOTER_FORMS: [(&str, &str); 3] = [
    ("page.page_of", "page.print_check"),
    ("page.page_of", "page.print_check_short"),
    ("page.page_short", "page.print_check_short"),
];

/// [`footer_lines`] with the print check `check`: `None` when not even the check alone fits
/// `most` lines. Each name, from the whole name to shorter ones, is tried on one line; where
/// more lines are allowed (large print), then with the name beside the page number and the
/// check whole on the line under it, and only then (with `wrap`) wrapped word by word.
/// Without `wrap` the check is never broken inside ("… check the bar" / "measures 100 mm"):
/// the caller tries every shorter form that way first.
#[allow(clippy::too_many_arguments)]
fn fit_footer(
    name: &str,
    ph: &Phrases,
    check: &str,
    fpt: f64,
    beside: f64,
    across: f64,
    most: usize,
    wrap: bool,
) -> Option<Vec<String>> {
    let with = |name: &str| ph.fmt("page.footer", &[("name", name), ("check", check)]);
    let one_line = |s: &str, max: f64| lay_footer(s, fpt, max, max, 1);
    let fits = |name: &str| {
        if let Some(lines) = one_line(&with(name), beside) {
            return Some(lines);
        }
        if most >= 2 {
            if let (Some(mut a), Some(b)) = (one_line(name, beside), one_line(check, across)) {
                a.extend(b);
                return Some(a);
            }
        }
        if wrap {
            lay_footer(&with(name), fpt, beside, across, most)
        } else {
            None
        }
    };
    if let Some(lines) = fits(name) {
        return Some(lines);
    }
    // Shorter and shorter names: first by words, then (one long word) by letters.
    let words: Vec<&str> = name.split_whitespace().collect();
    for k in (1..words.len()).rev() {
        let short = format!("{}…", words[..k].join(" "));
        if let Some(lines) = fits(&short) {
            return Some(lines);
        }
    }
    let first: Vec<char> = words.first().copied().unwrap_or("").chars().collect();
    for k in (1..first.len()).rev() {
        let short = format!("{}…", first[..k].iter().collect::<String>());
        if let Some(lines) = fits(&short) {
            return Some(lines);
        }
    }
    lay_footer(check, fpt, beside, across, if wrap { most } else { 1 })
}

/// `s` set as footer lines, the first `beside` mm wide and the rest `across`, broken only
/// between words (a no-break space, [`text::NBSP`], joins its two words); `None` when it
/// takes more than `most` lines or a word does not fit.
fn lay_footer(s: &str, fpt: f64, beside: f64, across: f64, most: usize) -> Option<Vec<String>> {
    let fits_word = |w: &str, max: f64| text::width_mm(w, fpt, Weight::Regular) <= max;
    let mut lines = Vec::new();
    let mut rest: Vec<&str> = s
        .split(|c: char| c.is_whitespace() && c != text::NBSP)
        .filter(|w| !w.is_empty())
        .collect();
    while !rest.is_empty() {
        let max = if lines.is_empty() { beside } else { across };
        if lines.len() == most || !fits_word(rest[0], max) {
            return None;
        }
        let mut k = 1;
        while k < rest.len() && fits_word(&rest[..=k].join(" "), max) {
            k += 1;
        }
        lines.push(rest[..k].join(" "));
        rest.drain(..k);
    }
    Some(lines)
}

/// Width of a cut line, mm: thin solid black (K only), as crop marks are printed (research
/// print-and-play §5.3).
pub const CUT_W: f64 = 0.2;
/// How far a shared cut line runs past the grid it cuts, mm, where there is room.
pub const CUT_RUN: f64 = 4.0;

/// Draws the shared cut lines of a grid of `cols` × `rows` cells of `cw` × `ch` mm whose
/// top-left is (`x0`, `y0`): one line per grid line, never a box around each part (research
/// print-and-play §5.3). Horizontal lines run out to the left and right margins; vertical lines
/// run from `top` to `bottom` (the free space above and below the grid).
#[allow(clippy::too_many_arguments)]
pub fn cut_grid(
    page: &mut Page,
    x0: f64,
    y0: f64,
    cw: f64,
    ch: f64,
    cols: usize,
    rows: usize,
    top: f64,
    bottom: f64,
) {
    let stroke = crate::doc::Stroke::solid(CUT_W, Color::BLACK);
    let (l, r) = (MARGIN + CUT_W, page.width - MARGIN - CUT_W);
    for i in 0..=rows {
        let y = y0 + i as f64 * ch;
        page.shape(
            crate::doc::line(crate::doc::pt(l, y), crate::doc::pt(r, y)),
            None,
            Some(stroke.clone()),
        );
    }
    for j in 0..=cols {
        let x = x0 + j as f64 * cw;
        page.shape(
            crate::doc::line(crate::doc::pt(x, top), crate::doc::pt(x, bottom)),
            None,
            Some(stroke.clone()),
        );
    }
}
