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
pub mod cut;
pub mod diagram;
pub mod fit;
pub mod howto;
pub mod labels;
pub mod log;
pub mod markers;
pub mod page;
pub mod phrases;
pub mod practice;
pub mod rules;
pub mod style;
pub mod tile;

use crate::doc::{Document, Page, Weight};
use crate::ruleset::Ruleset;
use crate::text;

pub use crate::paper::{Paper, A3, A4, LEGAL, LETTER, TABLOID};

/// How a kit is laid out: the choices a user makes on the command line (or a ruleset's
/// defaults). A plain struct: add fields as the kit grows.
#[derive(Clone, Debug, PartialEq)]
pub struct KitOptions {
    /// The paper every sheet is printed on.
    pub paper: Paper,
    /// Shrink the board onto one sheet (`--fit`) instead of tiling it at its true size; the
    /// board sheet then says how much smaller it is.
    pub fit: bool,
    /// Child-safe counters (`--child-safe`): at least
    /// [`crate::geometry::CHILD_SAFE_COUNTER`] mm across, pits grown to hold them, and the
    /// counters sheet carries the safety note.
    pub child_safe: bool,
    /// The language of every printed word (`en`, `es`: a catalogue in `templates/`);
    /// `None`: the ruleset's own `lang`.
    pub lang: Option<String>,
    /// The print style (`--style`): default, contrast or low-ink ([`style::Style`]).
    pub style: style::Style,
    /// The two sides also differ by colour (`--style colour`, [`style::SIDE_COLOURS`]), on top
    /// of their single and double rings and their letters.
    pub colour: bool,
    /// Large print (`--style large`): every sheet laid out with [`style::Sizes::LARGE`].
    pub large: bool,
    /// The names of the 3D-printable files written beside the kit (`--3d`: `board-1.stl`,
    /// its `.png` preview, …, `3d.txt`), which the how-to sheet names; empty without `--3d`.
    pub three_d_files: Vec<String>,
}

impl KitOptions {
    /// Options for `paper`: true size (tiled where needed), ordinary counters, the ruleset's
    /// own language.
    pub fn new(paper: Paper) -> KitOptions {
        KitOptions {
            paper,
            fit: false,
            child_safe: false,
            lang: None,
            style: style::Style::Default,
            colour: false,
            large: false,
            three_d_files: Vec::new(),
        }
    }

    /// The print style as `--style` names it, in one fixed order whatever order it was
    /// typed in: `large`, then the ink style (`contrast`, `low-ink`), then `colour`, joined
    /// by commas; `default` when none of them (as `manifest.txt` records it).
    pub fn style_names(&self) -> String {
        let mut names = Vec::new();
        if self.large {
            names.push("large");
        }
        if self.style != style::Style::Default {
            names.push(self.style.name());
        }
        if self.colour {
            names.push("colour");
        }
        if names.is_empty() {
            names.push("default");
        }
        names.join(",")
    }

    /// The type sizes every sheet is laid out with: [`style::Sizes::LARGE`] in large print.
    pub fn sizes(&self) -> style::Sizes {
        style::Sizes::new(self.large)
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
    /// A4, true size, ordinary counters.
    fn default() -> KitOptions {
        KitOptions::new(A4)
    }
}

/// Most pages in one document (the kit or its host key): a bound on work and paper.
pub const MAX_PAGES: usize = 60;

/// Lays out the whole kit for `rs` as `opts` say (paper, fit, counters, language, large
/// print: [`KitOptions::sizes`]), in print order: the
/// "How to make this kit" sheet, the board (one sheet, or tiles and their assembly map), the score
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
    let rs = &as_printed(&rs, opts);
    let paper = opts.paper;
    let sz = &opts.sizes();
    let (mut pages, scale) = board::pages_scaled(rs, opts, &ph)?;
    // A board shrunk by --fit gets counters its pits hold.
    let shrunk;
    let rs = if scale < 1.0 {
        let mut r = rs.clone();
        r.layout.counter_diameter =
            crate::geometry::BoardGeometry::scaled(rs, false, scale).counter_d;
        shrunk = r;
        &shrunk
    } else {
        rs
    };
    pages.push(log::page(rs, paper, sz, &ph));
    pages.push(log::continuation(rs, paper, sz, &ph));
    pages.extend(rules::pages(rs, paper, sz, &ph)?);
    pages.extend(practice::pages(rs, paper, sz, &ph)?);
    pages.extend(counters::pages(rs, paper, sz, &ph)?);
    pages.extend(labels::pages(rs, paper, sz, &ph)?);
    pages.extend(markers::pages(rs, paper, sz, &ph)?);
    // The how-to sheet opens the kit; it names the pages after it.
    let tiles = if pages[0].name == "board-map" {
        Some(board::plan_sized(rs, paper, sz, &ph)?)
    } else {
        None
    };
    let howto = howto::pages(
        rs,
        paper,
        sz,
        &ph,
        &pages,
        tiles.as_ref(),
        &opts.three_d_files,
    );
    pages.splice(0..0, howto);
    let mut doc = document(rs, paper, sz, &ph, "kit.title", pages)?;
    style::apply(&mut doc, opts.style, opts.colour);
    Ok(doc)
}

/// Lays out the host key for `rs` on `opts.paper`: a separate document (portrait pages `answers-1`,
/// …, with the calibration bar and footer) giving, for every practice exercise by the same
/// number, the before/after boards and the answer worded from the engine's report.
///
/// Errors: as [`kit`] for the phrases and the exercises.
pub fn host_key(rs: &Ruleset, opts: &KitOptions) -> Result<Document, String> {
    host_key_with(rs, opts, true)
}

/// [`host_key`], with the solver's best-play lines only when `hints` is set (the fuzz harness
/// leaves them out; see [`practice::key_pages_with`]).
pub(crate) fn host_key_with(
    rs: &Ruleset,
    opts: &KitOptions,
    hints: bool,
) -> Result<Document, String> {
    let (rs, ph) = opts.localise(rs)?;
    let rs = &as_printed(&rs, opts);
    let paper = opts.paper;
    let sz = &opts.sizes();
    let pages = practice::key_pages_with(rs, paper, sz, &ph, hints)?;
    let mut doc = document(rs, paper, sz, &ph, "key.doc_title", pages)?;
    style::apply(&mut doc, opts.style, opts.colour);
    Ok(doc)
}

/// The ruleset as the kit prints it: with `opts.child_safe`, `layout.child_safe` is set and the
/// counter, pit and store sizes grown to those of [`crate::geometry::BoardGeometry`] (counters
/// at least [`crate::geometry::CHILD_SAFE_COUNTER`] mm), so every sheet agrees on them.
pub fn as_printed(rs: &Ruleset, opts: &KitOptions) -> Ruleset {
    let mut rs = rs.clone();
    if opts.child_safe {
        let g = crate::geometry::BoardGeometry::new(&rs, true);
        rs.layout.child_safe = true;
        rs.layout.counter_diameter = g.counter_d;
        rs.layout.pit_diameter = g.d;
        rs.layout.store_length = g.store_h;
    }
    rs
}

/// A document of `pages` titled by the phrase `title_key`, with every page finished (bar,
/// footer, page numbers); errors if any phrase used was missing from the catalogue.
fn document(
    rs: &Ruleset,
    paper: Paper,
    sz: &style::Sizes,
    ph: &phrases::Phrases,
    title_key: &str,
    pages: Vec<crate::doc::Page>,
) -> Result<Document, String> {
    if pages.len() > MAX_PAGES {
        return Err(format!(
            "the kit would have {} pages in one document: at most {MAX_PAGES} are allowed (limit on pages); use fewer or shorter worked examples and notes",
            pages.len()
        ));
    }
    let mut doc = Document {
        title: ph.fmt(title_key, &[("name", &rs.name)]),
        pages,
    };
    page::finish(&mut doc, rs, paper, ph, sz);
    // Every finished sheet (bar and footer included) inside its paper, no texts on top of
    // each other.
    if let Some(e) = doc.pages.iter().find_map(fit::problem) {
        return Err(format!(
            "{e}: shorten the labels or notes, or use a larger paper"
        ));
    }
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

/// Draws a sheet's title `s` in bold at `sz.sheet_title` pt from the top-left margin, wrapped to
/// the page's width between the margins; returns the y below it (mm).
pub(crate) fn sheet_title(page: &mut Page, sz: &style::Sizes, s: &str) -> f64 {
    let w = page.width - 2.0 * page::MARGIN;
    let lines = title_lines(s, sz.sheet_title, w);
    set_lines(
        page,
        page::MARGIN,
        page::MARGIN,
        &lines,
        sz.sheet_title,
        Weight::Bold,
    )
}

/// The lines of a sheet title `s` in bold at `size_pt`, `max_mm` wide: as [`wrap`] breaks it,
/// except that a title that wraps anyway breaks before a parenthesis after its last colon
/// (the sheet's own part: "Giuthi: counters — 53 to cut" / "(48 for play, 5 spare)"), else
/// after its last colon (the ruleset's name, then the sheet's: "Kalah (six pits):" / "host
/// key — keep separate"), else before its last parenthesis, the first of these that takes no
/// more lines, each part broken the same way in turn (one level down: "Kalah (seis casas,
/// tres semillas):" / "fichas — 40 para recortar" / "(36 para jugar y 4 de repuesto)"). A
/// line never ends or starts at a dash: " — " binds the words either side of it
/// ([`dash_wrap`]).
pub(crate) fn title_lines(s: &str, size_pt: f64, max_mm: f64) -> Vec<String> {
    split_title(s, size_pt, max_mm, 0)
}

/// [`title_lines`] at nesting `depth` (0 for the whole title): a part of a part is only
/// wrapped, which bounds the work whatever the number of colons and parentheses.
fn split_title(s: &str, size_pt: f64, max_mm: f64, depth: usize) -> Vec<String> {
    let plain = dash_wrap(s, size_pt, max_mm);
    if plain.len() <= 1 || depth >= 2 {
        return plain;
    }
    let colon = s.rfind(": ");
    let at_colon = colon.map(|i| (&s[..i + 1], &s[i + 2..]));
    let paren = s.rfind(" (");
    let at_paren = paren.map(|i| (&s[..i], &s[i + 1..]));
    let sheet_paren = at_paren.filter(|_| matches!((colon, paren), (Some(c), Some(p)) if p > c));
    for (head, tail) in [sheet_paren, at_colon, at_paren].into_iter().flatten() {
        if head.trim().is_empty() || tail.trim().is_empty() {
            continue;
        }
        let mut lines = split_title(head, size_pt, max_mm, depth + 1);
        lines.extend(split_title(tail, size_pt, max_mm, depth + 1));
        if lines.len() <= plain.len() {
            return lines;
        }
    }
    plain
}

/// `s` wrapped in bold as [`wrap`] does, except that a line never ends or starts at a dash
/// (" — "): the dash stays on a line with the words either side of it ("counters — 53"), as
/// if joined by no-break spaces. Where the words so joined are wider than `max_mm` the dash
/// may end a line after all, rather than a word being broken.
fn dash_wrap(s: &str, size_pt: f64, max_mm: f64) -> Vec<String> {
    const DASH: &str = " \u{2014} ";
    const BOUND: &str = "\u{a0}\u{2014}\u{a0}";
    if !s.contains(DASH) || s.contains(BOUND) {
        return wrap(s, size_pt, Weight::Bold, max_mm);
    }
    let bound = s.replace(DASH, BOUND);
    let fits = bound
        .split(|c: char| c.is_whitespace() && c != text::NBSP)
        .all(|w| text::width_mm(w, size_pt, Weight::Bold) <= max_mm);
    if !fits {
        return wrap(s, size_pt, Weight::Bold, max_mm);
    }
    wrap(&bound, size_pt, Weight::Bold, max_mm)
        .into_iter()
        .map(|l| l.replace(BOUND, DASH))
        .collect()
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
