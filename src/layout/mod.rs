//! Layout: turns a ruleset (and what the engine says about its worked examples) into pages,
//! in millimetres. Knows nothing of PDF or SVG syntax.
//!
//! One module per sheet: [`board`] (the board at 100% with its labeled sowing circuit),
//! [`log`] (the score log), [`rules`] (the rule sheets, with [`diagram`] drawing the worked
//! examples), [`practice`] (practice exercises, and their answers for the separate host key),
//! [`counters`] (paper seeds to cut out) and [`labels`] (labels for real bowls, with the
//! circuit spelled out). [`page`] owns what every page shares: margins, the calibration bar and the footer.
//! The words come from a phrase catalogue, `templates/<lang>.toml`, so a new language is a new
//! file ([`phrases`]).

pub mod board;
pub mod counters;
pub mod diagram;
pub mod labels;
pub mod log;
pub mod page;
pub mod phrases;
pub mod practice;
pub mod rules;

use crate::doc::{Document, Page, Weight};
use crate::ruleset::Ruleset;
use crate::text;

/// A paper size, millimetres, portrait orientation (width < height).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paper {
    /// Name shown in messages and footers (`A4`, `Letter`).
    pub name: &'static str,
    /// Portrait width, mm.
    pub width: f64,
    /// Portrait height, mm.
    pub height: f64,
}

/// ISO A4, 210 × 297 mm (595.276 × 841.890 pt).
pub const A4: Paper = Paper {
    name: "A4",
    width: 210.0,
    height: 297.0,
};
/// US Letter, 8.5 × 11 in = 215.9 × 279.4 mm (612 × 792 pt).
pub const LETTER: Paper = Paper {
    name: "Letter",
    width: 215.9,
    height: 279.4,
};

/// How to make a kit: the paper, and the language of every printed word.
#[derive(Clone, Debug, PartialEq)]
pub struct KitOptions {
    /// The paper every page is laid out on.
    pub paper: Paper,
    /// Shrink a board that does not fit the paper (board sizing; off: it is an error).
    pub fit: bool,
    /// Ask for counters safe for small children (counter sizing).
    pub child_safe: bool,
    /// The language of the kit (`en`, `es`); `None`: the ruleset's own `lang`.
    pub lang: Option<String>,
}

impl KitOptions {
    /// Options for `paper`, in the ruleset's own language, nothing else asked.
    pub fn new(paper: Paper) -> KitOptions {
        KitOptions {
            paper,
            fit: false,
            child_safe: false,
            lang: None,
        }
    }

    /// The ruleset `rs` in the language these options ask for (see [`Ruleset::in_lang`]),
    /// and that language's message catalogue.
    /// Errors: the ruleset has no text in that language, or there is no catalogue for it.
    pub fn localise(&self, rs: &Ruleset) -> Result<(Ruleset, phrases::Phrases), String> {
        let lang = self.lang.as_deref().unwrap_or(&rs.lang);
        let ph = phrases::Phrases::load(lang)?;
        Ok((rs.in_lang(lang)?, ph))
    }
}

impl Default for KitOptions {
    /// A4, the ruleset's own language.
    fn default() -> KitOptions {
        KitOptions::new(A4)
    }
}

/// Lays out the whole kit for `rs` as `opts` ask (paper, language), in print order: the board (landscape), the score
/// log, the rule sheets, the practice exercises, the counters and the bowl labels (portrait),
/// each page with the calibration bar and footer. The ruleset's worked examples must already
/// have been checked (see [`crate::examples`]); layout replays them for the diagrams. The
/// answers to the practice exercises are not in it: see [`host_key`].
///
/// Errors: no message catalogue for the language or no ruleset text in it, a message missing, a worked example or
/// exercise the engine cannot replay (a message naming it), or counters or labels that do not
/// fit the paper.
pub fn kit(rs: &Ruleset, opts: &KitOptions) -> Result<Document, String> {
    let (rs, ph) = opts.localise(rs)?;
    let (rs, paper) = (&rs, opts.paper);
    let mut pages = vec![board::page(rs, paper, &ph)?, log::page(rs, paper, &ph)];
    pages.extend(rules::pages(rs, paper, &ph)?);
    pages.extend(practice::pages(rs, paper, &ph)?);
    pages.extend(counters::pages(rs, paper, &ph)?);
    pages.extend(labels::pages(rs, paper, &ph)?);
    document(rs, paper, &ph, "kit.title", pages)
}

/// Lays out the host key for `rs` on `paper`: a separate document (portrait pages `answers-1`,
/// …, with the calibration bar and footer) giving, for every practice exercise by the same
/// number, the before/after boards and the answer worded from the engine's report.
///
/// Errors: as [`kit`] for the phrases and the exercises.
pub fn host_key(rs: &Ruleset, opts: &KitOptions) -> Result<Document, String> {
    let (rs, ph) = opts.localise(rs)?;
    let (rs, paper) = (&rs, opts.paper);
    let pages = practice::key_pages(rs, paper, &ph)?;
    document(rs, paper, &ph, "key.doc_title", pages)
}

/// A document of `pages` titled by the phrase `title_key`, with every page finished (bar,
/// footer, page numbers); errors if any phrase used was missing from the catalogue.
fn document(
    rs: &Ruleset,
    paper: Paper,
    ph: &phrases::Phrases,
    title_key: &str,
    pages: Vec<crate::doc::Page>,
) -> Result<Document, String> {
    let mut doc = Document {
        title: ph.fmt(title_key, &[("name", &rs.name)]),
        pages,
    };
    page::finish(&mut doc, rs, paper, ph);
    ph.check()?;
    Ok(doc)
}

/// Lines of one paragraph set by [`Flow`]: wrapped at real font metrics.
pub(crate) fn wrap(s: &str, size_pt: f64, weight: Weight, max_mm: f64) -> Vec<String> {
    if s.is_empty() {
        return Vec::new();
    }
    text::wrap(s, size_pt, weight, max_mm.max(1.0))
}

/// Draws `s` wrapped to `max_mm` with the first line's top at `top`; returns the y below the
/// last line (top + lines × line height).
pub(crate) fn para(
    page: &mut Page,
    x: f64,
    top: f64,
    size_pt: f64,
    weight: Weight,
    max_mm: f64,
    s: &str,
) -> f64 {
    set_lines(
        page,
        x,
        top,
        &wrap(s, size_pt, weight, max_mm),
        size_pt,
        weight,
    )
}

/// Sets `lines` top-down from `top`, left ends at `x`, one line height apart; returns the y
/// below the last line (mm).
pub(crate) fn set_lines(
    page: &mut Page,
    x: f64,
    top: f64,
    lines: &[String],
    size_pt: f64,
    weight: Weight,
) -> f64 {
    set_each(lines, top, size_pt, |l, base| {
        page.text(x, base, size_pt, weight, l)
    })
}

/// Sets `lines` top-down from `top`, each centred on `cx`; returns the y below the last line.
pub(crate) fn set_lines_centred(
    page: &mut Page,
    cx: f64,
    top: f64,
    lines: &[String],
    size_pt: f64,
    weight: Weight,
) -> f64 {
    set_each(lines, top, size_pt, |l, base| {
        centred(page, cx, base, size_pt, weight, l)
    })
}

/// Calls `put(line, baseline)` for each line, one line height apart from `top`; returns the y
/// below the last line.
fn set_each(lines: &[String], top: f64, size_pt: f64, mut put: impl FnMut(&str, f64)) -> f64 {
    let lh = text::line_height_mm(size_pt);
    let mut y = top;
    for line in lines {
        put(line, y + text::ascent_mm(size_pt));
        y += lh;
    }
    y
}

/// Draws one line of text centred on `cx` with its baseline at `y`.
pub(crate) fn centred(page: &mut Page, cx: f64, y: f64, size_pt: f64, weight: Weight, s: &str) {
    let w = text::width_mm(s, size_pt, weight);
    page.text(cx - w / 2.0, y, size_pt, weight, s);
}

/// Draws one line of text centred on (`cx`, `cy`): the box from ascent to descent is centred.
pub(crate) fn centred_mid(
    page: &mut Page,
    cx: f64,
    cy: f64,
    size_pt: f64,
    weight: Weight,
    s: &str,
) {
    let base = cy + (text::ascent_mm(size_pt) - text::descent_mm(size_pt)) / 2.0;
    centred(page, cx, base, size_pt, weight, s);
}

/// The largest size from `start_pt` down to `min_pt` (in half-point steps) at which every word
/// of `text` fits `width` mm, so wrapping never has to break inside a word; `min_pt` if none.
pub(crate) fn size_for_words(
    text: &str,
    start_pt: f64,
    min_pt: f64,
    weight: Weight,
    width: f64,
) -> f64 {
    let mut pt = start_pt;
    while pt > min_pt
        && text
            .split_whitespace()
            .any(|w| text::width_mm(w, pt, weight) > width)
    {
        pt -= 0.5;
    }
    pt.max(min_pt)
}
